// FIELD=VALUE words (`rdma mad set`, `rdma cc set`) turned into a field of
// an attribute and a value that fits it, and applied to the attribute's
// bytes: only this file and the field tables know where a field lives.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "lib/mad/field.h"

namespace rdma::mad {

struct Assignment {
  const FieldDef* field = nullptr;
  unsigned index = 0;  // the element of a table: "P_KeyTableBlock[3]=0x8001"
  uint64_t value = 0;
};

// Reads "Name=Value" or "Name[i]=Value" against a's fields (the IBA name
// or the key decode prints, exact or case-blind). The value: a number (decimal or 0x hex) that fits
// the field's width, or the text decode shows for it ("ACTIVE", "4X",
// "2048", "1X,4X"). Throws UsageError naming what is wrong: no '=', a field
// a has not (listing the ones it has), an element past the table, a value
// out of the field's range, a field that is no number (GIDs, strings).
Assignment parse_assignment(const AttrDef& a, std::string_view word);

// Appends s to changes; UsageError when changes already sets that field's
// element ("\"OperationalVLs\" given twice"): one of the values would be
// lost without a word.
void add_assignment(std::vector<Assignment>& changes, const Assignment& s);

// Stores the value in attr (a's bytes).
void store(const Assignment& s, std::span<uint8_t> attr);

// The value s's field (and element) holds in attr.
uint64_t load(const Assignment& s, std::span<const uint8_t> attr);

// Whether the reply to a Set shows the value s wrote when the node took
// it, so that a differing value there is a write the node did not take.
// Not so where a value written asks an action or "no change" rather than
// naming a state: PortInfo's PortState, PortPhysicalState and
// ClientReregister, 0 in its enable masks, OperationalVLs and
// LinkDownDefaultState, the masks' "every supported one"; SMInfo (its
// modifier is the action); a PMA's attributes (a Set clears or starts);
// SA records (a Set adds a record).
bool reads_back(const AttrDef& a, const Assignment& s);

// An attribute as read made the base of a Set, before the fields named are
// stored: where a value read means something else written, the value that
// changes nothing. PortInfo's PortState and PortPhysicalState read the
// port's state but write a transition (0: none; ACTIVE over ACTIVE, or
// LINK_UP, is refused), as ibportstate clears them; a PMA counter
// attribute's counters (every field but PortSelect, OpCode and the
// CounterSelects) are written as 0, so CounterSelect clears them, as
// perfquery -R. Other attributes are written as read.
void prepare_set(const AttrDef& a, std::span<uint8_t> attr);

}  // namespace rdma::mad
