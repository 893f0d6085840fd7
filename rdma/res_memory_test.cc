// Memory of `rdma res show qp` does not grow with the number of QPs: records
// are printed as each message is decoded. Many QPs come from the test
// kernel's generated tables. RES_BENCH_QPS sets the count (default 50000;
// bench/res_testkernel.sh runs it with 1000000 and prints the figures).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "rdma/res_test_util.h"

namespace rdma::restest {
namespace {

// Peak resident set size so far (VmHWM), in KiB.
long peak_kib() {
  std::ifstream f("/proc/self/status");
  std::string key;
  long v = 0;
  while (f >> key) {
    if (key == "VmHWM:") {
      f >> v;
      return v;
    }
    f.ignore(1 << 20, '\n');
  }
  return 0;
}

uint32_t qps_wanted() {
  const char* e = std::getenv("RES_BENCH_QPS");
  return e ? static_cast<uint32_t>(std::strtoul(e, nullptr, 10)) : 50000;
}

struct Timed {
  double secs;
  long peak_kib;
};

Timed show_many(TestKernel& k, std::vector<std::string> args) {
  Env env;
  env.out = std::fopen("/dev/null", "w");
  env.err = std::fopen("/dev/null", "w");
  std::vector<std::vector<uint8_t>> sent;
  // Each run is a process with a socket of its own: the size the kernel
  // keeps from the last run's large receives is not this one's.
  k.reopen();
  env.open = [&]() -> std::unique_ptr<nl::Transport> {
    return std::make_unique<Link>(k, sent, -1, Link::Fake{});
  };
  auto t0 = std::chrono::steady_clock::now();
  int status = rdma::run(std::move(args), env);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fclose(env.out);
  std::fclose(env.err);
  EXPECT_EQ(status, 0);
  return {secs, peak_kib()};
}

void generate(TestKernel& k, uint32_t n) {
  auto& t = k.state.devices[0].qps;
  t.generated = n;
  t.generate = [](uint32_t pos) {
    testkernel::Qp q;
    q.id = q.qp_num = 100 + pos;
    q.port = 1;
    q.pdn = 1;
    q.owner.pid = 0x3ffffff0;  // no /proc entry: no comm lookups to time
    q.type = testkernel::kQpRc;
    q.state = 3;
    q.rqpn = 7;
    return q;
  };
}

TEST(ResMemory, FlatWithTheNumberOfQps) {
#ifdef RDMA_TEST_ASAN
  // ASan's quarantine keeps freed memory resident, so RSS says nothing here.
  GTEST_SKIP() << "peak RSS is not meaningful under AddressSanitizer";
#endif
  TestKernel k{testkernel::Options{}, testkernel::vm_fixture(KernelVersion::k6_12)};
  generate(k, 20000);  // warm up: allocator, buffers, one of each record
  show_many(k, {"res", "show", "qp"});
  show_many(k, {"-j", "res", "show", "qp"});
  long base = peak_kib();
  uint32_t n = qps_wanted();
  generate(k, n);
  Timed text = show_many(k, {"res", "show", "qp"});
  Timed json = show_many(k, {"-j", "res", "show", "qp"});
  std::printf(
      "res show qp, %u QPs (test kernel): text %.2f s, json %.2f s, peak RSS %ld KiB "
      "(%+ld KiB over 20000 QPs)\n",
      n, text.secs, json.secs, json.peak_kib, json.peak_kib - base);
  // Flat: a few MiB of slack for the allocator, whatever n is.
  EXPECT_LT(json.peak_kib - base, 4096);
}

}  // namespace
}  // namespace rdma::restest
