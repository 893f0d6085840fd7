// Fields read and written by name through the attribute tables, and the
// SA records' ComponentMask bits.
#include "lib/mad/attrs.h"

#include <gtest/gtest.h>

#include <vector>

#include "lib/error.h"

namespace rdma::mad {
namespace {

TEST(Fields, ByNameWhereTheTableSays) {
  std::vector<uint8_t> r(kPortInfoRecord.bytes);
  set_field(kPortInfoRecord, r, "EndportLID", 0x1234);
  set_field(kPortInfoRecord, r, "PortNum", 7);
  EXPECT_EQ(r[0], 0x12);
  EXPECT_EQ(r[1], 0x34);
  EXPECT_EQ(r[2], 7);
  EXPECT_EQ(get_field(kPortInfoRecord, r, "EndportLID"), 0x1234u);
  EXPECT_EQ(get_field(kPortInfoRecord, r, "PortNum"), 7u);
}

TEST(Fields, TableElementsByIndexAndStride) {
  std::vector<uint8_t> vlarb(kVlArbTable.bytes);
  vlarb[2 * 2] = 0x05;  // entry 2: VL in the low nibble of its first byte
  vlarb[2 * 2 + 1] = 200;
  EXPECT_EQ(get_field(kVlArbTable, vlarb, "VL", 2), 5u);
  EXPECT_EQ(get_field(kVlArbTable, vlarb, "Weight", 2), 200u);
  EXPECT_EQ(get_field(kVlArbTable, vlarb, "Weight", 1), 0u);
  EXPECT_THROW(get_field(kVlArbTable, vlarb, "Weight", 32), Error);  // 32 per block
}

TEST(Fields, UnknownNamesAndShortBuffersAreErrors) {
  std::vector<uint8_t> r(kNodeInfo.bytes);
  try {
    get_field(kNodeInfo, r, "NoSuchField");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "internal: NodeInfo has no field NoSuchField");
  }
  EXPECT_THROW(get_field(kNodeInfo, std::span(r).first(20), "PortGUID"), Error);
  EXPECT_NO_THROW(get_field(kNodeInfo, std::span(r).first(20), "NodeGUID"));  // bytes 12-19
  EXPECT_THROW(set_field(kNodeInfo, std::span(r).first(3), "NumPorts", 1), Error);
}

TEST(Components, TheBitsIbaGives) {
  EXPECT_EQ(component_bit(kPathRecord, "DGID"), 2);
  EXPECT_EQ(component_bit(kPathRecord, "SLID"), 5);
  EXPECT_EQ(component_bit(kPathRecord, "Rate"), 19);
  EXPECT_EQ(component_bit(kPKeyTableRecord, "PortNum"), 2);
  EXPECT_EQ(component_bit(kServiceRecord, "ServiceName"), 6);
  EXPECT_EQ(component_bit(kMcMemberRecord, "MLID"), 3);
  EXPECT_EQ(component_bit(kPathRecord, "Preference"), -1);
  EXPECT_EQ(component_bit(kNodeInfo, "LID"), -1);
  EXPECT_EQ(component_mask(kPathRecord, {"DGID", "SGID"}), 0b1100u);
  EXPECT_THROW(component_mask(kPathRecord, {"Preference"}), Error);
}

}  // namespace
}  // namespace rdma::mad
