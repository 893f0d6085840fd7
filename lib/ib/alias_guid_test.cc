// Alias GUIDs set and deleted through the fabric double's SA
// (lib/testing/fabric/client.h): hca2's port 1, LID 3.
#include "lib/ib/alias_guid.h"

#include <gtest/gtest.h>

#include "lib/testing/fabric/client.h"

namespace rdma::ib {
namespace {

TEST(ChangeAliasGuid, SetThenDeleteAnswersTheRecord) {
  ibtest::FabricClient f;
  AliasGuid g{3, 9, 0x0002c903000a1b2c};  // block 1, entry 1
  std::vector<uint8_t> set = change_alias_guid(f.client(), GuidChange::Set, g, 0);
  EXPECT_EQ(alias_guid_in(set, g.index), g.guid);
  std::vector<uint8_t> gone = change_alias_guid(f.client(), GuidChange::Delete, g, 0);
  EXPECT_EQ(alias_guid_in(gone, g.index), 0u);
}

}  // namespace
}  // namespace rdma::ib
