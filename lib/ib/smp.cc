#include "lib/ib/smp.h"

#include <string>
#include <string_view>
#include <vector>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"

namespace rdma::ib {

namespace {

// The FieldDefs a *_fields() visitor names, in its order: looked up by
// name once, not for every attribute read (discovery reads tens of
// thousands of PortInfos, and the lookup compares strings). nullptr for
// another attribute's field ("Attribute.Field").
template <typename S, typename Fields>
std::vector<const mad::FieldDef*> field_defs(const mad::AttrDef& a, Fields fields) {
  std::vector<const mad::FieldDef*> out;
  S s{};
  fields(s, [&](const char* name, const auto&) {
    if (std::string_view(name).find('.') != std::string_view::npos) {
      out.push_back(nullptr);
      return;
    }
    const mad::FieldDef* f = mad::find_field(a, name);
    if (!f) throw Error(std::string("internal: ") + a.name + " has no field " + name);
    out.push_back(f);
  });
  return out;
}

// Reads the fields of one attribute in the visitor's order, after checking
// the attribute is whole.
class Reader {
 public:
  Reader(const mad::AttrDef& a, const std::vector<const mad::FieldDef*>& defs,
         std::span<const uint8_t> attr)
      : defs_(defs), attr_(attr) {
    if (attr.size() < a.bytes)
      throw Error("truncated " + std::string(a.name) + ": " + std::to_string(attr.size()) +
                  " bytes, expected " + std::to_string(a.bytes));
  }
  template <typename T>
  void operator()(const char*, T& out) {
    const mad::FieldDef* f = defs_[next_++];
    if (f) out = static_cast<T>(mad::get_bits(attr_, f->bit, f->width));
  }
  // A member that may be unknown elsewhere (a file's): read, it is known.
  template <typename T>
  void operator()(const char* name, std::optional<T>& out) {
    (*this)(name, out.emplace());
  }

 private:
  const std::vector<const mad::FieldDef*>& defs_;
  std::span<const uint8_t> attr_;
  size_t next_ = 0;
};

constexpr auto kNodeInfoFields = [](auto& s, auto&& g) { node_info_fields(s, g); };
constexpr auto kPortInfoFields = [](auto& s, auto&& g) { port_info_fields(s, g); };
constexpr auto kSwitchInfoFields = [](auto& s, auto&& g) { switch_info_fields(s, g); };

}  // namespace

NodeInfo NodeInfo::from(std::span<const uint8_t> attr) {
  static const auto defs = field_defs<NodeInfo>(mad::kNodeInfo, kNodeInfoFields);
  NodeInfo v;
  node_info_fields(v, Reader(mad::kNodeInfo, defs, attr));
  return v;
}

PortInfo PortInfo::from(std::span<const uint8_t> attr) {
  static const auto defs = field_defs<PortInfo>(mad::kPortInfo, kPortInfoFields);
  PortInfo v;
  port_info_fields(v, Reader(mad::kPortInfo, defs, attr));
  return v;
}

SwitchInfo SwitchInfo::from(std::span<const uint8_t> attr) {
  static const auto defs = field_defs<SwitchInfo>(mad::kSwitchInfo, kSwitchInfoFields);
  SwitchInfo v;
  switch_info_fields(v, Reader(mad::kSwitchInfo, defs, attr));
  return v;
}

}  // namespace rdma::ib
