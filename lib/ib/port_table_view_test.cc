// A port's tables as port show prints them: each value in its attribute
// field's format (P_Keys hex of 16 bits, GUIDs of 64, VLs and weights
// decimal), one field a table, JSON arrays.
#include "lib/ib/port_table_view.h"

#include <gtest/gtest.h>

#include <string>

namespace rdma::ib {
namespace {

std::string table_text(const view::Record& r) {
  std::string s;
  for (const view::Field& f : r) s += f.text;
  return s;
}

std::string table_json(const view::Record& r) {
  view::Json j = view::Json::object();
  for (const view::Field& f : r) j[f.key] = f.value;
  return j.dump();
}

TEST(PortTableView, PKeysAsHex) {
  PKeyTable t{3, {0xffff, 0x8001, 0}};
  view::Record r;
  add_pkey_values(t, r);
  EXPECT_EQ(table_text(r), "pkeys 0xffff,0x8001,0x0000 ");
  EXPECT_EQ(table_json(r), "{\"pkeys\":[\"0xffff\",\"0x8001\",\"0x0000\"]}");
}

TEST(PortTableView, EmptyTableIsAnEmptyList) {
  view::Record r;
  add_pkey_values(PKeyTable{}, r);
  EXPECT_EQ(table_json(r), "{\"pkeys\":[]}");
}

TEST(PortTableView, GuidsWhole) {
  GuidTable t{2, {0x0002c90300001234ull, UINT64_MAX}};
  view::Record r;
  add_guid_values(t, r);
  EXPECT_EQ(table_text(r), "guids 0x0002c90300001234,0xffffffffffffffff ");
}

TEST(PortTableView, Sl2VlBySl) {
  Sl2VlTable t;
  for (uint8_t sl = 0; sl < 16; ++sl) t.vl[sl] = static_cast<uint8_t>(15 - sl);
  view::Record r;
  add_sl2vl_values(t, r);
  EXPECT_EQ(table_text(r), "sl2vl 15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0 ");
}

// VLs first, then their weights, each a field of its own.
TEST(PortTableView, VlArbVlsThenWeights) {
  VlArbTable t;
  t.entries = {{0, 64}, {15, 255}, {1, 0}};
  view::Record r;
  add_vlarb_values(t, r);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(table_text(r), "vl 0,15,1 weight 64,255,0 ");
  EXPECT_EQ(table_json(r), "{\"vl\":[0,15,1],\"weight\":[64,255,0]}");
}

}  // namespace
}  // namespace rdma::ib
