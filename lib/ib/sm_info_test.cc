// SMInfo read by SMP and from the SA's SMInfoRecord, and decoded, on the
// fabric double (lib/testing/fabric/client.h): the SM at LID 1.
#include "lib/ib/sm_info.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/mad/format.h"
#include "lib/testing/fabric/client.h"

namespace rdma::ib {
namespace {

std::string sm_field_text(const view::Record& r, const std::string& key) {
  for (const view::Field& f : r)
    if (f.key == key) return f.text;
  return "";
}

TEST(SmInfoView, BySmpAndFromTheSa) {
  ibtest::FabricClient f;
  f.fabric().sm().priority = 5;
  mad::Mad smp = read_sm_info(f.client(), ibtest::FabricClient::lid_route(1));
  SaSmInfo sa = read_sm_info_sa(f.client(), ibtest::FabricClient::lid_target(1));
  EXPECT_EQ(sa.lid, 1);
  view::Record a, b;
  add_sm_info(smp.data(), 0, false, a);
  add_sm_info(sa.info, 0, false, b);
  EXPECT_EQ(sm_field_text(a, "priority"), "priority 5 ");
  EXPECT_EQ(sm_field_text(b, "priority"), "priority 5 ");
  EXPECT_EQ(sm_field_text(a, "state"), sm_field_text(b, "state"));
}

// The SM_Key is a secret: shown in clear only when asked.
TEST(SmInfoView, TheKeyOnlyWhenAsked) {
  ibtest::FabricClient f;
  mad::Mad smp = read_sm_info(f.client(), ibtest::FabricClient::lid_route(1));
  view::Record hidden, shown;
  add_sm_info(smp.data(), 1, false, hidden);
  add_sm_info(smp.data(), 1, true, shown);
  EXPECT_NE(sm_field_text(hidden, "sm_key").find(mad::kNotDisplayed), std::string::npos);
  EXPECT_EQ(sm_field_text(shown, "sm_key").find(mad::kNotDisplayed), std::string::npos);
  EXPECT_FALSE(sm_field_text(shown, "sm_key").empty());
}

}  // namespace
}  // namespace rdma::ib
