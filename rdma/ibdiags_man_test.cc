// man/rdma-ibdiags.7 maps every infiniband-diags command to rdma: every
// "rdma ..." form the page prints in bold must run, so that the page stays
// true as the command lines change. Each runs on the fabric double (the
// suite's tests/ibsim/net after an SM sweep) with the test kernel and fake
// verbs devices, and must exit 0 (tests/ibsim/ibdiags_man.sh runs them on
// the simulator). tests/completion/ibdiags_test.sh checks the other side:
// every command and option of the installed diags has its row.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/fake_verbs.h"
#include "lib/testing/kernel/testkernel.h"
#include "lib/testing/test_data.h"
#include "rdma/command.h"
#include "rdma/ib/test_util.h"
#include "rdma/test_util.h"

namespace rdma {
namespace ibdiags_man {

std::string page_path() {
  return testdata::dir() + "/../../man/rdma-ibdiags.7";
}

std::vector<std::string> page_lines() {
  std::ifstream in(page_path());
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// A macro line's arguments as groff splits them: blanks separate, double
// quotes group.
std::vector<std::string> macro_args(const std::string& rest) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false, any = false;
  for (char ch : rest) {
    if (ch == '"') {
      quoted = !quoted;
      any = true;
    } else if (ch == ' ' && !quoted) {
      if (any) out.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += ch;
      any = true;
    }
  }
  if (any) out.push_back(cur);
  return out;
}

std::string unescape(std::string s) {
  for (size_t i; (i = s.find("\\-")) != std::string::npos;) s.replace(i, 2, "-");
  return s;
}

// The bold spans of the page that are a whole command: .B lines, the bold
// arguments of .BR and .RB, and \fB...\fR inline. .BI (bold beside italic
// placeholders) is a syntax, not a command, and is left out.
std::vector<std::string> rdma_forms() {
  std::vector<std::string> bold;
  static const std::regex inline_bold(R"(\\fB(.*?)\\f[RP])");
  for (const std::string& l : page_lines()) {
    if (l.rfind(".B ", 0) == 0) {
      std::string rest = l.substr(3);
      if (rest.size() > 1 && rest.front() == '"' && rest.back() == '"')
        rest = rest.substr(1, rest.size() - 2);
      bold.push_back(rest);
    } else if (l.rfind(".BR ", 0) == 0 || l.rfind(".RB ", 0) == 0) {
      std::vector<std::string> a = macro_args(l.substr(4));
      for (size_t i = l[1] == 'B' ? 0 : 1; i < a.size(); i += 2) bold.push_back(a[i]);
    }
    for (std::sregex_iterator it(l.begin(), l.end(), inline_bold), end; it != end; ++it)
      bold.push_back((*it)[1]);
  }
  std::vector<std::string> forms;
  for (std::string b : bold) {
    b = unescape(b);
    // "rdma" alone names the program (".BR rdma (8)"), no command.
    if (b.rfind("rdma ", 0) == 0) forms.push_back(b);
  }
  return forms;
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

class IbdiagsManPage : public ::testing::Test {
 protected:
  void SetUp() override {
    // The files the page's forms name, here in the scratch directory.
    files_["fabric.json"] = (dir_ / "fabric.json").string();
    files_["new.json"] = (dir_ / "new.json").string();  // fabric edit's NEWFILE
    files_["nodes.map"] = (dir_ / "nodes.map").string();
    files_["/etc/infiniband-diags/error_thresholds"] = (dir_ / "error_thresholds").string();
    std::ofstream(files_["nodes.map"]) << "0x0000000000100003 \"hca2-site-name\"\n";
    std::ofstream(files_["/etc/infiniband-diags/error_thresholds"]) << "SymbolErrorCounter=10\n";
    test::Result saved = run({"rdma", "fabric", "save", files_["fabric.json"]});
    ASSERT_EQ(saved.status, 0) << saved.err;
    // The topology file the page reads from (ibnetdiscover's format).
    files_["topo.txt"] = (dir_ / "topo.txt").string();
    test::Result topo = run({"rdma", "fabric", "topology"});
    ASSERT_EQ(topo.status, 0) << topo.err;
    std::ofstream(files_["topo.txt"]) << topo.out;
  }

  // One form (its words, "rdma" first) on a fresh kernel and fabric.
  test::Result run(std::vector<std::string> w) {
    w.erase(w.begin());
    for (std::string& a : w)
      if (files_.count(a)) a = files_[a];
    auto has = [&](const char* o) { return std::find(w.begin(), w.end(), o) != w.end(); };
    // A watch runs until interrupted: one round here.
    if (has("-w") && !has("-c")) w.insert(w.begin(), {"-c", "1"});
    // An attribute the double does not answer fails at once, not after
    // four seconds of tries.
    if (!has("--timeout")) w.insert(w.begin(), {"--timeout", "100"});
    // An InfiniBand device where the page names one (mlx5_0), beside the
    // fixture's rxe1.
    testkernel::TestKernel k;
    testkernel::Device* ib = k.device_by_name("rxe0");
    ib->name = "mlx5_0";
    ib->protocol = testkernel::Protocol::kIb;
    // The SA's tables come whole, as the kernel reassembles RMPP for an
    // agent registered with it; every port answers PortInfoExtended, as
    // ports of EDR and later do (ibsim does neither).
    ibtest::FabricOptions options;
    options.rmpp = ibtest::RmppMode::Reassembled;
    ibtest::FakeFabric fabric(topology_, options);
    // ibping's and ibsysstat's servers and a Mellanox vendor agent (an
    // InfiniScale III's) on every node (ibsim has none: tests/ibsim/ibdiags_man.sh skips those
    // forms).
    for (auto& node : fabric.nodes()) {
      for (auto& port : node.ports) port.port_info_ext = true;
      node.vendor.ping_server = node.vendor.sysstat_server = node.vendor.mellanox = true;
      node.vendor.general.device_id = mad::kIs3DeviceId;  // vendstat -w's InfiniScale III
    }
    fabric.assign_lids();
    Env env;
    env.open = [&]() -> std::unique_ptr<nl::Transport> {
      return std::make_unique<test::Borrowed>(k);
    };
    env.mad = {[&](const std::string&) { return fabric.local_port(); },
               [&](const mad::LocalPort&) -> std::unique_ptr<mad::Transport> {
                 return std::make_unique<madtest::SpoilingTransport>(fabric, sent_, no_spoil_);
               }};
    env.verbs = [] {
      return std::make_unique<verbs::FakeVerbs>(std::map<std::string, verbs::FakeDeviceSpec>{
          {"mlx5_0", verbs::one_port_device(IBV_LINK_LAYER_INFINIBAND)},
          {"rxe1", verbs::one_port_device(IBV_LINK_LAYER_ETHERNET)}});
    };
    return test::run_env(std::move(w), std::move(env), "");
  }

  test::ScratchDir scratch_{"rdma-ibdiags-"};
  const std::filesystem::path& dir_ = scratch_.path;
  std::map<std::string, std::string> files_;
  std::vector<mad::Mad> sent_;
  madtest::Spoiler no_spoil_;
  ibtest::Topology topology_ = ibtest::load_topology(testdata::kNet);
};

TEST_F(IbdiagsManPage, EveryRdmaFormRuns) {
  std::vector<std::string> forms = rdma_forms();
  std::set<std::string> seen;
  for (const std::string& f : forms) {
    if (!seen.insert(f).second) continue;
    test::Result r = run(words(f));
    // A command that reports findings exits 1 when it found some (the
    // test fabric's degraded links), with them on stdout and nothing on
    // stderr: it ran. A failure says why on stderr.
    bool found = r.status == 1 && !r.out.empty() && r.err.empty();
    EXPECT_TRUE(r.status == 0 || found) << f << ": " << r.status << " " << r.err;
  }
  // The page is read at all: a change of its markup must not leave the
  // test checking nothing.
  EXPECT_GT(seen.size(), 100u);
}

// Every command of Debian 12's infiniband-diags (44) has a section.
TEST_F(IbdiagsManPage, EveryDiagsCommandHasASection) {
  std::set<std::string> sections;
  for (const std::string& l : page_lines())
    if (l.rfind(".SS ", 0) == 0) sections.insert(l.substr(4));
  for (const char* cmd :
       {"check_lft_balance", "dump_fts",      "dump_lfts",     "dump_mfts",        "ibaddr",
        "ibcacheedit",       "ibccconfig",    "ibccquery",     "ibfindnodesusing", "ibhosts",
        "ibidsverify",       "iblinkinfo",    "ibnetdiscover", "ibnodes",          "ibping",
        "ibportstate",       "ibqueryerrors", "ibroute",       "ibrouters",        "ibstat",
        "ibstatus",          "ibswitches",    "ibsysstat",     "ibtracert",        "perfquery",
        "saquery",           "sminfo",        "smpdump",       "smpquery",         "vendstat"})
    EXPECT_TRUE(sections.count(cmd)) << cmd;
}

}  // namespace ibdiags_man
}  // namespace rdma
