// rdma statistic mr [show] [dev DEV] [mrn N]: per-MR statistics (the MR
// numbers, and the driver's counters when it has any). Both word orders,
// "stat mr show" and "stat show mr", work; dev and mrn filter.
#include <rdma/rdma_netlink.h>

#include <optional>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nldev/devices.h"
#include "lib/stat/filter.h"
#include "lib/stat/hwcounters.h"
#include "rdma/stat.h"

namespace rdma {

void stat_mr(Ctx& c) {
  if (!c.args.empty() && (matches(c.args.peek(), "show") || matches(c.args.peek(), "list")))
    c.args.next();
  std::optional<std::string> dev;
  std::optional<stat::NumberFilter> mrn;
  while (!c.args.empty()) {
    std::string key = c.args.next();
    if (key == "help") return stat_help(c);
    std::string value = c.args.need(("a value after \"" + key + "\"").c_str());
    if (key == "dev" && !dev)
      dev = value;
    else if (key == "mrn" && !mrn)
      mrn.emplace(key, value);
    else
      throw UsageError("unknown or repeated parameter \"" + key +
                       "\" (stat mr takes dev DEV, mrn N)");
  }

  std::vector<nldev::Device> devs;
  if (dev)
    devs.push_back(nldev::find_device(c.session(), *dev));
  else
    devs = nldev::list_devices(c.session());

  view::Record r;
  for (const nldev::Device& d : devs) {
    nl::Request req(RDMA_NLDEV_CMD_STAT_GET, nl::Request::kDump);
    req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index)
        .u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_MR);
    c.session().run(req, [&](const nlmsghdr* nlh) {
      nl::Attrs a = nl::Attrs::of_message(nlh);
      if (!a.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !a.has(RDMA_NLDEV_ATTR_DEV_NAME) ||
          !a.has(RDMA_NLDEV_ATTR_RES_MR))
        throw Error("malformed kernel reply: MR statistics without device or MR table");
      uint32_t index = a.u32(RDMA_NLDEV_ATTR_DEV_INDEX);
      std::string name(a.str(RDMA_NLDEV_ATTR_DEV_NAME));
      nl::for_each_nested(a.get(RDMA_NLDEV_ATTR_RES_MR), [&](const nlattr* entry) {
        nl::Attrs m = nl::Attrs::of_nest(entry);
        bool has_mrn = m.has(RDMA_NLDEV_ATTR_RES_MRN);
        uint32_t n = m.u32(RDMA_NLDEV_ATTR_RES_MRN);
        if (mrn && (!has_mrn || !mrn->match(n))) return;
        r.clear();
        r.add("ifindex", "", index);
        r.add("ifname", "dev " + name + " ", name);
        if (has_mrn) r.pair("mrn", n);
        if (m.has(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS))
          stat::add_counters_from(m.get(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS), r);
        c.out.record(r);
      });
    });
  }
}

}  // namespace rdma
