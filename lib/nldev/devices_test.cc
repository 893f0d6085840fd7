#include "lib/nldev/devices.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>

#include <cstring>

#include "lib/error.h"
#include "lib/nl/nldev.h"

namespace rdma::nldev {
namespace {

// Answers the GET dump with one device of the given port count.
class OneDevice : public nl::Transport {
 public:
  explicit OneDevice(uint32_t ports) : ports_(ports) {}
  int sent = 0;
  void set_ports(uint32_t ports) { ports_ = ports; }
  void send(const uint8_t* data, size_t) override {
    ++sent;
    const auto* req = reinterpret_cast<const nlmsghdr*>(data);
    buf_.assign(1024, 0);
    nlmsghdr* h = mnl_nlmsg_put_header(buf_.data());
    h->nlmsg_type = msg_type(RDMA_NLDEV_CMD_GET);
    h->nlmsg_flags = NLM_F_MULTI;
    h->nlmsg_seq = req->nlmsg_seq;
    h->nlmsg_pid = port_id();
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
    mnl_attr_put_strz(h, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_PORT_INDEX, ports_);
    size_t len = MNL_ALIGN(h->nlmsg_len);
    nlmsghdr* done = mnl_nlmsg_put_header(buf_.data() + len);
    done->nlmsg_type = NLMSG_DONE;
    done->nlmsg_flags = NLM_F_MULTI;
    done->nlmsg_seq = req->nlmsg_seq;
    done->nlmsg_pid = port_id();
    mnl_nlmsg_put_extra_header(done, sizeof(int));
    buf_.resize(len + done->nlmsg_len);
  }
  size_t recv(uint8_t* buf, size_t cap, int) override {
    size_t n = std::min(cap, buf_.size());
    std::memcpy(buf, buf_.data(), n);
    buf_.clear();
    return n;
  }
  uint32_t port_id() const override { return 77; }
  void join_group(unsigned) override {}

 private:
  uint32_t ports_;
  std::vector<uint8_t> buf_;
};

TEST(Devices, ListsThePortCount) {
  OneDevice t(2);
  nl::Session s(t);
  auto devs = list_devices(s);
  ASSERT_EQ(devs.size(), 1u);
  EXPECT_EQ(devs[0].ports, 2u);
}

TEST(Devices, ABatchDecodesTheListOnceUntilItIsDropped) {
  OneDevice t(2);
  nl::Session s(t);
  s.keep_dumps(true);
  EXPECT_EQ(list_devices(s).at(0).ports, 2u);
  t.set_ports(3);
  EXPECT_EQ(list_devices(s).at(0).ports, 2u);
  EXPECT_EQ(find_device(s, "rxe0").ports, 2u);
  EXPECT_EQ(t.sent, 1);
  // Dropped (as a write drops it): asked and decoded again.
  EXPECT_TRUE(s.forget_kept());
  EXPECT_EQ(list_devices(s).at(0).ports, 3u);
  EXPECT_EQ(list_devices(s).at(0).ports, 3u);
  EXPECT_EQ(t.sent, 2);
  s.keep_dumps(false);
  t.set_ports(4);
  EXPECT_EQ(list_devices(s).at(0).ports, 4u);
}

// fuzz_nl_replies found this: "stat show" looped over 2^32 ports (p <= ports
// never ends for 0xffffffff).
TEST(Devices, ADamagedPortCountIsAnError) {
  for (uint32_t ports : {kMaxPorts + 1, 0xffffffffu}) {
    OneDevice t(ports);
    nl::Session s(t);
    try {
      list_devices(s);
      FAIL() << ports;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), "malformed kernel reply: device rxe0 has " +
                                           std::to_string(ports) + " ports (at most 65535)");
    }
  }
  OneDevice t(kMaxPorts);
  nl::Session s(t);
  EXPECT_EQ(list_devices(s).at(0).ports, kMaxPorts);
}

}  // namespace
}  // namespace rdma::nldev
