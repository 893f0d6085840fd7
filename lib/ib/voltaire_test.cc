// Voltaire's chassis decode, model by model: which spine port makes which
// line slot and chip, which line port which spine slot, which spine port
// (and spine GUID) which module slot and chip, the positions in the
// chassis and the faceplate port map (libibnetdisc's rules). The
// wired-up chassis is in chassis_test.cc and, beside ibnetdiscover -g, in
// tests/ibsim/fabric.sh.
#include "lib/ib/voltaire.h"

#include <gtest/gtest.h>

namespace rdma::ib {
namespace {

constexpr uint16_t kSfb4 = 0x5a0b, kSfb4Ddr = 0x5a33, kSfb12 = 0x5a08, kSfb12Ddr = 0x5a32,
                   kSfb2012 = 0x5a37, kSfb2004 = 0x5a40, kSfb4700 = 0x5a5c, kSfb4700x2 = 0x5a5d,
                   kSfb4200 = 0x5a60;
constexpr uint16_t kSlb24 = 0x5a09, kSlb24Ddr = 0x5a34, kSrb2004 = 0x5a42, kSlb8 = 0x5a0d,
                   kSlb2024 = 0x5a38, kSlb4018 = 0x5a5b;

struct PlaceRow {
  uint16_t spine;
  unsigned port;
  const char* type;  // nullptr: no place
  unsigned number, chip;
};

void expect_places(const PlaceRow* rows, size_t n, ChassisSlot slot,
                   std::optional<ChassisPlace> (*decode)(uint16_t, unsigned)) {
  for (size_t k = 0; k < n; ++k) {
    const PlaceRow& r = rows[k];
    SCOPED_TRACE(testing::Message() << std::hex << r.spine << std::dec << " port " << r.port);
    std::optional<ChassisPlace> p = decode(r.spine, r.port);
    ASSERT_EQ(p.has_value(), r.type != nullptr);
    if (!p) continue;
    EXPECT_EQ(p->type, r.type);
    EXPECT_EQ(p->slot, slot);
    EXPECT_EQ(p->number, r.number);
    EXPECT_EQ(p->chip, r.chip);
  }
}

TEST(Voltaire, ChipKindsByDevice) {
  for (uint16_t d :
       {kSfb4, kSfb4Ddr, kSfb12, kSfb12Ddr, kSfb2012, kSfb2004, kSfb4700, kSfb4700x2, kSfb4200}) {
    EXPECT_TRUE(voltaire_spine(d)) << std::hex << d;
    EXPECT_FALSE(voltaire_line(d)) << std::hex << d;
  }
  for (uint16_t d : {kSlb24, kSlb24Ddr, kSrb2004, kSlb8, kSlb2024, kSlb4018}) {
    EXPECT_TRUE(voltaire_line(d)) << std::hex << d;
    EXPECT_FALSE(voltaire_spine(d)) << std::hex << d;
  }
  // ISR9024 (a box of one chip), a router, an HCA: neither.
  for (uint16_t d : {0x5a06, 0x5a00, 0x5a44}) {
    EXPECT_FALSE(voltaire_spine(d) || voltaire_line(d)) << std::hex << d;
  }
  EXPECT_EQ(voltaire_inner_ports(kSlb24), 12u);
  EXPECT_EQ(voltaire_inner_ports(kSlb4018), 18u);
  EXPECT_EQ(voltaire_inner_ports(kSfb4700x2), 18u);
  EXPECT_EQ(voltaire_inner_ports(kSfb12), 0u);
}

TEST(Voltaire, SpinePortGivesTheLineSlotAndChip) {
  const PlaceRow rows[] = {
      // sFB-4: six ports a slot, three a chip.
      {kSfb4, 1, "ISR9096", 1, 1},
      {kSfb4, 3, "ISR9096", 1, 1},
      {kSfb4, 4, "ISR9096", 1, 2},
      {kSfb4, 7, "ISR9096", 2, 1},
      {kSfb4Ddr, 24, "ISR9096", 4, 2},
      {kSfb4, 25, nullptr, 0, 0},
      {kSfb2004, 10, "ISR2004", 2, 2},
      // sFB-12: two ports a slot, one a chip.
      {kSfb12, 1, "ISR9288", 1, 1},
      {kSfb12, 2, "ISR9288", 1, 2},
      {kSfb12Ddr, 23, "ISR9288", 12, 1},
      {kSfb2012, 24, "ISR2012", 12, 2},
      {kSfb12, 25, nullptr, 0, 0},
      // ISR4700: two ports a slot; the double board one, its 19-36 outside.
      {kSfb4700, 36, "ISR4700", 18, 1},
      {kSfb4700x2, 18, "ISR4700", 18, 1},
      {kSfb4700x2, 19, nullptr, 0, 0},
      // ISR4200: four ports a slot.
      {kSfb4200, 4, "ISR4200", 1, 1},
      {kSfb4200, 5, "ISR4200", 2, 1},
      {kSfb4200, 36, "ISR4200", 9, 1},
      {kSfb4, 0, nullptr, 0, 0},
      {kSlb24, 1, nullptr, 0, 0},  // a line is no spine
  };
  expect_places(rows, std::size(rows), ChassisSlot::Line, voltaire_line_place);
}

TEST(Voltaire, LinePortGivesTheSpineSlotAndChip) {
  const PlaceRow rows[] = {
      {kSfb4, 1, "ISR9096", 1, 1},
      {kSfb4, 4, "ISR9096", 2, 1},
      {kSfb2004, 12, "ISR2004", 4, 1},
      {kSfb4, 13, nullptr, 0, 0},  // a faceplate port
      // Three chips a sFB-12 slot.
      {kSfb12, 1, "ISR9288", 1, 1},
      {kSfb12, 2, "ISR9288", 1, 2},
      {kSfb12, 6, "ISR9288", 2, 3},
      {kSfb2012, 12, "ISR2012", 4, 3},
      {kSfb4700, 18, "ISR4700", 9, 1},
      {kSfb4700x2, 1, "ISR4700", 1, 2},  // odd port: the second chip
      {kSfb4700x2, 2, "ISR4700", 1, 1},
      {kSfb4700, 19, nullptr, 0, 0},
      {kSfb4200, 4, "ISR4200", 1, 1},
      {kSfb4200, 5, nullptr, 0, 0},  // ports 5-6: no slot
      {kSfb4200, 7, "ISR4200", 2, 1},
      {kSfb4200, 18, "ISR4200", 4, 1},
  };
  expect_places(rows, std::size(rows), ChassisSlot::Spine, voltaire_spine_place);
}

TEST(Voltaire, ModulesTakeALineSlotFromTheSpinePort) {
  struct Row {
    uint16_t spine;
    unsigned port;
    uint64_t spine_guid;
    const char* type;  // nullptr: no place
    unsigned number, chip;
  };
  const Row rows[] = {
      // sFB-4: the port's line slot; chips 3, 2, 1 for a chip's three ports.
      {kSfb4, 1, 0, "ISR9096", 1, 3},
      {kSfb4, 2, 0, "ISR9096", 1, 2},
      {kSfb4, 3, 0, "ISR9096", 1, 1},
      {kSfb4Ddr, 7, 0, "ISR9096", 2, 3},
      {kSfb2004, 24, 0, "ISR2004", 4, 1},
      {kSfb4, 25, 0, nullptr, 0, 0},
      // sFB-12: two ports a slot; the chip by the spine's GUID mod 4.
      {kSfb12, 1, 0x1003, "ISR9288", 1, 1},
      {kSfb12, 2, 0x1001, "ISR9288", 1, 3},
      {kSfb12Ddr, 5, 0x1002, "ISR9288", 3, 2},
      {kSfb12, 24, 0x1000, "ISR9288", 12, 2},
      {kSfb2012, 7, 0x1001, "ISR2012", 4, 3},
      {kSfb12, 25, 0x1001, nullptr, 0, 0},
      // libibnetdisc has no module table for these spines.
      {kSfb4700, 1, 0, nullptr, 0, 0},
      {kSfb4700x2, 1, 0, nullptr, 0, 0},
      {kSfb4200, 1, 0, nullptr, 0, 0},
      {kSfb4, 0, 0, nullptr, 0, 0},
      {kSlb24, 1, 0, nullptr, 0, 0},  // a line is no spine
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(testing::Message() << std::hex << r.spine << std::dec << " port " << r.port);
    std::optional<ChassisPlace> p = voltaire_module_place(r.spine, r.port, r.spine_guid);
    ASSERT_EQ(p.has_value(), r.type != nullptr);
    if (!p) continue;
    EXPECT_EQ(p->type, r.type);
    EXPECT_EQ(p->slot, ChassisSlot::Router);
    EXPECT_EQ(p->number, r.number);
    EXPECT_EQ(p->chip, r.chip);
  }
  EXPECT_EQ(slot_text(*voltaire_module_place(kSfb4, 7, 0)), "SRBD 2 Chip 3");
}

TEST(Voltaire, PositionsInTheChassis) {
  auto line = [](uint16_t d, ChassisSlot s, unsigned number, unsigned chip) {
    return voltaire_line_position(d, {"", s, number, chip});
  };
  auto spine = [](uint16_t d, ChassisSlot s, unsigned number, unsigned chip) {
    return voltaire_spine_position(d, {"", s, number, chip});
  };
  constexpr ChassisSlot L = ChassisSlot::Line, S = ChassisSlot::Spine, R = ChassisSlot::Router;
  EXPECT_EQ(line(kSlb24, L, 1, 1), 1u);
  EXPECT_EQ(line(kSlb24, L, 2, 2), 5u);  // three positions a slot
  EXPECT_EQ(line(kSlb4018, L, 18, 1), 18u);
  EXPECT_EQ(line(kSlb24, L, 13, 1), 0u);  // past 36
  EXPECT_EQ(line(kSlb24, L, 0, 1), 0u);
  EXPECT_EQ(line(kSlb24, L, 1, 0), 0u);
  // A module (any device): its slot's positions, the third for chip 3.
  EXPECT_EQ(line(0x5a01, R, 3, 3), 9u);
  EXPECT_EQ(line(0x1003, R, 2, 2), 5u);
  EXPECT_EQ(spine(kSfb12, S, 2, 3), 6u);
  EXPECT_EQ(spine(kSfb4700x2, S, 3, 2), 6u);
  EXPECT_EQ(spine(kSfb4700, S, 9, 2), 18u);
  EXPECT_EQ(spine(kSfb4, S, 4, 1), 4u);
  EXPECT_EQ(spine(kSfb12, S, 7, 1), 0u);  // past 18
  EXPECT_EQ(spine(kSfb4, S, 0, 1), 0u);
  // By the node's own device, whatever list it is put in: a line chip
  // among spines goes by its slot number, as libibnetdisc's does.
  EXPECT_EQ(spine(kSlb24, L, 2, 2), 2u);
  EXPECT_EQ(line(kSfb12, S, 2, 1), 4u);
}

TEST(Voltaire, FaceplatePorts) {
  struct Row {
    uint16_t device;
    unsigned chip, port, ext;
  };
  const Row rows[] = {
      {kSlb24, 1, 13, 6},     {kSlb24, 1, 16, 18},    {kSlb24, 1, 19, 1},    {kSlb24, 1, 24, 15},
      {kSlb24, 2, 13, 12},    {kSlb24Ddr, 2, 19, 7},  {kSrb2004, 2, 24, 21}, {kSlb24, 1, 12, 0},
      {kSlb24, 1, 25, 0},     {kSlb8, 1, 13, 2},      {kSlb8, 1, 15, 2},     {kSlb8, 1, 16, 6},
      {kSlb8, 1, 19, 1},      {kSlb8, 2, 22, 7},      {kSlb2024, 1, 13, 13}, {kSlb2024, 2, 24, 12},
      {kSlb4018, 1, 19, 1},   {kSlb4018, 1, 36, 18},  {kSlb4018, 1, 18, 0},  {kSfb4700x2, 1, 19, 7},
      {kSfb4700x2, 2, 36, 6}, {kSfb4700x2, 1, 18, 0}, {kSfb4, 1, 13, 0},  // other spines: none
      {kSlb24, 0, 13, 0},     {kSlb24, 3, 13, 0},                         // no chip, or past two
  };
  for (const Row& r : rows)
    EXPECT_EQ(voltaire_external_port(r.device, r.chip, r.port), r.ext)
        << std::hex << r.device << std::dec << " chip " << r.chip << " port " << r.port;
}

}  // namespace
}  // namespace rdma::ib
