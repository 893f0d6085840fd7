#include "lib/nldev/fields.h"

#include "lib/nl/nldev.h"

namespace rdma::nldev {

namespace {

// enum rdma_nl_dev_type: sub-devices (6.11+) have one.
bool dev_type(const nl::Attrs& a, int attr, std::string& text, view::Json& json) {
  text = a.u8(attr) == nldev::kDevTypeSmi ? "smi" : std::to_string(a.u8(attr));
  json = text;
  return true;
}

constexpr FieldSpec kDev[] = {
    {RDMA_NLDEV_ATTR_DEV_INDEX, "ifindex", "%s: ", Fmt::U32},
    {RDMA_NLDEV_ATTR_DEV_NAME, "ifname", "%s: ", Fmt::Str},
    {RDMA_NLDEV_ATTR_DEV_NODE_TYPE, "node_type", "node_type %s ", Fmt::NodeType},
    {RDMA_NLDEV_ATTR_DEV_PROTOCOL, "protocol", "protocol %s ", Fmt::Str},
    {nldev::kAttrDevType, "type", "type %s ", Fmt::Custom, kAlways, dev_type},
    {nldev::kAttrParentName, "parent", "parent %s ", Fmt::Str},
    {RDMA_NLDEV_ATTR_FW_VERSION, "fw", "fw %s ", Fmt::Str},
    {RDMA_NLDEV_ATTR_NODE_GUID, "node_guid", "node_guid %s ", Fmt::Guid},
    {RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, "sys_image_guid", "sys_image_guid %s ", Fmt::Guid},
    {RDMA_NLDEV_ATTR_DEV_DIM, "adaptive-moderation", "adaptive-moderation %s ", Fmt::OnOff,
     kDetails},
    {RDMA_NLDEV_ATTR_CAP_FLAGS, "caps", "\n    caps: <%s>", Fmt::DevCaps, kDetails},
};

// ifindex, ifname and port come first, built by the link view.
constexpr FieldSpec kLink[] = {
    {RDMA_NLDEV_ATTR_SUBNET_PREFIX, "subnet_prefix", "subnet_prefix %s ", Fmt::Guid},
    {RDMA_NLDEV_ATTR_LID, "lid", "lid %s ", Fmt::U32},
    {RDMA_NLDEV_ATTR_SM_LID, "sm_lid", "sm_lid %s ", Fmt::U32},
    {RDMA_NLDEV_ATTR_LMC, "lmc", "lmc %s ", Fmt::U32},
    {RDMA_NLDEV_ATTR_PORT_STATE, "state", "state %s ", Fmt::PortState},
    {RDMA_NLDEV_ATTR_PORT_PHYS_STATE, "physical_state", "physical_state %s ", Fmt::PhysState},
    {RDMA_NLDEV_ATTR_NDEV_NAME, "netdev", "netdev %s ", Fmt::Str},
    // iproute2 puts netdev_index in JSON always, in text only with -d.
    {RDMA_NLDEV_ATTR_NDEV_INDEX, "netdev_index", nullptr, Fmt::U32},
    {RDMA_NLDEV_ATTR_NDEV_INDEX, nullptr, "netdev_index %s ", Fmt::U32, kDetails},
    {RDMA_NLDEV_ATTR_CAP_FLAGS, "caps", "\n    caps: <%s>", Fmt::PortCaps, kDetails},
};

constexpr FieldSpec kSys[] = {
    {RDMA_NLDEV_SYS_ATTR_NETNS_MODE, "netns", "netns %s ", Fmt::NetnsMode},
    {nldev::kAttrPrivilegedQkeyMode, "privileged-qkey", "privileged-qkey %s ", Fmt::OnOff},
    // Sent by kernels with RDMA monitoring (Debian's 6.12 already does).
    {nldev::kAttrMonitorMode, "monitor", "monitor %s ", Fmt::OnOff},
    {RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, "copy-on-fork", "copy-on-fork %s", Fmt::OnOff},
};

}  // namespace

const std::span<const FieldSpec> kDevFields = kDev;
const std::span<const FieldSpec> kLinkFields = kLink;
const std::span<const FieldSpec> kSysFields = kSys;

}  // namespace rdma::nldev
