// SMInfo read by SMP or from the SA's SMInfoRecord, and decoded; SMInfo
// changes, as sminfo's set forms make them: the SM's SMInfo read, the
// fields asked changed, written with the control packet (IBA 14.4.1) as
// its AttributeModifier.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/ib/client.h"
#include "lib/mad/mad.h"
#include "lib/mad/target.h"
#include "lib/view/record.h"

namespace rdma::ib {

// The SMInfo of the port at r. Throws MadError.
mad::Mad read_sm_info(MadClient& c, const mad::Route& r);

// The SMInfoRecord of t's LID: its LID and the SMInfo it carries. Throws
// Error when the SA has none.
struct SaSmInfo {
  uint16_t lid = 0;
  std::vector<uint8_t> info;
};
SaSmInfo read_sm_info_sa(MadClient& c, const mad::Target& t);

// SMInfo's fields decoded into out at detail (SM_Key in clear only with
// show_keys).
void add_sm_info(std::span<const uint8_t> sm_info, int detail, bool show_keys, view::Record& out);

struct SmInfoChange {
  std::optional<uint64_t> priority, state, activity;  // Priority, SMState, ActCount
  uint32_t control = 0;  // 0: none; else the control packet's index + 1
};

// The answer to the Set. A Set refused or unanswered is an Error naming
// what (the SM's route) and how.
mad::Mad set_sm_info(MadClient& c, const mad::Route& r, const SmInfoChange& change,
                     const std::string& what);

}  // namespace rdma::ib
