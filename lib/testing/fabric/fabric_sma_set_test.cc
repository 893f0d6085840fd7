// The double's SMA Sets: what they change, what they refuse (and then
// leave as it was), and the M_Key that guards them.
#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/test_data.h"

namespace rdma::ibtest {
namespace {

using mad::Mad;

class SmaSets : public ::testing::Test {
 protected:
  SmaSets() : f(load_topology(testdata::kNet)), engine(f, {100, 1, 8}) { f.assign_lids(); }

  // A PortInfo Set by directed route, as read with field = v.
  Mad set_port(std::vector<uint8_t> path, uint32_t port, const char* field, uint64_t v,
               uint64_t mkey = 0) {
    mad::Route r{true, 0, std::move(path)};
    Mad pi =
        engine.call(mad::make_smp(r, mad::kGet, mad::kPortInfo, port), mad::smp_address(r), "get");
    Mad set = mad::make_smp(r, mad::kSet, mad::kPortInfo, port);
    std::copy(pi.data().begin(), pi.data().end(), set.data().begin());
    set.set_attr(mad::kPortInfo, "PortState", 0);
    set.set_attr(mad::kPortInfo, "PortPhysicalState", 0);
    set.set_attr(mad::kPortInfo, field, v);
    set.set(mad::hdr::kMKey, mkey);
    return engine.call(set, mad::smp_address(r), "set");
  }

  FakeFabric f;
  mad::Engine engine;
};

TEST_F(SmaSets, BadFieldsChangeNothing) {
  EXPECT_THROW(set_port({1}, 2, "OperationalVLs", 5), mad::MadError);  // VLCap is VL0-7
  EXPECT_THROW(set_port({1}, 2, "PortState", kInit), mad::MadError);   // not a Set's value
  EXPECT_THROW(set_port({1}, 2, "PortState", kArmed), mad::MadError);  // from Active
  EXPECT_EQ(f.nodes()[f.node("sw1")].ports[2].oper_vls, 0);
  EXPECT_EQ(f.nodes()[f.node("sw1")].ports[2].state, kActive);
  // A CA sets only the port the Set arrives by.
  EXPECT_THROW(set_port({1, 2}, 2, "OperationalVLs", 2), mad::MadError);
}

TEST_F(SmaSets, DownRetrainsAtTheEnabledWidth) {
  set_port({1}, 2, "LinkWidthEnabled", kWidth1x);
  EXPECT_EQ(f.nodes()[f.node("hca2")].ports[1].width_active, kWidth4x);
  Mad r = set_port({1}, 2, "PortState", kDown);
  EXPECT_EQ(r.get_attr(mad::kPortInfo, "PortState"), kInit);
  EXPECT_EQ(f.nodes()[f.node("hca2")].ports[1].width_active, kWidth1x);
  EXPECT_EQ(f.nodes()[f.node("hca2")].ports[1].state, kInit);
}

TEST_F(SmaSets, AnMkeyGuardsLaterSets) {
  set_port({1, 2}, 0, "M_Key", 0x77);
  EXPECT_THROW(set_port({1, 2}, 0, "OperationalVLs", 2), mad::MadError);  // dropped: timeout
  EXPECT_EQ(f.nodes()[f.node("hca2")].ports[1].oper_vls, 4);  // as the first Set echoed it
  set_port({1, 2}, 0, "OperationalVLs", 2, 0x77);
  EXPECT_EQ(f.nodes()[f.node("hca2")].ports[1].oper_vls, 2);
}

}  // namespace
}  // namespace rdma::ibtest
