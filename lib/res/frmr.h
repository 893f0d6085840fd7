// FRMR pools (`rdma resource show frmr_pools`, Linux 7.0): the kernel's caches
// of fast-registration MRs, one pool per key. Decoding a pool entry into a
// record, its filters, and the pool key as users type it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "lib/nl/attrs.h"
#include "lib/res/filter.h"
#include "lib/view/record.h"

namespace rdma::res {

// A pool's key. In text "VENDOR:NDMA:ACCESS:ATS", every field hex.
struct FrmrKey {
  uint64_t vendor_key = 0;
  uint64_t num_dma_blocks = 0;
  uint32_t access_flags = 0;
  uint8_t ats = 0;
};

// Parses "vendor:ndma:access:ats" (hex, as iproute2 reads it): four fields;
// more are allowed only when zero (attributes this tool does not know).
// Throws Error naming the key and what is wrong.
FrmrKey parse_frmr_key(std::string_view text);

// The key as iproute2 prints it: "%lx:%lx:%x:%u".
std::string frmr_key_text(const FrmrKey& k);

// Filter keys of `resource show frmr_pools`, in iproute2's order ("dev" is
// the scope).
std::span<const FilterKey> frmr_filter_keys();

// One pool entry (RDMA_NLDEV_ATTR_FRMR_POOL_ENTRY) of device ifindex/ifname
// into r, as iproute2 HEAD prints it; details adds the key's fields (-d).
// Returns false when the filters hide it. Throws Error for a malformed
// entry.
bool frmr_record(const nl::Attrs& entry, uint32_t ifindex, std::string_view ifname, int details,
                 const Filters& filters, view::Record& r);

}  // namespace rdma::res
