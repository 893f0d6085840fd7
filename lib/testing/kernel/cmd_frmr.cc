// FRMR pools (Linux 7.0, drivers/infiniband/core/nldev.c):
// nldev_frmr_pools_get_dumpit and nldev_frmr_pools_set_doit.
#include <cerrno>

#include "lib/nl/nldev.h"
#include "lib/testing/kernel/fill.h"
#include "lib/testing/kernel/testkernel.h"

namespace rdma::testkernel {

namespace {

// fill_frmr_pool_key(): a flagged nest; KERNEL_VENDOR_KEY only when set.
bool fill_key(Skb& skb, const FrmrPool& p) {
  size_t key = skb.nest_start(nldev::kAttrFrmrPoolKey, true);
  if (key == Skb::kNoRoom) return false;
  if (!skb.put_u8(nldev::kAttrFrmrPoolKeyAts, p.ats) ||
      !skb.put_u32(nldev::kAttrFrmrPoolKeyAccessFlags, p.access_flags) ||
      !skb.put_u64(nldev::kAttrFrmrPoolKeyVendorKey, p.vendor_key, RDMA_NLDEV_ATTR_PAD) ||
      !skb.put_u64(nldev::kAttrFrmrPoolKeyNumDmaBlocks, p.num_dma_blocks, RDMA_NLDEV_ATTR_PAD) ||
      (p.kernel_vendor_key && !skb.put_u64(nldev::kAttrFrmrPoolKeyKernelVendorKey,
                                           p.kernel_vendor_key, RDMA_NLDEV_ATTR_PAD)))
    return false;  // the caller cancels the whole entry
  skb.nest_end(key);
  return true;
}

// fill_frmr_pool_entry()
bool fill_entry(Skb& skb, const FrmrPool& p) {
  return fill_key(skb, p) && skb.put_u32(nldev::kAttrFrmrPoolQueueHandles, p.queue_handles) &&
         skb.put_u64(nldev::kAttrFrmrPoolMaxInUse, p.max_in_use, RDMA_NLDEV_ATTR_PAD) &&
         skb.put_u64(nldev::kAttrFrmrPoolInUse, p.in_use, RDMA_NLDEV_ATTR_PAD) &&
         skb.put_u32(nldev::kAttrFrmrPoolPinnedHandles, p.pinned_handles);
}

bool same_key(const FrmrPool& p, const FrmrPool& k) {
  return p.ats == k.ats && p.access_flags == k.access_flags && p.vendor_key == k.vendor_key &&
         p.num_dma_blocks == k.num_dma_blocks && p.kernel_vendor_key == k.kernel_vendor_key;
}

}  // namespace

// Needs DEV_INDEX. One message per call with as many pools as fit (the
// table nests carry no NLA_F_NESTED flag); a call that adds no pool cancels
// its message and ends the dump.
TestKernel::DumpFn TestKernel::frmr_get_dump() {
  return [this](Skb& skb, const nlmsghdr* req, long& args) -> int {
    Attrs tb;
    if (parse(req, false, &tb, nullptr) || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX)) return -EINVAL;
    const Device* dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
    if (!dev) return -EINVAL;
    if (!dev->frmr) return 0;
    if (!reply_header(skb, req, nldev::kCmdFrmrPoolsGet, NLM_F_MULTI) ||
        fill_nldev_handle(skb, *dev)) {
      skb.cancel_msg();
      return -EMSGSIZE;
    }
    size_t table = skb.nest_start(nldev::kAttrFrmrPools, false);
    if (table == Skb::kNoRoom) {
      skb.cancel_msg();
      return -EMSGSIZE;
    }
    long idx = 0;
    bool filled = false;
    for (const FrmrPool& p : dev->frmr->pools) {
      if (idx < args) {
        ++idx;
        continue;
      }
      filled = true;
      size_t entry = skb.nest_start(nldev::kAttrFrmrPoolEntry, false);
      if (entry == Skb::kNoRoom) break;
      if (!fill_entry(skb, p)) {
        skb.truncate(entry);
        break;
      }
      skb.nest_end(entry);
      ++idx;
    }
    skb.nest_end(table);
    args = idx;
    if (!filled) {
      skb.cancel_msg();
      return 0;
    }
    return static_cast<int>(skb.len());
  };
}

// AGING_PERIOD wins over PINNED_HANDLES; with neither the request is a no-op.
int TestKernel::frmr_set_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, true, &tb, ext);
  if (err) return err;
  if (!tb.has(RDMA_NLDEV_ATTR_DEV_INDEX)) return -EINVAL;
  Device* dev = device(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!dev) return -EINVAL;
  if (tb.has(nldev::kAttrFrmrPoolsAgingPeriod)) {
    // ib_frmr_pools_set_aging_period()
    uint32_t secs = tb.u32(nldev::kAttrFrmrPoolsAgingPeriod);
    if (!dev->frmr) return -EOPNOTSUPP;
    if (secs == 0) return -EINVAL;
    dev->frmr->aging_period_sec = secs;
    return 0;
  }
  if (!tb.has(nldev::kAttrFrmrPoolPinnedHandles)) return 0;
  uint32_t pinned = tb.u32(nldev::kAttrFrmrPoolPinnedHandles);
  if (!tb.has(nldev::kAttrFrmrPoolKey)) return -EINVAL;
  Attrs key;
  err = nldev_parse_nested(nlh, tb[nldev::kAttrFrmrPoolKey], opts.version, &key, ext);
  if (err) return err;
  // Kernel-internal pools cannot be pinned from user space.
  if (key.has(nldev::kAttrFrmrPoolKeyKernelVendorKey)) return -EINVAL;
  FrmrPool k;
  if (key.has(nldev::kAttrFrmrPoolKeyAts)) k.ats = key.u8(nldev::kAttrFrmrPoolKeyAts);
  if (key.has(nldev::kAttrFrmrPoolKeyAccessFlags))
    k.access_flags = key.u32(nldev::kAttrFrmrPoolKeyAccessFlags);
  if (key.has(nldev::kAttrFrmrPoolKeyVendorKey))
    k.vendor_key = key.u64(nldev::kAttrFrmrPoolKeyVendorKey);
  if (key.has(nldev::kAttrFrmrPoolKeyNumDmaBlocks))
    k.num_dma_blocks = key.u64(nldev::kAttrFrmrPoolKeyNumDmaBlocks);
  // ib_frmr_pools_set_pinned(): finds or creates the pool of that key.
  if (!dev->frmr) return -EOPNOTSUPP;
  for (FrmrPool& p : dev->frmr->pools) {
    if (same_key(p, k)) {
      p.pinned_handles = pinned;
      if (p.queue_handles < pinned) p.queue_handles = pinned;
      return 0;
    }
  }
  k.pinned_handles = k.queue_handles = pinned;
  dev->frmr->pools.push_back(k);
  return 0;
}

}  // namespace rdma::testkernel
