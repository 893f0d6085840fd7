#include "lib/ib/attribute.h"

#include <algorithm>
#include <string>

#include "lib/mad/attr_class.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_ext.h"
#include "lib/mad/combined_route.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

// Where the port sits in a port-indexed modifier (IBA 14.2.5: PKeyTable
// bits 16-31; VLArbitrationTable bits 0-15, the block above it).
constexpr unsigned kPKeyPortShift = 16;
constexpr unsigned kVlArbBlockShift = 16;

uint32_t modifier(const AttrAccess& at) {
  if (mad::is_smp(*at.def) && at.port)
    if (std::optional<uint32_t> m = smp_port_modifier(*at.def, *at.port, at.mod)) return *m;
  return at.mod;
}

// One Get or Set of the attribute; body, when given, is what a Set writes.
mad::Mad exchange(MadClient& c, const mad::Route& r, const AttrAccess& at, uint8_t method,
                  const mad::Mad* body) {
  const mad::AttrDef& a = *at.def;
  std::string what = std::string(a.name) + (method == mad::kSet ? " Set to " : " from ");
  if (mad::is_smp(a)) {
    mad::Mad m = mad::make_smp_from(c.local().lid, r, method, a, modifier(at));
    if (body) std::copy(body->data().begin(), body->data().end(), m.data().begin());
    return c.engine().call(m, mad::smp_address(r), what + mad::route_text(r));
  }
  mad::Mad m = mad::make_gmp(a.mgmt_class, method, a, at.mod);
  if (body)
    std::copy(body->data().begin(), body->data().end(), m.data().begin());
  else if (at.port && mad::find_field(a, "PortSelect"))
    m.set_attr(a, "PortSelect", *at.port);
  return c.engine().call(m, mad::gsi_address(r.lid), what + "lid " + std::to_string(r.lid));
}

}  // namespace

std::optional<uint32_t> smp_port_modifier(const mad::AttrDef& a, uint8_t port, uint32_t mod) {
  if (&a == &mad::kPortInfo || &a == &mad::kMlnxExtPortInfo) {
    if (mod) return std::nullopt;
    return port;
  }
  if (&a == &mad::kPKeyTable) return (uint32_t{port} << kPKeyPortShift) | mod;
  if (&a == &mad::kVlArbTable) return (mod << kVlArbBlockShift) | port;
  return std::nullopt;
}

mad::Mad read_attribute(MadClient& c, const mad::Route& r, const AttrAccess& at) {
  return exchange(c, r, at, mad::kGet, nullptr);
}

mad::Mad write_attribute(MadClient& c, const mad::Route& r, const AttrAccess& at,
                         std::span<const mad::Assignment> changes, std::span<const uint8_t> raw) {
  mad::Mad body = exchange(c, r, at, mad::kGet, nullptr);
  mad::prepare_set(*at.def, body.data());
  for (const mad::Assignment& change : changes) mad::store(change, body.data());
  std::copy(raw.begin(), raw.end(), body.data().begin());
  return exchange(c, r, at, mad::kSet, &body);
}

std::vector<std::string> not_taken(const mad::AttrDef& a, std::span<const mad::Assignment> changes,
                                   std::span<const uint8_t> answer) {
  std::vector<std::string> out;
  for (const mad::Assignment& s : changes) {
    if (!mad::reads_back(a, s)) continue;
    uint64_t has = mad::load(s, answer);
    if (has == s.value) continue;
    std::string name = s.field->name;
    if (s.field->count > 1) name += "[" + std::to_string(s.index) + "]";
    const mad::FieldDef& f = *s.field;
    if (f.fmt == mad::Fmt::Key)  // a key is not shown without -K
      out.push_back(name + " (it has another)");
    else
      out.push_back(name + "=" + mad::value_text(f.fmt, s.value, f.width) + " (it has " +
                    mad::value_text(f.fmt, has, f.width) + ")");
  }
  return out;
}

}  // namespace rdma::ib
