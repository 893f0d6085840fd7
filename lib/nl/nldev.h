// RDMA netlink (nldev) constants. The uapi header from linux-libc-dev is the
// source; values that Debian 12's header (6.1) lacks are defined here once,
// with the kernel's value, so the tool speaks to newer kernels too.
#pragma once

#include <rdma/rdma_netlink.h>

#include <cstdint>

namespace rdma::nldev {

// Netlink message type of an nldev command.
constexpr uint16_t msg_type(int cmd) {
  return RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
}

// Commands added after Linux 6.1 (include/uapi/rdma/rdma_netlink.h, 6.12).
inline constexpr int kCmdResSrqGetRaw = 25;
inline constexpr int kCmdNewDev = 26;
inline constexpr int kCmdDelDev = 27;
inline constexpr int kCmdMonitor = 28;
// FRMR pools (Linux 7.0, "RDMA/nldev: Add command to get FRMR pools").
inline constexpr int kCmdFrmrPoolsGet = 29;  // dump only, per device
inline constexpr int kCmdFrmrPoolsSet = 30;

// Attributes added after Linux 6.1.
inline constexpr int kAttrPrivilegedQkeyMode = 96;     // u8, RDMA_NLDEV_SYS_ATTR_
inline constexpr int kAttrDriverDetails = 97;          // u8
inline constexpr int kAttrResSubtype = 98;             // string
inline constexpr int kAttrDevType = 99;                // u8
inline constexpr int kAttrParentName = 100;            // string
inline constexpr int kAttrNameAssignType = 101;        // u8
inline constexpr int kAttrEventType = 102;             // u8
inline constexpr int kAttrMonitorMode = 103;           // u8, RDMA_NLDEV_SYS_ATTR_
inline constexpr int kAttrStatOpcounterEnabled = 104;  // u8 (6.15)
// FRMR pools (7.0): RDMA_NLDEV_ATTR_FRMR_POOLS is a table of POOL_ENTRY nests,
// each with a POOL_KEY nest and the pool's counters.
inline constexpr int kAttrFrmrPools = 105;                   // nested
inline constexpr int kAttrFrmrPoolEntry = 106;               // nested
inline constexpr int kAttrFrmrPoolKey = 107;                 // nested
inline constexpr int kAttrFrmrPoolKeyAts = 108;              // u8
inline constexpr int kAttrFrmrPoolKeyAccessFlags = 109;      // u32
inline constexpr int kAttrFrmrPoolKeyVendorKey = 110;        // u64
inline constexpr int kAttrFrmrPoolKeyNumDmaBlocks = 111;     // u64
inline constexpr int kAttrFrmrPoolQueueHandles = 112;        // u32
inline constexpr int kAttrFrmrPoolMaxInUse = 113;            // u64
inline constexpr int kAttrFrmrPoolInUse = 114;               // u64
inline constexpr int kAttrFrmrPoolsAgingPeriod = 115;        // u32
inline constexpr int kAttrFrmrPoolPinnedHandles = 116;       // u32
inline constexpr int kAttrFrmrPoolKeyKernelVendorKey = 117;  // u64
inline constexpr int kAttrMax = 118;                         // one past the newest we know

// Multicast group of RDMA_NLDEV_CMD_MONITOR notifications (6.12+).
inline constexpr unsigned kGroupNotify = 4;

// enum rdma_nl_dev_type
inline constexpr uint8_t kDevTypeSmi = 1;
// enum rdma_nl_name_assign_type
inline constexpr uint8_t kNameAssignUser = 1;
// enum rdma_nl_notify_event_type (RENAME events came with 6.13).
inline constexpr uint8_t kEventRegister = 0;
inline constexpr uint8_t kEventUnregister = 1;
inline constexpr uint8_t kEventNetdevAttach = 2;
inline constexpr uint8_t kEventNetdevDetach = 3;
inline constexpr uint8_t kEventRename = 4;
inline constexpr uint8_t kEventNetdevRename = 5;

static_assert(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC == 95, "uapi header layout changed");
static_assert(RDMA_NLDEV_CMD_STAT_GET_STATUS == 24, "uapi header layout changed");

}  // namespace rdma::nldev
