// Replays the netlink exchanges recorded from iproute2's rdma on the test VM
// (tests/data/golden/<kver>/<name>.nl) against the test kernel configured
// like that VM, and compares the replies byte for byte after masking values
// that change from run to run (port ids, GUIDs, pids, PSNs, keys, counters).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/golden_file.h"
#include "lib/testing/kernel/test_helpers.h"
#include "lib/testing/kernel/testkernel.h"
#include "lib/testing/test_data.h"

namespace rdma::testkernel {
namespace {

namespace fs = std::filesystem;
using testing::Bytes;

using golden::Exchange;
using golden::load;

bool is_nest(uint16_t t) {
  switch (t) {
    case RDMA_NLDEV_ATTR_RES_SUMMARY:
    case RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY:
    case RDMA_NLDEV_ATTR_RES_QP:
    case RDMA_NLDEV_ATTR_RES_QP_ENTRY:
    case RDMA_NLDEV_ATTR_RES_CM_ID:
    case RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY:
    case RDMA_NLDEV_ATTR_RES_CQ:
    case RDMA_NLDEV_ATTR_RES_CQ_ENTRY:
    case RDMA_NLDEV_ATTR_RES_MR:
    case RDMA_NLDEV_ATTR_RES_MR_ENTRY:
    case RDMA_NLDEV_ATTR_RES_PD:
    case RDMA_NLDEV_ATTR_RES_PD_ENTRY:
    case RDMA_NLDEV_ATTR_RES_CTX:
    case RDMA_NLDEV_ATTR_RES_CTX_ENTRY:
    case RDMA_NLDEV_ATTR_RES_SRQ:
    case RDMA_NLDEV_ATTR_RES_SRQ_ENTRY:
    case RDMA_NLDEV_ATTR_STAT_COUNTER:
    case RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY:
    case RDMA_NLDEV_ATTR_STAT_HWCOUNTERS:
    case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY:
    case RDMA_NLDEV_ATTR_DRIVER:
      return true;
    default:
      return false;
  }
}

// Attributes whose values differ between runs of the same fixture.
bool is_volatile(uint16_t t) {
  switch (t) {
    case RDMA_NLDEV_ATTR_NODE_GUID:
    case RDMA_NLDEV_ATTR_SYS_IMAGE_GUID:
    case RDMA_NLDEV_ATTR_RES_PID:
    case RDMA_NLDEV_ATTR_RES_SQ_PSN:
    case RDMA_NLDEV_ATTR_RES_RQ_PSN:
    case RDMA_NLDEV_ATTR_RES_LKEY:
    case RDMA_NLDEV_ATTR_RES_RKEY:
    case RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY:
    case RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY:
    case RDMA_NLDEV_ATTR_RES_IOVA:
    case RDMA_NLDEV_ATTR_RES_USECNT:
    case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE:
      return true;
    default:
      return false;
  }
}

void mask_attrs(uint8_t* p, size_t len) {
  size_t off = 0;
  while (off + NLA_HDRLEN <= len) {
    auto* a = reinterpret_cast<nlattr*>(p + off);
    if (a->nla_len < NLA_HDRLEN || off + a->nla_len > len) return;
    uint16_t t = a->nla_type & NLA_TYPE_MASK;
    if (is_nest(t))
      mask_attrs(p + off + NLA_HDRLEN, a->nla_len - NLA_HDRLEN);
    else if (is_volatile(t))
      std::fill(p + off + NLA_HDRLEN, p + off + a->nla_len, 0);
    else if ((t == RDMA_NLDEV_ATTR_RES_SRC_ADDR || t == RDMA_NLDEV_ATTR_RES_DST_ADDR) &&
             a->nla_len >= NLA_HDRLEN + 4)
      p[off + NLA_HDRLEN + 2] = p[off + NLA_HDRLEN + 3] = 0;  // ephemeral ports
    off += NLA_ALIGN(a->nla_len);
  }
}

Bytes normalize(Bytes d) {
  size_t off = 0;
  while (off + NLMSG_HDRLEN <= d.size()) {
    auto* nlh = reinterpret_cast<nlmsghdr*>(d.data() + off);
    if (nlh->nlmsg_len < NLMSG_HDRLEN || off + nlh->nlmsg_len > d.size()) break;
    nlh->nlmsg_pid = 0;
    if (nlh->nlmsg_type >= NLMSG_MIN_TYPE)
      mask_attrs(d.data() + off + NLMSG_HDRLEN, nlh->nlmsg_len - NLMSG_HDRLEN);
    off += NLMSG_ALIGN(nlh->nlmsg_len);
  }
  return d;
}

std::string hex(const Bytes& b) {
  std::ostringstream o;
  for (uint8_t c : b) o << std::hex << (c >> 4) << (c & 15);
  return o.str();
}

void replay(KernelVersion v, const fs::path& file) {
  SCOPED_TRACE(file.string());
  TestKernel k(Options{.version = v}, vm_resources_fixture(v));
  size_t i = 0;
  uint32_t port = 0;
  for (const Exchange& e : load(file)) {
    ++i;
    SCOPED_TRACE("request " + std::to_string(i) + ": " + hex(e.request));
    // Replies to another port id: the program opened a new socket.
    if (!e.replies.empty() && e.replies[0].size() >= NLMSG_HDRLEN) {
      uint32_t pid = reinterpret_cast<const nlmsghdr*>(e.replies[0].data())->nlmsg_pid;
      if (port && pid != port)
        k.reopen();
      else
        EXPECT_FALSE(k.pending()) << "the test kernel sent more than the kernel";
      port = pid;
    }
    k.send(e.request.data(), e.request.size());
    for (const Bytes& want : e.replies) {
      Bytes got(65536);
      got.resize(k.recv(got.data(), got.size()));
      ASSERT_FALSE(got.empty()) << "missing reply " << hex(want);
      EXPECT_EQ(hex(normalize(got)), hex(normalize(want)));
    }
  }
}

TEST(TestKernelGolden, MatchesRecordedReplies) {
  fs::path root = fs::path(rdma::testdata::dir()) / "golden";
  if (!fs::exists(root)) GTEST_SKIP() << "no golden vectors";
  size_t files = 0;
  for (const auto& [dir, v] :
       {std::pair{"6.1", KernelVersion::k6_1}, {"6.12", KernelVersion::k6_12}}) {
    if (!fs::exists(root / dir)) continue;
    std::set<fs::path> sorted;
    for (const auto& f : fs::directory_iterator(root / dir))
      if (f.path().extension() == ".nl") sorted.insert(f.path());
    for (const fs::path& f : sorted) {
      replay(v, f);
      ++files;
    }
  }
  EXPECT_GT(files, 0u);
  RecordProperty("files", static_cast<int>(files));
}

}  // namespace
}  // namespace rdma::testkernel
