// Numbers as the command line writes them: bounded unsigned values and
// lists of them ("1-10", "1,4,8"), one reader for every word that is one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/choices.h"

namespace rdma {

// What a word that is a number may be. The defaults: decimal digits only,
// any uint64_t.
struct NumberRule {
  uint64_t min = 0;
  uint64_t max = UINT64_MAX;
  // Also 0x hex and 0 octal, as strtoul(s, nullptr, 0): the words that
  // always took hex (LIDs, attribute modifiers, P_Keys, thresholds).
  bool c_bases = false;
  // Leading white space and a sign, as strtoul and stoi skip them; kept for
  // the words whose parser took them ("-w ' 5'", "rxe0/+1"). A '-' is only
  // good before 0, since no range here reaches a wrapped negative number.
  bool blanks_and_sign = false;
};

// The value, or nullopt when word is not a number of the rule.
std::optional<uint64_t> parse_number(std::string_view word, const NumberRule& rule);

// The value; UsageError "invalid NAME "WORD" (expected MIN-MAX)" otherwise.
uint64_t need_number(const std::string& word, const std::string& name, const NumberRule& rule);

// "N", "N-M" and comma-separated lists of them ("1-3,7"), each number of the
// rule, in the order written (a range ascending, M >= N, of at most 65536
// numbers); nullopt when malformed. The rule's sign is not for lists.
std::optional<std::vector<uint64_t>> parse_number_list(std::string_view word,
                                                       const NumberRule& rule);

// The list; UsageError "invalid NAME "WORD" (expected N, N-M or a list of
// them, each MIN-MAX)" otherwise.
std::vector<uint64_t> need_number_list(const std::string& word, const std::string& name,
                                       const NumberRule& rule);

// "DEV" or "DEV/PORT", split at the first '/'. The callers name what is
// wrong in words of their own.
struct DevPort {
  std::string dev;                       // before the '/' (empty: none)
  std::optional<std::string> port_text;  // after it; nullopt without a '/'
  std::optional<uint32_t> port;          // port_text as a number of the rule
  bool port_bad() const { return port_text && !port; }
};
// port_rule.max is at most UINT32_MAX.
DevPort parse_dev_port(std::string_view spec, const NumberRule& port_rule);

// The value of `via`: DEV or DEV/PORT (PORT 0-254), checked as a word
// (UsageError); a device or port that does not exist is found when the port
// is opened.
const std::string& check_via(const std::string& via);

}  // namespace rdma
