// Any attribute read or written whole, as rdma mad get and mad set (and
// smpquery, perfquery's raw forms) do: an SMP by the route, a PMA's GMP
// to the route's LID. The front end names the attribute, the modifier or
// port and the fields; the MADs are built here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/ib/client.h"
#include "lib/mad/assign.h"
#include "lib/mad/field.h"
#include "lib/mad/mad.h"

namespace rdma::ib {

struct AttrAccess {
  const mad::AttrDef* def = nullptr;
  uint32_t mod = 0;  // the AttributeModifier as given
  // A PMA attribute's PortSelect; an SMP attribute's port where its
  // modifier holds one (smp_port_modifier).
  std::optional<uint8_t> port;
};

// The AttributeModifier of a port-indexed SMP attribute for port, mod
// holding the rest (a table's block): PortInfo and MlnxExtPortInfo take
// the port alone, PKeyTable the port above the block, VLArbitrationTable
// the block above the port. nullopt for an attribute whose modifier holds
// no port, or a PortInfo modifier given besides the port.
std::optional<uint32_t> smp_port_modifier(const mad::AttrDef& a, uint8_t port, uint32_t mod);

// The attribute as the target has it. Throws MadError.
mad::Mad read_attribute(MadClient& c, const mad::Route& r, const AttrAccess& at);

// The attribute read, what a read value means written made "no change"
// (mad::prepare_set), the changes stored, raw's bytes (an attribute
// without a decoder) at its start, written; the answer. Throws MadError.
mad::Mad write_attribute(MadClient& c, const mad::Route& r, const AttrAccess& at,
                         std::span<const mad::Assignment> changes, std::span<const uint8_t> raw);

// What the answer to a Set (the attribute as the node now has it) says the
// node did not take: each change whose field reads back (mad::reads_back)
// and holds another value, as "Field=asked (it has value)" in the field's
// format ("OperationalVLs=VL0-7 (it has VL0-3)"); a key as
// "M_Key (it has another)", since keys are shown only with -K.
std::vector<std::string> not_taken(const mad::AttrDef& a, std::span<const mad::Assignment> changes,
                                   std::span<const uint8_t> answer);

}  // namespace rdma::ib
