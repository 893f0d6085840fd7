// The MAD commands run in-process against the fabric double: what they
// send, what they print, and their errors.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "lib/mad/format.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;
using madtest::MadCmd;
using madtest::Result;

TEST_F(MadCmd, NodeShowPrintsNodeInfoDescriptionAndSwitchInfo) {
  Result r = run({"node", "show", "lid", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 2: type switch ports 8 node_guid 0x0000000000200000 ", 0), 0u)
      << r.out;
  EXPECT_NE(r.out.find("description \"sw1\""), std::string::npos) << r.out;
  ASSERT_EQ(sent_.size(), 3u);  // NodeInfo, NodeDescription, SwitchInfo
  EXPECT_EQ(sent_[2].get(mad::hdr::kAttrId), mad::kSwitchInfo.id);
}

// One vocabulary: every JSON member is a "key value" pair of the text, for
// names, hex and GUIDs as much as for numbers.
TEST_F(MadCmd, JsonKeysAndValuesAreTheText) {
  for (std::vector<std::string> args : {std::vector<std::string>{"node", "show", "2"},
                                        {"-d", "node", "show", "2"},
                                        {"perf", "show", "lid", "2", "port", "3"}}) {
    Result text = run(args);
    ASSERT_EQ(text.status, 0) << text.err;
    // -d of one object is a field a line: the same pairs, lines aside.
    std::replace(text.out.begin(), text.out.end(), '\n', ' ');
    args.insert(args.begin(), "-j");
    Result json = run(args);
    ASSERT_EQ(json.status, 0) << json.err;
    auto j = nlohmann::json::parse(json.out);
    ASSERT_EQ(j.size(), 1u);
    size_t members = 0;
    for (auto& [key, value] : j[0].items()) {
      if (key == "target") continue;
      std::string v = value.is_string() ? value.get<std::string>() : value.dump();
      if (key == "description") v = mad::desc_text(v);  // quoted in text
      EXPECT_NE(text.out.find(" " + key + " " + v + " "), std::string::npos)
          << key << " " << v << " in " << text.out;
      ++members;
    }
    EXPECT_GT(members, 3u);
  }
}

TEST_F(MadCmd, NodeShowJson) {
  Result r = run({"-j", "node", "show", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["target"], "lid 2");
  EXPECT_EQ(j[0]["type"], "switch");
  EXPECT_EQ(j[0]["ports"], 8);
  EXPECT_EQ(j[0]["description"], "sw1");
  EXPECT_FALSE(j[0].contains("sys_image_guid"));  // only with -d
  r = run({"-j", "-d", "node", "show", "2"});
  EXPECT_TRUE(nlohmann::json::parse(r.out)[0].contains("sys_image_guid"));
}

TEST_F(MadCmd, DirectedRouteAndVia) {
  Result r = run({"node", "show", "dr", "0,1,3", "via", "ibsim0/1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(via_, "ibsim0/1");
  EXPECT_EQ(r.out.rfind("dr 0,1,3: ", 0), 0u);
  EXPECT_EQ(sent_[0].mgmt_class(), mad::kClassSmiDr);
  EXPECT_EQ(sent_[0].get(mad::hdr::kHopCount), 2u);
}

// smpquery -c: LID-routed to sw1 (LID 2), then directed out of its port 3
// to sw2 and on. ibsim discards such SMPs ("dr[ds]lids are used (not
// supported)"), so the fabric double shows them.
TEST_F(MadCmd, CombinedRouteStartsByLid) {
  Result r = run({"-j", "node", "show", "dr", "lid", "2", "0,3"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j[0]["target"], "dr lid 2 0,3");
  EXPECT_EQ(j[0]["description"], "sw2");
  EXPECT_EQ(sent_[0].mgmt_class(), mad::kClassSmiDr);
  EXPECT_EQ(sent_[0].get(mad::hdr::kDrSlid), 1u);  // hca1's own LID
  r = run({"-j", "port", "show", "dr", "lid", "4", "0,1", "port", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)[0]["lid"], 5);  // hca3
  r = run({"mad", "get", "NodeDescription", "dr", "lid", "4", "0,2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("hca4"), std::string::npos) << r.out;
  // A combined route from a CA goes nowhere: a CA forwards nothing.
  r = run({"node", "show", "dr", "lid", "5", "0,1"});
  EXPECT_NE(r.status, 0);
}

TEST_F(MadCmd, PerfShowSelectsThePort) {
  fabric_.set_counter(fabric_.node("sw1"), 3, "SymbolErrorCounter", 17);
  Result r = run({"perf", "show", "lid", "2", "port", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("lid 2: port 3 symbol_errors 17 "), std::string::npos) << r.out;
  const Mad& pma = sent_.back();
  EXPECT_EQ(pma.mgmt_class(), mad::kClassPerf);
  EXPECT_EQ(pma.get_attr(mad::kPortCounters, "PortSelect"), 3u);
}

TEST_F(MadCmd, UnansweredTargetTimesOutAfterRetries) {
  Result r = run({"--timeout", "5", "--retries", "1", "node", "show", "lid", "9"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "no reply to NodeInfo from lid 9 (2 tries, each given back at once by the local port: "
            "Connection timed out)\n");
  EXPECT_EQ(sent_.size(), 2u);
}

// A CA's node GUID (fabric show prints it) is no port's: the SA's
// NodeRecord gives its first port's LID, as --sa and the sa commands take
// it; a GUID neither port nor node has keeps the resolver's error.
TEST_F(MadCmd, ANodeGuidTargetIsItsFirstPortsLid) {
  std::string hca3 = guid(node("hca3").node_guid);
  ASSERT_NE(node("hca3").node_guid, node("hca3").ports[1].guid);
  Result r = run({"node", "show", "guid", hca3});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 5: type ca ports 2 node_guid " + hca3 + " ", 0), 0u) << r.out;
  EXPECT_EQ(run({"perf", "show", "guid", hca3}).out.rfind("lid 5: port 1 ", 0), 0u);
  r = run({"node", "show", "guid", "0x99"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "cannot resolve guid 0x0000000000000099: no such port in the subnet\n");
}

// A PMA is reached by LID: a directed route resolves to its port's LID
// first (PortInfo over the path), and the counters are that LID's.
TEST_F(MadCmd, PerfByDirectedRouteAsksTheLid) {
  Result r = run({"perf", "show", "dr", "0,1"});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.out.rfind("lid ", 0), 0u) << r.out;
  std::string lid = r.out.substr(4, r.out.find(':') - 4);
  EXPECT_NE(lid, "0");
  EXPECT_EQ(run({"perf", "show", "lid", lid}).out, r.out);
  no_sm();
  r = run({"perf", "show", "dr", "0,1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "dr 0,1 has no LID (no subnet manager has assigned one): its PMA is reached by LID\n");
}

// fabric counters (ibqueryerrors --counters): every port, data counters
// only, nothing judged (exit 0); lid L port N picks one of them.
TEST_F(MadCmd, FabricCountersListsEveryPortsDataCounters) {
  Result r = run({"-j", "fabric", "counters"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  nlohmann::json all = nlohmann::json::parse(r.out);
  ASSERT_GT(all.size(), 3u);
  std::set<std::pair<std::string, int>> seen;
  for (const auto& p : all) {
    EXPECT_TRUE(p.contains("xmit_bytes") && p.contains("rcv_pkts")) << p;
    EXPECT_FALSE(p.contains("symbol_errors")) << p;
    seen.insert({p["node_guid"].get<std::string>(), p["port"].get<int>()});
  }
  EXPECT_EQ(seen.size(), all.size());
  const nlohmann::json& one = all.back();
  r = run({"-j", "fabric", "counters", "lid", std::to_string(one["lid"].get<int>()), "port",
           std::to_string(one["port"].get<int>())});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json picked = nlohmann::json::parse(r.out);
  ASSERT_EQ(picked.size(), 1u);
  EXPECT_EQ(picked[0]["node_guid"], one["node_guid"]);
  EXPECT_EQ(picked[0]["port"], one["port"]);
  r = run({"fabric", "counters", "port", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "\"port N\" needs the node: lid LID, guid GUID or dr PATH\n");
  EXPECT_EQ(run({"fabric", "counters", "thresholds", "x"}).err,
            "unknown fabric counters argument \"thresholds\"\n");
}

// fabric links switches|cas (iblinkinfo --switches-only, --cas-only): each
// port of those nodes from its own end, so every link end on such a node
// once (a link between two switches twice).
TEST_F(MadCmd, FabricLinksSwitchesAndCasFromTheirOwnEnd) {
  Result r = run({"-j", "fabric", "links"});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t switch_ends = 0, ca_ends = 0;
  for (const auto& l : nlohmann::json::parse(r.out)) {
    switch_ends += (l["type"] == "switch") + (l["peer_type"] == "switch");
    ca_ends += (l["type"] == "ca") + (l["peer_type"] == "ca");
  }
  for (const char* kind : {"switches", "cas"}) {
    r = run({"-j", "fabric", "links", kind});
    ASSERT_EQ(r.status, 0) << r.err;
    nlohmann::json got = nlohmann::json::parse(r.out);
    const bool sw = std::string(kind) == "switches";
    EXPECT_EQ(got.size(), sw ? switch_ends : ca_ends) << kind;
    for (const auto& l : got) EXPECT_EQ(l["type"], sw ? "switch" : "ca") << l;
  }
  EXPECT_GT(switch_ends, 0u);
  EXPECT_GT(ca_ends, 0u);
  r = run({"fabric", "links", "cas", "switches"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "\"switches\" and \"cas\" exclude each other\n");
}

TEST_F(MadCmd, ClearErrors) {
  EXPECT_EQ(run({"node", "show"}).err,
            "missing target (lid N, guid G, gid G, dr PATH or name NAME)\n");
  EXPECT_EQ(
      run({"port", "set", "lid", "2", "port", "1"}).err,
      "missing action: enable, disable, reset, down, arm, active or init, or OP VALUE "
      "(speed, espeed, fdr10, width, vls, mtu, lid, smlid, lmc, mkey, mkeylease, mkeyprot)\n");
  EXPECT_EQ(run({"node", "show", "lid", "0"}).err,
            "invalid LID \"0\" (expected 1-49151, decimal or 0x hex)\n");
  EXPECT_EQ(run({"mad", "get", "Bogus", "lid", "2"}).status, 1);
  no_sm();
  EXPECT_EQ(run({"sm", "show"}).err, "no subnet manager: local port fabric0/1 has no SM LID\n");
}

TEST_F(MadCmd, PortSetDisableWritesPhysicalState) {
  Result r = run({"port", "set", "lid", "2", "port", "4", "disable"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<Mad> sets;  // the Set, after Gets (the route, the port) and before the port shown
  for (const Mad& m : sent_)
    if (m.get(mad::hdr::kMethod) == mad::kSet) sets.push_back(m);
  ASSERT_EQ(sets.size(), 1u);
  const Mad& set = sets[0];
  EXPECT_EQ(set.get(mad::hdr::kAttrMod), 4u);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "PortPhysicalState"), 3u);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "PortState"), 0u);
  EXPECT_EQ(node("sw1").ports[4].phys, ibtest::kDisabled);
}

TEST_F(MadCmd, PortSetResetDisablesThenPolls) {
  Result r = run({"port", "set", "lid", "2", "port", "4", "reset"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<size_t> sets;  // Get, Set Disabled, Get, Set Polling
  for (size_t i = 0; i < sent_.size(); ++i)
    if (sent_[i].get(mad::hdr::kMethod) == mad::kSet) sets.push_back(i);
  ASSERT_EQ(sets.size(), 2u);
  ASSERT_EQ(sets[1], sets[0] + 2);
  EXPECT_EQ(sent_[sets[0]].get_attr(mad::kPortInfo, "PortPhysicalState"), 3u);
  EXPECT_EQ(sent_[sets[0] + 1].get(mad::hdr::kMethod), mad::kGet);
  EXPECT_EQ(sent_[sets[1]].get_attr(mad::kPortInfo, "PortPhysicalState"), 2u);
  EXPECT_EQ(sent_[sets[1]].get(mad::hdr::kAttrMod), 4u);
  EXPECT_EQ(node("sw1").ports[4].phys, ibtest::kLinkUp);  // re-enabled: the link trains again
}

// Only RoCE ports (the VM suite's rxe0/rxe1): every command says so in one
// line on stderr, prints nothing (an empty array with -j) and never opens a
// umad port.
TEST_F(MadCmd, RoceIsRefusedWithOneLineBeforeAnyMad) {
  mad::Devices roce;
  for (const char* dev : {"rxe0", "rxe1"}) {
    mad::Devices::Port p;
    p.port.ca = dev;
    p.port.port = 1;
    p.port.state = 4;
    p.infiniband = false;
    roce.umad.push_back({dev, 1, {p}});
    roce.rdma.push_back({dev, 1});
  }
  access_.find_port = [&](const std::string& via) { return mad::choose_local_port(roce, via); };
  bool opened = false;
  access_.open = [&](const mad::LocalPort&) -> std::unique_ptr<mad::Transport> {
    opened = true;
    return nullptr;
  };
  const std::string via_line =
      "port rxe0/1 is not InfiniBand (RoCE): it has no subnet management; MADs need an "
      "InfiniBand port\n";
  const std::string default_line =
      "no InfiniBand port (rxe0/1 RoCE, rxe1/1 RoCE): RoCE and iWARP have no subnet management; "
      "MADs need an InfiniBand port\n";
  struct Case {
    std::vector<std::string> args;
    const std::string& err;
  } cases[] = {
      {{"node", "show", "lid", "1", "via", "rxe0/1"}, via_line},
      {{"-j", "port", "show", "lid", "1", "via", "rxe0"}, via_line},
      {{"node", "show", "lid", "1"}, default_line},
      {{"sm", "show"}, default_line},
      {{"perf", "show", "lid", "1"}, default_line},
      {{"mad", "get", "NodeInfo", "dr", "0"}, default_line},
  };
  for (const Case& k : cases) {
    Result r = run(k.args);
    EXPECT_EQ(r.status, 1) << k.args[1];
    EXPECT_EQ(r.err, k.err) << k.args[1];
    // -j keeps stdout one JSON document, as for every failing command.
    EXPECT_EQ(r.out, k.args[0] == "-j" ? "[]\n" : "") << k.args[1];
  }
  EXPECT_FALSE(opened);
}

}  // namespace
}  // namespace rdma
