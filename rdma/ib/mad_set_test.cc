// rdma mad set: the attribute read, the named fields changed, written, the
// answer shown; the words checked before anything is sent; refused and
// unanswered Sets one line and status 1. The fabric double applies
// PortInfo state changes, PortInfoExtended's and MlnxExtPortInfo's enables
// and PMA counter clears (ibsim has no vendor MADs: tests/ibsim/madset.sh
// compares the rest with smpquery).
#include <nlohmann/json.hpp>

#include "lib/mad/describe.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;
using madtest::MadCmd;
using madtest::Result;

// The Sets among the MADs sent.
std::vector<Mad> mad_set_sets(const std::vector<Mad>& sent) {
  std::vector<Mad> out;
  for (const Mad& m : sent)
    if (m.get(mad::hdr::kMethod) == mad::kSet) out.push_back(m);
  return out;
}

TEST_F(MadCmd, MadSetWritesWhatItReadWithTheNamedFieldsChanged) {
  Result r = run({"mad", "set", "PortInfo", "lid", "3", "mod", "1", "LinkWidthEnabled=1X",
                  "NeighborMTU=2048"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<Mad> sets = mad_set_sets(sent_);
  ASSERT_EQ(sets.size(), 1u);
  const Mad& set = sets[0];
  EXPECT_EQ(set.get(mad::hdr::kAttrId), mad::kPortInfo.id);
  EXPECT_EQ(set.get(mad::hdr::kAttrMod), 1u);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "LinkWidthEnabled"), 1u);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "NeighborMTU"), 4u);
  // The rest as read: the Get before it.
  const Mad& get = sent_[sent_.size() - 2];
  EXPECT_EQ(get.get(mad::hdr::kMethod), mad::kGet);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "LID"), 3u);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "MasterSMLID"), 1u);
  // Read ACTIVE, written as no change.
  EXPECT_EQ(get.get(mad::hdr::kAttrId), mad::kPortInfo.id);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "PortState"), 0u);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "PortPhysicalState"), 0u);
  // The answer shown as mad get shows it.
  EXPECT_EQ(r.out.rfind("lid 3: attribute PortInfo ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(" lid 3 "), std::string::npos) << r.out;
}

// The answer to a Set is the attribute as the node now has it: a field it
// kept as it was is said, one line each, and the status is 1. The double,
// like ibsim, keeps no partition enforcement bits and no read-only field.
TEST_F(MadCmd, MadSetSaysWhatTheNodeDidNotTake) {
  Result r = run({"mad", "set", "PortInfo", "lid", "3", "mod", "1", "OperationalVLs=VL0-1",
                  "PartitionEnforcementInbound=1", "LinkWidthSupported=1X"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "warning: PortInfo did not take PartitionEnforcementInbound=1 (it has 0)\n"
            "warning: PortInfo did not take LinkWidthSupported=1X (it has 1X,4X,8X,12X,2X)\n")
      << r.err;
  EXPECT_NE(r.out.find("attribute PortInfo "), std::string::npos) << r.out;  // shown all the same
  // What asks "no change" or an action reads otherwise, and is not compared.
  r = run({"mad", "set", "PortInfo", "lid", "3", "mod", "1", "LinkWidthEnabled=0",
           "LinkSpeedEnabled=15", "ClientReregister=1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST_F(MadCmd, MadSetChangesTheFabric) {
  int sw1 = fabric_.node("sw1");
  ASSERT_EQ(
      run({"mad", "set", "PortInfo", "lid", "2", "mod", "3", "PortPhysicalState=DISABLED"}).status,
      0);
  EXPECT_EQ(fabric_.nodes()[sw1].ports[3].phys, ibtest::kDisabled);
  ibtest::FabricPort& p = fabric_.nodes()[sw1].ports[3];
  p.port_info_ext = true;
  p.fec_supported = {0x3, 0x7, 0xf, 0xf};
  auto j = json({"mad", "set", "PortInfoExtended", "lid", "2", "mod", "3", "EDRFECModeEnabled=0x4",
                 "fdr_fec_enabled=1"});
  EXPECT_EQ(j[0]["edr_fec_enabled"], "0x0004");
  EXPECT_EQ(j[0]["fdr_fec_enabled"], "0x0001");
  EXPECT_EQ(p.fec_enabled[1], 4u);
  p.mlnx_speeds_always = true;
  p.mlnx_speed_enabled = 1;
  j = json({"mad", "set", "MlnxExtPortInfo", "lid", "2", "mod", "3", "LinkSpeedEnabled=0"});
  EXPECT_EQ(p.mlnx_speed_enabled, 0u);
  EXPECT_EQ(j[0]["speed_enabled"], "0x00");
}

TEST_F(MadCmd, MadSetOfPortCountersClearsWhatCounterSelectSelects) {
  int sw1 = fabric_.node("sw1");
  fabric_.set_counter(sw1, 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(sw1, 3, "LinkDownedCounter", 2);
  auto j = json({"mad", "set", "PortCounters", "lid", "2", "port", "3", "CounterSelect=0x1"});
  EXPECT_EQ(fabric_.counter(sw1, 3, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(fabric_.counter(sw1, 3, "LinkDownedCounter"), 2u);
  EXPECT_EQ(j[0]["symbol_errors"], 0);
  const Mad set = mad_set_sets(sent_).at(0);
  EXPECT_EQ(set.get_attr(mad::kPortCounters, "PortSelect"), 3u);
  // Counters not named are written as 0, not as read.
  EXPECT_EQ(set.get_attr(mad::kPortCounters, "LinkDownedCounter"), 0u);
}

TEST_F(MadCmd, MadSetSendsNothingWhenTheWordsAreWrong) {
  auto err = [&](std::vector<std::string> args) {
    Result r = run(std::move(args));
    EXPECT_EQ(r.status, 1);
    return r.err;
  };
  EXPECT_EQ(err({"mad", "set", "SMInfo", "lid", "1", "Priority=16"}),
            "value 16 out of range for Priority (4 bits: 0 to 15)\n");
  EXPECT_EQ(err({"mad", "set", "SMInfo", "lid", "1", "Prio=3"}),
            "unknown SMInfo field \"Prio\" (GUID, SM_Key, ActCount, Priority or SMState)\n");
  EXPECT_EQ(err({"mad", "set", "SMInfo", "lid", "1"}),
            "nothing to set: name fields as FIELD=VALUE (e.g. GUID=...)\n");
  EXPECT_EQ(err({"mad", "set", "0xff91", "lid", "1", "X=1"}),
            "0xff91 has no decoder: set its bytes with data=HEX\n");
  EXPECT_EQ(err({"mad", "set", "PortInfo", "lid", "1", "bogus"}),
            "unknown mad set argument \"bogus\" (mod, port or FIELD=VALUE)\n");
  // One field twice, by either of its names: which value was meant?
  EXPECT_EQ(err({"mad", "set", "SMInfo", "lid", "1", "Priority=1", "priority=2"}),
            "\"Priority\" given twice\n");
  EXPECT_EQ(err({"mad", "set", "PortInfo", "lid", "1", "OperationalVLs=2", "oper_vls=3"}),
            "\"OperationalVLs\" given twice\n");
  EXPECT_EQ(err({"mad", "set", "PathRecord", "lid", "1", "SL=1"}),
            "PathRecord is an SA record; rdma mad set reads SMP and PMA attributes\n");
  EXPECT_TRUE(sent_.empty());
}

TEST_F(MadCmd, MadSetRefusedOrUnansweredIsOneLineAndStatus1) {
  Result r = run({"mad", "set", "NodeInfo", "lid", "2", "NumPorts=3"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(
      r.err,
      "NodeInfo Set to lid 2 failed: status 0x000c (method/attribute combination not supported)\n");
  EXPECT_EQ(r.out, "");
  // No good answer to the Set: every reply after the Get's answers
  // another attribute (dropped; the Set ends with that refusal).
  int replies = 0;
  spoil_ = [&replies](std::vector<uint8_t>& reply) {
    if (++replies > 1) reply[17] ^= 1;
  };
  r = run({"--timeout", "5", "--retries", "1", "mad", "set", "PortInfo", "lid", "2", "mod", "1",
           "VLHighLimit=1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "malformed reply to PortInfo Set to lid 2: attribute GUIDInfo\n");
}

TEST_F(MadCmd, MadSetOfARawAttributeWritesTheBytesGiven) {
  spoil_ = [](std::vector<uint8_t>& reply) {
    if (reply[17] == 0x91 && reply[16] == 0xff) reply[4] = reply[5] = 0;  // status 0
  };
  Result r = run({"-j", "mad", "set", "0xff91", "lid", "2", "data=0a0b0c"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Mad set = mad_set_sets(sent_).at(0);
  EXPECT_EQ(set.data()[0], 0x0a);
  EXPECT_EQ(set.data()[2], 0x0c);
  EXPECT_EQ(set.data()[3], 0x00);
}

// The double's SMA refuses forwarding table Sets (ibsim takes them:
// tests/ibsim/check.sh): taken as accepted here, to see what is written.
// The answer (the refusal made status 0) holds no such masks, so the
// read-back says they were not taken: status 1.
TEST_F(MadCmd, MadSetWritesAForwardingTableNamedAsById) {
  node("sw1").mft[0xc001] = 0x6;
  spoil_ = [](std::vector<uint8_t>& reply) {
    if (reply[16] == 0 && reply[17] == 0x1b) reply[4] = reply[5] = 0;  // status 0
  };
  Result r = run({"mad", "set", "MulticastForwardingTable", "lid", "2", "mod", "0",
                  "PortMask[1]=0xe", "port_mask[2]=0x2"});
  ASSERT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err,
            "warning: MulticastForwardingTable did not take PortMask[1]=0x000e (it has 0x0000)\n"
            "warning: MulticastForwardingTable did not take PortMask[2]=0x0002 (it has 0x0000)\n");
  const Mad set = mad_set_sets(sent_).at(0);
  EXPECT_EQ(set.get(mad::hdr::kAttrId), mad::kMulticastForwardingTable.id);
  EXPECT_EQ(mad::get_field(mad::kMulticastForwardingTable, set.data(), "PortMask", 1), 0xeu);
  EXPECT_EQ(mad::get_field(mad::kMulticastForwardingTable, set.data(), "PortMask", 2), 0x2u);
  EXPECT_EQ(mad::get_field(mad::kMulticastForwardingTable, set.data(), "PortMask", 3), 0u);
  sent_.clear();
  ASSERT_EQ(
      run({"mad", "set", "0x1b", "lid", "2", "mod", "0", "PortMask[1]=0xe", "port_mask[2]=0x2"})
          .status,
      1);
  const Mad by_id = mad_set_sets(sent_).at(0);
  EXPECT_EQ(by_id.get(mad::hdr::kAttrId), mad::kMulticastForwardingTable.id);
  EXPECT_TRUE(std::ranges::equal(by_id.data(), set.data()));
  sent_.clear();
  ASSERT_EQ(
      run({"mad", "set", "LinearForwardingTable", "lid", "2", "mod", "0", "Port[7]=3"}).status,
      1);  // refused by the double, but sent as asked
  const Mad lft = mad_set_sets(sent_).at(0);
  EXPECT_EQ(lft.get(mad::hdr::kAttrId), mad::kLinearForwardingTable.id);
  EXPECT_EQ(mad::get_field(mad::kLinearForwardingTable, lft.data(), "Port", 7), 3u);
}

TEST_F(MadCmd, MadSetWithDetailsShowsTheMadsSentAndReceived) {
  Result r = run({"-d", "mad", "set", "PortInfo", "lid", "3", "mod", "1", "OperationalVLs=2"});
  ASSERT_EQ(r.status, 0) << r.err;
  // The Get and the Set, each sent and received: header line, attribute
  // line, then 16 lines of hex.
  size_t sent = 0, received = 0;
  for (size_t at = 0; (at = r.err.find("\n> ", at)) != std::string::npos; ++at) ++sent;
  for (size_t at = 0; (at = r.err.find("\n< ", at)) != std::string::npos; ++at) ++received;
  EXPECT_EQ(r.err.rfind("> ", 0), 0u) << r.err;
  EXPECT_EQ(sent + 1, 4u) << r.err;  // the first "> " starts the output
  EXPECT_EQ(received, 4u) << r.err;
  EXPECT_NE(r.err.find("method 0x02 "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdma
