#include "lib/ib/smp.h"

#include <string>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"

namespace rdma::ib {

namespace {

// Reads fields of one attribute by their IBA names, after checking the
// attribute is whole.
class Reader {
 public:
  Reader(const mad::AttrDef& a, std::span<const uint8_t> attr) : a_(a), attr_(attr) {
    if (attr.size() < a.bytes)
      throw Error("truncated " + std::string(a.name) + ": " + std::to_string(attr.size()) +
                  " bytes, expected " + std::to_string(a.bytes));
  }
  template <typename T>
  void operator()(const char* name, T& out) const {
    const mad::FieldDef* f = mad::find_field(a_, name);
    if (!f) throw Error(std::string("internal: ") + a_.name + " has no field " + name);
    out = static_cast<T>(mad::get_bits(attr_, f->bit, f->width));
  }

 private:
  const mad::AttrDef& a_;
  std::span<const uint8_t> attr_;
};

}  // namespace

NodeInfo NodeInfo::from(std::span<const uint8_t> attr) {
  NodeInfo v;
  node_info_fields(v, Reader(mad::kNodeInfo, attr));
  return v;
}

PortInfo PortInfo::from(std::span<const uint8_t> attr) {
  PortInfo v;
  port_info_fields(v, Reader(mad::kPortInfo, attr));
  return v;
}

SwitchInfo SwitchInfo::from(std::span<const uint8_t> attr) {
  SwitchInfo v;
  switch_info_fields(v, Reader(mad::kSwitchInfo, attr));
  return v;
}

}  // namespace rdma::ib
