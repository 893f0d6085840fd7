#include "lib/ib/port_table_view.h"

#include <cstdint>
#include <vector>

#include "lib/mad/attrs.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

// values as the field of attribute a called field prints them.
template <typename T>
void add_table(const mad::AttrDef& a, const char* field, const T& values, view::Record& out) {
  std::vector<uint64_t> v(values.begin(), values.end());
  mad::add_values(*mad::find_field(a, field), v, out);
}

}  // namespace

void add_pkey_values(const PKeyTable& t, view::Record& out) {
  add_table(mad::kPKeyTable, "P_KeyTableBlock", t.pkeys, out);
}

void add_guid_values(const GuidTable& t, view::Record& out) {
  add_table(mad::kGuidInfo, "GUIDBlock", t.guids, out);
}

void add_sl2vl_values(const Sl2VlTable& t, view::Record& out) {
  add_table(mad::kSl2VlTable, "SLtoVL", t.vl, out);
}

void add_vlarb_values(const VlArbTable& t, view::Record& out) {
  std::vector<uint64_t> vl, weight;
  for (const VlArbTable::Entry& e : t.entries) {
    vl.push_back(e.vl);
    weight.push_back(e.weight);
  }
  add_table(mad::kVlArbTable, "VL", vl, out);
  add_table(mad::kVlArbTable, "Weight", weight, out);
}

}  // namespace rdma::ib
