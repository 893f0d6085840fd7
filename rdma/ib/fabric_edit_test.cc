// rdma fabric edit: a fabric saved from the double, its GUIDs edited as
// ibcacheedit edits a cache, then read back with `fabric show from`.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

class FabricEditCmd : public madtest::MadCmd {
 protected:
  FabricEditCmd()
      : saved_(::testing::TempDir() + "rdma-fabric-edit-saved"),
        edited_(::testing::TempDir() + "rdma-fabric-edit-new") {
    EXPECT_EQ(run({"fabric", "save", saved_}).status, 0);
  }
  ~FabricEditCmd() override {
    std::remove(saved_.c_str());
    std::remove(edited_.c_str());
  }
  static std::string text_of(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // The node of fabric show's JSON whose description is name.
  nlohmann::json shown(const std::string& file, const char* name) {
    for (const nlohmann::json& n : json({"fabric", "show", "from", file}))
      if (n["description"] == name) return n;
    return nullptr;
  }
  std::string saved_, edited_;
};

TEST_F(FabricEditCmd, GuidsEditedAreWhatFabricShowFromReads) {
  const uint64_t sw = node("sw1").node_guid, ca = node("hca2").node_guid;
  const uint64_t port = node("hca2").ports[1].guid, sys = node("hca2").sys_guid;
  const std::string before = text_of(saved_);
  madtest::Result r =
      run({"fabric", "edit", saved_, "to", edited_, "switchguid", guid(sw), "0x0000000000aaaa01",
           "caguid", guid(ca), "0x0000000000bbbb01", "portguid", "0x0000000000bbbb01", guid(port),
           "0x0000000000bbbb02", "sysimgguid", guid(sys), "0000:0000:00bb:bb00"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(text_of(saved_), before);  // `to`: the original stays
  nlohmann::json s = shown(edited_, "sw1");
  nlohmann::json h = shown(edited_, "hca2");
  ASSERT_FALSE(s.is_null());
  ASSERT_FALSE(h.is_null());
  EXPECT_EQ(s["node_guid"], "0x0000000000aaaa01");
  EXPECT_EQ(h["node_guid"], "0x0000000000bbbb01");
  // The links still join the same nodes: hca2 hangs off the renamed sw1.
  madtest::Result links = run({"fabric", "links", "from", edited_});
  ASSERT_EQ(links.status, 0) << links.err;
  EXPECT_NE(links.out.find("hca2"), std::string::npos) << links.out;
  // In place: the file itself changes.
  r = run({"fabric", "edit", saved_, "caguid", guid(ca), "0x0000000000cccc01"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(shown(saved_, "hca2")["node_guid"], "0x0000000000cccc01");
  EXPECT_EQ(shown(saved_, "sw1")["node_guid"], guid(sw));
}

TEST_F(FabricEditCmd, AFailedEditWritesNothing) {
  const std::string before = text_of(saved_);
  const uint64_t sw = node("sw1").node_guid, ca = node("hca2").node_guid;
  const uint64_t other = node("hca3").node_guid;
  // The first edit is good, the second not: neither is written.
  madtest::Result r = run(
      {"fabric", "edit", saved_, "caguid", guid(ca), "0x77", "switchguid", guid(other), "0x78"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "node GUID " + guid(other) + " is a channel adapter's, not a switch's\n");
  EXPECT_EQ(text_of(saved_), before);
  r = run({"fabric", "edit", saved_, "caguid", guid(ca), guid(sw)});
  EXPECT_EQ(r.err, "node GUID " + guid(sw) + " is another node's already\n");
  EXPECT_EQ(text_of(saved_), before);
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const Case cases[] = {
      {{"fabric", "edit", saved_},
       "missing an edit (switchguid, caguid, sysimgguid or portguid, "
       "each OLD NEW)\n"},
      {{"fabric", "edit", saved_, "nodeguid", "0x1", "0x2"},
       "unknown fabric edit argument \"nodeguid\" (switchguid, caguid, sysimgguid, portguid or "
       "to)\n"},
      {{"fabric", "edit", saved_, "caguid", "0x1"}, "missing NEW_GUID after \"caguid\"\n"},
      {{"fabric", "edit", saved_, "caguid", "0x1", "0x0"}, "invalid NEW_GUID 0 after \"caguid\"\n"},
      {{"fabric", "edit", saved_, "caguid", "0x1", "12"},
       "invalid GUID \"12\" (expected 0x0002c90300a1b2c3 or 0002:c903:00a1:b2c3)\n"},
      {{"fabric", "edit", saved_ + "-none", "caguid", "0x1", "0x2"},
       "cannot read \"" + saved_ + "-none\": No such file or directory\n"},
  };
  for (const Case& k : cases) {
    r = run(k.args);
    EXPECT_NE(r.status, 0) << k.err;
    EXPECT_EQ(r.err, k.err);
  }
  EXPECT_EQ(text_of(saved_), before);
}

}  // namespace
}  // namespace rdma
