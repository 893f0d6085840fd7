// nldev_policy and the kernel's attribute validation (lib/nlattr.c): which
// requests are rejected, with which errno and which extended-ack text.
#pragma once

#include <linux/netlink.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "lib/nl/nldev.h"
#include "lib/nldev/newer.h"
#include "lib/testing/kernel/skb.h"
#include "lib/testing/kernel/state.h"

namespace rdma::testkernel {

// The kernel's enum nla_types subset that nldev_policy uses.
enum class NlaType : uint8_t { kUnspec, kU8, kU32, kU64, kS32, kS64, kNulString, kNested, kBinary };

struct NlaPolicy {
  NlaType type = NlaType::kUnspec;
  uint16_t len = 0;  // max string length / min unspec length
};

// nldev_policy[attr] on the given kernel.
NlaPolicy nldev_policy(KernelVersion v, uint16_t attr);
// RDMA_NLDEV_ATTR_MAX - 1 on the given kernel.
uint16_t nldev_maxtype(KernelVersion v);

// struct netlink_ext_ack, the parts nldev can set.
struct Extack {
  const char* msg = nullptr;
  std::optional<uint32_t> bad_attr;   // offset from the start of the request
  const nlmsghdr* bad_msg = nullptr;  // the request bad_attr lies in
  std::optional<NlaPolicy> policy;
};

// Parsed request attributes (tb[] of __nlmsg_parse).
class Attrs {
 public:
  const nlattr* operator[](int type) const {
    return type >= 0 && type < static_cast<int>(tb_.size()) ? tb_[type] : nullptr;
  }
  bool has(int type) const { return (*this)[type] != nullptr; }
  uint8_t u8(int type) const;
  uint32_t u32(int type) const;
  uint64_t u64(int type) const;
  // nla_strscpy() into a buffer of `size` bytes.
  std::string str(int type, size_t size) const;

 private:
  friend int parse_attrs(const nlmsghdr*, const uint8_t*, int, KernelVersion, bool, Attrs*,
                         Extack*);
  std::array<const nlattr*, nldev::kAttrMax + 1> tb_{};
};

// __nlmsg_parse(nlh, 0, tb, RDMA_NLDEV_ATTR_MAX - 1, nldev_policy, validate,
// extack) with NL_VALIDATE_STRICT (strict) or NL_VALIDATE_LIBERAL. Returns 0
// or a negative errno; extack may be null (dumpit passes NULL).
int nldev_parse(const nlmsghdr* nlh, KernelVersion v, bool strict, Attrs* tb, Extack* extack);
// nla_parse_nested(tb, RDMA_NLDEV_ATTR_MAX - 1, nest, nldev_policy, extack)
// for a nest inside request nlh (strict).
int nldev_parse_nested(const nlmsghdr* nlh, const nlattr* nest, KernelVersion v, Attrs* tb,
                       Extack* extack);
int parse_attrs(const nlmsghdr* nlh, const uint8_t* p, int rem, KernelVersion v, bool strict,
                Attrs* tb, Extack* extack);

// netlink_policy_dump_write_attr(skb, pt, NLMSGERR_ATTR_POLICY): the policy
// of a rejected attribute in an extended ack.
void write_policy(Skb& skb, const NlaPolicy& pt);

}  // namespace rdma::testkernel
