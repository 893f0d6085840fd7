#include "lib/res/filter.h"

#include <arpa/inet.h>
#include <strings.h>

#include <cctype>

#include "lib/error.h"

namespace rdma::res {

namespace {

[[noreturn]] void bad_number(std::string_view key, std::string_view value, const char* why) {
  throw UsageError("invalid value \"" + std::string(value) + "\" for " + std::string(key) + ": " +
                   why + " (expected numbers and ranges such as 1,4-6,0x10)");
}

// One number, decimal or 0x hex, all of `s`.
uint64_t parse_one(std::string_view key, std::string_view value, std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) bad_number(key, value, "empty number");
  uint64_t v = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      bad_number(key, value, "not a number");
    if (v > (UINT64_MAX - d) / base) bad_number(key, value, "number too large");
    v = v * base + d;
  }
  return v;
}

std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

bool same(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

constexpr const char* kDevTypes[] = {"infiniband", "ether"};
constexpr const char* kTransports[] = {"ib", "iwarp", "usnic", "usnic_udp", "unspecified"};

template <size_t N>
bool one_of(std::string_view w, const char* const (&names)[N], std::string& list) {
  list.clear();
  for (const char* n : names) {
    if (same(w, n)) return true;
    if (!list.empty()) list += ", ";
    list += n;
  }
  return false;
}

// Checks (and for addresses normalizes) one word of a string filter.
std::string check_word(const FilterKey& k, std::string_view w) {
  std::string list;
  auto reject = [&](const std::string& expected) {
    throw UsageError("invalid value \"" + std::string(w) + "\" for " + k.name + " (expected " +
                     expected + ")");
  };
  if (w.empty()) throw UsageError(std::string("empty value in the list given for ") + k.name);
  switch (k.src) {
    case Src::kName:
      if (!k.names->known(w)) reject(k.names->list());
      break;
    case Src::kPortSpace:
      if (!port_space_known(w)) reject("IPoIB, IB, TCP, UDP");
      break;
    case Src::kDevType:
      if (!one_of(w, kDevTypes, list)) reject(list);
      break;
    case Src::kTransportType:
      if (!one_of(w, kTransports, list)) reject(list);
      break;
    case Src::kAddr: {
      // Compare addresses, not spellings: "2001:DB8:0::1" is "2001:db8::1".
      std::string s(w);
      unsigned char buf[16];
      char text[INET6_ADDRSTRLEN];
      int af = inet_pton(AF_INET, s.c_str(), buf) == 1    ? AF_INET
               : inet_pton(AF_INET6, s.c_str(), buf) == 1 ? AF_INET6
                                                          : 0;
      if (!af) reject("an IPv4 or IPv6 address");
      inet_ntop(af, buf, text, sizeof text);
      return text;
    }
    default:
      break;
  }
  return std::string(w);
}

}  // namespace

std::vector<Range> parse_numbers(std::string_view key, std::string_view value) {
  if (value.empty()) bad_number(key, value, "empty value");
  std::vector<Range> out;
  for (std::string_view item : split(value)) {
    if (item.empty()) bad_number(key, value, "empty item");
    size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      uint64_t v = parse_one(key, value, item);
      out.push_back({v, v});
      continue;
    }
    uint64_t lo = parse_one(key, value, item.substr(0, dash));
    uint64_t hi = parse_one(key, value, item.substr(dash + 1));
    if (lo > hi) bad_number(key, value, "range ends below its start");
    out.push_back({lo, hi});
  }
  return out;
}

bool Filter::match(uint64_t v) const {
  for (const Range& r : ranges)
    if (v >= r.lo && v <= r.hi) return true;
  return false;
}

bool Filter::match(std::string_view s) const {
  for (const std::string& w : words)
    if (same(w, s)) return true;
  return false;
}

std::optional<uint64_t> Filter::single() const {
  if (ranges.size() != 1 || ranges[0].lo != ranges[0].hi) return std::nullopt;
  return ranges[0].lo;
}

const FilterKey& find_key(std::span<const FilterKey> keys, const std::string& key) {
  const FilterKey* k = nullptr;
  for (const FilterKey& c : keys)
    if (key == c.name) k = &c;
  for (const FilterKey& c : keys) {
    if (k) break;
    if (!key.empty() && std::string_view(c.name).starts_with(key)) k = &c;
  }
  if (!k) {
    std::string list;
    for (const FilterKey& c : keys) {
      if (!list.empty()) list += ", ";
      list += c.name;
    }
    throw UsageError("unknown filter \"" + key + "\" (expected one of " + list + ")");
  }
  return *k;
}

void Filters::add(const FilterKey& key, const std::string& value) {
  const FilterKey* k = &key;
  if (get(k->name)) throw UsageError(std::string("filter ") + k->name + " is given twice");
  Filter f{k, value, {}, {}};
  if (k->numeric()) {
    f.ranges = parse_numbers(k->name, value);
  } else {
    if (value.empty()) throw UsageError(std::string("empty value for ") + k->name);
    for (std::string_view w : split(value)) f.words.push_back(check_word(*k, w));
  }
  filters_.push_back(std::move(f));
}

const Filter* Filters::get(std::string_view name) const {
  for (const Filter& f : filters_)
    if (name == f.key->name) return &f;
  return nullptr;
}

const char* dev_type_name(std::string_view protocol) {
  return protocol == "ib" || protocol == "opa" ? "infiniband" : "ether";
}

const char* transport_name(uint8_t node_type) {
  switch (node_type) {
    case 1:  // RDMA_NODE_IB_CA
    case 2:  // RDMA_NODE_IB_SWITCH
    case 3:  // RDMA_NODE_IB_ROUTER
      return "ib";
    case 4:
      return "iwarp";  // RDMA_NODE_RNIC
    case 5:
      return "usnic";  // RDMA_NODE_USNIC
    case 6:
      return "usnic_udp";  // RDMA_NODE_USNIC_UDP
    default:
      return "unspecified";
  }
}

}  // namespace rdma::res
