// What every MAD command shares (rdma/ib/session.cc): -dd traces each MAD
// sent and received, decoded, on the program's stderr; a reply that is
// short, of the wrong class or carries a bad status ends the command with
// one line naming the query; a LID nobody answers times out after the
// configured tries.
#include "rdma/ib/session.h"

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;
using madtest::MadCmd;
using madtest::Result;

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + 1)) ++n;
  return n;
}

TEST_F(MadCmd, DdTracesEveryRequestAndReplyDecoded) {
  Result r = run({"-dd", "node", "show", "lid", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  // NodeInfo, NodeDescription, SwitchInfo: a header line, an attribute line
  // and 16 lines of hex per MAD each way.
  EXPECT_EQ(count(r.err, "> base_version 1 class 0x01 "), 3u) << r.err;
  EXPECT_EQ(count(r.err, "< base_version 1 class 0x01 class_version 1 response 1 method 0x01 "), 3u)
      << r.err;
  EXPECT_NE(r.err.find("> base_version 1 class 0x01 class_version 1 response 0 method 0x01 "
                       "status 0x0000"),
            std::string::npos);
  EXPECT_NE(r.err.find("attribute NodeInfo\n< base_version 1 class_version 1 type switch ports 8 "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("attribute NodeDescription\n< description \"sw1\""), std::string::npos);
  EXPECT_EQ(count(r.err, "\n"), 6u * 18u);
  // stdout is the ordinary output (every field, as -dd includes -d: a
  // field a line).
  EXPECT_EQ(r.out.rfind("lid 2:\nbase_version 1\nclass_version 1\ntype switch\nports 8\n", 0), 0u)
      << r.out;
  EXPECT_EQ(r.out.find("> "), std::string::npos);
}

TEST_F(MadCmd, DdTracesEveryTryOfAnUnansweredMad) {
  Result r = run({"-dd", "--timeout", "5", "--retries", "2", "node", "show", "lid", "9"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(count(r.err, "> base_version 1 class 0x01 "), 3u);
  EXPECT_EQ(count(r.err, "\n< "), 0u);
  EXPECT_NE(r.err.find("no reply to NodeInfo from lid 9 (3 tries, each given back at once by the "
                       "local port: Connection timed out)\n"),
            std::string::npos);
}

// The switch at LID 2 (sw1) answers NodeInfo with the reply spoilt: what
// no fabric sends, so the test alters the double's reply.
class Malformed : public MadCmd {
 protected:
  Result node_show_with(std::function<void(std::vector<uint8_t>&)> spoil) {
    spoil_ = [spoil](std::vector<uint8_t>& reply) {
      if (reply.size() > 17 && reply[16] == 0 && reply[17] == mad::kNodeInfo.id) spoil(reply);
    };
    return run({"node", "show", "lid", "2"});
  }
};

TEST_F(Malformed, AShortReplyIsRefused) {
  Result r = node_show_with([](std::vector<uint8_t>& b) { b.resize(80); });
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "malformed reply to NodeInfo from lid 2: 80 bytes, need 104\n");
  EXPECT_EQ(r.out, "");
}

TEST_F(Malformed, AReplyOfAnotherClassIsRefused) {
  Result r = node_show_with([](std::vector<uint8_t>& b) { b[1] = mad::kClassPerf; });
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "malformed reply to NodeInfo from lid 2: class 0x0004, expected 0x0001\n");
}

TEST_F(Malformed, AReplyOfAnotherAttributeIsRefused) {
  Result r = node_show_with([](std::vector<uint8_t>& b) { b[17] = 0x15; });
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "malformed reply to NodeInfo from lid 2: attribute PortInfo\n");
}

// A bad status is the fabric's own: a channel adapter has no SwitchInfo.
TEST_F(MadCmd, ABadStatusIsNamed) {
  Result r = run({"mad", "get", "SwitchInfo", "lid", "3"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "SwitchInfo from lid 3 failed: status 0x000c (method/attribute combination not "
            "supported)\n");
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace rdma
