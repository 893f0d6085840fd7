// --pkey-idx (the P_Key index GMPs leave with) and --mkey-file (M_Keys by
// port GUID, opensm's guid2mkey) on the fabric double. ibsim checks
// neither P_Keys on GMPs nor M_Keys, so this is where the keys are seen
// going to the right place.
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "lib/mad/attrs.h"
#include "lib/mad/attrs_cc.h"
#include "lib/mad/vendor.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;
using madtest::Result;

// The SA's tables whole, as the kernel hands an RMPP transfer over.
ibtest::FabricOptions mad_keys_options() {
  ibtest::FabricOptions o;
  o.rmpp = ibtest::RmppMode::Reassembled;
  return o;
}

class MadKeysCmd : public madtest::MadCmd {
 protected:
  MadKeysCmd() : MadCmd("net", mad_keys_options()) {}
  // MADs sent by class: SMPs (LID and directed route) and the rest.
  std::pair<uint64_t, uint64_t> smps_and_gmps() const {
    uint64_t smps = 0, gmps = 0;
    for (const Mad& m : sent_) {
      bool smp = m.mgmt_class() == mad::kClassSmiLid || m.mgmt_class() == mad::kClassSmiDr;
      ++(smp ? smps : gmps);
    }
    return {smps, gmps};
  }
  std::string keys_file(const std::string& text) {
    std::string path = ::testing::TempDir() + "rdma-mad-keys-guid2mkey";
    std::ofstream(path) << text;
    return path;
  }
  std::vector<Mad> port_info_sets() const {
    std::vector<Mad> out;
    for (const Mad& m : sent_)
      if (m.get(mad::hdr::kMethod) == mad::kSet) out.push_back(m);
    return out;
  }
};

TEST_F(MadKeysCmd, PkeyIdxGoesWithEveryGmpAndNoSmp) {
  fabric_.set_counter(fabric_.node("sw1"), 2, "SymbolErrorCounter", 7);
  Result r = run({"-Y", "3", "perf", "show", "lid", "2", "port", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("symbol_errors 7 "), std::string::npos) << r.out;
  auto [smps, gmps] = smps_and_gmps();
  ASSERT_GT(gmps, 0u);
  std::map<uint16_t, uint64_t> want{{3, gmps}};
  if (smps) want[0] = smps;
  EXPECT_EQ(fabric_.stats().by_pkey_index, want);
  // The SA's queries too (--sa node show), in the long form.
  sent_.clear();
  r = run({"--pkey-idx=0x10", "--sa", "node", "show", "lid", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::tie(smps, gmps) = smps_and_gmps();
  EXPECT_GT(gmps, 0u);
  EXPECT_EQ(fabric_.stats().by_pkey_index.at(16), gmps);
}

// The vendor classes (ibping's) and congestion control go out on it too:
// every GMP the engine sends does.
TEST_F(MadKeysCmd, PkeyIdxGoesWithVendorAndCcGmps) {
  node("hca2").vendor.ping_server = true;
  Result r = run({"-Y", "2", "node", "ping", "lid", "3", "count", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  r = run({"-Y", "2", "cc", "show", "lid", "2", "ClassPortInfo"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto [smps, gmps] = smps_and_gmps();
  bool vendor = false, cc = false;
  for (const Mad& m : sent_) {
    vendor |= m.mgmt_class() == mad::kClassOpenIbPing;
    cc |= m.mgmt_class() == mad::kClassCc;
  }
  EXPECT_TRUE(vendor && cc);
  std::map<uint16_t, uint64_t> want{{2, gmps}};
  if (smps) want[0] = smps;
  EXPECT_EQ(fabric_.stats().by_pkey_index, want);
}

TEST_F(MadKeysCmd, ABadPkeyIdxNamesTheRangeAndSendsNothing) {
  for (const char* bad : {"65536", "-1", "x", ""}) {
    Result r = run({"-Y", bad, "perf", "show", "lid", "2"});
    EXPECT_NE(r.status, 0) << bad;
    EXPECT_EQ(r.err, std::string("invalid --pkey-idx \"") + bad +
                         "\" (expected a P_Key table index, 0-65535)\n")
        << bad;
  }
  EXPECT_TRUE(sent_.empty());
  EXPECT_EQ(run({"-Y", "65535", "perf", "show", "lid", "2"}).status, 0);
}

// hca2 (LID 3) and sw1 (LID 2, its key on port 0) each with its own M_Key:
// each Set carries its node's key from the file, hca3 (not in the file)
// --mkey's.
TEST_F(MadKeysCmd, EachSmpCarriesItsPortsKeyFromTheFile) {
  node("hca2").ports[1].mkey = 0x1234;
  node("sw1").ports[0].mkey = 0x99;
  node("hca3").ports[1].mkey = 0x55;
  std::string file = keys_file("# guid2mkey\n" + guid(node("hca2").ports[1].guid) + " 0x1234\n" +
                               guid(node("sw1").ports[0].guid) + " 0x99\n");
  Result r = run({"--mkey-file", file, "port", "set", "lid", "3", "port", "1", "vls", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(node("hca2").ports[1].oper_vls, 2);
  EXPECT_EQ(port_info_sets().back().get(mad::hdr::kMKey), 0x1234u);
  sent_.clear();
  r = run({"--mkey-file", file, "port", "set", "lid", "2", "port", "3", "vls", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(port_info_sets().back().get(mad::hdr::kMKey), 0x99u);
  EXPECT_EQ(node("sw1").ports[3].oper_vls, 2);
  sent_.clear();
  // hca3 is not in the file: --mkey's key goes.
  r = run(
      {"--mkey-file", file, "--mkey", "0x55", "port", "set", "lid", "5", "port", "1", "vls", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(port_info_sets().back().get(mad::hdr::kMKey), 0x55u);
  // Without the file the Set to hca2 carries no key and is ignored.
  r = run({"--timeout", "5", "--retries", "0", "port", "set", "lid", "3", "port", "1", "vls", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(node("hca2").ports[1].oper_vls, 2);
  std::remove(file.c_str());
}

// sw2 (its port 0) and hca3 behind it at M_Key protection 3, each with its
// own key: a Get without the key is dropped, as Linux's SMAs drop it, so
// the fabric-wide views (discovery, the batch reads of P_Key tables and
// LFTs, the error sweep) see them only when every SMP to them carries
// their key from the file. Their GUIDs come from the SA's records, as a
// port that answers nothing without its key cannot tell who it is.
// ibsim keeps no M_Key protection (nor M_KeyLeasePeriod): the double
// shows it.
TEST_F(MadKeysCmd, FabricWideViewsReachProtectedPortsWithTheFile) {
  const std::string sw2 = std::to_string(node("sw2").ports[0].lid);
  const std::vector<std::vector<std::string>> views = {{"fabric", "show"},
                                                       {"fabric", "show", "pkeys"},
                                                       {"route", "show", "lid", sw2},
                                                       {"fabric", "errors"}};
  std::vector<std::string> open;
  for (const auto& v : views) {
    Result r = run(v);
    ASSERT_EQ(r.status, 0) << r.err;
    open.push_back(r.out);
  }
  std::string file = keys_file(guid(node("sw2").ports[0].guid) + " 0x77\n" +
                               guid(node("hca3").ports[1].guid) + " 0x33\n");
  node("sw2").ports[0].mkey = 0x77;
  node("hca3").ports[1].mkey = 0x33;
  for (uint8_t level : {2, 3}) {  // both drop Gets without the key
    SCOPED_TRACE("protection " + std::to_string(level));
    node("sw2").ports[0].mkey_protect = level;
    node("hca3").ports[1].mkey_protect = level;
    for (size_t i = 0; i < views.size(); ++i) {
      std::vector<std::string> args{"--mkey-file", file};
      args.insert(args.end(), views[i].begin(), views[i].end());
      sent_.clear();
      Result r = run(args);
      EXPECT_EQ(r.status, 0) << views[i][1] << ": " << r.err;
      EXPECT_EQ(r.out, open[i]) << views[i][1];
      // No SMP carried a wrong key (0, 0x77 or 0x33), and sw2's went.
      std::set<uint64_t> keys;
      for (const Mad& m : sent_)
        if (m.mgmt_class() == mad::kClassSmiLid || m.mgmt_class() == mad::kClassSmiDr)
          keys.insert(m.get(mad::hdr::kMKey));
      EXPECT_TRUE(keys.contains(0x77)) << views[i][1];
      for (uint64_t k : keys) EXPECT_TRUE(k == 0 || k == 0x77 || k == 0x33) << k;
    }
    // Without the file the protected ports do not answer: the view times
    // out on them and names them.
    for (const auto& v : views) {
      std::vector<std::string> args{"--timeout", "5", "--retries", "0"};
      args.insert(args.end(), v.begin(), v.end());
      Result r = run(args);
      EXPECT_NE(r.status, 0) << v[1] << ": " << r.out;
      EXPECT_NE(r.err.find("timed out"), std::string::npos) << v[1] << ": " << r.err;
      // The port is named: by its route (dr 0,1,3, sw2 from hca1) or LID.
      EXPECT_TRUE(r.err.find("from dr 0,1,3") != std::string::npos ||
                  r.err.find("from lid " + sw2) != std::string::npos)
          << v[1] << ": " << r.err;
    }
  }
  std::remove(file.c_str());
}

// -dd shows each SMP with the key it left with (--show-keys), discovery's
// too, once each.
TEST_F(MadKeysCmd, TheTraceShowsTheKeyEachSmpLeftWith) {
  node("sw2").ports[0].mkey = 0x77;
  node("sw2").ports[0].mkey_protect = 3;
  std::string file = keys_file(guid(node("sw2").ports[0].guid) + " 0x77\n");
  Result r = run({"--mkey-file", file, "--show-keys", "-dd", "fabric", "show"});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t sent_lines = 0, keyed = 0;
  std::istringstream err(r.err);
  for (std::string line; std::getline(err, line);) {
    if (!line.starts_with("> ")) continue;
    ++sent_lines;
    keyed += line.find(" mkey 0x0000000000000077 ") != std::string::npos;
  }
  size_t keyed_sent = 0;
  for (const Mad& m : sent_) keyed_sent += m.get(mad::hdr::kMKey) == 0x77;
  EXPECT_GT(keyed_sent, 0u);
  EXPECT_EQ(keyed, keyed_sent);
  EXPECT_EQ(sent_lines, 2 * sent_.size());  // a header line and an attribute line each
  std::remove(file.c_str());
}

// At protection 1 a Get without the key is answered with the M_Key
// zeroed; with the key the port shows it (with --show-keys).
TEST_F(MadKeysCmd, ProtectionOneHidesTheKeyFromGetsWithoutIt) {
  node("hca2").ports[1].mkey = 0x1234;
  node("hca2").ports[1].mkey_protect = 1;
  nlohmann::json without = json({"--show-keys", "-d", "port", "show", "lid", "3", "port", "1"});
  nlohmann::json with =
      json({"--show-keys", "--mkey", "0x1234", "-d", "port", "show", "lid", "3", "port", "1"});
  ASSERT_FALSE(without.is_null());
  ASSERT_FALSE(with.is_null());
  EXPECT_EQ(without[0]["mkey"], "0x0000000000000000") << without.dump();
  EXPECT_EQ(with[0]["mkey"], "0x0000000000001234") << with.dump();
}

TEST_F(MadKeysCmd, ABadKeyFileNamesItsLineAndSendsNothing) {
  std::string file = keys_file("0x10 0x20\n0x11\n");
  Result r = run({"--mkey-file", file, "port", "set", "lid", "3", "port", "1", "vls", "2"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.err, file + ":2: expected \"PORT_GUID M_KEY\", found 1 field\n");
  EXPECT_TRUE(sent_.empty());
  std::remove(file.c_str());
  r = run({"--mkey-file", file, "node", "show", "lid", "3"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.err, "cannot read the M_Key file \"" + file + "\": No such file or directory\n");
  EXPECT_EQ(run({"--mkey-file", "", "node", "show"}).err, "empty FILE after \"--mkey-file\"\n");
}

}  // namespace
}  // namespace rdma
