// The message of a word that is none of its choices (a command, a keyword,
// a counter, an attribute or field name), the same wherever the word is
// read: the choices listed and the closest one suggested.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdma {

// The choice word is closest to, when it is close enough to be a typo of
// it: at most one edit (a letter added, dropped, changed, or two swapped)
// per three letters of the word, at least one, letter case aside; nullopt
// otherwise. Ties go to the first in order.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& choices);

// "unknown WHAT "WORD" (A, B or C)", with "; did you mean "X"?" when one is
// closest(): the message of every word that is none of its choices.
std::string unknown_word(std::string_view what, std::string_view word,
                         const std::vector<std::string>& choices);

// "A, B or C" ("A" alone, "A or B").
std::string or_list(const std::vector<std::string>& choices);

}  // namespace rdma
