#include "lib/stat/hwcounters.h"

#include <rdma/rdma_netlink.h>

#include <charconv>

#include "lib/error.h"
#include "lib/nl/attrs.h"

namespace rdma::stat {

std::vector<HwCounter> parse_hwcounters(const nlattr* nest, bool need_value) {
  std::vector<HwCounter> out;
  // Counted first: grown one counter at a time, the vector moved every
  // counter (and its name) again and again.
  size_t n = 0;
  nl::for_each_nested(nest, [&](const nlattr* entry) {
    n += nl::Attrs::type_of(entry) == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY;
  });
  out.reserve(n);
  nl::for_each_nested(nest, [&](const nlattr* entry) {
    if (nl::Attrs::type_of(entry) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY) return;
    nl::Attrs a = nl::Attrs::of_nest(entry);
    if (!a.has(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME))
      throw Error("malformed kernel reply: hardware counter without a name");
    HwCounter c;
    c.name = std::string(a.str(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME));
    if (a.has(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE))
      c.value = a.u64(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE);
    else if (need_value)
      throw Error("malformed kernel reply: hardware counter \"" + c.name + "\" without a value");
    if (a.has(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX))
      c.index = a.u32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX);
    if (a.has(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC))
      c.enabled = a.u8(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC) != 0;
    out.push_back(std::move(c));
  });
  return out;
}

void add_counters(const std::vector<HwCounter>& counters, view::Record& r) {
  // Written straight into the record's field: no temporary strings.
  char num[24];
  if (r.text_only()) {
    // A text printer's record: the printer joins the fields' texts, so one
    // field holds every counter (a field a counter was 4% of a batch line).
    if (counters.empty()) return;
    std::string& text = r.next().text;
    for (const HwCounter& c : counters) {
      char* end = std::to_chars(num, num + sizeof num, c.value).ptr;
      text.append("\n    ").append(c.name).append(" ").append(num, end).append(" ");
    }
    return;
  }
  for (const HwCounter& c : counters) {
    view::Field& f = r.next();
    char* end = std::to_chars(num, num + sizeof num, c.value).ptr;
    f.text.append("\n    ").append(c.name).append(" ").append(num, end).append(" ");
    f.key.assign(c.name);
    f.value = c.value;
  }
}

}  // namespace rdma::stat
