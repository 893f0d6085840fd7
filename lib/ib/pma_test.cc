// The PMA client: counter names to CounterSelect masks (perfquery -R's and
// ibclearerrors' bits), capability words, and one PMA asked through the
// fabric double.
#include "lib/ib/pma.h"

#include <gtest/gtest.h>

#include "lib/ib/port_select.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"
#include "lib/mad/bits.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

TEST(PmaSelect, NamedCountersSetTheirBitsAndPortXmitWaitGoesToSelect2) {
  std::vector<std::string> names = {"symbol_errors", "xmit_wait"};
  ResetSelect r = reset_select(mad::kPortCounters, names);
  EXPECT_EQ(r.select, 1u);  // SymbolErrorCounter is bit 0
  EXPECT_EQ(r.select2, 1u);
  std::vector<std::string> none = {"no_such_counter"};
  EXPECT_FALSE(reset_select(mad::kPortCounters, none));
}

TEST(PmaSelect, EveryCounterWhenNoneIsNamed) {
  ResetSelect pc = reset_select(mad::kPortCounters, {});
  EXPECT_EQ(pc.select, 0xffffu);
  EXPECT_EQ(pc.select2, 0xffu);
  ResetSelect ext = reset_select(mad::kPortCountersExtended, {});
  EXPECT_EQ(ext.select, 0xffu);
  EXPECT_EQ(ext.select2, 0xffffu);
  EXPECT_FALSE(reset_select(mad::kPortSamplesControl, {}));
}

TEST(PmaSelect, ClearSelectIsIbclearerrorsAndIbclearcounters) {
  PmaCaps plain, qp1{mad::kPmaCapQp1Dropped, 0};
  EXPECT_EQ(clear_select(false, plain).select, 0x0fffu);
  EXPECT_EQ(clear_select(false, plain).select2, 1u);
  EXPECT_EQ(clear_select(true, plain).select, 0xffffu);
  EXPECT_EQ(clear_select(true, qp1).select2, 3u);
  EXPECT_EQ(extended_clear_select().select, 0xffu);
  EXPECT_EQ(extended_clear_select().select2, 0u);
}

TEST(PmaSelect, ResetRequestCarriesPortAndMasks) {
  mad::Mad m = reset_request(mad::kPortCounters, 3, {0x0fff, 1});
  EXPECT_EQ(m.get_attr(mad::kPortCounters, "PortSelect"), 3u);
  EXPECT_EQ(m.get_attr(mad::kPortCounters, "CounterSelect"), 0x0fffu);
  EXPECT_EQ(m.get_attr(mad::kPortCounters, "CounterSelect2"), 1u);
  mad::Mad ext = reset_request(mad::kPortCountersExtended, 1, {0xff, 0});
  EXPECT_EQ(ext.get_attr(mad::kPortCountersExtendedFull, "CounterSelect2"), 0u);
}

TEST(PmaSelect, UnknownCounterIsNamed) {
  std::vector<std::string> names = {"symbol_errors", "xmit_wait_vl2"};
  const mad::AttrDef* pc[] = {&mad::kPortCounters};
  const std::string* bad = unknown_counter(pc, names);
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(*bad, "xmit_wait_vl2");
  EXPECT_TRUE(is_counter_name("xmit_wait_vl2"));
  EXPECT_FALSE(is_counter_name("port_select"));
}

TEST(PmaCapsWords, BitsByName) {
  PmaCaps c{static_cast<uint16_t>(mad::kPmaCapAllPortSelect | mad::kPmaCapExtendedWidthNoIetf),
            mad::kPmaCap2AdditionalExtCounters};
  EXPECT_TRUE(c.all_port_select());
  EXPECT_TRUE(c.extended());
  EXPECT_TRUE(c.extended_errors());
  EXPECT_FALSE(c.rs_fec_counters());
  EXPECT_FALSE(c.qp1_dropped());
  EXPECT_EQ(c.mask_text(), "0x0500");
}

class PmaFake : public ::testing::Test {
 protected:
  PmaFake() : fake_(ibtest::load_topology(testdata::kNet)) { fake_.assign_lids(); }
  ibtest::FakeFabric fake_;
};

TEST_F(PmaFake, ClassPortInfoRequestAnswersTheSwitchCaps) {
  mad::Engine e(fake_, {100, 1, 16});
  uint16_t lid = fake_.lid(fake_.node("sw1"));
  std::optional<PmaCaps> caps;
  e.submit({class_port_info_request(), mad::gsi_address(lid), "cpi",
            [&](const mad::Mad* reply, const mad::Failure*) {
              if (reply) caps = PmaCaps::from(reply->data());
            }});
  e.run();
  ASSERT_TRUE(caps);
  EXPECT_TRUE(caps->all_port_select());
}

}  // namespace
}  // namespace rdma::ib
