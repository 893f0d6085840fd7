// Which agent answers an attribute, asked by the front end's words (rdma
// mad get names any attribute) without naming a management class.
#pragma once

#include "lib/mad/field.h"

namespace rdma::mad {

// An SMP attribute (by LID or directed route).
inline bool is_smp(const AttrDef& a) {
  return a.mgmt_class == kClassSmiLid;
}

// An SA record (SubnAdm), not an attribute a port's agent answers.
inline bool is_sa_record(const AttrDef& a) {
  return a.mgmt_class == kClassSa;
}

}  // namespace rdma::mad
