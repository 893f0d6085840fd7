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

}  // namespace rdma
