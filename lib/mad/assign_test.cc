// FIELD=VALUE words against the attribute tables: names, elements, values
// as numbers or as decode shows them, ranges; and applying them.
#include "lib/mad/assign.h"

#include <gtest/gtest.h>

#include <vector>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"

namespace rdma::mad {
namespace {

std::string assign_error(const AttrDef& a, std::string_view word) {
  try {
    parse_assignment(a, word);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Assign, NumbersAndNamesAsDecodeShowsThem) {
  Assignment s = parse_assignment(kPortInfo, "LinkWidthEnabled=0x3");
  EXPECT_STREQ(s.field->name, "LinkWidthEnabled");
  EXPECT_EQ(s.value, 3u);
  EXPECT_EQ(parse_assignment(kPortInfo, "LinkWidthEnabled=1X,4X").value, 3u);
  EXPECT_EQ(parse_assignment(kPortInfo, "portstate=down").value, 1u);  // case-blind
  EXPECT_STREQ(parse_assignment(kPortInfo, "width_enabled=4X").field->name,
               "LinkWidthEnabled");  // the key mad get prints
  EXPECT_EQ(parse_assignment(kPortInfo, "NeighborMTU=4096").value, 5u);
  EXPECT_EQ(parse_assignment(kPortInfo, "OperationalVLs=VL0-3").value, 3u);
  EXPECT_EQ(parse_assignment(kPortInfo, "M_Key=0x1122334455667788").value, 0x1122334455667788ull);
}

TEST(Assign, TableElements) {
  Assignment s = parse_assignment(kPKeyTable, "P_KeyTableBlock[3]=0x8001");
  EXPECT_EQ(s.index, 3u);
  std::vector<uint8_t> attr(kPKeyTable.bytes);
  store(s, attr);
  EXPECT_EQ(attr[6], 0x80);
  EXPECT_EQ(attr[7], 0x01);
  EXPECT_EQ(get_field(kPKeyTable, attr, "P_KeyTableBlock", 3), 0x8001u);
  EXPECT_EQ(assign_error(kPKeyTable, "P_KeyTableBlock[32]=1"),
            "P_KeyTable P_KeyTableBlock has 32 elements, not 33");
}

TEST(Assign, WrongWordsAreUsageErrors) {
  EXPECT_EQ(assign_error(kSmInfo, "Priority"), "expected FIELD=VALUE, not \"Priority\"");
  EXPECT_EQ(assign_error(kSmInfo, "Prio=3"),
            "unknown SMInfo field \"Prio\" (GUID, SM_Key, ActCount, Priority or SMState)");
  EXPECT_EQ(assign_error(kSmInfo, "Priorty=3"),
            "unknown SMInfo field \"Priorty\" (GUID, SM_Key, ActCount, Priority or SMState); did "
            "you mean \"Priority\"?");
  EXPECT_EQ(assign_error(kSmInfo, "Priority=16"),
            "value 16 out of range for Priority (4 bits: 0 to 15)");
  EXPECT_EQ(assign_error(kSmInfo, "Priority=high"),
            "invalid value \"high\" for Priority (a number from 0 to 15)");
  EXPECT_EQ(assign_error(kPortInfo, "PortState=BOGUS"),
            "invalid value \"BOGUS\" for PortState (a number from 0 to 15)");
  EXPECT_EQ(assign_error(kPortInfo, "LinkSpeedExtActive2=1"),  // hidden: not offered
            assign_error(kPortInfo, "LinkSpeedExtActive2=1"));
  EXPECT_NE(assign_error(kPortInfo, "LinkSpeedExtActive2=1").find("unknown PortInfo field"),
            std::string::npos);
  EXPECT_EQ(assign_error(kNodeDescription, "NodeString=x"),
            "NodeDescription NodeString is not a number; it cannot be set here");
  EXPECT_EQ(assign_error(kPortInfo, "LID=0x10000"),
            "value 0x10000 out of range for LID (16 bits: 0 to 65535)");
}

TEST(Assign, AFieldsElementTwiceIsAUsageError) {
  std::vector<Assignment> changes;
  add_assignment(changes, parse_assignment(kPKeyTable, "P_KeyTableBlock[3]=0x8001"));
  add_assignment(changes, parse_assignment(kPKeyTable, "P_KeyTableBlock[4]=0x8002"));
  EXPECT_EQ(changes.size(), 2u);
  try {
    add_assignment(changes, parse_assignment(kPKeyTable, "P_KeyTableBlock[3]=0x8003"));
    ADD_FAILURE() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "\"P_KeyTableBlock[3]\" given twice");
  }
  EXPECT_EQ(changes.size(), 2u);
}

TEST(Assign, StoreWritesOnlyTheField) {
  std::vector<uint8_t> attr(kPortInfo.bytes, 0xff);
  store(parse_assignment(kPortInfo, "LMC=2"), attr);
  EXPECT_EQ(get_field(kPortInfo, attr, "LMC"), 2u);
  EXPECT_EQ(get_field(kPortInfo, attr, "M_KeyProtectBits"), 3u);
  EXPECT_EQ(get_field(kPortInfo, attr, "NeighborMTU"), 15u);
}

TEST(Assign, PrepareSetZeroesCountersKeepingTheSelects) {
  std::vector<uint8_t> pc(kPortCounters.bytes, 0xff);
  prepare_set(kPortCounters, pc);
  EXPECT_EQ(get_field(kPortCounters, pc, "PortSelect"), 0xffu);
  EXPECT_EQ(get_field(kPortCounters, pc, "CounterSelect"), 0xffffu);
  EXPECT_EQ(get_field(kPortCounters, pc, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(get_field(kPortCounters, pc, "PortXmitData"), 0u);
  std::vector<uint8_t> vl(kPortVLOpPackets.bytes, 0xff);
  prepare_set(kPortVLOpPackets, vl);
  EXPECT_EQ(get_field(kPortVLOpPackets, vl, "OpCode"), 0xffu);
  EXPECT_EQ(get_field(kPortVLOpPackets, vl, "PortVLOpPackets3"), 0u);
  std::vector<uint8_t> si(kSmInfo.bytes, 0xff);
  prepare_set(kSmInfo, si);  // written as read
  EXPECT_EQ(si, std::vector<uint8_t>(kSmInfo.bytes, 0xff));
}

TEST(Assign, PrepareSetOfPortInfoChangesNoState) {
  std::vector<uint8_t> pi(kPortInfo.bytes, 0xff);
  prepare_set(kPortInfo, pi);
  EXPECT_EQ(get_field(kPortInfo, pi, "PortState"), 0u);
  EXPECT_EQ(get_field(kPortInfo, pi, "PortPhysicalState"), 0u);
  EXPECT_EQ(get_field(kPortInfo, pi, "LinkWidthEnabled"), 0xffu);
  EXPECT_EQ(get_field(kPortInfo, pi, "LID"), 0xffffu);
}

TEST(Assign, LoadReadsTheElementStored) {
  std::vector<uint8_t> pk(kPKeyTable.bytes, 0);
  Assignment a = parse_assignment(kPKeyTable, "P_KeyTableBlock[3]=0x8001");
  store(a, pk);
  EXPECT_EQ(load(a, pk), 0x8001u);
  EXPECT_EQ(load(parse_assignment(kPKeyTable, "P_KeyTableBlock[2]=1"), pk), 0u);
}

// A value that asks an action or "no change" reads otherwise after the Set.
TEST(Assign, ReadsBackOnlyWhatNamesAState) {
  auto back = [](const AttrDef& a, const char* w) { return reads_back(a, parse_assignment(a, w)); };
  EXPECT_TRUE(back(kPortInfo, "LID=5"));
  EXPECT_TRUE(back(kPortInfo, "LinkWidthEnabled=1X"));
  EXPECT_TRUE(back(kPortInfo, "OperationalVLs=2"));
  EXPECT_FALSE(back(kPortInfo, "LinkWidthEnabled=0"));
  EXPECT_FALSE(back(kPortInfo, "LinkWidthEnabled=255"));
  EXPECT_FALSE(back(kPortInfo, "LinkSpeedEnabled=15"));
  EXPECT_FALSE(back(kPortInfo, "LinkSpeedExtEnabled=30"));
  EXPECT_FALSE(back(kPortInfo, "OperationalVLs=0"));
  EXPECT_FALSE(back(kPortInfo, "PortState=DOWN"));
  EXPECT_FALSE(back(kPortInfo, "PortPhysicalState=DISABLED"));
  EXPECT_FALSE(back(kPortInfo, "ClientReregister=1"));
  EXPECT_TRUE(back(kPKeyTable, "P_KeyTableBlock[0]=0xffff"));
  EXPECT_FALSE(back(kSmInfo, "Priority=3"));
  EXPECT_FALSE(back(kPortCounters, "CounterSelect=1"));
}

}  // namespace
}  // namespace rdma::mad
