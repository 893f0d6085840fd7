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

TEST(Chassis, GroupsTheBoxesOfTheNetFile) {
  Fabric f = chassis_fabric();
  ASSERT_EQ(f.nodes.size(), 14u);
  Grouping g = group_chassis(f);
  // Voltaire's first, then in the order of each chassis' first node:
  // discovery meets L01 first, then ts1, then box-a.
  ASSERT_EQ(g.chassis.size(), 4u);
  const Chassis& isr = g.chassis[0];
  EXPECT_EQ(isr.number, 1u);
  ASSERT_EQ(isr.spines.size(), 1u);
  EXPECT_EQ(desc_of(f, isr.spines[0]), "VS");
  EXPECT_EQ(isr.guid, f.nodes[isr.spines[0]].info.node_guid - 1);
  ASSERT_EQ(isr.lines.size(), 2u);  // by chip position: slot 1's chips 1, 2
  EXPECT_EQ(desc_of(f, isr.lines[0]), "VL1");
  EXPECT_EQ(desc_of(f, isr.lines[1]), "VL2");
  EXPECT_TRUE(isr.nodes.empty());
  EXPECT_EQ(g.place[isr.lines[1]]->type, "ISR9096");
  EXPECT_EQ(slot_text(*g.place[isr.lines[1]]), "Line 1 Chip 2");
  EXPECT_EQ(slot_text(*g.place[isr.spines[0]]), "Spine 1 Chip 1");
  const Chassis& sys1 = g.chassis[1];
  EXPECT_EQ(sys1.number, 2u);
  EXPECT_EQ(sys1.guid, 0x2c90000abcd00u);
  ASSERT_EQ(sys1.spines.size(), 2u);  // by slot, whatever the order found
  EXPECT_EQ(desc_of(f, sys1.spines[0]), "MF0;sys1:MSX6536/S01/U1");
  EXPECT_EQ(desc_of(f, sys1.spines[1]), "MF0;sys1:MSX6536/S02/U1");
  ASSERT_EQ(sys1.lines.size(), 2u);
  EXPECT_EQ(desc_of(f, sys1.lines[0]), "MF0;sys1:MSX6536/L01/U1");
  EXPECT_EQ(desc_of(f, sys1.lines[1]), "MF0;sys1:MSX6536/L02/U1");
  EXPECT_TRUE(sys1.nodes.empty());
  EXPECT_EQ(g.chassis[2].guid, 0x5ad0000000001u);
  ASSERT_EQ(g.chassis[2].nodes.size(), 2u);
  EXPECT_EQ(desc_of(f, g.chassis[2].nodes[0]), "ts1");
  EXPECT_EQ(desc_of(f, g.chassis[2].nodes[1]), "ts2");
  EXPECT_EQ(g.chassis[3].guid, 0x1234000000000099u);
  ASSERT_EQ(g.chassis[3].nodes.size(), 2u);
  for (uint32_t i = 0; i < f.nodes.size(); ++i) {
    const std::string& d = f.nodes[i].description;
    bool voltaire = d == "VS" || d.starts_with("VL");
    unsigned want = voltaire               ? 1
                    : d.starts_with("MF0") ? 2
                    : d.starts_with("ts")  ? 3
                    : d.starts_with("box") ? 4
                                           : 0;
    EXPECT_EQ(g.chassis_of[i], want) << d;
    EXPECT_EQ(g.place[i].has_value(), d.starts_with("MF0") || voltaire) << d;
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
  EXPECT_EQ(g.chassis.size(), 3u);
  EXPECT_FALSE(g.place[vl2]);
  EXPECT_EQ(g.chassis_of[vl2], 0u);
  EXPECT_EQ(g.external_port(f, {vl2, 19}), 0u);
}

TEST(Chassis, AChipInATakenSlotStaysOutside) {
  Fabric f = chassis_fabric();
  for (Node& n : f.nodes) {
    if (n.description == "MF0;sys1:MSX6536/L02/U1") n.description = "MF0;sys1:MSX6536/L01/U1";
    // VL2 seen on the spine port VL1 uses: the same line slot and chip.
    if (n.description == "VL2") n.ports[1].peer->port = 2;
  }
  Grouping g = group_chassis(f);
  ASSERT_EQ(g.chassis[0].lines.size(), 1u);
  ASSERT_EQ(g.chassis[1].lines.size(), 1u);
  unsigned outside = 0;
  for (uint32_t i = 0; i < f.nodes.size(); ++i)
    if (g.place[i] && !g.chassis_of[i]) ++outside;
  EXPECT_EQ(outside, 2u);
}

TEST(Chassis, GroupedTopologyTextAndReadBack) {
  Fabric f = chassis_fabric();
  std::string t =
      testio::written([&](std::FILE* out) { write_topology(f, out, {.grouped = true}); });
  for (const char* want :
       {"\nChassis 2 (guid 0x2c90000abcd00)\n\n# Spine Nodes\n",
        "sysimgguid=0x2c90000abcd00\t\t# Chassis 2\n", "\t# MSX6536 Spine 1 Chip 1\n",
        "\t# MSX6536 Line 2 Chip 1\n", "\nChassis 3 (guid 0x5ad0000000001)\n",
        "\t# ISR9096 Line 1 Chip 2\n", "[19][ext 7]\t\"S-", "[3][ext 3]\t\"S-", "\n# Chassis CAs\n",
        "\nNon-Chassis Nodes\n", "[1][ext 1]\t\"H-", "[2][ext 2]\t\t# lid", "\t#\nSwitch"}) {
    EXPECT_NE(t.find(want), std::string::npos) << want << " in\n" << t;
  }
  // Each node once: the chassis' nodes are not listed again outside.
  size_t blocks = 0;
  for (size_t at = 0; (at = t.find("\nvendid=", at)) != std::string::npos; ++at) ++blocks;
  EXPECT_EQ(blocks, f.nodes.size());
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
