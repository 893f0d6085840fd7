// res_get_common_doit / res_get_common_dumpit of nldev.c, generic over the
// resource type; used by RES_*_GET and by STAT_GET for QP counters and MRs.
#pragma once

#include <cerrno>
#include <functional>

#include "lib/testing/kernel/fill.h"
#include "lib/testing/kernel/testkernel.h"

namespace rdma::testkernel {

template <typename T>
struct ResSpec {
  const ResTable<T> Device::*table;
  uint16_t table_attr;  // RDMA_NLDEV_ATTR_RES_QP, ...
  uint16_t entry_attr;  // RDMA_NLDEV_ATTR_RES_QP_ENTRY, ...
  uint16_t id_attr;     // RDMA_NLDEV_ATTR_RES_LQPN, ...
  bool per_dev;         // NLDEV_PER_DEV: no PORT_INDEX filter allowed in doit
  std::function<int(Skb&, bool net_admin, const Device&, const T&, uint32_t port)> fill;
};

struct ResCmd {
  template <typename T>
  static int doit(TestKernel& k, const nlmsghdr* nlh, Extack* ext, const ResSpec<T>& fe) {
    Attrs tb;
    int ret = k.parse(nlh, false, &tb, ext);
    if (ret || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !tb.has(fe.id_attr)) return -EINVAL;
    const Device* dev = k.lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
    if (!dev) return -EINVAL;
    uint32_t port = 0;
    if (tb.has(RDMA_NLDEV_ATTR_PORT_INDEX)) {
      port = tb.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
      if (port < 1 || port > dev->ports.size()) return -EINVAL;
    }
    if ((port && fe.per_dev) || (!port && !fe.per_dev)) return -EINVAL;
    std::optional<T> res = (dev->*fe.table).find(tb.u32(fe.id_attr));
    if (!res) return -ENOENT;
    Skb skb = k.reply_skb();
    if (!k.reply_header(skb, nlh, RDMA_NL_GET_OP(nlh->nlmsg_type)) || fill_nldev_handle(skb, *dev))
      return -EMSGSIZE;
    if ((ret = fe.fill(skb, k.opts.net_admin, *dev, *res, port))) return ret;
    k.unicast(skb);
    return 0;
  }

  template <typename T>
  static TestKernel::DumpFn dump(TestKernel& k, ResSpec<T> fe) {
    return [&k, fe](Skb& skb, const nlmsghdr* req, long& args) {
      Attrs tb;
      if (k.parse(req, false, &tb, nullptr) || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX)) return -EINVAL;
      const Device* dev = k.lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
      if (!dev) return -EINVAL;
      bool show_details = tb.has(nldev::kAttrDriverDetails) && tb.u8(nldev::kAttrDriverDetails);
      uint32_t port = 0;
      if (tb.has(RDMA_NLDEV_ATTR_PORT_INDEX)) {
        port = tb.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
        if (port < 1 || port > dev->ports.size()) return -EINVAL;
      }
      if (!skb.put_msg(k.opts.port_id, req->nlmsg_seq, req->nlmsg_type, NLM_F_MULTI) ||
          fill_nldev_handle(skb, *dev)) {
        skb.cancel_msg();
        return -EMSGSIZE;
      }
      size_t table = skb.nest_start(fe.table_attr, false);
      if (table == Skb::kNoRoom) {
        skb.cancel_msg();
        return -EMSGSIZE;
      }
      const ResTable<T>& rt = dev->*fe.table;
      bool filled = false;
      int ret = 0;
      // idx counts every entry, skipped ones too, so it equals the position.
      size_t idx = static_cast<size_t>(args);
      for (; idx < rt.size(); ++idx) {
        T res = rt.at(idx);
        if (res.driver_detail && !show_details) continue;
        filled = true;
        size_t entry = skb.nest_start(fe.entry_attr, false);
        if (entry == Skb::kNoRoom) {
          ret = -EMSGSIZE;
          break;
        }
        ret = fe.fill(skb, k.opts.net_admin, *dev, res, port);
        if (ret) {
          skb.truncate(entry);
          if (ret == -EMSGSIZE) break;
          if (ret == -EAGAIN) continue;
          skb.cancel_msg();  // res_err: table and message go
          return ret;
        }
        skb.nest_end(entry);
      }
      skb.nest_end(table);
      args = static_cast<long>(idx);
      if (!filled) {
        skb.cancel_msg();
        return ret;
      }
      return static_cast<int>(skb.len());
    };
  }
};

}  // namespace rdma::testkernel
