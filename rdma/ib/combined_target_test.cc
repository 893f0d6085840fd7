// Every command taking a TARGET with a combined route (smpquery -c's
// "dr lid L PATH": LID-routed to L, directed from there): the same answer
// as the LID of the port it ends at, each SMP of it answered at the local
// port's LID (DrSLID). ibsim discards combined SMPs ("dr[ds]lids are used
// (not supported)"), so the fabric double shows them; the simulator suite
// (tests/ibsim/route.sh) checks the clear error in bounded time there.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using madtest::MadCmd;
using madtest::Result;

// A command's JSON records without their "target" (the words differ) and
// the keys in also (what differs by the way there, or between two asks).
nlohmann::json untargeted(nlohmann::json j, const std::vector<std::string>& also) {
  if (j.is_array())
    for (auto& rec : j)
      if (rec.is_object()) {
        rec.erase("target");
        for (const std::string& k : also) rec.erase(k);
      }
  return j;
}

class CombinedTarget : public MadCmd {
 protected:
  // The command with the combined route gives what it gives with the LID.
  // sends_combined: some of its SMPs are combined ones from hca1 (LID 1);
  // commands that find the target in a discovered fabric (or resolve it
  // to a directed route from the local port first) send none.
  void same(const std::vector<std::string>& combined, const std::vector<std::string>& by_lid,
            int status = 0, bool sends_combined = true,
            const std::vector<std::string>& differ = {}) {
    sent_.clear();
    nlohmann::json a = json(combined, status);
    bool from_us = false;
    for (const mad::Mad& m : sent_)
      from_us |= m.mgmt_class() == mad::kClassSmiDr && m.get(mad::hdr::kDrSlid) == 1;
    EXPECT_EQ(from_us, sends_combined) << combined[0] << " " << combined[1];
    nlohmann::json b = json(by_lid, status);
    ASSERT_FALSE(b.is_null()) << by_lid[0] << " " << by_lid[1];
    EXPECT_EQ(untargeted(a, differ), untargeted(b, differ)) << combined[0] << " " << combined[1];
  }
};

// sw1 is LID 2, its port 3 goes to sw2 (LID 4), whose port 1 goes to hca3
// (LID 5), port 2 to hca4 (LID 6).
TEST_F(CombinedTarget, NodeAndPortShow) {
  // NodeInfo's LocalPortNum: the port the SMP came in by, sw2's port 3
  // from sw1 by the combined route.
  same({"-d", "node", "show", "dr", "lid", "2", "0,3"}, {"-d", "node", "show", "lid", "4"}, 0, true,
       {"local_port"});
  same({"port", "show", "dr", "lid", "2", "0,3"}, {"port", "show", "lid", "4"});
  for (const char* table : {"pkeys", "sl2vl", "vlarb"})
    same({"port", "show", "dr", "lid", "2", "0,3", "port", "1", table},
         {"port", "show", "lid", "4", "port", "1", table});
  same({"port", "show", "dr", "lid", "4", "0,1", "port", "1", "guids"},
       {"port", "show", "lid", "5", "port", "1", "guids"});
  nlohmann::json j = json({"port", "show", "dr", "lid", "2", "0,3", "port", "1", "pkeys"});
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j[0]["target"], "dr lid 2 0,3");
}

TEST_F(CombinedTarget, Routes) {
  same({"route", "show", "dr", "lid", "2", "0,3"}, {"route", "show", "lid", "4"});
  same({"route", "show", "dr", "lid", "2", "0,3", "mcast"}, {"route", "show", "lid", "4", "mcast"});
  same({"route", "trace", "dr", "lid", "4", "0,1"}, {"route", "trace", "lid", "5"});
  same({"route", "trace", "dr", "lid", "2", "0,2", "dr", "lid", "2", "0,3,2"},
       {"route", "trace", "lid", "3", "lid", "6"});
  same({"route", "users", "dr", "lid", "2", "0,3", "port", "1"},
       {"route", "users", "lid", "4", "port", "1"});
}

TEST_F(CombinedTarget, CountersChecksAndScans) {
  same({"perf", "show", "dr", "lid", "4", "0,1"}, {"perf", "show", "lid", "5"});
  // ActCount counts the SM's work: one more since the first ask.
  same({"sm", "show", "dr", "lid", "2", "0,1"}, {"sm", "show", "lid", "1"}, 0, true, {"act_count"});
  same({"port", "check", "dr", "lid", "4", "0,1"}, {"port", "check", "lid", "5"});
  same({"fabric", "links", "from", "dr", "lid", "2", "0,3"},
       {"fabric", "links", "from", "lid", "4"}, 0, false);
  same({"fabric", "links", "node", "dr", "lid", "2", "0,3"},
       {"fabric", "links", "node", "lid", "4"}, 0, false);
  fabric_.set_counter(fabric_.node("sw2"), 3, "SymbolErrorCounter", 17);
  same({"fabric", "errors", "dr", "lid", "2", "0,3", "peer"},
       {"fabric", "errors", "lid", "4", "peer"}, 1, false);
  // A route other than discovery's is followed (sw1 and back to sw2).
  same({"fabric", "errors", "dr", "lid", "2", "0,3,3,3"}, {"fabric", "errors", "lid", "4"}, 1);
}

// A write through a combined route is read back through it.
TEST_F(CombinedTarget, PortSetReadsBack) {
  same({"port", "set", "dr", "lid", "2", "0,3", "port", "1", "vls", "2"},
       {"port", "set", "lid", "4", "port", "1", "vls", "2"}, 0, false);
}

// Without a LID of its own the local port cannot be answered at: said
// before any MAD goes out.
TEST_F(CombinedTarget, NeedsTheLocalLid) {
  no_sm();
  Result r = run({"port", "show", "dr", "lid", "2", "0,3", "port", "1", "pkeys"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "a combined route (LID 2, then directed) needs the local port's LID, and it has "
            "none\n");
  EXPECT_TRUE(sent_.empty());
}

// Commands whose MADs are GMPs (answered by LID only) take a directed
// route, plain or combined, as perf does: by the LID of the port it ends
// at (lib/ib/lid_route.h, one PortInfo SMP over the route). hca2 (LID 3)
// is sw1's port 2; sw1 (LID 2) is sw2's port 3. ibsim has no CC or
// vendor-class agents: the double shows these.
TEST_F(CombinedTarget, GmpCommandsTakeTheirPortsLid) {
  same({"cc", "show", "dr", "lid", "2", "0,2"}, {"cc", "show", "lid", "3"});
  same({"cc", "show", "dr", "0,1,2", "CS"}, {"cc", "show", "lid", "3", "CS"}, 0, false);
  same({"cc", "set", "dr", "lid", "4", "0,3", "SS", "Control_Map=0x3"},
       {"cc", "set", "lid", "2", "SS", "Control_Map=0x3"});
  node("hca2").vendor.ping_server = true;
  node("hca2").vendor.sysstat_server = true;
  same({"node", "ping", "dr", "lid", "2", "0,2", "count", "1"},
       {"node", "ping", "lid", "3", "count", "1"}, 0, true,
       {"rtt_ms", "rtt_avg_ms", "rtt_min_ms", "rtt_max_ms", "time_ms"});
  same({"node", "sysstat", "dr", "0,1,2", "host"}, {"node", "sysstat", "lid", "3", "host"}, 0,
       false);
  node("sw1").vendor.mellanox = true;
  node("sw1").vendor.general.device_id = 0xcb20;
  same({"node", "vendor", "dr", "lid", "4", "0,3"}, {"node", "vendor", "lid", "2"});
}

// mad get and mad set of a GMP attribute (the PMA's) take a directed
// route, plain or combined, by its port's LID too; SMP attributes keep the
// route (NodeAndPortShow).
TEST_F(CombinedTarget, MadGetOfAPmaAttributeTakesItsPortsLid) {
  same({"mad", "get", "PortCounters", "dr", "0,1,2", "port", "1"},
       {"mad", "get", "PortCounters", "lid", "3", "port", "1"}, 0, false);
  same({"mad", "get", "PortCounters", "dr", "lid", "2", "0,2", "port", "1"},
       {"mad", "get", "PortCounters", "lid", "3", "port", "1"});
  // The reply's target is the LID asked, not the route.
  EXPECT_EQ(json({"mad", "get", "PortCounters", "dr", "0,1,2", "port", "1"})[0]["target"], "lid 3");
  same({"mad", "set", "PortCounters", "dr", "lid", "4", "0,3", "port", "3", "SymbolErrorCounter=0"},
       {"mad", "set", "PortCounters", "lid", "2", "port", "3", "SymbolErrorCounter=0"});
}

// A directed route to a port without a LID: the clear error, no GMP sent.
TEST_F(CombinedTarget, GmpCommandsNeedTheLidAtTheRoutesEnd) {
  no_sm();
  for (std::vector<std::string> args : {std::vector<std::string>{"cc", "show"},
                                        {"node", "ping"},
                                        {"node", "sysstat"},
                                        {"node", "vendor"},
                                        {"mad", "get", "PortCounters"}}) {
    args.insert(args.end(), {"dr", "0,1,2"});
    Result r = run(args);
    EXPECT_EQ(r.status, 1) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_TRUE(r.err.starts_with("dr 0,1,2 has no LID (no subnet manager has assigned one): its "))
        << r.err;
    for (const mad::Mad& m : sent_) EXPECT_EQ(m.mgmt_class(), mad::kClassSmiDr) << args[0];
  }
}

// A port with a LID but not yet Active (Init: the SM has not activated it)
// carries no GMPs: said at once rather than after the GMP's timeouts.
TEST_F(CombinedTarget, GmpCommandsNeedAnActivePort) {
  node("hca2").ports[1].state = ibtest::kInit;
  for (std::vector<std::string> args : {std::vector<std::string>{"cc", "show"},
                                        {"node", "ping"},
                                        {"perf", "show"},
                                        {"bw", "path"},
                                        {"mad", "get", "PortCounters"}}) {
    args.insert(args.end(), {"dr", "0,1,2"});
    sent_.clear();
    Result r = run(args);
    EXPECT_EQ(r.status, 1) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_TRUE(r.err.starts_with("dr 0,1,2 is INIT, not ACTIVE: ")) << r.err;
    for (const mad::Mad& m : sent_) EXPECT_EQ(m.mgmt_class(), mad::kClassSmiDr) << args[0];
  }
}

}  // namespace
}  // namespace rdma
