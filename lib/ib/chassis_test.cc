// Chassis grouping as libibnetdisc's (ibnetdiscover -g): the Mellanox
// description decode and the chassis GUID rules table by table, then the
// grouping of tests/ibsim/chassis.net on the fake fabric, where ibsim
// shows the same nodes beside ibnetdiscover -g (tests/ibsim/fabric.sh).
#include "lib/ib/chassis.h"

#include <gtest/gtest.h>

#include "lib/ib/discover.h"
#include "lib/ib/topology.h"
#include "lib/ib/topology_read.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"
#include "lib/testing/written.h"

namespace rdma::ib {
namespace {

constexpr uint32_t kMlx = 0x2c9;
constexpr uint16_t kIs4 = 0xbd36;

TEST(Chassis, MellanoxDescriptionNamesTheSlot) {
  struct Row {
    const char* desc;
    bool placed;
    ChassisSlot slot;
    unsigned number, chip;
    const char* type;
  };
  const Row rows[] = {
      {"MF0;sys1:MSX6536/L01/U1", true, ChassisSlot::Line, 1, 1, "MSX6536"},
      {"MF0;sys1:MSX6536/S18/U2", true, ChassisSlot::Spine, 18, 2, "MSX6536"},
      {"MF0;a:IS5600/L36:board/U1", true, ChassisSlot::Line, 36, 1, "IS5600"},  // board type
      {"MF0;a:ABCDEFGHIJKLMNOPQRSTUVW/L02/U1", true, ChassisSlot::Line, 2, 1,
       "ABCDEFGHIJKLMNOPQRS"},                  // 19 characters of the type
      {"MF0;a:T/L37/U1", false, {}, 0, 0, ""},  // past 36 lines
      {"MF0;a:T/S19/U1", false, {}, 0, 0, ""},  // past 18 spines
      {"MF0;a:T/L00/U1", false, {}, 0, 0, ""},
      {"MF0;a:T/X01/U1", false, {}, 0, 0, ""},  // neither line nor spine
      {"MF0;a:T/L01/1", false, {}, 0, 0, ""},   // no U
      {"MF0;a:T/L01", false, {}, 0, 0, ""},
      {"MF0;aT/L01/U1", false, {}, 0, 0, ""},  // no system name
      {"MF1;a:T/L01/U1", false, {}, 0, 0, ""},
      {"switch L01", false, {}, 0, 0, ""},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.desc);
    std::optional<ChassisPlace> p = mellanox_place(kMlx, kIs4, r.desc);
    ASSERT_EQ(p.has_value(), r.placed);
    if (!p) continue;
    EXPECT_EQ(p->slot, r.slot);
    EXPECT_EQ(p->number, r.number);
    EXPECT_EQ(p->chip, r.chip);
    EXPECT_EQ(p->type, r.type);
  }
  // Only an IS4 chip of Mellanox's.
  EXPECT_FALSE(mellanox_place(kMlx, 0xc738, "MF0;sys1:MSX6536/L01/U1"));
  EXPECT_FALSE(mellanox_place(0x8f1, kIs4, "MF0;sys1:MSX6536/L01/U1"));
  EXPECT_EQ(slot_text(*mellanox_place(kMlx, kIs4, "MF0;s:T/S03/U1")), "Spine 3 Chip 1");
}

TEST(Chassis, GuidRulesByVendor) {
  struct Row {
    uint32_t vendor;
    uint64_t sys, peer, want;
  };
  const Row rows[] = {
      {0x2c9, 0x0002c90000abcd00, 0, 0x0002c90000abcd00},   // as it is
      {0x5ad, 0x0005ad0003000001, 0, 0x0005ad0000000001},   // Topspin: slot byte off
      {0x66a, 0x00066a00ff123456, 0, 0x00066a0000123456},   // InfiniCon too
      {0x1397, 0x0013970107000001, 0, 0x0013970100000001},  // Xsigo switch
      {0x1397, 0x0013970407000001, 0, 0x0013970407000001},  // Xsigo, no switch
      {0x2c9, 0x0013970107000001, 0, 0x0013970100000001},   // Xsigo's OUI, any vendor
      // A Xsigo CA: its leaf one's chassis, else its own.
      {0x1397, 0x0013970200000005, 0x0013970102abcdef, 0x0013970100abcdef},
      {0x1397, 0x0013970300000005, 0x0013970103abcdef, 0x0013970300000005},
      {0x1397, 0x0013970200000005, 0, 0x0013970200000005},
  };
  for (const Row& r : rows) {
    NodeInfo n;
    n.vendor_id = r.vendor;
    n.sys_image_guid = r.sys;
    EXPECT_EQ(chassis_guid(n, r.peer), r.want) << std::hex << r.sys;
  }
}

Fabric chassis_fabric() {
  ibtest::FakeFabric fake(ibtest::load_topology(testdata::dir() + "/../ibsim/chassis.net"));
  fake.assign_lids();
  mad::Engine e(fake, {100, 1, 8});
  return discover(e).fabric;
}

std::string desc_of(const Fabric& f, uint32_t i) {
  return f.nodes[i].description;
}

std::vector<std::string> descs_of(const Fabric& f, const std::vector<uint32_t>& nodes) {
  std::vector<std::string> out;
  for (uint32_t i : nodes) out.push_back(desc_of(f, i));
  return out;
}

uint32_t node_named(const Fabric& f, std::string_view d) {
  for (uint32_t i = 0; i < f.nodes.size(); ++i)
    if (f.nodes[i].description == d) return i;
  ADD_FAILURE() << "no node " << d;
  return 0;
}

using Names = std::vector<std::string>;

TEST(Chassis, GroupsTheBoxesOfTheNetFile) {
  Fabric f = chassis_fabric();
  ASSERT_EQ(f.nodes.size(), 22u);
  Grouping g = group_chassis(f);
  // Numbered as libibnetdisc: Voltaire's first, from the spine found last
  // (the ISR9288 lies behind the ISR9096's faceplate); then the others,
  // from the node found last: the hosts' box, Topspin's, sys1.
  ASSERT_EQ(g.chassis.size(), 5u);
  for (unsigned c = 0; c < 5; ++c) EXPECT_EQ(g.chassis[c].number, c + 1);
  const Chassis& isr9288 = g.chassis[0];
  EXPECT_EQ(descs_of(f, isr9288.spines), (Names{"S9a", "S9b"}));
  // Lines by position: slot 1's two chips, then the router module in
  // slot 3 (position 9) and the CA module in slot 4 (position 11).
  EXPECT_EQ(descs_of(f, isr9288.lines), (Names{"L9a", "L9b", "ipr", "vca"}));
  EXPECT_EQ(isr9288.guid, f.nodes[isr9288.spines[0]].info.node_guid - 1);
  EXPECT_TRUE(isr9288.nodes.empty());
  EXPECT_EQ(slot_text(*g.place[node_named(f, "S9b")]), "Spine 1 Chip 2");
  EXPECT_EQ(slot_text(*g.place[node_named(f, "ipr")]), "SRBD 3 Chip 3");
  EXPECT_EQ(slot_text(*g.place[node_named(f, "vca")]), "SRBD 4 Chip 2");
  const Chassis& isr = g.chassis[1];
  EXPECT_EQ(descs_of(f, isr.spines), (Names{"VS"}));
  EXPECT_EQ(isr.guid, f.nodes[isr.spines[0]].info.node_guid - 1);
  // Slot 1's chips 1 and 2; L02 at its own slot's first position (4);
  // slot 2's positions 5 and 6 (chips 2, 3).
  EXPECT_EQ(descs_of(f, isr.lines), (Names{"VL1", "VL2", "MF0;sys1:MSX6536/L02/U1", "oca", "mca"}));
  EXPECT_EQ(g.place[isr.lines[1]]->type, "ISR9096");
  EXPECT_EQ(slot_text(*g.place[isr.lines[1]]), "Line 1 Chip 2");
  EXPECT_EQ(slot_text(*g.place[isr.spines[0]]), "Spine 1 Chip 1");
  // Notes as ibnetdiscover's: a Voltaire module's type and slot, a
  // Mellanox module's slot alone, another vendor's nothing.
  EXPECT_EQ(g.note(f, node_named(f, "vca")), "ISR9288 SRBD 4 Chip 2");
  EXPECT_EQ(g.note(f, node_named(f, "mca")), "SRBD 2 Chip 3");
  EXPECT_EQ(g.note(f, node_named(f, "oca")), "");
  EXPECT_EQ(g.note(f, node_named(f, "VL2")), "ISR9096 Line 1 Chip 2");
  EXPECT_EQ(g.note(f, node_named(f, "MF0;sys1:MSX6536/S02/U1")), "MSX6536 Spine 2 Chip 1");
  EXPECT_EQ(g.note(f, node_named(f, "ts1")), "");
  EXPECT_EQ(g.note(f, node_named(f, "hca1")), "");
  // The others' members in discovery order.
  EXPECT_EQ(g.chassis[2].guid, 0x1234000000000099u);
  EXPECT_EQ(descs_of(f, g.chassis[2].nodes), (Names{"box-a", "box-b"}));
  EXPECT_EQ(g.chassis[3].guid, 0x5ad0000000001u);
  EXPECT_EQ(descs_of(f, g.chassis[3].nodes), (Names{"ts1", "ts2"}));
  const Chassis& sys1 = g.chassis[4];
  EXPECT_EQ(sys1.guid, 0x2c90000abcd00u);
  // By slot, whatever the order found.
  EXPECT_EQ(descs_of(f, sys1.spines),
            (Names{"MF0;sys1:MSX6536/S01/U1", "MF0;sys1:MSX6536/S02/U1"}));
  EXPECT_EQ(descs_of(f, sys1.lines), (Names{"MF0;sys1:MSX6536/L01/U1", "MF0;sys1:MSX6536/L02/U1"}));
  EXPECT_TRUE(sys1.nodes.empty());
  for (uint32_t i = 0; i < f.nodes.size(); ++i) {
    const std::string& d = f.nodes[i].description;
    bool isr9288_node = d.ends_with("9a") || d.ends_with("9b") || d == "ipr" || d == "vca";
    bool isr9096_node = d == "VS" || d.starts_with("VL") || d == "mca" || d == "oca";
    unsigned want = isr9288_node           ? 1
                    : isr9096_node         ? 2
                    : d.starts_with("box") ? 3
                    : d.starts_with("ts")  ? 4
                    : d.starts_with("MF0") ? 5
                                           : 0;
    EXPECT_EQ(g.chassis_of[i], want) << d;
    EXPECT_EQ(g.place[i].has_value(), d.starts_with("MF0") || isr9288_node || isr9096_node) << d;
  }
  // A line chip's ports 1-18 are the faceplate's; a spine's are inside.
  EXPECT_EQ(g.external_port(f, {sys1.lines[0], 2}), 2u);
  EXPECT_EQ(g.external_port(f, {sys1.lines[0], 9}), 0u);  // past its 8 ports
  EXPECT_EQ(g.external_port(f, {sys1.spines[0], 1}), 0u);
  // A Voltaire line's by its chip's map: port 19 of chip 2 is the 7th.
  EXPECT_EQ(g.external_port(f, {isr.lines[1], 19}), 7u);
  EXPECT_EQ(g.external_port(f, {isr.lines[0], 13}), 6u);
  EXPECT_EQ(g.external_port(f, {isr.lines[0], 1}), 0u);
  EXPECT_EQ(g.external_port(f, {isr.spines[0], 13}), 0u);
  // A module has no faceplate port of its own.
  EXPECT_EQ(g.external_port(f, {node_named(f, "vca"), 1}), 0u);
  EXPECT_EQ(g.external_port(f, {node_named(f, "mca"), 1}), 0u);
}

// What ibsim cannot show, on the fake fabric: a module whose slot position
// is taken stays outside; a module on two spines is placed by the spine
// found last (the first in libibnetdisc's list); a module on an ISR4700
// spine has no place (libibnetdisc gives up on the whole grouping there).
TEST(Chassis, ModulesOnVoltaireSpines) {
  Fabric f = chassis_fabric();
  uint32_t vs = node_named(f, "VS"), oca = node_named(f, "oca"), mca = node_named(f, "mca");
  // oca moved to spine port 10: slot 2 chip 3, mca's position (6).
  f.nodes[vs].ports[10].peer = f.nodes[vs].ports[8].peer;
  f.nodes[vs].ports[8].peer.reset();
  f.nodes[oca].ports[1].peer = PortRef{f.nodes[oca].ports[1].peer->node, 10};
  Grouping g = group_chassis(f);
  EXPECT_EQ(g.chassis_of[mca], 2u);
  EXPECT_EQ(g.chassis_of[oca], 0u);
  EXPECT_TRUE(g.place[oca]);
  EXPECT_EQ(descs_of(f, g.chassis[1].lines),
            (Names{"VL1", "VL2", "MF0;sys1:MSX6536/L02/U1", "mca"}));

  f = chassis_fabric();
  f.nodes[vs].info.device_id = 0x5a5c;  // an ISR4700 spine
  g = group_chassis(f);
  EXPECT_FALSE(g.place[mca]);
  EXPECT_EQ(g.chassis_of[mca], 0u);
}

// libibnetdisc finds a chassis by GUID among Voltaire's too, but only
// once one of another vendor exists: of the nodes whose SystemImageGUID
// is a Voltaire chassis' GUID, the first in its list (box-b, found last)
// makes a chassis of its own, which stays a single node's; the others
// join the Voltaire chassis as its CAs, box-b with them.
TEST(Chassis, NodesWithAVoltaireChassisGuidJoinIt) {
  Fabric f = chassis_fabric();
  uint64_t isr = f.nodes[node_named(f, "VS")].info.node_guid - 1;
  for (Node& n : f.nodes)
    if (n.description.starts_with("box") || n.description == "hca3") n.info.sys_image_guid = isr;
  Grouping g = group_chassis(f);
  ASSERT_EQ(g.chassis.size(), 4u);  // the hosts' box is no chassis of its own
  EXPECT_EQ(g.chassis[1].guid, isr);
  EXPECT_EQ(descs_of(f, g.chassis[1].nodes), (Names{"hca3", "box-a", "box-b"}));
  EXPECT_EQ(g.chassis_of[node_named(f, "box-b")], 2u);
  EXPECT_EQ(g.chassis[2].guid, 0x5ad0000000001u);  // numbered on: 3, 4
  EXPECT_EQ(g.chassis[3].number, 4u);
  std::string t =
      testio::written([&](std::FILE* out) { write_topology(f, out, {.grouped = true}); });
  EXPECT_LT(t.find("# \"box-a\""), t.find("\nChassis 3 "));

  // Two such nodes only: neither chassis has two.
  f.nodes[node_named(f, "hca3")].info.sys_image_guid = 0x1234;
  g = group_chassis(f);
  EXPECT_EQ(g.chassis.size(), 4u);
  EXPECT_TRUE(g.chassis[1].nodes.empty());
  EXPECT_EQ(g.chassis_of[node_named(f, "box-a")], 0u);
}

// Voltaire's chips are placed by their wiring alone: a line cabled to no
// spine, or a spine whose first switch link meets a faceplate port, has
// no place and no chassis.
TEST(Chassis, VoltaireChipsWithoutTheirWiringStayOutside) {
  Fabric f = chassis_fabric();
  uint32_t vs = 0, vl2 = 0;
  for (uint32_t i = 0; i < f.nodes.size(); ++i) {
    if (f.nodes[i].description == "VS") vs = i;
    if (f.nodes[i].description == "VL2") vl2 = i;
  }
  // The spine's devices no longer a spine's: the lines have no place.
  f.nodes[vs].info.device_id = 0x5a06;  // ISR9024
  Grouping g = group_chassis(f);
  EXPECT_EQ(g.chassis.size(), 4u);
  EXPECT_FALSE(g.place[vl2]);
  EXPECT_EQ(g.chassis_of[vl2], 0u);
  EXPECT_EQ(g.external_port(f, {vl2, 19}), 0u);
}

TEST(Chassis, AChipInATakenSlotStaysOutside) {
  Fabric f = chassis_fabric();
  for (Node& n : f.nodes) {
    if (n.description == "MF0;sys1:MSX6536/L02/U1") n.description = "MF0;sys1:MSX6536/L01/U1";
    // VL2 seen on the spine port VL1 uses: the same line slot and chip.
    if (n.description == "VL2") n.ports[1].peer = PortRef{n.ports[1].peer->node, 2};
  }
  Grouping g = group_chassis(f);
  EXPECT_EQ(descs_of(f, g.chassis[1].lines),
            (Names{"VL1", "oca", "mca"}));  // L02 naming slot 1: VL1's
  EXPECT_EQ(descs_of(f, g.chassis[4].lines), (Names{"MF0;sys1:MSX6536/L01/U1"}));
  unsigned outside = 0;
  for (uint32_t i = 0; i < f.nodes.size(); ++i)
    if (g.place[i] && !g.chassis_of[i]) ++outside;
  EXPECT_EQ(outside, 2u);
}

TEST(Chassis, GroupedTopologyTextAndReadBack) {
  Fabric f = chassis_fabric();
  // A node with no SystemImageGUID has its chassis mark on a line alone.
  f.nodes[node_named(f, "ipr")].info.sys_image_guid = 0;
  std::string t =
      testio::written([&](std::FILE* out) { write_topology(f, out, {.grouped = true}); });
  for (const char* want : {
           "\nChassis 5 (guid 0x2c90000abcd00)\n\n# Spine Nodes\n",
           "sysimgguid=0x2c90000abcd00\t\t# Chassis 5\n",
           "\t# MSX6536 Spine 1 Chip 1\n",
           "\t# MSX6536 Line 2 Chip 1\n",
           "\nChassis 4 (guid 0x5ad0000000001)\n",
           "\nChassis 1 (guid 0x200008)\n",
           "\t# ISR9096 Line 1 Chip 2\n",
           "[19][ext 7]\t\"S-",
           "[3][ext 3]\t\"S-",
           "\n# Chassis CAs\n",
           "\nNon-Chassis Nodes\n",
           "[1][ext 1]\t\"H-",
           "[2][ext 2]\t\t# lid",
           "\t#\nSwitch",
           // Modules in line positions print as switches, as
           // ibnetdiscover -g prints them: no port 0, no speed.
           "devid=0x5a01\n\t\t# Chassis 1\nswitchguid=0x300000(300001)\t# ISR9288 SRBD 3 Chip 3\n"
           "Switch\t1 \"R-0000000000300000\"\t\t# \"ipr\" base port 0 lid 0 lmc 0\n"
           "[1]\t\"S-0000000000200009\"[5]\t\t# \"S9a\" lid 16 4x???\n",
           "switchguid=0x10000c(10000d)\t# SRBD 2 Chip 3\nSwitch\t1 \"H-000000000010000c\"",
           "switchguid=0x10000e(10000f)\t#\nSwitch\t1 \"H-000000000010000e\"",
           "[5]\t\"R-0000000000300000\"[1](300001) \t\t# \"ipr\" lid 21 4xSDR\n",
       }) {
    EXPECT_NE(t.find(want), std::string::npos) << want << " in\n" << t;
  }
  // The others' members as found, as libibnetdisc lists them.
  EXPECT_LT(t.find("# \"ts1\""), t.find("# \"ts2\""));
  // Each node once, the chassis' nodes not again outside; but L02 in
  // both chassis that took it, as ibnetdiscover -g lists it.
  size_t blocks = 0;
  for (size_t at = 0; (at = t.find("\nvendid=", at)) != std::string::npos; ++at) ++blocks;
  EXPECT_EQ(blocks, f.nodes.size() + 1);
  EXPECT_LT(t.find("# \"box-a\"\n"), t.find("Non-Chassis Nodes"));
  // Read back: the same fabric, grouped the same.
  Fabric back = parse_topology_fabric(t, "grouped");
  ASSERT_EQ(back.nodes.size(), f.nodes.size());
  std::string again =
      testio::written([&](std::FILE* out) { write_topology(back, out, {.grouped = true}); });
  EXPECT_EQ(again, t);
}

}  // namespace
}  // namespace rdma::ib
