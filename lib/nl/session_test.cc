#include "lib/nl/session.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <deque>
#include <memory>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/testkernel.h"

namespace rdma::nl {
namespace {

// Replies with datagrams a test builds from the request's sequence number.
class ScriptedTransport : public Transport {
 public:
  using Script = std::function<std::vector<std::vector<uint8_t>>(const nlmsghdr* req)>;
  explicit ScriptedTransport(Script s) : script_(std::move(s)) {}
  void send(const uint8_t* data, size_t len) override {
    ++sent;
    std::vector<uint8_t> copy(data, data + len);
    for (auto& d : script_(reinterpret_cast<const nlmsghdr*>(copy.data()))) queue_.push_back(d);
  }
  size_t recv(uint8_t* buf, size_t cap, int timeout_ms) override {
    last_timeout_ms = timeout_ms;
    if (queue_.empty()) return 0;
    if (says_size && queue_.front().size() > cap) return queue_.front().size();
    auto d = queue_.front();
    queue_.pop_front();
    size_t n = std::min(cap, d.size());
    if (n) std::memcpy(buf, d.data(), n);  // an empty datagram has no data()
    return n;
  }
  uint32_t port_id() const override { return 1; }
  void join_group(unsigned) override {}
  int sent = 0;
  int last_timeout_ms = 0;
  // As the socket: a datagram larger than cap stays queued, and recv says
  // how large it is.
  bool says_size = false;

 private:
  Script script_;
  std::deque<std::vector<uint8_t>> queue_;
};

// Builds netlink messages with libmnl into one datagram.
struct Datagram {
  std::vector<uint8_t> buf = std::vector<uint8_t>(8192);
  size_t len = 0;
  nlmsghdr* put(uint16_t type, uint16_t flags, uint32_t seq) {
    auto* h = mnl_nlmsg_put_header(buf.data() + len);
    h->nlmsg_type = type;
    h->nlmsg_flags = flags;
    h->nlmsg_seq = seq;
    h->nlmsg_pid = 1;  // ScriptedTransport's port id
    return h;
  }
  void end(nlmsghdr* h) { len += MNL_ALIGN(h->nlmsg_len); }
  std::vector<uint8_t> bytes() const { return {buf.begin(), buf.begin() + len}; }
};

std::vector<uint8_t> device_msg(uint32_t seq, uint32_t index, const char* name, uint16_t flags) {
  Datagram d;
  auto* h = d.put(nldev::msg_type(RDMA_NLDEV_CMD_GET), flags, seq);
  mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DEV_INDEX, index);
  mnl_attr_put_strz(h, RDMA_NLDEV_ATTR_DEV_NAME, name);
  d.end(h);
  return d.bytes();
}

std::vector<uint8_t> done_msg(uint32_t seq) {
  Datagram d;
  auto* h = d.put(NLMSG_DONE, NLM_F_MULTI, seq);
  int zero = 0;
  std::memcpy(mnl_nlmsg_put_extra_header(h, sizeof zero), &zero, sizeof zero);
  d.end(h);
  return d.bytes();
}

std::vector<uint8_t> error_msg(uint32_t seq, int err, const char* ext_ack) {
  Datagram d;
  auto* h = d.put(NLMSG_ERROR, NLM_F_CAPPED | (ext_ack ? NLM_F_ACK_TLVS : 0), seq);
  auto* e = static_cast<nlmsgerr*>(mnl_nlmsg_put_extra_header(h, sizeof(nlmsgerr)));
  e->error = -err;
  e->msg.nlmsg_len = sizeof(nlmsghdr);
  e->msg.nlmsg_seq = seq;
  if (ext_ack) mnl_attr_put_strz(h, NLMSGERR_ATTR_MSG, ext_ack);
  d.end(h);
  return d.bytes();
}

std::vector<std::string> names_of(Session& s) {
  std::vector<std::string> names;
  Request req(RDMA_NLDEV_CMD_GET, Request::kDump);
  s.run(req, [&](const nlmsghdr* nlh) {
    names.emplace_back(Attrs::of_message(nlh).str(RDMA_NLDEV_ATTR_DEV_NAME));
  });
  return names;
}

std::vector<std::string> kept_names(Session& s, uint32_t index = 0) {
  std::vector<std::string> names;
  Request req(RDMA_NLDEV_CMD_GET, Request::kDump);
  if (index) req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, index);
  s.run_kept(req, [&](const nlmsghdr* nlh) {
    names.emplace_back(Attrs::of_message(nlh).str(RDMA_NLDEV_ATTR_DEV_NAME));
  });
  return names;
}

// Answers device dumps with "rxe<generation>", acks everything else; a SET
// (a write) bumps the generation.
ScriptedTransport::Script renaming_kernel(int& generation) {
  return [&generation](const nlmsghdr* req) {
    uint32_t seq = req->nlmsg_seq;
    if (!(req->nlmsg_flags & NLM_F_DUMP)) {
      ++generation;
      return std::vector<std::vector<uint8_t>>{error_msg(seq, 0, nullptr)};
    }
    std::string name = "rxe" + std::to_string(generation);
    return std::vector<std::vector<uint8_t>>{device_msg(seq, 1, name.c_str(), NLM_F_MULTI),
                                             done_msg(seq)};
  };
}

TEST(Session, ADatagramLargerThanTheBufferGrowsIt) {
  // 1,000 devices in one datagram of over 64 KiB, the buffer's first size.
  ScriptedTransport t([](const nlmsghdr* req) {
    std::vector<uint8_t> big;
    for (uint32_t i = 1; i <= 1000; ++i) {
      std::string name = "dev" + std::to_string(i);
      auto m = device_msg(req->nlmsg_seq, i, name.c_str(), NLM_F_MULTI);
      big.insert(big.end(), m.begin(), m.end());
    }
    return std::vector<std::vector<uint8_t>>{big, done_msg(req->nlmsg_seq)};
  });
  t.says_size = true;
  Session s(t);
  std::vector<std::string> names = names_of(s);
  ASSERT_EQ(names.size(), 1000u);
  EXPECT_EQ(names.front(), "dev1");
  EXPECT_EQ(names.back(), "dev1000");
}

TEST(Session, KeptDumpIsAskedOnceAndReplayed) {
  int generation = 0;
  ScriptedTransport t(renaming_kernel(generation));
  Session s(t);
  s.keep_dumps(true);
  EXPECT_EQ(kept_names(s), (std::vector<std::string>{"rxe0"}));
  EXPECT_EQ(kept_names(s), (std::vector<std::string>{"rxe0"}));
  EXPECT_EQ(t.sent, 1);
  // Another request is another answer; a plain run always asks.
  EXPECT_EQ(kept_names(s, 1), (std::vector<std::string>{"rxe0"}));
  EXPECT_EQ(t.sent, 2);
  EXPECT_EQ(names_of(s), (std::vector<std::string>{"rxe0"}));
  EXPECT_EQ(t.sent, 3);
  EXPECT_TRUE(s.forget_kept());
  EXPECT_FALSE(s.forget_kept());
  EXPECT_EQ(kept_names(s), (std::vector<std::string>{"rxe0"}));
  EXPECT_EQ(t.sent, 4);
}

TEST(Session, AWriteDropsWhatIsKept) {
  int generation = 0;
  ScriptedTransport t(renaming_kernel(generation));
  Session s(t);
  s.keep_dumps(true);
  EXPECT_EQ(kept_names(s), (std::vector<std::string>{"rxe0"}));
  Request set(RDMA_NLDEV_CMD_SET, Request::kDoit);
  s.run(set, [](const nlmsghdr*) {});
  EXPECT_EQ(kept_names(s), (std::vector<std::string>{"rxe1"}));
  EXPECT_EQ(kept_names(s), (std::vector<std::string>{"rxe1"}));
  EXPECT_EQ(t.sent, 3);
  // A read keeps it (though this script's kernel took it for a write).
  Request get(RDMA_NLDEV_CMD_SYS_GET, Request::kDoit);
  s.run(get, [](const nlmsghdr*) {});
  EXPECT_EQ(kept_names(s), (std::vector<std::string>{"rxe1"}));
  EXPECT_EQ(t.sent, 4);
}

TEST(Session, AMemoLivesAsLongAsItsKeptReplies) {
  int generation = 0;
  ScriptedTransport t(renaming_kernel(generation));
  Session s(t);
  Request req(RDMA_NLDEV_CMD_GET, Request::kDump);
  kept_names(s);
  s.set_kept_memo(req, std::make_shared<const int>(1));
  EXPECT_EQ(s.kept_memo(req), nullptr);  // not keeping: nothing to set it on
  s.keep_dumps(true);
  EXPECT_EQ(s.kept_memo(req), nullptr);  // not asked yet
  kept_names(s);
  EXPECT_EQ(s.kept_memo(req), nullptr);  // asked, no memo yet
  s.set_kept_memo(req, std::make_shared<const int>(7));
  ASSERT_NE(s.kept_memo(req), nullptr);
  EXPECT_EQ(*static_cast<const int*>(s.kept_memo(req)), 7);
  Request other(RDMA_NLDEV_CMD_GET, Request::kDump);
  other.u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1);
  EXPECT_EQ(s.kept_memo(other), nullptr);  // another request's replies
  // A write drops the replies and the memo with them.
  Request set(RDMA_NLDEV_CMD_SET, Request::kDoit);
  s.run(set, [](const nlmsghdr*) {});
  EXPECT_EQ(s.kept_memo(req), nullptr);
  EXPECT_EQ(kept_names(s), (std::vector<std::string>{"rxe1"}));
  EXPECT_EQ(s.kept_memo(req), nullptr);
}

TEST(Session, WithoutKeepingEveryDumpIsAsked) {
  int generation = 0;
  ScriptedTransport t(renaming_kernel(generation));
  Session s(t);
  kept_names(s);
  kept_names(s);
  EXPECT_EQ(t.sent, 2);
  s.keep_dumps(true);
  kept_names(s);
  s.keep_dumps(false);
  kept_names(s);
  EXPECT_EQ(t.sent, 4);
}

TEST(Session, WritesAreTheCommandsThatAreNotGets) {
  for (int cmd : std::initializer_list<int>{RDMA_NLDEV_CMD_GET, RDMA_NLDEV_CMD_PORT_GET,
                                            RDMA_NLDEV_CMD_SYS_GET, RDMA_NLDEV_CMD_RES_QP_GET,
                                            RDMA_NLDEV_CMD_STAT_GET, RDMA_NLDEV_CMD_GET_CHARDEV,
                                            nldev::kCmdFrmrPoolsGet})
    EXPECT_TRUE(only_reads(cmd)) << cmd;
  for (int cmd : std::initializer_list<int>{
           RDMA_NLDEV_CMD_SET, RDMA_NLDEV_CMD_NEWLINK, RDMA_NLDEV_CMD_DELLINK,
           RDMA_NLDEV_CMD_SYS_SET, RDMA_NLDEV_CMD_STAT_SET, RDMA_NLDEV_CMD_STAT_DEL,
           nldev::kCmdNewDev, nldev::kCmdDelDev, nldev::kCmdFrmrPoolsSet, 200})
    EXPECT_FALSE(only_reads(cmd)) << cmd;
}

TEST(Session, AKeptDumpThatFailedIsNotKept) {
  int sent = 0;
  ScriptedTransport t([&](const nlmsghdr* req) {
    uint32_t seq = req->nlmsg_seq;
    if (++sent == 1) return std::vector<std::vector<uint8_t>>{error_msg(seq, EPERM, nullptr)};
    return std::vector<std::vector<uint8_t>>{device_msg(seq, 1, "rxe0", NLM_F_MULTI),
                                             done_msg(seq)};
  });
  Session s(t);
  s.keep_dumps(true);
  EXPECT_THROW(kept_names(s), KernelError);
  EXPECT_EQ(kept_names(s), (std::vector<std::string>{"rxe0"}));
  EXPECT_EQ(kept_names(s), (std::vector<std::string>{"rxe0"}));
  EXPECT_EQ(t.sent, 2);
}

TEST(Session, StreamsADumpOverSeveralDatagrams) {
  ScriptedTransport t([](const nlmsghdr* req) {
    uint32_t seq = req->nlmsg_seq;
    EXPECT_TRUE(req->nlmsg_flags & NLM_F_DUMP);
    return std::vector<std::vector<uint8_t>>{device_msg(seq, 0, "rxe0", NLM_F_MULTI),
                                             device_msg(seq, 1, "rxe1", NLM_F_MULTI),
                                             done_msg(seq)};
  });
  Session s(t);
  EXPECT_EQ(names_of(s), (std::vector<std::string>{"rxe0", "rxe1"}));
}

TEST(Session, SkipsLeftoversOfAnEarlierRequest) {
  ScriptedTransport t([](const nlmsghdr* req) {
    uint32_t seq = req->nlmsg_seq;
    return std::vector<std::vector<uint8_t>>{device_msg(seq - 1, 9, "stale", NLM_F_MULTI),
                                             device_msg(seq, 0, "rxe0", NLM_F_MULTI),
                                             done_msg(seq)};
  });
  Session s(t);
  EXPECT_EQ(names_of(s), (std::vector<std::string>{"rxe0"}));
}

TEST(Session, KernelErrorCarriesErrnoAndExtAck) {
  ScriptedTransport t([](const nlmsghdr* req) {
    return std::vector<std::vector<uint8_t>>{
        error_msg(req->nlmsg_seq, EOPNOTSUPP, "Device doesn't support DIM")};
  });
  Session s(t);
  Request req(RDMA_NLDEV_CMD_SET, Request::kDoit);
  try {
    s.run(req, [](const nlmsghdr*) {});
    FAIL() << "no error";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.code, EOPNOTSUPP);
    EXPECT_STREQ(e.what(), "Operation not supported (Device doesn't support DIM)");
  }
}

TEST(Session, DoitEndsAtTheAck) {
  ScriptedTransport t([](const nlmsghdr* req) {
    EXPECT_TRUE(req->nlmsg_flags & NLM_F_ACK);
    uint32_t seq = req->nlmsg_seq;
    return std::vector<std::vector<uint8_t>>{device_msg(seq, 0, "rxe0", 0),
                                             error_msg(seq, 0, nullptr)};
  });
  Session s(t);
  Request req(RDMA_NLDEV_CMD_GET, Request::kDoit);
  int n = 0;
  s.run(req, [&](const nlmsghdr*) { ++n; });
  EXPECT_EQ(n, 1);
}

TEST(Session, TruncatedMessageIsAnError) {
  ScriptedTransport t([](const nlmsghdr* req) {
    auto d = device_msg(req->nlmsg_seq, 0, "rxe0", NLM_F_MULTI);
    d.resize(d.size() - 6);  // nlmsg_len now claims more than the datagram holds
    return std::vector<std::vector<uint8_t>>{d};
  });
  Session s(t);
  EXPECT_THROW(names_of(s), Error);
}

// The error a dump whose reply datagrams went through damage() gives.
std::string dump_error(const std::function<void(std::vector<uint8_t>&)>& damage, int datagram = 0) {
  ScriptedTransport t([&](const nlmsghdr* req) {
    uint32_t seq = req->nlmsg_seq;
    std::vector<std::vector<uint8_t>> out{device_msg(seq, 0, "rxe0", NLM_F_MULTI),
                                          device_msg(seq, 1, "rxe1", NLM_F_MULTI), done_msg(seq)};
    damage(out[datagram]);
    return out;
  });
  Session s(t);
  try {
    names_of(s);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

nlmsghdr* hdr(std::vector<uint8_t>& d) {
  return reinterpret_cast<nlmsghdr*>(d.data());
}

TEST(Session, ReplyThatEndsEarlyIsAnErrorNotAHang) {
  ScriptedTransport t([](const nlmsghdr* req) {
    return std::vector<std::vector<uint8_t>>{device_msg(req->nlmsg_seq, 0, "rxe0", NLM_F_MULTI)};
  });
  Session s(t);
  s.set_timeout_ms(250);
  try {
    names_of(s);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "no reply from the kernel within 250 ms (a reply message was lost or damaged; "
                 "--kernel-timeout MS waits longer)");
  }
  EXPECT_EQ(t.last_timeout_ms, 250);
}

TEST(Session, EveryWaitHasTheDefaultDeadline) {
  ScriptedTransport t([](const nlmsghdr* req) {
    return std::vector<std::vector<uint8_t>>{done_msg(req->nlmsg_seq)};
  });
  Session s(t);
  names_of(s);
  EXPECT_EQ(t.last_timeout_ms, kDefaultTimeoutMs);
}

TEST(Session, DamagedDoneMessageIsAnError) {
  // The message that ends the dump is lost: a deadline, not a hang.
  EXPECT_NE(dump_error([](auto& d) { d.clear(); }, 2).find("no reply from the kernel"),
            std::string::npos);
  // Its length grew past the datagram.
  EXPECT_EQ(dump_error([](auto& d) { hdr(d)->nlmsg_len += 4; }, 2),
            "malformed kernel reply: truncated netlink message");
  // Its length shrank below a header.
  EXPECT_EQ(dump_error([](auto& d) { hdr(d)->nlmsg_len = 3; }, 2),
            "malformed kernel reply: truncated netlink message");
}

TEST(Session, WrongPortIdIsAnError) {
  EXPECT_EQ(dump_error([](auto& d) { hdr(d)->nlmsg_pid = 7; }, 1),
            "malformed kernel reply: message for port id 7, ours is 1");
}

TEST(Session, WrongSequenceNumberIsAnError) {
  std::string e = dump_error([](auto& d) { hdr(d)->nlmsg_seq += 5; }, 1);
  EXPECT_EQ(e.find("malformed kernel reply: sequence number "), 0u) << e;
  EXPECT_NE(e.find(", expected "), std::string::npos) << e;
  // A number far from ours (a flipped high bit), not an earlier request's.
  e = dump_error([](auto& d) { hdr(d)->nlmsg_seq ^= 0x80000000u; }, 0);
  EXPECT_EQ(e.find("malformed kernel reply: sequence number "), 0u) << e;
}

TEST(Session, WrongMessageTypeIsAnError) {
  EXPECT_EQ(
      dump_error([](auto& d) { hdr(d)->nlmsg_type = nldev::msg_type(RDMA_NLDEV_CMD_RES_GET); }),
      "malformed kernel reply: message type 0x1409 does not answer a request of type "
      "0x1401");
  EXPECT_EQ(dump_error([](auto& d) { hdr(d)->nlmsg_type = NLMSG_OVERRUN; }),
            "malformed kernel reply: message type 0x0004");
  // A control message of another type than NLMSG_DONE where the dump ends.
  EXPECT_EQ(dump_error([](auto& d) { hdr(d)->nlmsg_type = 9; }, 2),
            "malformed kernel reply: message type 0x0009");
}

TEST(Session, ReplyTypesTheKernelUses) {
  EXPECT_TRUE(reply_type_matches(RDMA_NLDEV_CMD_GET, nldev::msg_type(RDMA_NLDEV_CMD_GET)));
  // nldev_port_get_doit answers with RDMA_NLDEV_CMD_GET (6.1 and 6.12 recordings).
  EXPECT_TRUE(reply_type_matches(RDMA_NLDEV_CMD_PORT_GET, nldev::msg_type(RDMA_NLDEV_CMD_GET)));
  EXPECT_TRUE(
      reply_type_matches(RDMA_NLDEV_CMD_STAT_DEL, nldev::msg_type(RDMA_NLDEV_CMD_STAT_SET)));
  EXPECT_TRUE(reply_type_matches(RDMA_NLDEV_CMD_RES_QP_GET_RAW,
                                 nldev::msg_type(RDMA_NLDEV_CMD_RES_QP_GET)));
  EXPECT_FALSE(reply_type_matches(RDMA_NLDEV_CMD_GET, nldev::msg_type(RDMA_NLDEV_CMD_PORT_GET)));
  EXPECT_FALSE(
      reply_type_matches(RDMA_NLDEV_CMD_RES_QP_GET, nldev::msg_type(RDMA_NLDEV_CMD_RES_CQ_GET)));
}

TEST(Session, DamagedAttributeLengthIsAnError) {
  // The device name attribute (after the 4-byte index attribute's 8 bytes)
  // claims more bytes than its message holds.
  std::string e = dump_error([](auto& d) {
    auto* a = reinterpret_cast<nlattr*>(d.data() + sizeof(nlmsghdr) + 8);
    a->nla_len = 200;
  });
  EXPECT_EQ(e, "malformed kernel reply: attribute RDMA_NLDEV_ATTR_DEV_NAME is truncated");
  e = dump_error([](auto& d) {  // the same, and its type damaged too
    auto* a = reinterpret_cast<nlattr*>(d.data() + sizeof(nlmsghdr) + 8);
    a->nla_len = 200;
    a->nla_type = 1000;
  });
  EXPECT_EQ(e, "malformed kernel reply: attribute of unknown type 1000 is truncated");
  e = dump_error([](auto& d) {
    auto* a = reinterpret_cast<nlattr*>(d.data() + sizeof(nlmsghdr));
    a->nla_len = 6;  // DEV_INDEX, a u32, with 2 bytes
  });
  EXPECT_EQ(e, "malformed kernel reply: RDMA_NLDEV_ATTR_DEV_INDEX has 2 bytes, expected 4");
}

TEST(Session, InterruptedDumpIsRetriedWhileNothingWasDelivered) {
  int attempt = 0;
  ScriptedTransport t([&](const nlmsghdr* req) {
    uint32_t seq = req->nlmsg_seq;
    uint16_t flags = NLM_F_MULTI | (attempt++ == 0 ? NLM_F_DUMP_INTR : 0);
    return std::vector<std::vector<uint8_t>>{device_msg(seq, 0, "rxe0", flags), done_msg(seq)};
  });
  Session s(t);
  EXPECT_EQ(names_of(s), (std::vector<std::string>{"rxe0"}));
  EXPECT_EQ(t.sent, 2);
}

TEST(Session, InterruptedDumpGivesUpAfterRetries) {
  ScriptedTransport t([&](const nlmsghdr* req) {
    uint32_t seq = req->nlmsg_seq;
    return std::vector<std::vector<uint8_t>>{
        device_msg(seq, 0, "rxe0", NLM_F_MULTI | NLM_F_DUMP_INTR), done_msg(seq)};
  });
  Session s(t);
  EXPECT_THROW(names_of(s), Error);
  EXPECT_EQ(t.sent, 4);
}

TEST(Session, InterruptAfterDeliveredRecordsIsAnError) {
  ScriptedTransport t([&](const nlmsghdr* req) {
    uint32_t seq = req->nlmsg_seq;
    return std::vector<std::vector<uint8_t>>{
        device_msg(seq, 0, "rxe0", NLM_F_MULTI),
        device_msg(seq, 1, "rxe1", NLM_F_MULTI | NLM_F_DUMP_INTR), done_msg(seq)};
  });
  Session s(t);
  EXPECT_THROW(names_of(s), Error);
  EXPECT_EQ(t.sent, 1);
}

TEST(Session, TraceWritesHexOfBothDirections) {
  ScriptedTransport t([](const nlmsghdr* req) {
    return std::vector<std::vector<uint8_t>>{done_msg(req->nlmsg_seq)};
  });
  Session s(t);
  char* text = nullptr;
  size_t size = 0;
  std::FILE* f = open_memstream(&text, &size);
  s.set_trace(f);
  names_of(s);
  std::fclose(f);
  std::string out(text, size);
  free(text);
  ASSERT_EQ(out.substr(0, 2), "> ");
  EXPECT_NE(out.find("\n< "), std::string::npos);
  EXPECT_EQ(out.find_first_not_of("0123456789abcdef<> \n"), std::string::npos);
}

// fuzz_nl_replies found this: -INT_MIN overflowed (UBSan).
TEST(Session, ErrorCodesNoKernelSendsAreMalformed) {
  for (int err : {INT_MIN, -4096, 5}) {
    ScriptedTransport t([&](const nlmsghdr* req) {
      auto d = error_msg(req->nlmsg_seq, 0, nullptr);
      reinterpret_cast<nlmsgerr*>(d.data() + sizeof(nlmsghdr))->error = err;
      return std::vector<std::vector<uint8_t>>{d};
    });
    Session s(t);
    Request req(RDMA_NLDEV_CMD_SET, Request::kDoit);
    try {
      s.run(req, [](const nlmsghdr*) {});
      FAIL() << err;
    } catch (const KernelError& e) {
      FAIL() << err << ": " << e.what();
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), "malformed kernel reply: error code " + std::to_string(err));
    }
  }
  // The same in the message that ends a dump.
  EXPECT_EQ(dump_error(
                [](auto& d) {
                  int v = INT_MIN;
                  std::memcpy(d.data() + sizeof(nlmsghdr), &v, sizeof v);
                },
                2),
            "malformed kernel reply: error code -2147483648");
}

// What a session asks the kernel for: each receive's size and what came.
class RecordingKernel : public Transport {
 public:
  explicit RecordingKernel(testkernel::TestKernel& k) : k_(k) {}
  void send(const uint8_t* data, size_t len) override { k_.send(data, len); }
  size_t recv(uint8_t* buf, size_t cap, int ms) override {
    size_t n = k_.recv(buf, cap, ms);
    caps.push_back(cap);
    sizes.push_back(n);
    return n;
  }
  uint32_t port_id() const override { return k_.port_id(); }
  void join_group(unsigned g) override { k_.join_group(g); }
  std::vector<size_t> caps, sizes;

 private:
  testkernel::TestKernel& k_;
};

size_t dump_qps(Session& s, uint32_t index) {
  size_t entries = 0;
  Request req(RDMA_NLDEV_CMD_RES_QP_GET, Request::kDump);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, index);
  s.run(req, [&](const nlmsghdr* nlh) {
    if (const nlattr* qps = Attrs::of_message(nlh).get(RDMA_NLDEV_ATTR_RES_QP))
      for_each_nested(qps, [&](const nlattr*) { ++entries; });
  });
  return entries;
}

testkernel::State with_qps(uint32_t count) {
  testkernel::State st = testkernel::vm_fixture(testkernel::KernelVersion::k6_12);
  auto& t = st.devices[0].qps;
  t.items.clear();
  t.generated = count;
  t.generate = [](uint32_t pos) {
    testkernel::Qp q;
    q.id = q.qp_num = 100 + pos;
    q.port = 1;
    q.pdn = 1;
    q.state = 3;
    return q;
  };
  return st;
}

TEST(Session, SmallDumpsAreReadWithThePageSizedBuffer) {
  testkernel::TestKernel k(testkernel::Options{}, with_qps(3));
  RecordingKernel rec(k);
  Session s(rec);
  for (int i = 0; i < 3; ++i) {
    names_of(s);
    EXPECT_GE(dump_qps(s, k.state.devices[0].index), 3u);
  }
  for (size_t cap : rec.caps) EXPECT_EQ(cap, static_cast<size_t>(MNL_SOCKET_BUFFER_SIZE));
}

TEST(Session, ALargeDumpSwitchesToLargeParts) {
  testkernel::TestKernel k(testkernel::Options{}, with_qps(10000));
  RecordingKernel rec(k);
  Session s(rec);
  ASSERT_GE(dump_qps(s, k.state.devices[0].index), 10000u);
  // Three page-sized parts, then parts of up to 32 KiB: a few dozen
  // datagrams, not the ~200 of a page each.
  ASSERT_GT(rec.caps.size(), 4u);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(rec.caps[i], static_cast<size_t>(MNL_SOCKET_BUFFER_SIZE));
  EXPECT_GT(*std::max_element(rec.sizes.begin(), rec.sizes.end()), 16384u);
  EXPECT_LT(rec.caps.size(), 60u);
  size_t seen = rec.caps.size();
  // The kernel keeps the size it saw: later receives never ask for less.
  names_of(s);
  for (size_t i = seen; i < rec.caps.size(); ++i) EXPECT_GE(rec.caps[i], 32768u);
}

}  // namespace
}  // namespace rdma::nl
