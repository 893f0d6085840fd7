// Runs our front end on the real kernel's bytes: every command of the VM
// corpus whose netlink exchange was recorded (tests/data/golden/<kver>/, from
// iproute2's rdma on the VM) is answered from that recording, and our output
// is compared with iproute2's on that VM (tests/data/reference/<kver>/).
// So the unit tests decode real kernel replies without a VM.
//
// A request of ours is answered by the recorded exchange with the same
// message type, dump flag and attributes. iproute2 dumps resources per port
// where we dump per device: a device dump is answered with the device's
// recorded per-port dumps joined. Output differs where README's "Differences
// from iproute2" says so; kExpected names the rule for each such command.
#include <gtest/gtest.h>
#include <libmnl/libmnl.h>

#include <cctype>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "lib/nl/nldev.h"
#include "lib/nl/transport.h"
#include "lib/testing/kernel/golden_file.h"
#include "lib/testing/test_data.h"
#include "lib/view/record.h"
#include "rdma/rdma.h"
#include "rdma/test_util.h"

namespace rdma {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

using testkernel::golden::Exchange;
using testkernel::golden::load;

const nlmsghdr* hdr(const Bytes& b) {
  return reinterpret_cast<const nlmsghdr*>(b.data());
}

// The attributes of a request, as bytes (header fields seq and pid differ).
std::string payload(const nlmsghdr* nlh) {
  const char* p = static_cast<const char*>(mnl_nlmsg_get_payload(nlh));
  return std::string(p, static_cast<const char*>(mnl_nlmsg_get_payload_tail(nlh)));
}

// Each top-level attribute of a message: type -> bytes.
std::map<uint16_t, std::string> attr_map(const nlmsghdr* nlh) {
  std::map<uint16_t, std::string> out;
  const char* p = static_cast<const char*>(mnl_nlmsg_get_payload(nlh));
  const char* end = static_cast<const char*>(mnl_nlmsg_get_payload_tail(nlh));
  while (p + sizeof(nlattr) <= end) {
    const nlattr* a = reinterpret_cast<const nlattr*>(p);
    size_t len = MNL_ALIGN(a->nla_len);
    if (a->nla_len < sizeof(nlattr) || p + len > end) break;
    out[mnl_attr_get_type(a)] = std::string(p, a->nla_len);
    p += len;
  }
  return out;
}

// A request's attributes as one string for comparing, without the
// DRIVER_DETAILS flag we add for -dd (iproute2 6.1 does not send it; with
// rxe it changes nothing).
std::string request_attrs(const nlmsghdr* nlh) {
  std::string out;
  for (const auto& [type, bytes] : attr_map(nlh))
    if (type != nldev::kAttrDriverDetails) out += bytes;
  return out;
}

// A reply message belongs to a dump request when it has the request's
// device and port (when the request names them).
bool covers(const nlmsghdr* reply, const nlmsghdr* req) {
  std::map<uint16_t, std::string> a = attr_map(reply), r = attr_map(req);
  for (uint16_t k : {RDMA_NLDEV_ATTR_DEV_INDEX, RDMA_NLDEV_ATTR_PORT_INDEX})
    if (r.count(k) && (!a.count(k) || a[k] != r[k])) return false;
  return true;
}

Bytes error(int code) {
  Bytes err(NLMSG_SPACE(sizeof(nlmsgerr)));
  nlmsghdr* h = reinterpret_cast<nlmsghdr*>(err.data());
  h->nlmsg_len = err.size();
  h->nlmsg_type = NLMSG_ERROR;
  reinterpret_cast<nlmsgerr*>(NLMSG_DATA(h))->error = code;
  return err;
}

bool is_dump(const nlmsghdr* nlh) {
  return (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
}

class Replay : public nl::Transport {
 public:
  Replay(std::vector<Exchange> ex, std::vector<Bytes>& unmatched)
      : unmatched(unmatched), ex_(std::move(ex)) {}

  void send(const uint8_t* d, size_t n) override {
    const nlmsghdr* req = reinterpret_cast<const nlmsghdr*>(d);
    std::string want = request_attrs(req);
    for (const Exchange& e : ex_) {
      const nlmsghdr* r = hdr(e.request);
      if (r->nlmsg_type == req->nlmsg_type && is_dump(r) == is_dump(req) &&
          request_attrs(r) == want) {
        bool acked = false;
        for (const Bytes& dg : e.replies) {
          queue(dg, req);
          acked |= hdr(dg)->nlmsg_type == NLMSG_ERROR;
        }
        // iproute2 reads a doit's reply and not the ACK after it, so the
        // recording ends before it; the kernel sends it when asked.
        if (!is_dump(req) && (req->nlmsg_flags & NLM_F_ACK) && !acked) queue(error(0), req);
        return;
      }
    }
    // A device or port doit iproute2 did not make (it dumped): that object's
    // message of the recorded dump, as the kernel would answer.
    if (!is_dump(req) &&
        (req->nlmsg_type == RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET) ||
         req->nlmsg_type == RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET))) {
      std::vector<Bytes> found = recorded_messages(req);
      if (!found.empty()) {
        reinterpret_cast<nlmsghdr*>(found[0].data())->nlmsg_flags = 0;
        queue(found[0], req);
        if (req->nlmsg_flags & NLM_F_ACK) queue(error(0), req);
        return;
      }
    }
    // A dump iproute2 made in parts (per port, or doits per port): every
    // recorded reply of that type for the asked device (and port), once.
    std::vector<Bytes> msgs;
    std::set<std::string> seen;
    if (is_dump(req)) {
      for (Bytes& b : recorded_messages(req)) {
        // As a dump part (the kernel types PORT_GET doit replies GET).
        nlmsghdr* m = reinterpret_cast<nlmsghdr*>(b.data());
        m->nlmsg_type = req->nlmsg_type;
        m->nlmsg_flags = NLM_F_MULTI;
        if (seen.insert(payload(m)).second) msgs.push_back(std::move(b));
      }
    }
    if (msgs.empty() && !is_dump(req) && doit_found(req)) {
      // Our first doit for QP 0/1 uses the port-keyed id (qp_num | port <<
      // 24). When iproute2's doit for the plain id found the object (siw), a
      // port-keyed one does not exist: the kernel answers ENOENT. (When the
      // plain id was not found, as for rxe's GSI QP, the question stays
      // open: answered as by a kernel without doits, so we dump.)
      queue(error(-ENOENT), req);
      return;
    }
    if (msgs.empty()) {
      unmatched.push_back(Bytes(d, d + n));
      queue(error(-EOPNOTSUPP), req);
      return;
    }
    for (const Bytes& m : msgs) queue(m, req);
    Bytes done(NLMSG_SPACE(sizeof(int)));
    reinterpret_cast<nlmsghdr*>(done.data())->nlmsg_len = done.size();
    reinterpret_cast<nlmsghdr*>(done.data())->nlmsg_type = NLMSG_DONE;
    queue(done, req);
  }

  size_t recv(uint8_t* buf, size_t cap, int) override {
    if (q_.empty()) return 0;
    Bytes dg = std::move(q_.front());
    q_.erase(q_.begin());
    size_t n = std::min(cap, dg.size());
    std::copy(dg.begin(), dg.begin() + n, buf);
    return n;
  }
  uint32_t port_id() const override { return 4242; }
  void join_group(unsigned) override {}

  std::vector<Bytes>& unmatched;  // requests no recorded exchange answers

 private:
  // Every recorded reply message of req's type for req's device (and port),
  // in recorded order.
  std::vector<Bytes> recorded_messages(const nlmsghdr* req) const {
    std::vector<Bytes> out;
    for (const Exchange& e : ex_) {
      if (hdr(e.request)->nlmsg_type != req->nlmsg_type) continue;
      for (const Bytes& dg : e.replies) {
        int len = static_cast<int>(dg.size());
        for (const nlmsghdr* m = hdr(dg); mnl_nlmsg_ok(m, len); m = mnl_nlmsg_next(m, &len)) {
          if (m->nlmsg_type < NLMSG_MIN_TYPE || !covers(m, req)) continue;
          const uint8_t* p = reinterpret_cast<const uint8_t*>(m);
          out.emplace_back(p, p + NLMSG_ALIGN(m->nlmsg_len));
        }
      }
    }
    return out;
  }

  // Whether the recording has a doit of req's type for req's device and
  // port that found its object.
  bool doit_found(const nlmsghdr* req) const {
    for (const Exchange& e : ex_) {
      const nlmsghdr* r = hdr(e.request);
      if (r->nlmsg_type != req->nlmsg_type || is_dump(r) || !covers(r, req) || !covers(req, r))
        continue;
      for (const Bytes& dg : e.replies)
        if (hdr(dg)->nlmsg_type == r->nlmsg_type) return true;
    }
    return false;
  }

  // Queues a datagram re-addressed to req.
  void queue(const Bytes& dg, const nlmsghdr* req) {
    Bytes out;
    int len = static_cast<int>(dg.size());
    for (const nlmsghdr* m = hdr(dg); mnl_nlmsg_ok(m, len); m = mnl_nlmsg_next(m, &len)) {
      size_t at = out.size();
      const uint8_t* p = reinterpret_cast<const uint8_t*>(m);
      out.insert(out.end(), p, p + NLMSG_ALIGN(m->nlmsg_len));
      nlmsghdr* c = reinterpret_cast<nlmsghdr*>(out.data() + at);
      c->nlmsg_seq = req->nlmsg_seq;
      c->nlmsg_pid = port_id();
    }
    if (!out.empty()) q_.push_back(std::move(out));
  }

  std::vector<Exchange> ex_;
  std::vector<Bytes> q_;
};

struct Case {
  std::string name;
  std::vector<std::string> args;
};

std::vector<Case> corpus(const fs::path& ref) {
  std::vector<Case> out;
  std::ifstream in(ref / "INDEX");
  std::string line;
  while (std::getline(in, line)) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    Case c{line.substr(0, tab), {}};
    std::istringstream words(line.substr(tab + 1));
    for (std::string w; words >> w;) c.args.push_back(w);
    out.push_back(std::move(c));
  }
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Removes a field from text ("key VALUE ") and JSON (',"key":VALUE', pretty
// or not) output. (std::regex trips GCC 12's warnings under ASan.)
std::string erase_field(std::string s, const std::string& key) {
  for (size_t p = 0; (p = s.find(key + " ", p)) != std::string::npos;) {
    if (p > 0 && s[p - 1] != ' ' && s[p - 1] != '\n') {
      ++p;
      continue;
    }
    size_t end = s.find_first_of(" \n", p + key.size() + 1);
    if (end != std::string::npos && s[end] == ' ') ++end;
    s.erase(p, (end == std::string::npos ? s.size() : end) - p);
  }
  std::string quoted = "\"" + key + "\":";
  for (size_t p; (p = s.find(quoted)) != std::string::npos;) {
    size_t start = s.find_last_of(',', p);
    size_t v = s.find_first_not_of(' ', p + quoted.size());
    size_t end = s[v] == '"' ? s.find('"', v + 1) + 1 : s.find_first_of(",}\n", v);
    s.erase(start, end - start);
  }
  return s;
}

// Process names come from /proc of the VM, which this host does not have:
// left out of both outputs. (The VM suite compares them.)
std::string without_comm(const std::string& s) {
  return erase_field(s, "comm");
}

// NEWER-FIELDS: the device's protocol and the system's privileged-qkey and
// monitor, which iproute2 6.1 does not print.
std::string without_newer_fields(const std::string& s) {
  return erase_field(erase_field(erase_field(s, "protocol"), "privileged-qkey"), "monitor");
}

// Commands whose output differs from iproute2 6.1's, by a named rule of
// tests/vm/differences.txt (README "Differences from iproute2").
const std::map<std::string, std::string> kExpected = {
    {"rdma_-j_system", "SYSTEM-JSON"},
    {"rdma_-j_-p_system", "SYSTEM-JSON"},
    {"rdma_stat", "STAT-ONE-PER-LINE"},
    {"rdma_stat_show", "STAT-ONE-PER-LINE"},
    {"rdma_statistic_show", "STAT-ONE-PER-LINE"},
    {"rdma_stat_show_link_rxe0@1", "STAT-ONE-PER-LINE"},
    {"rdma_-r_res_show_srq", "RAW-SRQ"},
    {"rdma_-j_-r_res_show_srq", "RAW-SRQ"},
    // iwarp-*: filters iproute2 ignores; ours prints the matching records.
    {"rdma_res_show_cm_id_dev-type_infiniband", "IGNORED-FILTER-KEYS"},
    {"rdma_res_show_cm_id_transport-type_ib", "IGNORED-FILTER-KEYS"},
    {"rdma_res_show_cm_id_transport-type_iwarp", "IGNORED-FILTER-KEYS"},
    {"rdma_-j_res_show_cm_id_transport-type_iwarp", "IGNORED-FILTER-KEYS"},
};

// IGNORED-FILTER-KEYS: ours prints some of iproute2's records, in order.
bool records_subset(const std::string& ours, const std::string& theirs) {
  std::vector<std::string> a, b;
  if (theirs.starts_with("[")) {
    for (const auto& o : view::Json::parse(ours)) a.push_back(o.dump());
    for (const auto& o : view::Json::parse(theirs)) b.push_back(o.dump());
  } else {
    std::istringstream x(ours), y(theirs);
    for (std::string l; std::getline(x, l);) a.push_back(l);
    for (std::string l; std::getline(y, l);) b.push_back(l);
  }
  size_t j = 0;
  for (const std::string& r : a) {
    while (j < b.size() && b[j] != r) ++j;
    if (j++ == b.size()) return false;
  }
  return true;
}

class GoldenReplay : public ::testing::TestWithParam<const char*> {};

TEST_P(GoldenReplay, OurOutputOnRecordedKernelBytes) {
  fs::path golden = fs::path(rdma::testdata::dir()) / "golden" / GetParam();
  fs::path ref = fs::path(rdma::testdata::dir()) / "reference" / GetParam();
  std::set<std::string> rules;
  {
    std::ifstream in(fs::path(rdma::testdata::dir()) / ".." / "vm" / "differences.txt");
    for (std::string line; std::getline(in, line);) rules.insert(line.substr(0, line.find('\t')));
  }
  int compared = 0, same = 0;
  const char* only = std::getenv("GOLDEN_CASE");  // to debug one case
  for (const Case& c : corpus(ref)) {
    if (only && c.name != only) continue;
    fs::path nl = golden / (c.name + ".nl");
    if (!fs::exists(nl) || !fs::exists(ref / (c.name + ".out"))) continue;
    std::string want = slurp(ref / (c.name + ".out"));
    std::string rc = slurp(ref / (c.name + ".rc"));
    if (std::stoi(rc.empty() ? "0" : rc) != 0 || c.args.empty() || c.args[0] == "-V" ||
        c.args.back() == "help" || want.empty())
      continue;  // errors, help and version are compared in the VM suite
    std::vector<Bytes> unmatched;
    bool opened = false;
    test::Result res = test::run_program(c.args, [&]() -> std::unique_ptr<nl::Transport> {
      opened = true;
      return std::make_unique<Replay>(load(nl), unmatched);
    });
    int status = res.status;
    std::string out = without_newer_fields(res.out);
    const std::string& err = res.err;
    ++compared;
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(opened);
    for (const Bytes& u : unmatched) {
      // A doit iproute2 did not make (it dumped) is answered as by a kernel
      // without that doit: EOPNOTSUPP, and we dump. A dump must be recorded.
      if (!is_dump(hdr(u)) || kExpected.count(c.name)) continue;
      std::string hex;
      for (uint8_t b : u) hex += "0123456789abcdef"[b >> 4], hex += "0123456789abcdef"[b & 15];
      ADD_FAILURE() << "a request iproute2 did not send: " << hex;
    }
    auto it = kExpected.find(c.name);
    bool equal = status == 0 && without_comm(out) == without_comm(want);
    if (it == kExpected.end()) {
      EXPECT_EQ(status, 0) << err;
      EXPECT_EQ(without_comm(out), without_comm(want));
    } else {
      EXPECT_TRUE(rules.count(it->second)) << it->second << " is not in differences.txt";
      EXPECT_FALSE(equal) << "now equal to iproute2's: drop it from kExpected";
      if (it->second == "IGNORED-FILTER-KEYS") {
        EXPECT_EQ(status, 0) << err;
        EXPECT_TRUE(records_subset(without_comm(out), without_comm(want))) << out;
      }
    }
    same += equal;
  }
  std::printf("golden replay %s: %d views on recorded kernel bytes, %d equal to iproute2's\n",
              GetParam(), compared, same);
  // The corpus has dozens of recorded successful views; most are equal.
  EXPECT_GT(compared, std::string(GetParam()).starts_with("iwarp") ? 50 : 80);
  EXPECT_GE(same, compared - static_cast<int>(kExpected.size()));
}

// iwarp-*: corpus-iwarp.txt on siw0 (tests/vm/capture.sh --iwarp).
INSTANTIATE_TEST_SUITE_P(Kernels, GoldenReplay,
                         ::testing::Values("6.1", "6.12", "iwarp-6.1", "iwarp-6.12"),
                         [](const auto& info) {
                           std::string name = std::string("k") + info.param;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace rdma
