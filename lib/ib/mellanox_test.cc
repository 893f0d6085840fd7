// A Mellanox switch's vendor agent through the library, on the fabric
// double's agent (lib/testing/fabric/fabric_vendor.cc; ibsim has none):
// sw1, LID 2. Record counts at their bounds, masked writes read back, the
// InfiniScale III check, the counter group selects read back.
#include "lib/ib/mellanox.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/testing/fabric/client.h"

namespace rdma::ib {
namespace {

class Mellanox : public ::testing::Test {
 protected:
  Mellanox() { agent().mellanox = true; }
  ibtest::FabricVendor& agent() { return f_.node("sw1").vendor; }
  ibtest::FabricClient f_;
};

TEST(MellanoxRecords, OneToEighteenRecords) {
  EXPECT_THROW(check_config_records(0, "read"), UsageError);
  check_config_records(1, "read");
  check_config_records(mad::kConfigRecordsMax, "write");
  try {
    check_config_records(mad::kConfigRecordsMax + 1, "write");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "a config space access takes 1 to 18 write records, not 19");
  }
}

TEST_F(Mellanox, ConfigSpaceReadsEveryRecordAsked) {
  agent().config[0x1000] = 0x12345678;
  std::vector<mad::ConfigRecord> want(mad::kConfigRecordsMax);
  for (unsigned i = 0; i < want.size(); ++i) want[i].address = 0x1000 + 4 * i;
  std::vector<mad::ConfigRecord> got = config_space_read(f_.client(), 2, want);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(got[0].address, 0x1000u);
  EXPECT_EQ(got[0].data, 0x12345678u);
  EXPECT_EQ(got[17].address, 0x1044u);
  EXPECT_EQ(got[17].data, 0u);
  std::vector<mad::ConfigRecord> none;
  EXPECT_THROW(config_space_read(f_.client(), 2, none), UsageError);
}

// Only the mask's bits are written; a word that drops the write is an
// error naming it and both values.
TEST_F(Mellanox, ConfigSpaceWriteIsReadBack) {
  agent().config[0x1000] = 0x12345678;
  std::vector<mad::ConfigRecord> w = {{0x1000, 0xabcd, 0xffff}};
  std::vector<mad::ConfigRecord> back = config_space_write(f_.client(), 2, w);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].data, 0x1234abcdu);
  EXPECT_EQ(agent().config[0x1000], 0x1234abcdu);
  agent().read_only = {0x4000};
  agent().config[0x4000] = 0x10;
  std::vector<mad::ConfigRecord> ro = {{0x4000, 0xff, 0xf}};
  try {
    config_space_write(f_.client(), 2, ro);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "config space record at 0x4000 of lid 2 reads back 0x0 after writing 0xf");
  }
}

// vendstat -w: an InfiniScale III's 24 counters, labelled as vendstat
// labels them; another device is refused before any counter is read.
TEST_F(Mellanox, XmitWaitOfAnInfiniScaleThreeOnly) {
  agent().general.device_id = mad::kIs3DeviceId;
  for (unsigned b = 1; b <= mad::kIs3XmitWaitBlocks; ++b)
    agent().config[mad::is3_xmit_wait_address(b)] = 1000 + b;
  std::vector<XmitWait> w = is3_port_xmit_wait(f_.client(), 2);
  ASSERT_EQ(w.size(), 24u);
  for (unsigned b = 1; b <= 24; ++b) {
    EXPECT_EQ(w[b - 1].value, 1000 + b);
    EXPECT_EQ(w[b - 1].port, mad::is3_xmit_wait_port(b));
  }
  agent().general.device_id = 0x1003;
  try {
    is3_port_xmit_wait(f_.client(), 2);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "lid 2 is device 0x1003: port xmit wait counters are an InfiniScale III's "
                 "(0xb924)");
  }
}

TEST_F(Mellanox, CounterGroupsInfoAndSelects) {
  agent().counter_groups.groups = 2;
  agent().counter_groups.masks = {0xff, 0xf0f0};
  mad::CounterGroupInfo info = counter_group_info(f_.client(), 2, 3);
  EXPECT_EQ(info.groups, 2);
  ASSERT_GE(info.masks.size(), 2u);
  EXPECT_EQ(info.masks[1], 0xf0f0u);
  config_counter_groups(f_.client(), 2, 3, {1, 255});
  EXPECT_EQ(agent().group_selects[3], (mad::CounterGroupSelect{1, 255}));
  EXPECT_EQ(agent().group_selects.count(4), 0u);  // port 3's only
}

// A node without the agent does not answer: an error, not a hang.
TEST_F(Mellanox, NoAgentIsAnError) {
  agent().mellanox = false;
  EXPECT_THROW(counter_group_info(f_.client(), 2, 1), Error);
}

}  // namespace
}  // namespace rdma::ib
