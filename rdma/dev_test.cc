// rdma dev set DEV netns: the namespace by name or by process ID, the fd
// sent in RDMA_NLDEV_NET_NS_FD checked against the process's namespace.
#include <gtest/gtest.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/testkernel.h"
#include "rdma/test_util.h"

namespace rdma {
namespace {

using testkernel::KernelVersion;
using testkernel::TestKernel;

// Forwards to the test kernel; a NET_NS_FD in a request is looked at while
// the tool still holds it open: which namespace it names (inode) is kept,
// and the fd becomes one the kernel accepts.
class NsLink : public nl::Transport {
 public:
  explicit NsLink(TestKernel& k) : k_(k) {}
  void send(const uint8_t* d, size_t n) override {
    nl::Attrs a = nl::Attrs::of_message(reinterpret_cast<const nlmsghdr*>(d));
    if (a.has(RDMA_NLDEV_NET_NS_FD)) {
      uint32_t fd = a.u32(RDMA_NLDEV_NET_NS_FD);
      struct stat st {};
      if (fstat(static_cast<int>(fd), &st) == 0) ns_inode = st.st_ino;
      k_.state.sys.netns_fds.push_back(fd);
    }
    k_.send(d, n);
  }
  size_t recv(uint8_t* b, size_t n, int ms) override { return k_.recv(b, n, ms); }
  uint32_t port_id() const override { return k_.port_id(); }
  void join_group(unsigned g) override { k_.join_group(g); }
  static inline ino_t ns_inode = 0;

 private:
  TestKernel& k_;
};

struct DevNetns : ::testing::Test {
  TestKernel k{KernelVersion::k6_12};
  DevNetns() {
    // A device whose driver can disassociate user contexts, in exclusive
    // mode: the kernel moves it.
    k.register_device(testkernel::make_ib("mlx5_0", 1, 0x0002c90300a1b2c3));
    k.state.sys.netns_shared = 0;
    NsLink::ns_inode = 0;
  }
  test::Result run(std::vector<std::string> args) {
    return test::run_program(std::move(args), [&]() -> std::unique_ptr<nl::Transport> {
      return std::make_unique<NsLink>(k);
    });
  }
};

ino_t inode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_ino;
}

TEST_F(DevNetns, AProcessIdNamesItsNamespace) {
  std::string pid = std::to_string(getpid());
  test::Result r = run({"dev", "set", "mlx5_0", "netns", pid});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(NsLink::ns_inode, inode_of("/proc/self/ns/net"));
  EXPECT_EQ(k.device_by_name("mlx5_0"), nullptr);  // moved out of this namespace
}

TEST_F(DevNetns, ANameOrAProcessThatIsNotThereIsOneLineAndNoRequest) {
  size_t before = k.requests();
  test::Result r = run({"dev", "set", "mlx5_0", "netns", "no-such-ns"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "cannot open network namespace \"no-such-ns\": No such file or directory (give a "
            "name of ip netns or a process ID)\n");
  // No such process (pid_max is at most 4194304).
  r = run({"dev", "set", "mlx5_0", "netns", "4294967290"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "cannot open the network namespace of process 4294967290 "
            "(/proc/4294967290/ns/net): No such file or directory\n");
  r = run({"dev", "set", "mlx5_0", "netns", "0"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cannot open network namespace \"0\""), std::string::npos) << r.err;
  // Only the device lookups reached the kernel: no SET.
  EXPECT_EQ(k.requests() - before, 3u);
  EXPECT_NE(k.device_by_name("mlx5_0"), nullptr);
  EXPECT_EQ(NsLink::ns_inode, 0u);
}

// GET_CHARDEV on the test kernel: ib_uverbs bound to both devices, ib_umad
// to rxe0 only (as when it could not serve rxe1); a minor above 255 checks
// the kernel's huge_encode_dev layout. The VM test checks the real nodes.
TEST(DevChardev, EachDeviceAndPortThatHasOne) {
  TestKernel k{KernelVersion::k6_12};
  using C = testkernel::Device::Chardev;
  k.state.devices[0].chardevs = {{"uverbs", 0, "uverbs0", 231, 192, 2, RDMA_DRIVER_RXE},
                                 {"umad", 1, "umad0", 231, 0, 5},
                                 {"issm", 1, "issm0", 231, 64, 5}};
  k.state.devices[1].chardevs = {C{"uverbs", 0, "uverbs1", 511, 1300, 2, RDMA_DRIVER_RXE}};
  auto run = [&](std::vector<std::string> args) {
    return test::run_program(std::move(args), [&]() -> std::unique_ptr<nl::Transport> {
      return std::make_unique<test::Borrowed>(k);
    });
  };
  test::Result r = run({"dev", "chardev"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "dev rxe0 type uverbs name uverbs0 chardev 231:192 abi 2 \n"
            "link rxe0/1 type umad name umad0 chardev 231:0 abi 5 \n"
            "link rxe0/1 type issm name issm0 chardev 231:64 abi 5 \n"
            "dev rxe1 type uverbs name uverbs1 chardev 511:1300 abi 2 \n");
  r = run({"-j", "dev", "chardev", "rxe0"});
  EXPECT_EQ(r.out,
            R"([{"ifname":"rxe0","type":"uverbs","name":"uverbs0","chardev":"231:192","abi":2},)"
            R"({"ifname":"rxe0","port":1,"type":"umad","name":"umad0","chardev":"231:0","abi":5},)"
            R"({"ifname":"rxe0","port":1,"type":"issm","name":"issm0","chardev":"231:64","abi":5}])"
            "\n");
  // No client bound: nothing to show, not an error.
  k.state.devices[1].chardevs.clear();
  r = run({"dev", "chardev", "rxe1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  r = run({"dev", "chardev", "rxe7"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "unknown device \"rxe7\"\n");
}

}  // namespace
}  // namespace rdma
