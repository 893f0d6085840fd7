// rdma node set description: the words checked before sysfs is touched
// (lib/ib/node_desc_test.cc writes a temporary sysfs; tests/vm/writes.sh
// the kernel's).
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

class NodeSetWords : public madtest::MadCmd {};

TEST_F(NodeSetWords, BadWordsAreRefusedNamingTheChoices) {
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const Case cases[] = {
      {{"node", "set"}, "missing what to set (description TEXT)\n"},
      {{"node", "set", "desc"}, "missing TEXT after \"description\"\n"},
      {{"node", "set", "dev", "rxe0"}, "missing description TEXT\n"},
      {{"node", "set", "name", "x"}, "unknown node set argument \"name\" (description or dev)\n"},
      {{"node", "set", "description", ""}, "invalid description: an empty node description\n"},
      {{"node", "set", "description", std::string(65, 'x'), "dev", "rxe0"},
       "invalid description: a node description of 65 bytes (at most 64)\n"},
      {{"node", "set", "description", "a\tb"},
       "invalid description: a control character in the node description\n"},
      {{"node", "set", "description", "x", "dev"}, "missing DEV after \"dev\"\n"},
  };
  for (const Case& k : cases) {
    madtest::Result r = run(k.args);
    EXPECT_NE(r.status, 0) << k.args.back();
    EXPECT_EQ(r.err, k.err) << k.args.back();
    EXPECT_EQ(r.out, "");
  }
  EXPECT_TRUE(sent_.empty());
}

}  // namespace
}  // namespace rdma
