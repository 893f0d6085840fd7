// The dev, link and sys views' field lists on real netlink bytes: what
// iproute2's `rdma dev`, `rdma link` and `rdma system` print of the same
// attributes, at each detail level.
#include "lib/nldev/fields.h"

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include <cstring>
#include <string>
#include <vector>

#include "lib/nl/nldev.h"

namespace rdma::nldev {
namespace {

struct FieldsMsg {
  std::vector<uint8_t> buf = std::vector<uint8_t>(1024);
  nlmsghdr* h = mnl_nlmsg_put_header(buf.data());
};

std::string fields_text(const nl::Attrs& a, std::span<const FieldSpec> spec, int detail) {
  view::Record r;
  decode_attrs(a, spec, detail, r);
  std::string s;
  for (const view::Field& f : r) s += f.text;
  return s;
}

std::vector<std::string> fields_keys(const nl::Attrs& a, std::span<const FieldSpec> spec,
                                     int detail) {
  view::Record r;
  decode_attrs(a, spec, detail, r);
  std::vector<std::string> keys;
  for (const view::Field& f : r)
    if (!f.key.empty()) keys.push_back(f.key);
  return keys;
}

// A device as rxe or mlx5 sends it, attributes in the kernel's order.
void put_dev(FieldsMsg& m) {
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
  mnl_attr_put_strz(m.h, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_CAP_FLAGS, 1ull << 1 | 1ull << 32);
  mnl_attr_put_strz(m.h, RDMA_NLDEV_ATTR_FW_VERSION, "16.28.1002");
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_NODE_GUID, 0x248a070300494f0ull);
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, 0x248a070300494f0ull);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 1);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_DEV_DIM, 1);
  mnl_attr_put_strz(m.h, RDMA_NLDEV_ATTR_DEV_PROTOCOL, "ib");
}

TEST(NldevFields, DevAsIproute2PrintsIt) {
  FieldsMsg m;
  put_dev(m);
  nl::Attrs a = nl::Attrs::of_message(m.h);
  EXPECT_EQ(fields_text(a, kDevFields, 0),
            "0: mlx5_0: node_type ca protocol ib fw 16.28.1002 "
            "node_guid 0248:a070:3004:94f0 sys_image_guid 0248:a070:3004:94f0 ");
  EXPECT_EQ(fields_text(a, kDevFields, 1),
            "0: mlx5_0: node_type ca protocol ib fw 16.28.1002 "
            "node_guid 0248:a070:3004:94f0 sys_image_guid 0248:a070:3004:94f0 "
            "adaptive-moderation on \n    caps: <BAD_PKEY_CNTR, SG_GAPS_REG>");
}

// A sub-device (6.11+): its type by name where known, its parent.
TEST(NldevFields, SubDeviceTypeAndParent) {
  for (uint8_t type : {nldev::kDevTypeSmi, uint8_t{7}}) {
    FieldsMsg m;
    mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
    mnl_attr_put_strz(m.h, RDMA_NLDEV_ATTR_DEV_NAME, "smi0");
    mnl_attr_put_u8(m.h, nldev::kAttrDevType, type);
    mnl_attr_put_strz(m.h, nldev::kAttrParentName, "mlx5_0");
    nl::Attrs a = nl::Attrs::of_message(m.h);
    std::string name = type == nldev::kDevTypeSmi ? "smi" : "7";
    EXPECT_EQ(fields_text(a, kDevFields, 0), "3: smi0: type " + name + " parent mlx5_0 ");
  }
}

// netdev_index: always in JSON, in text only with -d.
TEST(NldevFields, LinkNetdevIndexJsonAlwaysTextWithDetails) {
  FieldsMsg m;
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_SUBNET_PREFIX, 0xfe80000000000000ull);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_LID, 1);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_SM_LID, 1);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_LMC, 0);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_PORT_STATE, 4);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, 5);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_NDEV_INDEX, 4);
  mnl_attr_put_strz(m.h, RDMA_NLDEV_ATTR_NDEV_NAME, "ib0");
  nl::Attrs a = nl::Attrs::of_message(m.h);
  EXPECT_EQ(fields_text(a, kLinkFields, 0),
            "subnet_prefix fe80:0000:0000:0000 lid 1 sm_lid 1 lmc 0 state ACTIVE "
            "physical_state LINK_UP netdev ib0 ");
  EXPECT_EQ(fields_text(a, kLinkFields, 1),
            "subnet_prefix fe80:0000:0000:0000 lid 1 sm_lid 1 lmc 0 state ACTIVE "
            "physical_state LINK_UP netdev ib0 netdev_index 4 ");
  std::vector<std::string> keys = {"subnet_prefix",  "lid",    "sm_lid",      "lmc", "state",
                                   "physical_state", "netdev", "netdev_index"};
  EXPECT_EQ(fields_keys(a, kLinkFields, 0), keys);
  EXPECT_EQ(fields_keys(a, kLinkFields, 1), keys);  // the -d text field has no key
}

// LMC is a u8 shown as a number: its value, whatever the padding after
// it holds (four bytes read took the padding for its high bytes).
TEST(NldevFields, LmcIsReadAtItsWidth) {
  FieldsMsg m;
  auto* lmc = static_cast<nlattr*>(mnl_nlmsg_get_payload_tail(m.h));
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_LMC, 3);
  std::memset(static_cast<uint8_t*>(mnl_attr_get_payload(lmc)) + 1, 0xff, 3);
  nl::Attrs a = nl::Attrs::of_message(m.h);
  EXPECT_EQ(fields_text(a, kLinkFields, 0), "lmc 3 ");
}

// rdma system: the last field without a trailing blank, as iproute2's.
TEST(NldevFields, SystemModes) {
  FieldsMsg m;
  mnl_attr_put_u8(m.h, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1);
  mnl_attr_put_u8(m.h, nldev::kAttrPrivilegedQkeyMode, 0);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1);
  nl::Attrs a = nl::Attrs::of_message(m.h);
  EXPECT_EQ(fields_text(a, kSysFields, 0), "netns shared privileged-qkey off copy-on-fork on");
}

}  // namespace
}  // namespace rdma::nldev
