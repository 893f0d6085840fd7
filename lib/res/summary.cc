#include "lib/res/summary.h"

#include <string>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"

namespace rdma::res {

void summary_record(const nlmsghdr* nlh, view::Record& r) {
  nl::Attrs a = nl::Attrs::of_message(nlh);
  if (!a.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !a.has(RDMA_NLDEV_ATTR_DEV_NAME) ||
      !a.has(RDMA_NLDEV_ATTR_RES_SUMMARY))
    throw Error("malformed kernel reply: resource summary without device or RES_SUMMARY");
  r.clear();
  uint32_t index = a.u32(RDMA_NLDEV_ATTR_DEV_INDEX);
  std::string name(a.str(RDMA_NLDEV_ATTR_DEV_NAME));
  r.add("ifindex", std::to_string(index) + ": ", index);
  r.add("ifname", name + ": ", name);
  nl::for_each_nested(a.get(RDMA_NLDEV_ATTR_RES_SUMMARY), [&](const nlattr* e) {
    if (mnl_attr_get_type(e) != RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY) return;
    nl::Attrs s = nl::Attrs::of_nest(e);
    if (!s.has(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME) ||
        !s.has(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR))
      throw Error("malformed kernel reply: resource summary entry without name or count");
    std::string key(s.str(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME));
    uint64_t curr = s.u64(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR);
    r.pair(key, curr);
  });
}

}  // namespace rdma::res
