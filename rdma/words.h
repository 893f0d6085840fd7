// The command line's words: numbers read by lib/view/number.h with the
// messages that name the word, DEV/PORT, and the choices a word may be.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/choices.h"
#include "lib/view/number.h"

namespace rdma {

// The value; UsageError "invalid NAME "WORD" (expected MIN-MAX)" otherwise.
uint64_t need_number(const std::string& word, const std::string& name,
                     const view::NumberRule& rule);

// The list; UsageError "invalid NAME "WORD" (expected N, N-M or a list of
// them, each MIN-MAX)" otherwise.
std::vector<uint64_t> need_number_list(const std::string& word, const std::string& name,
                                       const view::NumberRule& rule);

// "DEV" or "DEV/PORT", split at the first '/'. The callers name what is
// wrong in words of their own.
struct DevPort {
  std::string dev;                       // before the '/' (empty: none)
  std::optional<std::string> port_text;  // after it; nullopt without a '/'
  std::optional<uint32_t> port;          // port_text as a number of the rule
  bool port_bad() const { return port_text && !port; }
};
// port_rule.max is at most UINT32_MAX.
DevPort parse_dev_port(std::string_view spec, const view::NumberRule& port_rule);

// The value of `via`: DEV or DEV/PORT (PORT 0-254), checked as a word
// (UsageError); a device or port that does not exist is found when the port
// is opened.
const std::string& check_via(const std::string& via);

}  // namespace rdma
