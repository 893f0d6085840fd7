// SMInfo changes, as sminfo's set forms make them: the SM's SMInfo read,
// the fields asked changed, written with the control packet (IBA 14.4.1)
// as its AttributeModifier.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lib/ib/client.h"
#include "lib/mad/mad.h"

namespace rdma::ib {

struct SmInfoChange {
  std::optional<uint64_t> priority, state, activity;  // Priority, SMState, ActCount
  uint32_t control = 0;  // 0: none; else the control packet's index + 1
};

// The answer to the Set. A Set refused or unanswered is an Error naming
// what (the SM's route) and how.
mad::Mad set_sm_info(MadClient& c, const mad::Route& r, const SmInfoChange& change,
                     const std::string& what);

}  // namespace rdma::ib
