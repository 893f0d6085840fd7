// rdma port set and sm set against the fabric double: what is written,
// the checks before anything is sent, the routes around the ports being
// cut, and the errors of refused Sets.
#include <algorithm>

#include "lib/mad/attrs.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;
using madtest::MadCmd;
using madtest::Result;

class PortSetCmd : public MadCmd {
 protected:
  // The Sets among the MADs sent.
  std::vector<Mad> sets() const {
    std::vector<Mad> out;
    for (const Mad& m : sent_)
      if (m.get(mad::hdr::kMethod) == mad::kSet) out.push_back(m);
    return out;
  }
};

TEST_F(PortSetCmd, SpeedWidthVlsAndMtuAreWrittenThenShownWithThePeer) {
  Result r = run({"port", "set", "lid", "2", "port", "2", "speed", "3", "width", "1", "vls", "2",
                  "mtu", "1024"});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(sets().size(), 1u);
  Mad set = sets()[0];
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "LinkSpeedEnabled"), 3u);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "LinkWidthEnabled"), 1u);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "OperationalVLs"), 2u);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "NeighborMTU"), 3u);
  EXPECT_EQ(set.get_attr(mad::kPortInfo, "PortState"), 0u);  // no state change
  ibtest::FabricPort& p = node("sw1").ports[2];
  EXPECT_EQ(p.speed_enabled, 3);
  EXPECT_EQ(p.width_enabled, 1);
  EXPECT_EQ(p.oper_vls, 2);
  EXPECT_EQ(p.neighbor_mtu, 3);
  EXPECT_EQ(p.width_active, ibtest::kWidth4x);  // until the link retrains
  EXPECT_EQ(r.out.rfind("lid 2: port 2 ", 0), 0u) << r.out;
  // The peer (hca2), headed by its name.
  EXPECT_NE(r.out.find("\npeer \"hca2\": port 1 "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("take effect when the link retrains"), std::string::npos) << r.err;
  // The retraining a reset gives applies them.
  ASSERT_EQ(run({"port", "set", "lid", "2", "port", "2", "reset"}).status, 0);
  EXPECT_EQ(node("sw1").ports[2].width_active, ibtest::kWidth1x);
}

// The names `port show` and iblinkinfo print are taken for the bits.
TEST_F(PortSetCmd, SpeedsAndWidthsAreTakenByName) {
  Result r = run({"port", "set", "lid", "2", "port", "2", "speed", "SDR,qdr", "width", "1x,4X"});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(sets().size(), 1u);
  EXPECT_EQ(sets()[0].get_attr(mad::kPortInfo, "LinkSpeedEnabled"), 5u);
  EXPECT_EQ(sets()[0].get_attr(mad::kPortInfo, "LinkWidthEnabled"), 3u);
  sent_.clear();
  r = run({"port", "set", "lid", "2", "port", "2", "speed", "all", "width", "all"});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(sets().size(), 1u);
  EXPECT_EQ(sets()[0].get_attr(mad::kPortInfo, "LinkSpeedEnabled"), 15u);
  EXPECT_EQ(sets()[0].get_attr(mad::kPortInfo, "LinkWidthEnabled"), 255u);
  sent_.clear();
  node("sw1").ports[2].speed_ext_supported = 0xf;  // FDR to NDR
  r = run({"port", "set", "lid", "2", "port", "2", "espeed", "edr,hdr"});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(sets().size(), 1u);
  EXPECT_EQ(sets()[0].get_attr(mad::kPortInfo, "LinkSpeedExtEnabled"), 6u);
}

TEST_F(PortSetCmd, BadValuesAreRefusedBeforeAnyMad) {
  struct Case {
    std::vector<std::string> words;
    std::string err;
  } cases[] = {
      {{"speed", "16"}, "invalid speed \"16\" (expected 0-15)\n"},
      {{"width", "40"}, "invalid width \"40\" (expected 0-31 or 255)\n"},
      {{"vls", "0"}, "invalid vls \"0\" (expected 1-5)\n"},
      {{"lid", "0xc000"}, "invalid lid \"0xc000\" (expected 1-49151)\n"},
      {{"lmc", "8"}, "invalid lmc \"8\" (expected 0-7)\n"},
      {{"espeed", "32"}, "invalid espeed \"32\" (expected 0-31)\n"},
      {{"fdr10", "2"}, "invalid fdr10 \"2\" (expected 0-1)\n"},
      {{"mkeyprot", "4"}, "invalid mkeyprot \"4\" (expected 0-3)\n"},
      {{"mkeylease", "65536"}, "invalid mkeylease \"65536\" (expected 0-65535)\n"},
      {{"mtu", "9000"},
       "invalid mtu \"9000\" (expected 1-5, or 256, 512, 1024, 2048 or 4096 bytes)\n"},
      {{"mtu", "0"}, "invalid mtu \"0\" (expected 1-5, or 256, 512, 1024, 2048 or 4096 bytes)\n"},
      {{"width", "3x"},
       "invalid width \"3x\" (expected 0-31 or 255; 1x, 2x, 4x, 8x or 12x, comma-separated; or "
       "all)\n"},
      {{"speed", "sdr,fdr"},
       "invalid speed \"sdr,fdr\" (expected 0-15; sdr, ddr or qdr, comma-separated; or all)\n"},
      {{"espeed", "qdr"},
       "invalid espeed \"qdr\" (expected 0-31; fdr, edr, hdr or ndr, comma-separated; or all)\n"},
      {{"width", "4x,"},
       "invalid width \"4x,\" (expected 0-31 or 255; 1x, 2x, 4x, 8x or 12x, comma-separated; or "
       "all)\n"},
      {{"down", "arm"}, "one state change at a time (\"arm\" after another)\n"},
      {{"bogus"},
       "unknown port set argument \"bogus\" (port, enable, disable, reset, down, arm, active, "
       "init, speed, espeed, fdr10, width, vls, mtu, lid, smlid, lmc, mkey, mkeylease or "
       "mkeyprot)\n"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"port", "set", "lid", "2", "port", "2"};
    args.insert(args.end(), c.words.begin(), c.words.end());
    Result r = run(args);
    EXPECT_EQ(r.status, 1) << c.words[0];
    EXPECT_EQ(r.err, c.err);
    EXPECT_TRUE(sent_.empty()) << c.words[0];
  }
}

TEST_F(PortSetCmd, TheLocalPortIsCutOnlyWithForce) {
  Result r = run({"port", "set", "lid", "1", "port", "1", "disable"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "lid 1 port 1 carries this tool's MADs (the local port): -f to change it anyway\n");
  EXPECT_TRUE(sets().empty());
  EXPECT_EQ(node("hca1").ports[1].phys, ibtest::kLinkUp);
  r = run({"-f", "port", "set", "lid", "1", "port", "1", "down"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(node("hca1").ports[1].state, ibtest::kInit);  // retrained
}

TEST_F(PortSetCmd, ARemoteCasOwnLinkIsCutOnlyWithForce) {
  Result r = run({"port", "set", "lid", "3", "port", "1", "disable"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "lid 3 port 1 carries this tool's MADs (the route to it), and a CA's port is set "
            "only through itself: -f to change it anyway\n");
  EXPECT_TRUE(sets().empty());
}

// sw2 is reached by LID through sw1 port 3: a change that cuts sw2 port 3
// goes by the parallel link, sw1 port 4.
TEST_F(PortSetCmd, ACutOnTheRouteGoesAroundIt) {
  Result r = run({"port", "set", "lid", "4", "port", "3", "disable"});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(sets().size(), 1u);
  Mad set = sets()[0];
  EXPECT_EQ(set.mgmt_class(), mad::kClassSmiDr);
  EXPECT_EQ(set.get(mad::hdr::kHopCount), 2u);
  EXPECT_EQ(mad::get_bits(set.bytes, mad::hdr::kInitialPath.bit + 16, 8), 4u);  // sw1 port 4
  EXPECT_EQ(node("sw2").ports[3].phys, ibtest::kDisabled);
  EXPECT_EQ(node("sw1").ports[4].phys, ibtest::kLinkUp);
}

TEST_F(PortSetCmd, DownArmActive) {
  ASSERT_EQ(run({"port", "set", "lid", "2", "port", "2", "down"}).status, 0);
  EXPECT_EQ(node("sw1").ports[2].state, ibtest::kInit);
  EXPECT_EQ(node("hca2").ports[1].state, ibtest::kInit);
  Result r = run({"port", "set", "lid", "2", "port", "2", "active"});  // not from INIT
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "cannot set PortInfo of lid 2 port 2: refused with status invalid attribute or "
            "attribute modifier value\n");
  ASSERT_EQ(run({"port", "set", "lid", "2", "port", "2", "arm"}).status, 0);
  EXPECT_EQ(node("sw1").ports[2].state, ibtest::kArmed);
  // Active needs the other end Armed too.
  EXPECT_EQ(run({"port", "set", "lid", "2", "port", "2", "active"}).status, 1);
  ASSERT_EQ(run({"port", "set", "dr", "0,1,2", "port", "1", "arm"}).status, 0);
  ASSERT_EQ(run({"port", "set", "lid", "2", "port", "2", "active"}).status, 0);
  EXPECT_EQ(node("sw1").ports[2].state, ibtest::kActive);
}

TEST_F(PortSetCmd, MkeyProtectsLaterSets) {
  ASSERT_EQ(run({"port", "set", "lid", "3", "port", "1", "mkey", "0x1234"}).status, 0);
  EXPECT_EQ(node("hca2").ports[1].mkey, 0x1234u);
  Result r =
      run({"--timeout", "5", "--retries", "1", "port", "set", "lid", "3", "port", "1", "vls", "2"});
  EXPECT_EQ(r.status, 1);
  // The fabric double gives an unanswered MAD back at once: said so.
  EXPECT_EQ(r.err,
            "cannot set PortInfo of lid 3 port 1: no reply (2 tries, each given back at once by "
            "the local port); a port with an M_Key ignores Sets that do not carry it (--mkey)\n");
  EXPECT_EQ(node("hca2").ports[1].oper_vls, 4);  // as the M_Key Set echoed it: not 2
  r = run({"--mkey", "0x1234", "port", "set", "lid", "3", "port", "1", "vls", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(node("hca2").ports[1].oper_vls, 2);
  EXPECT_EQ(sets().back().get(mad::hdr::kMKey), 0x1234u);
}

TEST_F(PortSetCmd, SwitchKeysAndLidsArePortZeros) {
  for (const char* op : {"lid", "mkeylease", "mkeyprot"}) {
    Result r = run({"port", "set", "lid", "2", "port", "3", op, "1"});
    EXPECT_EQ(r.status, 1) << op;
    EXPECT_EQ(r.err, "a switch's M_Key, LID, SM LID and LMC are its port 0's, not port 3's\n");
  }
  EXPECT_TRUE(sets().empty());
}

// ibportstate's mkeylease and mkeyprot: the M_Key's lease period and
// protection bits written, the rest of PortInfo as it was, read back.
TEST_F(PortSetCmd, MkeyLeaseAndProtectionAreWritten) {
  Result r = run({"port", "set", "lid", "3", "port", "1", "mkeylease", "60", "mkeyprot", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(sets().size(), 1u);
  EXPECT_EQ(sets()[0].get_attr(mad::kPortInfo, "M_KeyLeasePeriod"), 60u);
  EXPECT_EQ(sets()[0].get_attr(mad::kPortInfo, "M_KeyProtectBits"), 1u);
  EXPECT_EQ(sets()[0].get_attr(mad::kPortInfo, "LID"), 3u);
  EXPECT_EQ(node("hca2").ports[1].mkey_lease, 60u);
  EXPECT_EQ(node("hca2").ports[1].mkey_protect, 1u);
  EXPECT_EQ(node("hca2").ports[1].lid, 3u);
  // A switch's are port 0's.
  ASSERT_EQ(run({"port", "set", "lid", "2", "port", "0", "mkeyprot", "2"}).status, 0);
  EXPECT_EQ(node("sw1").ports[0].mkey_protect, 2u);
}

// A port the node lacks: the refused Get explained by NodeInfo, naming the
// port and the target given (not the directed route taken), nothing set;
// port show the same.
TEST_F(PortSetCmd, APortTheNodeLacksIsNamed) {
  for (const char* action : {"disable", "enable", "reset"}) {
    sent_.clear();
    Result r = run({"port", "set", "lid", "2", "port", "9", action});
    EXPECT_EQ(r.status, 1) << action;
    EXPECT_EQ(r.out, "") << action;
    EXPECT_EQ(r.err, "lid 2 has no port 9 (a switch with ports 0-8)\n") << action;
    EXPECT_TRUE(sets().empty()) << action;
  }
  Result r = run({"port", "set", "lid", "6", "port", "2", "vls", "2"});
  EXPECT_EQ(r.err, "lid 6 has no port 2 (a channel adapter with port 1)\n");
  EXPECT_TRUE(sets().empty());
  r = run({"port", "show", "lid", "2", "port", "9"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid 2 has no port 9 (a switch with ports 0-8)\n");
  r = run({"port", "show", "dr", "0,1", "port", "12"});
  EXPECT_EQ(r.err, "dr 0,1 has no port 12 (a switch with ports 0-8)\n");
}

TEST_F(PortSetCmd, NewLidAnswers) {
  ASSERT_EQ(run({"port", "set", "lid", "3", "port", "1", "lid", "0x20"}).status, 0);
  EXPECT_EQ(node("hca2").ports[1].lid, 0x20);
  // The switches' tables do not know it until the SM sweeps: by route.
  Result r = run({"port", "show", "dr", "0,1,2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(" lid 32 "), std::string::npos) << r.out;
}

TEST_F(PortSetCmd, Fdr10WritesTheVendorAttribute) {
  node("sw1").ports[2].mlnx_speeds_always = true;  // answers it, so it is read back
  ASSERT_EQ(run({"port", "set", "lid", "2", "port", "2", "fdr10", "1"}).status, 0);
  ASSERT_EQ(sets().size(), 1u);
  EXPECT_EQ(sets()[0].get(mad::hdr::kAttrId), mad::kMlnxExtPortInfo.id);
  EXPECT_EQ(node("sw1").ports[2].mlnx_speed_enabled, 1);
}

TEST_F(PortSetCmd, EspeedNeedsTheCapability) {
  node("sw1").ext_speeds_cap = false;
  Result r = run({"port", "set", "lid", "2", "port", "0", "espeed", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid 2 port 0 does not support extended speeds (espeed)\n");
  EXPECT_TRUE(sets().empty());
  // An external port's mask is reserved: port 0's says, as ibportstate.
  r = run({"port", "set", "lid", "2", "port", "2", "espeed", "1"});
  EXPECT_EQ(r.err, "lid 2 port 2 does not support extended speeds (espeed)\n");
  EXPECT_TRUE(sets().empty());
}

// A switch's external port has a reserved (0) CapabilityMask: its port 0's
// IsExtendedSpeedsSupported lets espeed be written there, as ibportstate.
TEST_F(PortSetCmd, EspeedOnASwitchExternalPortAsksPort0) {
  node("sw1").ports[2].speed_ext_supported = 0x3;  // FDR, EDR
  node("hca4").ports[1].speed_ext_supported = 0x1;
  Result r = run({"port", "set", "lid", "2", "port", "2", "espeed", "edr"});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(sets().size(), 1u);
  EXPECT_EQ(sets()[0].get(mad::hdr::kAttrMod), (1u << 31) | 2u);
  EXPECT_EQ(sets()[0].get_attr(mad::kPortInfo, "LinkSpeedExtEnabled"), 2u);
  // A CA's port answers for itself: hca4 (LID 6) has the bit.
  ASSERT_EQ(run({"port", "set", "lid", "6", "port", "1", "espeed", "fdr"}).status, 0);
  // A speed the port does not support: refused before anything is sent.
  sent_.clear();
  r = run({"port", "set", "lid", "6", "port", "1", "espeed", "edr"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "lid 6 port 1 does not support espeed 25.78125 (its LinkSpeedExtSupported: "
            "14.0625)\n");
  EXPECT_TRUE(sets().empty());
}

TEST_F(PortSetCmd, DetailsShowTheMadsOfAWrite) {
  Result r = run({"-d", "port", "set", "lid", "2", "port", "2", "vls", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("> "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("< "), std::string::npos) << r.err;
}

TEST_F(PortSetCmd, AllInitNeedsYesThenSetsFarLinksFirst) {
  Result r = run({"port", "set", "all", "init"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--yes to do it"), std::string::npos) << r.err;
  EXPECT_TRUE(sent_.empty());
  r = run({"--yes", "port", "set", "all", "init"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const ibtest::FabricNode& n : fabric_.nodes())
    for (int p = 1; p <= n.num_ports(); ++p)
      if (n.ports[p].peer_node >= 0) {
        EXPECT_EQ(n.ports[p].state, ibtest::kInit) << n.id << p;
      }
  std::vector<Mad> s = sets();
  ASSERT_EQ(s.size(), 6u);                           // one end of each of the six links
  EXPECT_EQ(s.back().get(mad::hdr::kHopCount), 0u);  // the local port last
  EXPECT_GT(s.front().get(mad::hdr::kHopCount), 1u);
}

TEST_F(PortSetCmd, SmSetWritesSmInfo) {
  Result r = run({"sm", "set", "priority", "5", "state", "standby", "control", "standby"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fabric_.sm().priority, 5);
  EXPECT_EQ(fabric_.sm().state, 2);
  ASSERT_EQ(sets().size(), 1u);
  EXPECT_EQ(sets()[0].get(mad::hdr::kAttrMod), 4u);
  EXPECT_NE(r.out.find(" priority 5 "), std::string::npos) << r.out;
  r = run({"sm", "set", "priority", "16"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "invalid priority \"16\" (expected 0-15)\n");
  r = run({"sm", "set", "state", "boss"});
  EXPECT_EQ(r.err, "unknown state \"boss\" (notactive, discovering, standby or master)\n");
  EXPECT_EQ(run({"sm", "set"}).status, 1);
  r = run({"sm", "set", "lid", "2", "priority", "1"});  // no SM there: one line
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
}  // namespace rdma
