#include "lib/stat/hwcounters.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "lib/error.h"

namespace rdma::stat {

namespace {

// "\n    name value ", as iproute2 prints a counter: put together on the
// stack and appended at once (five appends were a counter's dearest part).
void append_counter(std::string& text, std::string_view name, uint64_t value) {
  constexpr std::string_view kIndent = "\n    ";
  char line[128];
  constexpr size_t kRest = kIndent.size() + 1 + 20 + 1;  // and at most 20 digits
  if (name.size() > sizeof line - kRest) {               // longer than any counter's name
    text.append(kIndent).append(name).append(" ").append(std::to_string(value)).append(" ");
    return;
  }
  char* p = std::copy(kIndent.begin(), kIndent.end(), line);
  p = std::copy(name.begin(), name.end(), p);
  *p++ = ' ';
  p = std::to_chars(p, line + sizeof line, value).ptr;
  *p++ = ' ';
  text.append(line, static_cast<size_t>(p - line));
}

// A field a counter, for records printed as JSON (or both).
void add_counter(view::Record& r, std::string_view name, uint64_t value) {
  view::Field& f = r.next();
  append_counter(f.text, name, value);
  f.key.assign(name);
  f.value = value;
}

}  // namespace

HwCounterEntry read_hwcounter(const nlattr* entry, bool need_value) {
  // Read in place, the last attribute of a type winning as in nl::Attrs: a
  // table of every attribute type for each entry was most of a counter's
  // cost. The four attributes of an entry have their size checked here;
  // any other goes through Attrs' own check.
  const nlattr* name = nullptr;
  HwCounterEntry e;
  nl::for_each_nested(entry, [&](const nlattr* a) {
    size_t len = nl::Attrs::payload_len(a);
    switch (nl::Attrs::type_of(a)) {
      case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME:  // a string: any size
        name = a;
        return;
      case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE:
        if (len != sizeof(uint64_t)) break;
        e.value = nl::Attrs::load<uint64_t>(a);
        return;
      case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX:
        if (len != sizeof(uint32_t)) break;
        e.index = nl::Attrs::load<uint32_t>(a);
        return;
      case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC:
        if (len != 1) break;
        e.enabled = *nl::Attrs::payload(a) != 0;
        return;
      default:
        break;
    }
    nl::Attrs::known(a);  // throws for a known attribute of the wrong size
  });
  nl::need({name}, "hardware counter without a name");
  auto* p = reinterpret_cast<const char*>(nl::Attrs::payload(name));
  e.name = {p, strnlen(p, nl::Attrs::payload_len(name))};
  if (!e.value && need_value)
    throw Error("malformed kernel reply: hardware counter \"" + std::string(e.name) +
                "\" without a value");
  return e;
}

std::vector<HwCounter> parse_hwcounters(const nlattr* nest, bool need_value) {
  std::vector<HwCounter> out;
  // Counted first: grown one counter at a time, the vector moved every
  // counter (and its name) again and again.
  size_t n = 0;
  nl::for_each_nested(nest, [&](const nlattr* entry) {
    n += nl::Attrs::type_of(entry) == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY;
  });
  out.reserve(n);
  for_each_hwcounter(nest, need_value, [&](const HwCounterEntry& e) {
    out.push_back({std::string(e.name), e.value.value_or(0), e.index, e.enabled});
  });
  return out;
}

void add_counters(const std::vector<HwCounter>& counters, view::Record& r) {
  if (r.text_only()) {
    // A text printer's record: the printer joins the fields' texts, so one
    // field holds every counter (a field a counter was 4% of a batch line).
    if (counters.empty()) return;
    std::string& text = r.next().text;
    for (const HwCounter& c : counters) append_counter(text, c.name, c.value);
    return;
  }
  for (const HwCounter& c : counters) add_counter(r, c.name, c.value);
}

void add_counters_from(const nlattr* nest, view::Record& r) {
  if (r.text_only()) {
    std::string* text = nullptr;  // the one field, made at the first counter
    for_each_hwcounter(nest, true, [&](const HwCounterEntry& e) {
      if (!text) text = &r.next().text;
      append_counter(*text, e.name, *e.value);
    });
    return;
  }
  for_each_hwcounter(nest, true,
                     [&](const HwCounterEntry& e) { add_counter(r, e.name, *e.value); });
}

}  // namespace rdma::stat
