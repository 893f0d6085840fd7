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

}  // namespace rdma
