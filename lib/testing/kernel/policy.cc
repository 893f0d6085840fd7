#include "lib/testing/kernel/policy.h"

#include <libmnl/libmnl.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace rdma::testkernel {
namespace {

constexpr uint16_t kIbDeviceNameMax = 64;
constexpr uint16_t kIfNameSize = 16;
constexpr uint16_t kEmptyString = 1;       // RDMA_NLDEV_ATTR_EMPTY_STRING
constexpr uint16_t kChardevTypeSize = 32;  // RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE
constexpr uint16_t kSockaddrStorage = 128;

NlaPolicy common_policy(uint16_t attr) {
  using T = NlaType;
  switch (attr) {
    case RDMA_NLDEV_ATTR_CHARDEV:
    case RDMA_NLDEV_ATTR_CHARDEV_ABI:
    case RDMA_NLDEV_ATTR_NODE_GUID:
    case RDMA_NLDEV_ATTR_RES_IOVA:
    case RDMA_NLDEV_ATTR_RES_MRLEN:
    case RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR:
    case RDMA_NLDEV_ATTR_RES_USECNT:
    case RDMA_NLDEV_ATTR_SUBNET_PREFIX:
    case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE:
    case RDMA_NLDEV_ATTR_SYS_IMAGE_GUID:
    case RDMA_NLDEV_ATTR_DRIVER_U64:
      return {T::kU64};
    case RDMA_NLDEV_ATTR_DRIVER_S64:
      return {T::kS64};
    case RDMA_NLDEV_ATTR_DRIVER_S32:
      return {T::kS32};
    case RDMA_NLDEV_ATTR_DEV_DIM:
    case RDMA_NLDEV_ATTR_DEV_NODE_TYPE:
    case RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE:
    case RDMA_NLDEV_ATTR_LMC:
    case RDMA_NLDEV_ATTR_PORT_PHYS_STATE:
    case RDMA_NLDEV_ATTR_PORT_STATE:
    case RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE:
    case RDMA_NLDEV_ATTR_RES_POLL_CTX:
    case RDMA_NLDEV_ATTR_RES_STATE:
    case RDMA_NLDEV_ATTR_RES_TYPE:
    case RDMA_NLDEV_SYS_ATTR_NETNS_MODE:
    case RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK:
    case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC:
    case nldev::kAttrPrivilegedQkeyMode:
    case nldev::kAttrDriverDetails:
      return {T::kU8};
    case RDMA_NLDEV_ATTR_DEV_INDEX:
    case RDMA_NLDEV_ATTR_DRIVER_U32:
    case RDMA_NLDEV_ATTR_LID:
    case RDMA_NLDEV_ATTR_NDEV_INDEX:
    case RDMA_NLDEV_ATTR_PORT_INDEX:
    case RDMA_NLDEV_ATTR_RES_CM_IDN:
    case RDMA_NLDEV_ATTR_RES_CQE:
    case RDMA_NLDEV_ATTR_RES_CQN:
    case RDMA_NLDEV_ATTR_RES_CTXN:
    case RDMA_NLDEV_ATTR_RES_LKEY:
    case RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY:
    case RDMA_NLDEV_ATTR_RES_LQPN:
    case RDMA_NLDEV_ATTR_RES_MRN:
    case RDMA_NLDEV_ATTR_RES_PDN:
    case RDMA_NLDEV_ATTR_RES_PID:
    case RDMA_NLDEV_ATTR_RES_PS:
    case RDMA_NLDEV_ATTR_RES_RKEY:
    case RDMA_NLDEV_ATTR_RES_RQPN:
    case RDMA_NLDEV_ATTR_RES_RQ_PSN:
    case RDMA_NLDEV_ATTR_RES_SQ_PSN:
    case RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY:
    case RDMA_NLDEV_ATTR_RES_SRQN:
    case RDMA_NLDEV_ATTR_MIN_RANGE:
    case RDMA_NLDEV_ATTR_MAX_RANGE:
    case RDMA_NLDEV_ATTR_SM_LID:
    case RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK:
    case RDMA_NLDEV_ATTR_STAT_MODE:
    case RDMA_NLDEV_ATTR_STAT_RES:
    case RDMA_NLDEV_ATTR_STAT_COUNTER_ID:
    case RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID:
    case RDMA_NLDEV_NET_NS_FD:
    case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX:
      return {T::kU32};
    case RDMA_NLDEV_ATTR_CHARDEV_NAME:
    case RDMA_NLDEV_ATTR_DEV_PROTOCOL:
    case RDMA_NLDEV_ATTR_DRIVER_STRING:
    case RDMA_NLDEV_ATTR_FW_VERSION:
    case RDMA_NLDEV_ATTR_RES_KERN_NAME:
    case RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME:
    case nldev::kAttrResSubtype:
      return {T::kNulString, kEmptyString};
    case RDMA_NLDEV_ATTR_CHARDEV_TYPE:
      return {T::kNulString, kChardevTypeSize};
    case RDMA_NLDEV_ATTR_DEV_NAME:
      return {T::kNulString, kIbDeviceNameMax};
    case RDMA_NLDEV_ATTR_LINK_TYPE:
    case RDMA_NLDEV_ATTR_NDEV_NAME:
      return {T::kNulString, kIfNameSize};
    case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME:
      return {T::kNulString};
    case RDMA_NLDEV_ATTR_DRIVER:
    case RDMA_NLDEV_ATTR_DRIVER_ENTRY:
    case RDMA_NLDEV_ATTR_RES_CM_ID:
    case RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY:
    case RDMA_NLDEV_ATTR_RES_CQ:
    case RDMA_NLDEV_ATTR_RES_CQ_ENTRY:
    case RDMA_NLDEV_ATTR_RES_CTX:
    case RDMA_NLDEV_ATTR_RES_CTX_ENTRY:
    case RDMA_NLDEV_ATTR_RES_MR:
    case RDMA_NLDEV_ATTR_RES_MR_ENTRY:
    case RDMA_NLDEV_ATTR_RES_PD:
    case RDMA_NLDEV_ATTR_RES_PD_ENTRY:
    case RDMA_NLDEV_ATTR_RES_QP:
    case RDMA_NLDEV_ATTR_RES_QP_ENTRY:
    case RDMA_NLDEV_ATTR_RES_SUMMARY:
    case RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY:
    case RDMA_NLDEV_ATTR_RES_SRQ:
    case RDMA_NLDEV_ATTR_RES_SRQ_ENTRY:
    case RDMA_NLDEV_ATTR_STAT_COUNTER:
    case RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY:
    case RDMA_NLDEV_ATTR_STAT_HWCOUNTERS:
    case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY:
      return {T::kNested};
    case RDMA_NLDEV_ATTR_RES_RAW:
      return {T::kBinary};
    case RDMA_NLDEV_ATTR_RES_DST_ADDR:
    case RDMA_NLDEV_ATTR_RES_SRC_ADDR:
      return {T::kUnspec, kSockaddrStorage};
    default:
      return {};
  }
}

// nla_attr_len[]: types whose length must match exactly in strict mode.
size_t exact_len(NlaType t) {
  switch (t) {
    case NlaType::kU8:
      return 1;
    case NlaType::kU32:
    case NlaType::kS32:
      return 4;
    case NlaType::kU64:
    case NlaType::kS64:
      return 8;
    default:
      return 0;
  }
}

void set_err(Extack* e, const nlmsghdr* nlh, const char* msg, uint32_t off,
             std::optional<NlaPolicy> pol) {
  if (!e) return;
  e->msg = msg;
  e->bad_attr = off;
  e->bad_msg = nlh;
  e->policy = pol;
}

// validate_nla() for one attribute; `off` is its offset in the request.
int validate(const nlmsghdr* nlh, const nlattr* nla, const NlaPolicy& pt, bool strict, uint32_t off,
             Extack* e) {
  size_t len = mnl_attr_get_payload_len(nla);
  size_t exact = exact_len(pt.type);
  if (exact && len != exact && strict) {
    set_err(e, nlh, "invalid attribute length", off, pt);
    return -EINVAL;
  }
  if (strict) {
    bool nested_flag = nla->nla_type & NLA_F_NESTED;
    if (pt.type == NlaType::kNested && !nested_flag) {
      set_err(e, nlh, "NLA_F_NESTED is missing", off, pt);
      return -EINVAL;
    }
    if (pt.type != NlaType::kNested && pt.type != NlaType::kUnspec && nested_flag) {
      set_err(e, nlh, "NLA_F_NESTED not expected", off, pt);
      return -EINVAL;
    }
  }
  const char* data = static_cast<const char*>(mnl_attr_get_payload(nla));
  int err = -ERANGE;
  switch (pt.type) {
    case NlaType::kNulString: {
      size_t minlen = pt.len ? std::min(len, static_cast<size_t>(pt.len) + 1) : len;
      if (!minlen || !std::memchr(data, '\0', minlen)) {
        err = -EINVAL;
        break;
      }
      size_t n = len;
      if (data[n - 1] == '\0') n--;
      if (pt.len && n > pt.len) break;
      return 0;
    }
    case NlaType::kBinary:
      if (pt.len && len > pt.len) break;
      return 0;
    case NlaType::kNested:
      if (len != 0 && len < NLA_HDRLEN) break;
      return 0;
    case NlaType::kUnspec:
      if (strict) {
        set_err(e, nlh, "Unsupported attribute", off, std::nullopt);
        return -EINVAL;
      }
      if (len < pt.len) break;
      return 0;
    default:
      if (len < exact) break;
      return 0;
  }
  set_err(e, nlh, "Attribute failed policy validation", off, pt);
  return err;
}

}  // namespace

uint16_t nldev_maxtype(KernelVersion v) {
  // 6.1 ends at RDMA_NLDEV_ATTR_RES_SUBTYPE, 6.12 at SYS_ATTR_MONITOR_MODE,
  // 7.0 at FRMR_POOL_KEY_KERNEL_VENDOR_KEY, kNext at RES_SUMMARY_ENTRY_MAX.
  switch (v) {
    case KernelVersion::k6_1:
      return nldev::kAttrResSubtype;
    case KernelVersion::k6_12:
      return nldev::kAttrMonitorMode;
    case KernelVersion::k7_0:
      return nldev::kAttrFrmrPoolKeyKernelVendorKey;
    default:
      return nldev::kAttrResSummaryEntryMax;
  }
}

NlaPolicy nldev_policy(KernelVersion v, uint16_t attr) {
  if (v >= KernelVersion::kNext && attr == nldev::kAttrResSummaryEntryMax) return {NlaType::kU64};
  if (v >= KernelVersion::k7_0) {
    switch (attr) {
      case nldev::kAttrStatOpcounterEnabled:
      case nldev::kAttrFrmrPoolKeyAts:
        return {NlaType::kU8};
      case nldev::kAttrFrmrPools:
      case nldev::kAttrFrmrPoolEntry:
      case nldev::kAttrFrmrPoolKey:
        return {NlaType::kNested};
      case nldev::kAttrFrmrPoolKeyAccessFlags:
      case nldev::kAttrFrmrPoolQueueHandles:
      case nldev::kAttrFrmrPoolsAgingPeriod:
      case nldev::kAttrFrmrPoolPinnedHandles:
        return {NlaType::kU32};
      case nldev::kAttrFrmrPoolKeyVendorKey:
      case nldev::kAttrFrmrPoolKeyNumDmaBlocks:
      case nldev::kAttrFrmrPoolMaxInUse:
      case nldev::kAttrFrmrPoolInUse:
      case nldev::kAttrFrmrPoolKeyKernelVendorKey:
        return {NlaType::kU64};
      default:
        break;
    }
  }
  if (v >= KernelVersion::k6_12) {
    switch (attr) {
      case nldev::kAttrDevType:
      case nldev::kAttrNameAssignType:
      case nldev::kAttrEventType:
        return {NlaType::kU8};
      case nldev::kAttrParentName:
        return {NlaType::kNulString};
      default:
        break;
    }
  }
  return common_policy(attr);
}

uint8_t Attrs::u8(int type) const {
  return mnl_attr_get_u8((*this)[type]);
}
uint32_t Attrs::u32(int type) const {
  return mnl_attr_get_u32((*this)[type]);
}
uint64_t Attrs::u64(int type) const {
  return mnl_attr_get_u64((*this)[type]);
}

std::string Attrs::str(int type, size_t size) const {
  const nlattr* a = (*this)[type];
  const char* p = static_cast<const char*>(mnl_attr_get_payload(a));
  size_t n = mnl_attr_get_payload_len(a);
  if (n && p[n - 1] == '\0') n--;
  n = std::min(n, size - 1);
  return std::string(p, strnlen(p, n));
}

// __nla_parse() over the attributes at p (rem bytes) of request nlh.
int parse_attrs(const nlmsghdr* nlh, const uint8_t* p, int rem, KernelVersion v, bool strict,
                Attrs* tb, Extack* extack) {
  *tb = Attrs();
  const uint16_t maxtype = nldev_maxtype(v);
  const uint8_t* base = reinterpret_cast<const uint8_t*>(nlh);
  // nla_for_each_attr(): stops at the first attribute that does not fit.
  while (rem >= static_cast<int>(sizeof(nlattr))) {
    const nlattr* nla = reinterpret_cast<const nlattr*>(p);
    if (nla->nla_len < sizeof(nlattr) || nla->nla_len > rem) break;
    uint16_t type = nla->nla_type & NLA_TYPE_MASK;
    uint32_t off = static_cast<uint32_t>(p - base);
    if (type == 0 || type > maxtype) {
      if (strict) {
        set_err(extack, nlh, "Unknown attribute type", off, std::nullopt);
        return -EINVAL;
      }
    } else {
      int err = validate(nlh, nla, nldev_policy(v, type), strict, off, extack);
      if (err) return err;
      tb->tb_[type] = nla;
    }
    int step = NLA_ALIGN(nla->nla_len);
    p += step;
    rem -= step;
  }
  if (rem > 0) {
    if (extack) {
      extack->msg = "bytes leftover after parsing attributes";
    }
    if (strict) return -EINVAL;
  }
  return 0;
}

int nldev_parse(const nlmsghdr* nlh, KernelVersion v, bool strict, Attrs* tb, Extack* extack) {
  const uint8_t* base = reinterpret_cast<const uint8_t*>(nlh);
  return parse_attrs(nlh, base + NLMSG_HDRLEN, static_cast<int>(nlh->nlmsg_len) - NLMSG_HDRLEN, v,
                     strict, tb, extack);
}

int nldev_parse_nested(const nlmsghdr* nlh, const nlattr* nest, KernelVersion v, Attrs* tb,
                       Extack* extack) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(nest) + NLA_HDRLEN;
  return parse_attrs(nlh, p, static_cast<int>(nest->nla_len) - NLA_HDRLEN, v, true, tb, extack);
}

void write_policy(Skb& skb, const NlaPolicy& pt) {
  size_t nest = skb.nest_start(NLMSGERR_ATTR_POLICY, true);
  uint32_t type = 0;
  switch (pt.type) {
    case NlaType::kUnspec:
      // Not advertised: the nest is cancelled.
      skb.truncate(nest);
      return;
    case NlaType::kNested:
      type = NL_ATTR_TYPE_NESTED;
      break;
    case NlaType::kU8:
    case NlaType::kU32:
    case NlaType::kU64: {
      type = pt.type == NlaType::kU8    ? NL_ATTR_TYPE_U8
             : pt.type == NlaType::kU32 ? NL_ATTR_TYPE_U32
                                        : NL_ATTR_TYPE_U64;
      uint64_t max = pt.type == NlaType::kU8    ? UINT8_MAX
                     : pt.type == NlaType::kU32 ? UINT32_MAX
                                                : UINT64_MAX;
      skb.put_u64(NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 0, NL_POLICY_TYPE_ATTR_PAD);
      skb.put_u64(NL_POLICY_TYPE_ATTR_MAX_VALUE_U, max, NL_POLICY_TYPE_ATTR_PAD);
      break;
    }
    case NlaType::kS32:
    case NlaType::kS64: {
      type = pt.type == NlaType::kS32 ? NL_ATTR_TYPE_S32 : NL_ATTR_TYPE_S64;
      int64_t min = pt.type == NlaType::kS32 ? INT32_MIN : INT64_MIN;
      int64_t max = pt.type == NlaType::kS32 ? INT32_MAX : INT64_MAX;
      skb.put_u64(NL_POLICY_TYPE_ATTR_MIN_VALUE_S, static_cast<uint64_t>(min),
                  NL_POLICY_TYPE_ATTR_PAD);
      skb.put_u64(NL_POLICY_TYPE_ATTR_MAX_VALUE_S, static_cast<uint64_t>(max),
                  NL_POLICY_TYPE_ATTR_PAD);
      break;
    }
    case NlaType::kNulString:
    case NlaType::kBinary:
      type = pt.type == NlaType::kNulString ? NL_ATTR_TYPE_NUL_STRING : NL_ATTR_TYPE_BINARY;
      if (pt.len) skb.put_u32(NL_POLICY_TYPE_ATTR_MAX_LENGTH, pt.len);
      break;
  }
  skb.put_u32(NL_POLICY_TYPE_ATTR_TYPE, type);
  skb.nest_end(nest);
}

}  // namespace rdma::testkernel
