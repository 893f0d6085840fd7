#include "rdma/words.h"

#include <algorithm>

#include "lib/error.h"

namespace rdma {

namespace {

std::string range_text(const view::NumberRule& r) {
  return std::to_string(r.min) + "-" + std::to_string(r.max);
}

}  // namespace

uint64_t need_number(const std::string& word, const std::string& name,
                     const view::NumberRule& rule) {
  std::optional<uint64_t> v = view::parse_number(word, rule);
  if (!v)
    throw UsageError("invalid " + name + " \"" + word + "\" (expected " + range_text(rule) + ")");
  return *v;
}

std::vector<uint64_t> need_number_list(const std::string& word, const std::string& name,
                                       const view::NumberRule& rule) {
  std::optional<std::vector<uint64_t>> v = view::parse_number_list(word, rule);
  if (!v)
    throw UsageError("invalid " + name + " \"" + word +
                     "\" (expected N, N-M or a list of them, each " + range_text(rule) + ")");
  return std::move(*v);
}

DevPort parse_dev_port(std::string_view spec, const view::NumberRule& port_rule) {
  DevPort d;
  size_t slash = spec.find('/');
  d.dev = spec.substr(0, slash);
  if (slash == std::string_view::npos) return d;
  d.port_text = spec.substr(slash + 1);
  if (std::optional<uint64_t> v = view::parse_number(*d.port_text, port_rule))
    d.port = static_cast<uint32_t>(*v);
  return d;
}

const std::string& check_via(const std::string& via) {
  DevPort d = parse_dev_port(via, {.max = 254});
  if (d.dev.empty())
    throw UsageError("missing device name in \"via " + via + "\" (expected DEV or DEV/PORT)");
  if (d.port_bad())
    throw UsageError("invalid port \"" + *d.port_text + "\" in \"via " + via +
                     "\" (expected DEV/PORT)");
  return via;
}

namespace {

// Damerau-Levenshtein (optimal string alignment): "shwo" is one edit from
// "show".
size_t edits(std::string_view a, std::string_view b) {
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
