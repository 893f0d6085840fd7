#include "lib/choices.h"

#include <algorithm>
#include <cctype>

namespace rdma {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

// Damerau-Levenshtein (optimal string alignment): "shwo" is one edit from
// "show". Letter case is no edit: attribute and field names are taken in
// any case ("nodeinfp" is a typo of "NodeInfo").
size_t edits(std::string_view word, std::string_view choice) {
  const std::string a = lower(word), b = lower(choice);
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& choices) {
  const size_t most = std::max<size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  size_t best_edits = most + 1;
  for (const std::string& c : choices) {
    size_t e = edits(word, c);
    if (e < best_edits) {
      best_edits = e;
      best = c;
    }
  }
  return best;
}

std::string or_list(const std::vector<std::string>& choices) {
  std::string s;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i) s += i + 1 == choices.size() ? " or " : ", ";
    s += choices[i];
  }
  return s;
}

std::string unknown_word(std::string_view what, std::string_view word,
                         const std::vector<std::string>& choices) {
  std::string s = "unknown " + std::string(what) + " \"" + std::string(word) + "\"";
  if (!choices.empty()) s += " (" + or_list(choices) + ")";
  if (std::optional<std::string> c = closest(word, choices)) s += "; did you mean \"" + *c + "\"?";
  return s;
}

}  // namespace rdma
