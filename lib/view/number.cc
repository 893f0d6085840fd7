#include "lib/view/number.h"

#include <cinttypes>
#include <cstdio>

namespace rdma::view {

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

bool is_0x(std::string_view s, size_t i) {
  return i + 1 < s.size() && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
}

// Lists are of ports and the like; a longer range is a typing mistake, not a
// reason to fill memory.
constexpr uint64_t kMaxRange = 65536;

}  // namespace

std::optional<uint64_t> parse_number(std::string_view s, const NumberRule& rule) {
  if (!s.empty() && rule.not_first.find(s[0]) != std::string_view::npos) return std::nullopt;
  size_t i = 0;
  bool negative = false;
  if (rule.blanks_and_sign) {
    while (i < s.size() && is_blank(s[i])) ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  }
  unsigned base = 10;
  if (rule.hex) {
    base = 16;
    if (is_0x(s, i)) i += 2;
  } else if (rule.c_bases && i < s.size() && s[i] == '0') {
    // "0x" needs a hex digit after it: strtoul reads "0x" alone as 0 and
    // stops at the x, which the caller then rejects as trailing text.
    if (is_0x(s, i) && i + 2 < s.size() && digit_value(s[i + 2]) < 16) {
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

std::string hex_text(uint64_t v, unsigned digits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*" PRIx64, static_cast<int>(digits < 16 ? digits : 16), v);
  return buf;
}

}  // namespace rdma::view
