// Numbers as people and files write them: bounded unsigned values and lists
// of them ("1-10", "1,4,8"). The one reader for every word, value or field
// that is a number, in lib/ and in the front end alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdma::view {

// What a word that is a number may be. The defaults: decimal digits only,
// any uint64_t.
struct NumberRule {
  uint64_t min = 0;
  uint64_t max = UINT64_MAX;
  // Also 0x hex and 0 octal, as strtoul(s, nullptr, 0): the words that
  // always took hex (LIDs, attribute modifiers, P_Keys, thresholds).
  bool c_bases = false;
  // Hex digits, a 0x before them optional: keys and GUIDs written in hex
  // (FRMR pool keys, GUIDs in topology files). Over c_bases.
  bool hex = false;
  // Leading white space and a sign, as strtoul and stoi skip them; kept for
  // the words whose parser took them ("-w ' 5'", "rxe0/+1"). A '-' is only
  // good before 0, since no range here reaches a wrapped negative number.
  bool blanks_and_sign = false;
  // Characters the word may not begin with, though blanks_and_sign takes a
  // sign after blanks: the words whose parser refused a leading '-' (or
  // '+', ' ') before strtoul skipped blanks and read a sign.
  std::string_view not_first = {};
};

// The value, or nullopt when word is not a number of the rule.
std::optional<uint64_t> parse_number(std::string_view word, const NumberRule& rule);

// "N", "N-M" and comma-separated lists of them ("1-3,7"), each number of the
// rule, in the order written (a range ascending, M >= N, of at most 65536
// numbers); nullopt when malformed. The rule's sign is not for lists.
std::optional<std::vector<uint64_t>> parse_number_list(std::string_view word,
                                                       const NumberRule& rule);

// v as 0x and lowercase hex digits, at least `digits` of them (zeros first):
// the one hex formatter (LIDs 0x%04x, attribute modifiers 0x%08x, GUIDs 16).
std::string hex_text(uint64_t v, unsigned digits = 0);

}  // namespace rdma::view
