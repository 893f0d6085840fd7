// A Port's PortInfo and peer in their packed forms: empty, present, and
// back to empty, read as std::optional's; and the Port they make 64 bytes.
#include "lib/ib/port_parts.h"

#include <gtest/gtest.h>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {
namespace {

TEST(PortParts, InfoEmptyUntilSet) {
  MaybePortInfo m;
  EXPECT_FALSE(m);
  EXPECT_FALSE(m.has_value());
  EXPECT_THROW((void)m.value(), std::bad_optional_access);
  EXPECT_FALSE(std::optional<PortInfo>(m));
  PortInfo other;
  other.lid = 9;
  EXPECT_EQ(m.value_or(other).lid, 9);
}

TEST(PortParts, InfoPresentKeepsEveryField) {
  // State 0 (no state change) is a value a port reports, not "none".
  PortInfo i;
  i.lid = 0x1234;
  i.caps = 0x2000;
  i.state = 0;
  i.hoq_life = 7;
  MaybePortInfo m = i;
  ASSERT_TRUE(m);
  EXPECT_EQ(m->lid, 0x1234);
  EXPECT_EQ((*m).caps, 0x2000u);
  EXPECT_EQ(m->state, 0);
  EXPECT_EQ(m.value().hoq_life, 7);
  m->lid = 5;  // writable through the arrow, as optional's
  EXPECT_EQ(std::optional<PortInfo>(m)->lid, 5);
  m.reset();
  EXPECT_FALSE(m);
  i.state = kPortActive;
  m = std::optional<PortInfo>(i);
  EXPECT_TRUE(m && m->link_up());
  m = std::nullopt;
  EXPECT_FALSE(m);
  m = std::optional<PortInfo>();
  EXPECT_FALSE(m);
  EXPECT_EQ(m.emplace().lid, 0);
  EXPECT_TRUE(m);
}

TEST(PortParts, PeerNoneThenSet) {
  MaybePeer p;
  EXPECT_FALSE(p);
  EXPECT_THROW((void)p.value(), std::bad_optional_access);
  EXPECT_EQ(p, MaybePeer(std::nullopt));
  // A node index past 16 bits keeps both halves.
  p = PortRef{0x12345678, 36};
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->node, 0x12345678u);
  EXPECT_EQ(p->port, 36);
  EXPECT_EQ(*p, (PortRef{0x12345678, 36}));
  EXPECT_NE(p, MaybePeer(PortRef{0x12345678, 35}));
  EXPECT_NE(p, MaybePeer());
  std::optional<PortRef> o = p;
  EXPECT_EQ(o, (PortRef{0x12345678, 36}));
  p.reset();
  EXPECT_FALSE(p);
  p = std::optional<PortRef>(PortRef{0, 0});  // node 0 port 0 is a value
  EXPECT_TRUE(p);
}

TEST(PortParts, PortIsSixtyFourBytes) {
  EXPECT_EQ(sizeof(Port), 64u);
  Port port;
  EXPECT_FALSE(port.info);
  EXPECT_FALSE(port.peer);
  port.num = 255;
  port.peer = PortRef{0xffffffff, 254};
  EXPECT_EQ(port.num, 255);
  EXPECT_EQ(port.peer->node, 0xffffffffu);
  EXPECT_EQ(port.peer->port, 254);
}

}  // namespace
}  // namespace rdma::ib
