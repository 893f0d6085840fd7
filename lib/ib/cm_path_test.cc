// The path of `rdma bw client TARGET` to an InfiniBand target, on the
// fabric double (the suite's fabric, swept: hca1 LID 1 with the SM, sw1 2,
// hca2 3, sw2 4, hca3 5, hca4 6); tests/ibsim/route.sh compares `rdma bw
// path` with saquery's PathRecord on the simulator.
#include "lib/ib/cm_path.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/field.h"
#include "lib/testing/fabric/client.h"

namespace rdma::ib {
namespace {

class CmPathTest : public ::testing::Test {
 protected:
  MadClient& client() { return f_.client(); }
  uint64_t guid_of(const char* id, int port) { return f_.node(id).ports[port].guid; }
  ibtest::FabricClient f_;
};

TEST_F(CmPathTest, LidGuidAndNameGiveTheSamePathFromTheLocalPort) {
  MadClient& c = client();
  std::vector<std::string> w = {"lid", "6"};
  size_t i = 0;
  mad::Target by_lid = *mad::parse_target(w, i);
  CmPath p = cm_path(c, by_lid);
  EXPECT_EQ(p.slid, 1);
  EXPECT_EQ(p.dlid, 6);
  EXPECT_EQ(p.pkey & 0x7fff, 0x7fff);
  EXPECT_EQ(mad::gid_guid(p.sgid), c.local().port_guid);
  EXPECT_EQ(mad::gid_guid(p.dgid), guid_of("hca4", 1));
  EXPECT_EQ(mad::gid_prefix(p.dgid), c.local().gid_prefix);
  ASSERT_EQ(p.record.size(), mad::kPathRecord.bytes);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, p.record, "DLID"), 6u);

  mad::Target by_guid;
  by_guid.kind = mad::Target::Kind::Guid;
  by_guid.guid = guid_of("hca4", 1);
  by_guid.text = "guid";
  EXPECT_EQ(cm_path(c, by_guid).record, p.record);
  EXPECT_EQ(cm_path(c, mad::name_target("hca4")).record, p.record);
  // A directed route, plain or combined, by the LID of the port it ends
  // at (hca1 port 1, sw1 port 3, sw2 port 2: hca4).
  for (std::vector<std::string> dr :
       {std::vector<std::string>{"dr", "0,1,3,2"}, {"dr", "lid", "2", "0,3,2"}}) {
    i = 0;
    EXPECT_EQ(cm_path(c, *mad::parse_target(dr, i)).record, p.record) << dr[1];
  }
}

TEST_F(CmPathTest, UnknownTargetsAreErrors) {
  MadClient& c = client();
  EXPECT_THROW(cm_path(c, mad::name_target("no-such-node")), Error);
  std::vector<uint8_t> short_record(10);
  EXPECT_THROW(cm_path_of(short_record), Error);
}

}  // namespace
}  // namespace rdma::ib
