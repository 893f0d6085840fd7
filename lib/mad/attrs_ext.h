// What `rdma mad get` and `mad set` read beyond the attributes discovery
// uses (PortInfoExtended), and how they choose an attribute from a word: a
// known one, or an SMP attribute id no table here describes, read and
// written raw.
#pragma once

#include <cstdint>
#include <string_view>

#include "lib/mad/field.h"

namespace rdma::mad {

// IBA 1.3's per-port FEC modes (smpquery's portinfoextended);
// AttributeModifier = port.
extern const AttrDef kPortInfoExtended;

// find_attr's attribute (def), or, for an SMP attribute id no table here
// describes (a vendor's 0xff91), none (def null, its id): the command reads
// and writes its 64 bytes raw. Throws UsageError as find_attr does.
struct AttrChoice {
  const AttrDef* def = nullptr;
  uint16_t id = 0;
};
AttrChoice choose_attr(std::string_view word);

// A fieldless SMP attribute for id (the raw one of AttrChoice); name
// points at the caller's storage, e.g. "0xff91".
inline AttrDef raw_smp_attr(const char* name, uint16_t id) {
  return {name, id, kClassSmiLid, 64, {}};
}

}  // namespace rdma::mad
