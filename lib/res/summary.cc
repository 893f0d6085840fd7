#include "lib/res/summary.h"

#include <charconv>
#include <cstring>
#include <string>
#include <string_view>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nldev/newer.h"

namespace rdma::res {

namespace {

// A field "text: ", with its key when the record is printed as JSON (null
// for a text printer's record, whose values are not built).
view::Field* put(view::Record& r, const char* key, std::string_view text) {
  view::Field& f = r.next();
  f.text.append(text.data(), text.size()).append(": ", 2);
  if (r.text_only()) return nullptr;
  f.key.assign(key);
  return &f;
}

// One RES_SUMMARY_ENTRY, read in place as "name count " (or "name
// count/max "): the last attribute of a type wins as in nl::Attrs, whose
// table of every type for an entry of two attributes was most of the
// entry's cost.
void put_entry(const nlattr* entry, view::Record& r) {
  const nlattr* name = nullptr;
  const nlattr* curr = nullptr;
  const nlattr* max = nullptr;
  nl::for_each_nested(entry, [&](const nlattr* a) {
    int type = nl::Attrs::type_of(a);
    if (type == RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME)  // a string: any size
      name = a;
    else if (type == RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR &&
             nl::Attrs::payload_len(a) == sizeof(uint64_t))
      curr = a;
    else if (type == nldev::kAttrResSummaryEntryMax)  // newer than lib/nl's policy table
      max = a;
    else
      nl::Attrs::known(a);  // throws for a known attribute of the wrong size
  });
  nl::need({name, curr}, "resource summary entry without name or count");
  if (max && nl::Attrs::payload_len(max) != sizeof(uint64_t))
    throw Error("malformed kernel reply: RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_MAX has " +
                std::to_string(nl::Attrs::payload_len(max)) + " bytes, expected 8");
  auto* p = reinterpret_cast<const char*>(nl::Attrs::payload(name));
  std::string_view key(p, strnlen(p, nl::Attrs::payload_len(name)));
  uint64_t count = nl::Attrs::load<uint64_t>(curr);
  if (!max) return r.pair(key, count);
  uint64_t limit = nl::Attrs::load<uint64_t>(max);
  std::string text = std::to_string(count) + "/" + std::to_string(limit);
  // Text "qp 5/16384 "; JSON "qp": 5 and a JSON-only "qp-max": 16384.
  r.pair(key, text, view::Json(count));
  if (r.text_only()) return;
  view::Field& f = r.next();
  f.key.assign(key).append("-max");
  f.value = limit;
}

}  // namespace

void summary_record(const nlmsghdr* nlh, view::Record& r) {
  nl::Attrs a = nl::Attrs::of_message(nlh);
  a.need({RDMA_NLDEV_ATTR_DEV_INDEX, RDMA_NLDEV_ATTR_DEV_NAME, RDMA_NLDEV_ATTR_RES_SUMMARY},
         "resource summary without device or RES_SUMMARY");
  r.clear();
  uint32_t index = a.u32(RDMA_NLDEV_ATTR_DEV_INDEX);
  std::string_view name = a.str(RDMA_NLDEV_ATTR_DEV_NAME);
  char num[16];
  if (view::Field* f = put(r, "ifindex", {num, std::to_chars(num, num + sizeof num, index).ptr}))
    f->value = index;
  if (view::Field* f = put(r, "ifname", name)) f->value = std::string(name);
  nl::for_each_nested(a.get(RDMA_NLDEV_ATTR_RES_SUMMARY), [&](const nlattr* e) {
    if (nl::Attrs::type_of(e) == RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY) put_entry(e, r);
  });
}

}  // namespace rdma::res
