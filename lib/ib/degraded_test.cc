// What a link could run at: widths by lanes, speeds, extended speeds.
#include "lib/ib/degraded.h"

#include <gtest/gtest.h>

namespace rdma::ib {
namespace {

PortInfo port(uint8_t wsup, uint8_t wact, uint8_t ssup, uint8_t sact, uint8_t esup = 0,
              uint8_t eact = 0) {
  PortInfo p;
  p.width_supported = wsup;
  p.width_active = wact;
  p.speed_supported = ssup;
  p.speed_active = sact;
  p.speed_ext_supported = esup;
  p.speed_ext_active = eact;
  return p;
}

TEST(Degraded, AtTheBestBothSupportIsNotDegraded) {
  // 1X|4X|2X on both ends, running 4X: 2X (bit 16) is fewer lanes.
  EXPECT_FALSE(degraded(port(19, 2, 7, 4), port(19, 2, 7, 4)));
  // One end supports 12X, the other only 4X.
  EXPECT_FALSE(degraded(port(11, 2, 7, 4), port(3, 2, 7, 4)));
}

TEST(Degraded, WidthAndSpeedBelowTheBest) {
  auto w = degraded(port(3, 1, 7, 4), port(3, 1, 7, 4));
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->width_low);
  EXPECT_FALSE(w->speed_low);
  EXPECT_EQ(w->width, 2);  // 4X
  auto s = degraded(port(3, 2, 7, 1), port(3, 2, 3, 1));
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->speed_low);
  EXPECT_EQ(s->speed, 2);  // DDR: what both support
}

TEST(Degraded, ExtendedSpeeds) {
  // Both EDR-capable, running FDR.
  auto e = degraded(port(2, 2, 7, 4, 3, 1), port(2, 2, 7, 4, 3, 1));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->speed_ext, 2);
  EXPECT_FALSE(degraded(port(2, 2, 7, 4, 3, 2), port(2, 2, 7, 4, 3, 2)));
  // One end without extended speeds: QDR is the best.
  EXPECT_FALSE(degraded(port(2, 2, 7, 4, 3, 0), port(2, 2, 7, 4)));
}

}  // namespace
}  // namespace rdma::ib
