#include "lib/mad/local_port.h"

#include <gtest/gtest.h>

#include "lib/error.h"

namespace rdma::mad {
namespace {

Devices::Port port(const std::string& ca, int n, int state, bool ib = true) {
  Devices::Port p;
  p.port.ca = ca;
  p.port.port = n;
  p.port.state = state;
  p.port.lid = static_cast<uint16_t>(n + 10);
  p.infiniband = ib;
  return p;
}

// Two soft-RoCE devices (as the VM suite's rxe0/rxe1) and an iWARP one.
Devices roce_and_iwarp() {
  Devices d;
  d.umad.push_back({"rxe0", 1, {port("rxe0", 1, 4, false)}});
  d.umad.push_back({"rxe1", 1, {port("rxe1", 1, 4, false)}});
  d.rdma = {{"rxe0", 1}, {"rxe1", 1}, {"siw0", kNodeRnic}};
  return d;
}

std::string error_of(const Devices& d, const std::string& via) {
  try {
    LocalPort p = choose_local_port(d, via);
    return "chose " + p.ca + "/" + std::to_string(p.port);
  } catch (const Error& e) {
    return e.what();
  }
}

TEST(LocalPort, ARoceOrIwarpPortIsNotInfiniBand) {
  Devices d = roce_and_iwarp();
  const std::string roce =
      "port rxe0/1 is not InfiniBand (RoCE): it has no subnet management; MADs need an "
      "InfiniBand port";
  EXPECT_EQ(error_of(d, "rxe0/1"), roce);
  EXPECT_EQ(error_of(d, "rxe0"), roce);
  EXPECT_EQ(error_of(d, "siw0"),
            "device \"siw0\" is not InfiniBand (iWARP): it has no subnet management; MADs need "
            "an InfiniBand port");
  EXPECT_EQ(error_of(d, "siw0/1"), error_of(d, "siw0"));
}

TEST(LocalPort, WithoutInfiniBandTheDefaultNamesWhatThereIs) {
  EXPECT_EQ(error_of(roce_and_iwarp(), ""),
            "no InfiniBand port (rxe0/1 RoCE, rxe1/1 RoCE, siw0 iWARP): RoCE and iWARP have no "
            "subnet management; MADs need an InfiniBand port");
  Devices iwarp_only;
  iwarp_only.rdma = {{"siw0", kNodeRnic}};
  EXPECT_EQ(error_of(iwarp_only, ""),
            "no InfiniBand port (siw0 iWARP): RoCE and iWARP have no subnet management; MADs "
            "need an InfiniBand port");
  EXPECT_EQ(error_of(Devices{}, ""), "no InfiniBand port: no RDMA devices");
  Devices no_umad;
  no_umad.rdma = {{"mlx5_0", 1}};
  EXPECT_EQ(error_of(no_umad, ""), "no InfiniBand device with a umad port (is ib_umad loaded?)");
}

// Without ib_umad RoCE devices have no umad ports either: sysfs tells.
TEST(LocalPort, RoceWithoutUmadIsStillNamedRoce) {
  Devices d;
  d.rdma = {{"rxe0", 1, true}, {"rxe1", 1, true}};
  EXPECT_EQ(error_of(d, ""),
            "no InfiniBand port (rxe0 RoCE, rxe1 RoCE): RoCE and iWARP have no subnet "
            "management; MADs need an InfiniBand port");
  EXPECT_EQ(error_of(d, "rxe0/1"),
            "device \"rxe0\" is not InfiniBand (RoCE): it has no subnet management; MADs need an "
            "InfiniBand port");
}

TEST(LocalPort, TheDefaultSkipsRoceForTheFirstActiveInfiniBandPort) {
  Devices d = roce_and_iwarp();
  d.umad.push_back({"mlx4_0", 1, {port("mlx4_0", 1, 2), port("mlx4_0", 2, 4)}});
  EXPECT_EQ(error_of(d, ""), "chose mlx4_0/2");
  // Without an active port (no SM): the first with its link up.
  d.umad.back().ports[1].port.state = 1;
  EXPECT_EQ(error_of(d, ""), "chose mlx4_0/1");
  d.umad.back().ports[0].port.state = 1;
  EXPECT_EQ(error_of(d, ""),
            "no InfiniBand port with its link up; choose one with \"via DEV/PORT\"");
}

TEST(LocalPort, ViaChoosesAPortOfTheDevice) {
  Devices d;
  d.umad.push_back({"mlx4_0", 1, {port("mlx4_0", 1, 1), port("mlx4_0", 2, 4)}});
  d.rdma = {{"mlx4_0", 1}};
  EXPECT_EQ(error_of(d, "mlx4_0"), "chose mlx4_0/2");    // port 1 is down
  EXPECT_EQ(error_of(d, "mlx4_0/1"), "chose mlx4_0/1");  // asked for: used even down
  EXPECT_EQ(error_of(d, "mlx4_0/3"), "device \"mlx4_0\" has no port 3");
  EXPECT_EQ(error_of(d, "mlx9"), "no RDMA device \"mlx9\" with a umad port");
  EXPECT_EQ(error_of(d, "mlx4_0/x"), "invalid port \"x\" in \"via mlx4_0/x\" (expected DEV/PORT)");
  // A device with a RoCE and an IB port: "via DEV" takes the IB one.
  d.umad[0].ports[0].infiniband = false;
  d.umad[0].ports[0].port.state = 4;
  EXPECT_EQ(error_of(d, "mlx4_0"), "chose mlx4_0/2");
}

}  // namespace
}  // namespace rdma::mad
