#include "rdma/words.h"

#include <algorithm>

#include "lib/error.h"

namespace rdma {

namespace {

int digit_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return 99;
}

bool is_blank(char ch) {
  return ch == ' ' || (ch >= '\t' && ch <= '\r');  // isspace() in the C locale
}

// Lists are of ports and the like; a longer range is a typing mistake, not a
// reason to fill memory.
constexpr uint64_t kMaxRange = 65536;

std::string range_text(const NumberRule& r) {
  return std::to_string(r.min) + "-" + std::to_string(r.max);
}

}  // namespace

std::optional<uint64_t> parse_number(std::string_view s, const NumberRule& rule) {
  size_t i = 0;
  bool negative = false;
  if (rule.blanks_and_sign) {
    while (i < s.size() && is_blank(s[i])) ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  }
  unsigned base = 10;
  if (rule.c_bases && i < s.size() && s[i] == '0') {
    // "0x" needs a hex digit after it: strtoul reads "0x" alone as 0 and
    // stops at the x, which the caller then rejects as trailing text.
    if (i + 2 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X') && digit_value(s[i + 2]) < 16) {
      base = 16;
      i += 2;
    } else {
      base = 8;
    }
  }
  if (i >= s.size()) return std::nullopt;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    unsigned d = static_cast<unsigned>(digit_value(s[i]));
    if (d >= base) return std::nullopt;
    if (v > (UINT64_MAX - d) / base) return std::nullopt;  // overflow
    v = v * base + d;
  }
  if (negative && v != 0) return std::nullopt;
  if (v < rule.min || v > rule.max) return std::nullopt;
  return v;
}

uint64_t need_number(const std::string& word, const std::string& name, const NumberRule& rule) {
  std::optional<uint64_t> v = parse_number(word, rule);
  if (!v)
    throw UsageError("invalid " + name + " \"" + word + "\" (expected " + range_text(rule) + ")");
  return *v;
}

std::optional<std::vector<uint64_t>> parse_number_list(std::string_view s, const NumberRule& rule) {
  std::vector<uint64_t> out;
  size_t b = 0;
  for (;;) {
    size_t e = s.find(',', b);
    std::string_view item = s.substr(b, e == std::string_view::npos ? e : e - b);
    size_t dash = item.find('-');
    std::optional<uint64_t> lo = parse_number(item.substr(0, dash), rule);
    std::optional<uint64_t> hi = lo;
    if (dash != std::string_view::npos) hi = parse_number(item.substr(dash + 1), rule);
    if (!lo || !hi || *hi < *lo || *hi - *lo >= kMaxRange) return std::nullopt;
    for (uint64_t v = *lo;; ++v) {
      out.push_back(v);
      if (v == *hi) break;
    }
    if (e == std::string_view::npos) return out;
    b = e + 1;
  }
}

std::vector<uint64_t> need_number_list(const std::string& word, const std::string& name,
                                       const NumberRule& rule) {
  std::optional<std::vector<uint64_t>> v = parse_number_list(word, rule);
  if (!v)
    throw UsageError("invalid " + name + " \"" + word +
                     "\" (expected N, N-M or a list of them, each " + range_text(rule) + ")");
  return std::move(*v);
}

DevPort parse_dev_port(std::string_view spec, const NumberRule& port_rule) {
  DevPort d;
  size_t slash = spec.find('/');
  d.dev = spec.substr(0, slash);
  if (slash == std::string_view::npos) return d;
  d.port_text = spec.substr(slash + 1);
  if (std::optional<uint64_t> v = parse_number(*d.port_text, port_rule))
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
