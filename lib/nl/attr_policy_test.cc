// The attribute policy against two sources written apart from it: the
// uapi header's enum (names and ids up to Linux 6.1, lib/nl/nldev.h's
// constants after) and the kernel double's nldev_policy (lib/testing/kernel,
// the kernel's own table), so a row shifted by one or typed wrong is seen.
#include "lib/nl/attr_policy.h"

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include <set>
#include <string>
#include <vector>

#include "lib/nl/nldev.h"
#include "lib/testing/kernel/policy.h"

namespace rdma::nl {
namespace {

struct PolicyName {
  int id;
  const char* name;
};

#define KNOWN(x) \
  PolicyName {   \
    x, #x        \
  }

TEST(AttrPolicy, NamesMatchTheUapiEnum) {
  const PolicyName uapi[] = {
      KNOWN(RDMA_NLDEV_ATTR_DEV_INDEX),
      KNOWN(RDMA_NLDEV_ATTR_DEV_NAME),
      KNOWN(RDMA_NLDEV_ATTR_PORT_INDEX),
      KNOWN(RDMA_NLDEV_ATTR_CAP_FLAGS),
      KNOWN(RDMA_NLDEV_ATTR_FW_VERSION),
      KNOWN(RDMA_NLDEV_ATTR_NODE_GUID),
      KNOWN(RDMA_NLDEV_ATTR_SYS_IMAGE_GUID),
      KNOWN(RDMA_NLDEV_ATTR_SUBNET_PREFIX),
      KNOWN(RDMA_NLDEV_ATTR_LID),
      KNOWN(RDMA_NLDEV_ATTR_SM_LID),
      KNOWN(RDMA_NLDEV_ATTR_LMC),
      KNOWN(RDMA_NLDEV_ATTR_PORT_STATE),
      KNOWN(RDMA_NLDEV_ATTR_PORT_PHYS_STATE),
      KNOWN(RDMA_NLDEV_ATTR_DEV_NODE_TYPE),
      KNOWN(RDMA_NLDEV_ATTR_RES_SUMMARY),
      KNOWN(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME),
      KNOWN(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR),
      KNOWN(RDMA_NLDEV_ATTR_RES_QP),
      KNOWN(RDMA_NLDEV_ATTR_RES_QP_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_RES_LQPN),
      KNOWN(RDMA_NLDEV_ATTR_RES_RQPN),
      KNOWN(RDMA_NLDEV_ATTR_RES_RQ_PSN),
      KNOWN(RDMA_NLDEV_ATTR_RES_SQ_PSN),
      KNOWN(RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE),
      KNOWN(RDMA_NLDEV_ATTR_RES_TYPE),
      KNOWN(RDMA_NLDEV_ATTR_RES_STATE),
      KNOWN(RDMA_NLDEV_ATTR_RES_PID),
      KNOWN(RDMA_NLDEV_ATTR_RES_KERN_NAME),
      KNOWN(RDMA_NLDEV_ATTR_RES_CM_ID),
      KNOWN(RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_RES_PS),
      KNOWN(RDMA_NLDEV_ATTR_RES_SRC_ADDR),
      KNOWN(RDMA_NLDEV_ATTR_RES_DST_ADDR),
      KNOWN(RDMA_NLDEV_ATTR_RES_CQ),
      KNOWN(RDMA_NLDEV_ATTR_RES_CQ_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_RES_CQE),
      KNOWN(RDMA_NLDEV_ATTR_RES_USECNT),
      KNOWN(RDMA_NLDEV_ATTR_RES_POLL_CTX),
      KNOWN(RDMA_NLDEV_ATTR_RES_MR),
      KNOWN(RDMA_NLDEV_ATTR_RES_MR_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_RES_RKEY),
      KNOWN(RDMA_NLDEV_ATTR_RES_LKEY),
      KNOWN(RDMA_NLDEV_ATTR_RES_IOVA),
      KNOWN(RDMA_NLDEV_ATTR_RES_MRLEN),
      KNOWN(RDMA_NLDEV_ATTR_RES_PD),
      KNOWN(RDMA_NLDEV_ATTR_RES_PD_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY),
      KNOWN(RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY),
      KNOWN(RDMA_NLDEV_ATTR_NDEV_INDEX),
      KNOWN(RDMA_NLDEV_ATTR_NDEV_NAME),
      KNOWN(RDMA_NLDEV_ATTR_DRIVER),
      KNOWN(RDMA_NLDEV_ATTR_DRIVER_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_DRIVER_STRING),
      KNOWN(RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE),
      KNOWN(RDMA_NLDEV_ATTR_DRIVER_S32),
      KNOWN(RDMA_NLDEV_ATTR_DRIVER_U32),
      KNOWN(RDMA_NLDEV_ATTR_DRIVER_S64),
      KNOWN(RDMA_NLDEV_ATTR_DRIVER_U64),
      KNOWN(RDMA_NLDEV_ATTR_RES_PDN),
      KNOWN(RDMA_NLDEV_ATTR_RES_CQN),
      KNOWN(RDMA_NLDEV_ATTR_RES_MRN),
      KNOWN(RDMA_NLDEV_ATTR_RES_CM_IDN),
      KNOWN(RDMA_NLDEV_ATTR_RES_CTXN),
      KNOWN(RDMA_NLDEV_ATTR_LINK_TYPE),
      KNOWN(RDMA_NLDEV_SYS_ATTR_NETNS_MODE),
      KNOWN(RDMA_NLDEV_ATTR_DEV_PROTOCOL),
      KNOWN(RDMA_NLDEV_NET_NS_FD),
      KNOWN(RDMA_NLDEV_ATTR_CHARDEV_TYPE),
      KNOWN(RDMA_NLDEV_ATTR_CHARDEV_NAME),
      KNOWN(RDMA_NLDEV_ATTR_CHARDEV_ABI),
      KNOWN(RDMA_NLDEV_ATTR_CHARDEV),
      KNOWN(RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID),
      KNOWN(RDMA_NLDEV_ATTR_STAT_MODE),
      KNOWN(RDMA_NLDEV_ATTR_STAT_RES),
      KNOWN(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK),
      KNOWN(RDMA_NLDEV_ATTR_STAT_COUNTER),
      KNOWN(RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_STAT_COUNTER_ID),
      KNOWN(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS),
      KNOWN(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME),
      KNOWN(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE),
      KNOWN(RDMA_NLDEV_ATTR_DEV_DIM),
      KNOWN(RDMA_NLDEV_ATTR_RES_RAW),
      KNOWN(RDMA_NLDEV_ATTR_RES_CTX),
      KNOWN(RDMA_NLDEV_ATTR_RES_CTX_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_RES_SRQ),
      KNOWN(RDMA_NLDEV_ATTR_RES_SRQ_ENTRY),
      KNOWN(RDMA_NLDEV_ATTR_RES_SRQN),
      KNOWN(RDMA_NLDEV_ATTR_MIN_RANGE),
      KNOWN(RDMA_NLDEV_ATTR_MAX_RANGE),
      KNOWN(RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK),
      KNOWN(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX),
      KNOWN(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC),
  };
  for (const PolicyName& n : uapi) EXPECT_STREQ(attr_name(n.id), n.name) << "id " << n.id;
  // After 6.1's header: lib/nl/nldev.h's constants.
  EXPECT_STREQ(attr_name(nldev::kAttrPrivilegedQkeyMode),
               "RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE");
  EXPECT_STREQ(attr_name(nldev::kAttrResSubtype), "RDMA_NLDEV_ATTR_RES_SUBTYPE");
  EXPECT_STREQ(attr_name(nldev::kAttrParentName), "RDMA_NLDEV_ATTR_PARENT_NAME");
  EXPECT_STREQ(attr_name(nldev::kAttrMonitorMode), "RDMA_NLDEV_SYS_ATTR_MONITOR_MODE");
  EXPECT_STREQ(attr_name(nldev::kAttrStatOpcounterEnabled),
               "RDMA_NLDEV_ATTR_STAT_OPCOUNTER_ENABLED");
  EXPECT_STREQ(attr_name(nldev::kAttrFrmrPools), "RDMA_NLDEV_ATTR_FRMR_POOLS");
  EXPECT_STREQ(attr_name(nldev::kAttrFrmrPoolQueueHandles),
               "RDMA_NLDEV_ATTR_FRMR_POOL_QUEUE_HANDLES");
}

#undef KNOWN

// Every id from 1 to the last is named once, with a type: no gap a row
// left out would make, no name twice.
TEST(AttrPolicy, EveryKnownIdHasOneNameAndAType) {
  std::set<std::string> names;
  for (int id = 1; id < kAttrTableSize; ++id) {
    EXPECT_NE(attr_type(id), AttrType::Unknown) << "id " << id;
    EXPECT_STRNE(attr_name(id), "unknown attribute") << "id " << id;
    EXPECT_TRUE(names.insert(attr_name(id)).second) << attr_name(id) << " twice";
  }
  EXPECT_STREQ(attr_name(kAttrTableSize - 1), "RDMA_NLDEV_ATTR_FRMR_POOL_KEY_KERNEL_VENDOR_KEY");
  EXPECT_EQ(attr_type(kAttrTableSize - 1), AttrType::U64);
}

// UNSPEC/PAD (0), negative ids, and ids past the table (a newer kernel's)
// are unknown, never read out of bounds.
TEST(AttrPolicy, IdsOutsideTheTableAreUnknown) {
  for (int id : {0, -1, -1000, kAttrTableSize, kAttrTableSize + 1, 0xffff, 0x7fffffff}) {
    EXPECT_EQ(attr_type(id), AttrType::Unknown) << id;
    EXPECT_STREQ(attr_name(id), "unknown attribute") << id;
  }
}

// The payload type as the kernel's nldev_policy (7.0) declares it, for
// every attribute the kernel's policy types: the sizes the tool accepts
// are the ones the kernel sends.
TEST(AttrPolicy, TypesAgreeWithTheKernelsPolicy) {
  using testkernel::NlaType;
  int compared = 0;
  for (int id = 1; id < kAttrTableSize; ++id) {
    NlaType k =
        testkernel::nldev_policy(testkernel::KernelVersion::k7_0, static_cast<uint16_t>(id)).type;
    AttrType want;
    switch (k) {
      case NlaType::kU8:
        want = AttrType::U8;
        break;
      case NlaType::kU32:
      case NlaType::kS32:
        want = AttrType::U32;
        break;
      case NlaType::kU64:
      case NlaType::kS64:
        want = AttrType::U64;
        break;
      case NlaType::kNulString:
        want = AttrType::String;
        break;
      case NlaType::kNested:
        want = AttrType::Nested;
        break;
      case NlaType::kBinary:
        want = AttrType::Binary;
        break;
      default:
        continue;  // untyped in the kernel's policy (output only)
    }
    EXPECT_EQ(attr_type(id), want) << attr_name(id);
    ++compared;
  }
  EXPECT_GT(compared, 60);  // the comparison covered the policy, not a few rows
}

}  // namespace
}  // namespace rdma::nl
