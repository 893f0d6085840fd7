// Resource enum names as iproute2 prints them, the words a filter accepts
// (any case, the fallback too) and the lists error messages offer.
#include "lib/res/names.h"

#include <gtest/gtest.h>

namespace rdma::res {
namespace {

TEST(ResNames, ValuesByTheKernelsEnums) {
  EXPECT_STREQ(kQpTypes.name(0), "SMI");
  EXPECT_STREQ(kQpTypes.name(2), "RC");
  EXPECT_STREQ(kQpTypes.name(8), "RAW_PACKET");  // IB_QPT_RAW_PACKET = 8
  EXPECT_STREQ(kQpTypes.name(10), "XRC_TGT");
  EXPECT_STREQ(kQpStates.name(3), "RTS");
  EXPECT_STREQ(kQpStates.name(6), "ERR");
  EXPECT_STREQ(kPathMigStates.name(2), "ARMED");
  EXPECT_STREQ(kCmIdStates.name(8), "LISTEN");
  EXPECT_STREQ(kCmIdStates.name(10), "DESTROYING");
  EXPECT_STREQ(kPollCtx.name(3), "UNBOUND_WORKQUEUE");
  EXPECT_STREQ(kSrqTypes.name(2), "TM");
}

// Past a table's end, up to the largest value an attribute can hold.
TEST(ResNames, PastTheEndIsUnknown) {
  EXPECT_STREQ(kQpTypes.name(11), "UNKNOWN");
  EXPECT_STREQ(kQpStates.name(7), "UNKNOWN");
  EXPECT_STREQ(kSrqTypes.name(3), "UNKNOWN");
  EXPECT_STREQ(kPollCtx.name(UINT64_MAX), "UNKNOWN");
}

TEST(ResNames, KnownWordsInAnyCase) {
  EXPECT_TRUE(kQpTypes.known("rc"));
  EXPECT_TRUE(kQpTypes.known("Raw_Packet"));
  EXPECT_TRUE(kQpStates.known("unknown"));  // the fallback is a value too
  EXPECT_FALSE(kQpStates.known("RT"));      // a prefix is not a name
  EXPECT_FALSE(kQpStates.known("RTSX"));
  EXPECT_FALSE(kQpStates.known(""));
  EXPECT_FALSE(kSrqTypes.known("RC"));  // another table's name
}

// The list leaves out the table's own "UNKNOWN" (QP type 7), as a user
// would not choose it.
TEST(ResNames, ListsForMessages) {
  EXPECT_EQ(kQpStates.list(), "RESET, INIT, RTR, RTS, SQD, SQE, ERR");
  EXPECT_EQ(kQpTypes.list(),
            "SMI, GSI, RC, UC, UD, RAW_IPV6, RAW_ETHERTYPE, RAW_PACKET, XRC_INI, XRC_TGT");
  EXPECT_EQ(Names{}.list(), "");
}

// RDMA_PS_* values are sparse; anything else is "---".
TEST(ResNames, PortSpaces) {
  EXPECT_STREQ(port_space_name(0x0002), "IPoIB");
  EXPECT_STREQ(port_space_name(0x013F), "IB");
  EXPECT_STREQ(port_space_name(0x0106), "TCP");
  EXPECT_STREQ(port_space_name(0x0111), "UDP");
  for (uint32_t ps : {0u, 1u, 0x0107u, 0xffffffffu}) EXPECT_STREQ(port_space_name(ps), "---") << ps;
  EXPECT_TRUE(port_space_known("tcp"));
  EXPECT_TRUE(port_space_known("ipoib"));
  EXPECT_TRUE(port_space_known("---"));
  EXPECT_FALSE(port_space_known("SCTP"));
  EXPECT_FALSE(port_space_known("TC"));
}

}  // namespace
}  // namespace rdma::res
