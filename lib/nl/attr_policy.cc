// The kernel's nldev attribute policy as the tool checks it: name and payload
// type of every attribute up to Linux 7.0's FRMR pools
// (include/uapi/rdma/rdma_netlink.h).
#include "lib/nl/attr_policy.h"

#include <array>

namespace rdma::nl {

namespace {

struct Entry {
  int id;
  const char* name;
  AttrType type;
};

constexpr Entry kEntries[] = {
    {1, "RDMA_NLDEV_ATTR_DEV_INDEX", AttrType::U32},
    {2, "RDMA_NLDEV_ATTR_DEV_NAME", AttrType::String},
    {3, "RDMA_NLDEV_ATTR_PORT_INDEX", AttrType::U32},
    {4, "RDMA_NLDEV_ATTR_CAP_FLAGS", AttrType::U64},
    {5, "RDMA_NLDEV_ATTR_FW_VERSION", AttrType::String},
    {6, "RDMA_NLDEV_ATTR_NODE_GUID", AttrType::U64},
    {7, "RDMA_NLDEV_ATTR_SYS_IMAGE_GUID", AttrType::U64},
    {8, "RDMA_NLDEV_ATTR_SUBNET_PREFIX", AttrType::U64},
    {9, "RDMA_NLDEV_ATTR_LID", AttrType::U32},
    {10, "RDMA_NLDEV_ATTR_SM_LID", AttrType::U32},
    {11, "RDMA_NLDEV_ATTR_LMC", AttrType::U8},
    {12, "RDMA_NLDEV_ATTR_PORT_STATE", AttrType::U8},
    {13, "RDMA_NLDEV_ATTR_PORT_PHYS_STATE", AttrType::U8},
    {14, "RDMA_NLDEV_ATTR_DEV_NODE_TYPE", AttrType::U8},
    {15, "RDMA_NLDEV_ATTR_RES_SUMMARY", AttrType::Nested},
    {16, "RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY", AttrType::Nested},
    {17, "RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME", AttrType::String},
    {18, "RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR", AttrType::U64},
    {19, "RDMA_NLDEV_ATTR_RES_QP", AttrType::Nested},
    {20, "RDMA_NLDEV_ATTR_RES_QP_ENTRY", AttrType::Nested},
    {21, "RDMA_NLDEV_ATTR_RES_LQPN", AttrType::U32},
    {22, "RDMA_NLDEV_ATTR_RES_RQPN", AttrType::U32},
    {23, "RDMA_NLDEV_ATTR_RES_RQ_PSN", AttrType::U32},
    {24, "RDMA_NLDEV_ATTR_RES_SQ_PSN", AttrType::U32},
    {25, "RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE", AttrType::U8},
    {26, "RDMA_NLDEV_ATTR_RES_TYPE", AttrType::U8},
    {27, "RDMA_NLDEV_ATTR_RES_STATE", AttrType::U8},
    {28, "RDMA_NLDEV_ATTR_RES_PID", AttrType::U32},
    {29, "RDMA_NLDEV_ATTR_RES_KERN_NAME", AttrType::String},
    {30, "RDMA_NLDEV_ATTR_RES_CM_ID", AttrType::Nested},
    {31, "RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY", AttrType::Nested},
    {32, "RDMA_NLDEV_ATTR_RES_PS", AttrType::U32},
    {33, "RDMA_NLDEV_ATTR_RES_SRC_ADDR", AttrType::Binary},
    {34, "RDMA_NLDEV_ATTR_RES_DST_ADDR", AttrType::Binary},
    {35, "RDMA_NLDEV_ATTR_RES_CQ", AttrType::Nested},
    {36, "RDMA_NLDEV_ATTR_RES_CQ_ENTRY", AttrType::Nested},
    {37, "RDMA_NLDEV_ATTR_RES_CQE", AttrType::U32},
    {38, "RDMA_NLDEV_ATTR_RES_USECNT", AttrType::U64},
    {39, "RDMA_NLDEV_ATTR_RES_POLL_CTX", AttrType::U8},
    {40, "RDMA_NLDEV_ATTR_RES_MR", AttrType::Nested},
    {41, "RDMA_NLDEV_ATTR_RES_MR_ENTRY", AttrType::Nested},
    {42, "RDMA_NLDEV_ATTR_RES_RKEY", AttrType::U32},
    {43, "RDMA_NLDEV_ATTR_RES_LKEY", AttrType::U32},
    {44, "RDMA_NLDEV_ATTR_RES_IOVA", AttrType::U64},
    {45, "RDMA_NLDEV_ATTR_RES_MRLEN", AttrType::U64},
    {46, "RDMA_NLDEV_ATTR_RES_PD", AttrType::Nested},
    {47, "RDMA_NLDEV_ATTR_RES_PD_ENTRY", AttrType::Nested},
    {48, "RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY", AttrType::U32},
    {49, "RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY", AttrType::U32},
    {50, "RDMA_NLDEV_ATTR_NDEV_INDEX", AttrType::U32},
    {51, "RDMA_NLDEV_ATTR_NDEV_NAME", AttrType::String},
    {52, "RDMA_NLDEV_ATTR_DRIVER", AttrType::Nested},
    {53, "RDMA_NLDEV_ATTR_DRIVER_ENTRY", AttrType::Nested},
    {54, "RDMA_NLDEV_ATTR_DRIVER_STRING", AttrType::String},
    {55, "RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE", AttrType::U8},
    {56, "RDMA_NLDEV_ATTR_DRIVER_S32", AttrType::U32},
    {57, "RDMA_NLDEV_ATTR_DRIVER_U32", AttrType::U32},
    {58, "RDMA_NLDEV_ATTR_DRIVER_S64", AttrType::U64},
    {59, "RDMA_NLDEV_ATTR_DRIVER_U64", AttrType::U64},
    {60, "RDMA_NLDEV_ATTR_RES_PDN", AttrType::U32},
    {61, "RDMA_NLDEV_ATTR_RES_CQN", AttrType::U32},
    {62, "RDMA_NLDEV_ATTR_RES_MRN", AttrType::U32},
    {63, "RDMA_NLDEV_ATTR_RES_CM_IDN", AttrType::U32},
    {64, "RDMA_NLDEV_ATTR_RES_CTXN", AttrType::U32},
    {65, "RDMA_NLDEV_ATTR_LINK_TYPE", AttrType::String},
    {66, "RDMA_NLDEV_SYS_ATTR_NETNS_MODE", AttrType::U8},
    {67, "RDMA_NLDEV_ATTR_DEV_PROTOCOL", AttrType::String},
    {68, "RDMA_NLDEV_NET_NS_FD", AttrType::U32},
    {69, "RDMA_NLDEV_ATTR_CHARDEV_TYPE", AttrType::String},
    {70, "RDMA_NLDEV_ATTR_CHARDEV_NAME", AttrType::String},
    {71, "RDMA_NLDEV_ATTR_CHARDEV_ABI", AttrType::U64},
    {72, "RDMA_NLDEV_ATTR_CHARDEV", AttrType::U64},
    {73, "RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID", AttrType::U32},
    {74, "RDMA_NLDEV_ATTR_STAT_MODE", AttrType::U32},
    {75, "RDMA_NLDEV_ATTR_STAT_RES", AttrType::U32},
    {76, "RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK", AttrType::U32},
    {77, "RDMA_NLDEV_ATTR_STAT_COUNTER", AttrType::Nested},
    {78, "RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY", AttrType::Nested},
    {79, "RDMA_NLDEV_ATTR_STAT_COUNTER_ID", AttrType::U32},
    {80, "RDMA_NLDEV_ATTR_STAT_HWCOUNTERS", AttrType::Nested},
    {81, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY", AttrType::Nested},
    {82, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME", AttrType::String},
    {83, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE", AttrType::U64},
    {84, "RDMA_NLDEV_ATTR_DEV_DIM", AttrType::U8},
    {85, "RDMA_NLDEV_ATTR_RES_RAW", AttrType::Binary},
    {86, "RDMA_NLDEV_ATTR_RES_CTX", AttrType::Nested},
    {87, "RDMA_NLDEV_ATTR_RES_CTX_ENTRY", AttrType::Nested},
    {88, "RDMA_NLDEV_ATTR_RES_SRQ", AttrType::Nested},
    {89, "RDMA_NLDEV_ATTR_RES_SRQ_ENTRY", AttrType::Nested},
    {90, "RDMA_NLDEV_ATTR_RES_SRQN", AttrType::U32},
    {91, "RDMA_NLDEV_ATTR_MIN_RANGE", AttrType::U32},
    {92, "RDMA_NLDEV_ATTR_MAX_RANGE", AttrType::U32},
    {93, "RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK", AttrType::U8},
    {94, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX", AttrType::U32},
    {95, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC", AttrType::U8},
    {96, "RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE", AttrType::U8},
    {97, "RDMA_NLDEV_ATTR_DRIVER_DETAILS", AttrType::U8},
    {98, "RDMA_NLDEV_ATTR_RES_SUBTYPE", AttrType::String},
    {99, "RDMA_NLDEV_ATTR_DEV_TYPE", AttrType::U8},
    {100, "RDMA_NLDEV_ATTR_PARENT_NAME", AttrType::String},
    {101, "RDMA_NLDEV_ATTR_NAME_ASSIGN_TYPE", AttrType::U8},
    {102, "RDMA_NLDEV_ATTR_EVENT_TYPE", AttrType::U8},
    {103, "RDMA_NLDEV_SYS_ATTR_MONITOR_MODE", AttrType::U8},
    {104, "RDMA_NLDEV_ATTR_STAT_OPCOUNTER_ENABLED", AttrType::U8},
    // FRMR pools (Linux 7.0).
    {105, "RDMA_NLDEV_ATTR_FRMR_POOLS", AttrType::Nested},
    {106, "RDMA_NLDEV_ATTR_FRMR_POOL_ENTRY", AttrType::Nested},
    {107, "RDMA_NLDEV_ATTR_FRMR_POOL_KEY", AttrType::Nested},
    {108, "RDMA_NLDEV_ATTR_FRMR_POOL_KEY_ATS", AttrType::U8},
    {109, "RDMA_NLDEV_ATTR_FRMR_POOL_KEY_ACCESS_FLAGS", AttrType::U32},
    {110, "RDMA_NLDEV_ATTR_FRMR_POOL_KEY_VENDOR_KEY", AttrType::U64},
    {111, "RDMA_NLDEV_ATTR_FRMR_POOL_KEY_NUM_DMA_BLOCKS", AttrType::U64},
    {112, "RDMA_NLDEV_ATTR_FRMR_POOL_QUEUE_HANDLES", AttrType::U32},
    {113, "RDMA_NLDEV_ATTR_FRMR_POOL_MAX_IN_USE", AttrType::U64},
    {114, "RDMA_NLDEV_ATTR_FRMR_POOL_IN_USE", AttrType::U64},
    {115, "RDMA_NLDEV_ATTR_FRMR_POOLS_AGING_PERIOD", AttrType::U32},
    {116, "RDMA_NLDEV_ATTR_FRMR_POOL_PINNED_HANDLES", AttrType::U32},
    {117, "RDMA_NLDEV_ATTR_FRMR_POOL_KEY_KERNEL_VENDOR_KEY", AttrType::U64},
};

constexpr auto kTable = [] {
  std::array<Entry, kAttrTableSize> t{};
  for (int i = 0; i < kAttrTableSize; ++i) t[i] = {i, nullptr, AttrType::Unknown};
  for (const Entry& e : kEntries) t[e.id] = e;
  return t;
}();

}  // namespace

AttrType attr_type(int id) {
  return id >= 0 && id < kAttrTableSize ? kTable[id].type : AttrType::Unknown;
}

const char* attr_name(int id) {
  return id >= 0 && id < kAttrTableSize && kTable[id].name ? kTable[id].name : "unknown attribute";
}

}  // namespace rdma::nl
