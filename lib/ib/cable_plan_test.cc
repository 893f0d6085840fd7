// The plan check on the fabric double: tests/ibsim/plan.net as designed,
// plan-built.net as built (its header lists the cases, the ground truth
// here and in tests/ibsim/plan.sh).
#include "lib/ib/cable_plan.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "lib/error.h"
#include "lib/ib/cache.h"
#include "lib/ib/discover.h"
#include "lib/ib/node_name_map.h"
#include "lib/mad/format.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

std::string net(const char* name) {
  return rdma::testdata::dir() + "/../ibsim/" + name;
}

Fabric fabric_of_net(const char* name, bool sm = true) {
  ibtest::FakeFabric fake(ibtest::load_topology(net(name)));
  if (sm) fake.assign_lids();
  mad::Engine e(fake, {100, 1, 8});
  return discover(e).fabric;
}

// Each finding as "KIND: WHAT", sorted.
std::multiset<std::string> kinds(const PlanResult& r) {
  std::multiset<std::string> s;
  for (const PlanFinding& f : r.findings) s.insert(std::string(f.kind) + ": " + f.what);
  return s;
}

const PlanFinding* find(const PlanResult& r, const char* kind) {
  for (const PlanFinding& f : r.findings)
    if (std::string(f.kind) == kind) return &f;
  return nullptr;
}

TEST(PlanCheck, TheFabricAsDesignedHasNoFinding) {
  Plan p = load_plan(net("plan.net"), {});
  EXPECT_EQ(p.links.size(), 10u);
  PlanResult r = check_plan(p, fabric_of_net("plan.net"));
  EXPECT_TRUE(r.findings.empty()) << r.findings[0].what;
  EXPECT_EQ(r.planned, 10u);
  EXPECT_EQ(r.matched, 10u);
  // Its own plan too, GUIDs, widths and speeds in it.
  Fabric f = fabric_of_net("plan.net");
  r = check_plan(plan_of(f), f);
  EXPECT_TRUE(r.findings.empty()) << r.findings[0].what;
}

TEST(PlanCheck, EachCaseOfTheBuiltFabricIsOneFinding) {
  PlanResult r = check_plan(load_plan(net("plan.net"), {}), fabric_of_net("plan-built.net"));
  std::multiset<std::string> want = {
      "swapped: cables swapped: \"s2\" port 1 goes to \"h6\" port 1 and \"s2\" port 2 to \"h5\" "
      "port 1; the plan says \"s2\" port 1 to \"h5\" port 1 and \"s2\" port 2 to \"h6\" port 1",
      "missing: cable \"s1\" port 4 - \"s2\" port 4 is missing",
      "unplanned: cable \"s1\" port 7 - \"s2\" port 7 is not in the plan",
      "miswired: \"h4\" port 1 goes to \"s1\" port 9, the plan says \"s1\" port 6",
      "absent: planned node \"h9\" is not found",
      "unknown: node \"h8\" 0x0002c90300abcdf1 is not in the plan",
      "ambiguous: the name \"h2\" is used by 2 nodes of the fabric (0x0000000000100002, "
      "0x0002c90300abcdf3): its cables are not checked",
  };
  EXPECT_EQ(kinds(r), want);
  EXPECT_EQ(r.planned, 10u);
  EXPECT_EQ(r.matched, 4u);  // s1-h1, s1-s2 port 3, s1-h3 (at 1X: no rate planned), s2-h7
  const PlanFinding* s = find(r, kPlanSwapped);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->severity, Severity::Error);
  EXPECT_EQ(s->ends.size(), 4u);
  EXPECT_EQ(find(r, kPlanUnknown)->severity, Severity::Warning);
  EXPECT_EQ(find(r, kPlanUnplanned)->severity, Severity::Warning);
}

TEST(PlanCheck, APlanWithGuidsAndRatesSaysReplacedAndWhatWasPlanned) {
  PlanResult r = check_plan(plan_of(fabric_of_net("plan.net")), fabric_of_net("plan-built.net"));
  std::multiset<std::string> k = kinds(r);
  EXPECT_EQ(k.count("replaced: \"h7\" has node GUID 0x0002c90300abcdef, the plan says "
                    "0x000000000010000c: a replaced part"),
            1u);
  EXPECT_EQ(k.count("slow: \"s1\" port 5 - \"h3\" port 1 runs 1X SDR, the plan says 4X SDR"), 1u);
  EXPECT_EQ(find(r, kPlanReplaced)->severity, Severity::Info);
  EXPECT_EQ(r.findings.size(), 9u);
}

TEST(PlanCheck, CablesNotActiveAreErrors) {
  PlanResult r = check_plan(load_plan(net("plan.net"), {}), fabric_of_net("plan.net", false));
  EXPECT_EQ(r.findings.size(), 10u);
  for (const PlanFinding& f : r.findings) {
    EXPECT_STREQ(f.kind, kPlanNotActive);
    EXPECT_NE(f.what.find(" is INIT, not ACTIVE"), std::string::npos) << f.what;
  }
}

class PlanFile : public ::testing::Test {
 protected:
  std::string write(const char* name, const std::string& text) {
    std::string p = ::testing::TempDir() + "rdma-plan-" + name;
    std::FILE* f = std::fopen(p.c_str(), "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
    files_.push_back(p);
    return p;
  }
  ~PlanFile() override {
    for (const std::string& f : files_) std::remove(f.c_str());
  }
  std::vector<std::string> files_;
};

TEST_F(PlanFile, TheCsvWrittenReadsBackTheSame) {
  Plan p = plan_of(fabric_of_net("plan-built.net"));
  std::string file = ::testing::TempDir() + "rdma-plan-written.csv";
  files_.push_back(file);
  std::FILE* out = std::fopen(file.c_str(), "w");
  write_plan_csv(p, out);
  std::fclose(out);
  Plan back = load_plan(file, {});
  ASSERT_EQ(back.links.size(), p.links.size());
  for (size_t i = 0; i < p.links.size(); ++i) {
    EXPECT_EQ(back.links[i].a, p.links[i].a);
    EXPECT_EQ(back.links[i].b, p.links[i].b);
    EXPECT_EQ(back.links[i].lanes, p.links[i].lanes);
    EXPECT_EQ(back.links[i].speed, p.links[i].speed);
  }
}

TEST_F(PlanFile, NdtColumnsInAnyOrderWithQuotesAndLinkTypes) {
  Plan p = load_plan(write("ndt.csv",
                           "#Start device,Start port,End device,End port,Link type\n"
                           "\"leaf, 1\",Port 7,spine1,Port 4,Data\n"
                           "leaf1,8,spine1,5,Management\n"
                           "# a comment\n"
                           "\n"
                           "leaf1,9,\"sp\"\"2\",1,\n"),
                     {});
  ASSERT_EQ(p.links.size(), 2u);
  EXPECT_EQ(p.links[0].a, (PlanEnd{"leaf, 1", 7}));
  EXPECT_EQ(p.links[0].b, (PlanEnd{"spine1", 4}));
  EXPECT_EQ(p.links[1].b, (PlanEnd{"sp\"2", 1}));
  Plan q = load_plan(write("rate.csv",
                           "EndPort,StartDevice,Speed,StartPort,EndDevice,Width\n"
                           "4,a,edr,1,b,4x\n"),
                     {});
  ASSERT_EQ(q.links.size(), 1u);
  EXPECT_EQ(q.links[0].lanes, 4u);
  EXPECT_EQ(q.links[0].speed, mad::Generation::Edr);
  EXPECT_EQ(q.links[0].b, (PlanEnd{"b", 4}));
}

TEST_F(PlanFile, WhatCannotBeReadIsNamedByFileAndLine) {
  auto error = [&](const char* name, const std::string& text) {
    std::string file = write(name, text);
    try {
      load_plan(file, {});
    } catch (const Error& e) {
      std::string m = e.what();
      return m.substr(m.find(name));
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("h.csv", "a,b,c\n"),
            "h.csv:1: the header must name StartDevice, StartPort, EndDevice and EndPort (and may "
            "name LinkType, Width, Speed)");
  EXPECT_EQ(error("p.csv", "StartDevice,StartPort,EndDevice,EndPort\na,x,b,1\n"),
            "p.csv:2: StartPort \"x\" is not a port number (1-254)");
  EXPECT_EQ(error("w.csv", "StartDevice,StartPort,EndDevice,EndPort,Width\na,1,b,1,3x\n"),
            "w.csv:2: Width \"3x\" is not 1X, 2X, 4X, 8X or 12X");
  EXPECT_EQ(error("s.csv", "StartDevice,StartPort,EndDevice,EndPort,Speed\na,1,b,1,fast\n"),
            "s.csv:2: Speed \"fast\" is not SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR");
  EXPECT_EQ(error("t.csv", "StartDevice,StartPort,EndDevice,EndPort\na,1,a,1\n"),
            "t.csv:2: \"a\" port 1 is cabled to itself");
  EXPECT_EQ(error("q.csv", "StartDevice,StartPort,EndDevice,EndPort\n\"a,1,b,1\n"),
            "q.csv:2: a quoted field is not closed");
  EXPECT_EQ(error("n.topo", "Switch 4 \"s\"\n[1] \"x\"[1]\n"),
            "n.topo:2: no node \"x\" in the file");
  EXPECT_EQ(error("c.topo", "Switch 4 \"s\"\n[1] \"h\"[1]\nHca 1 \"h\"\n[1] \"s\"[2]\n"),
            "c.topo:2: \"s\"[1] goes to \"h\"[1], whose line 4 says it goes to \"s\"[2]");
  EXPECT_EQ(error("j.topo", "Switch 4 \"s\"\nnonsense here\n"),
            "j.topo:2: not a node, port or value line: nonsense here");
  // Numbers too large for their field (fuzz_cable_plan: std::stoul threw
  // out_of_range, which no caller catches; a cast would have cut 4294967297
  // to port 1).
  EXPECT_EQ(error("o.topo", "Switch 4 \"s\"\n[99999999999999999999] \"s\"[1]\n"),
            "o.topo:2: port 99999999999999999999 is out of range");
  EXPECT_EQ(error("q.topo", "Switch 4 \"s\"\n[4294967297] \"s\"[2]\n"),
            "q.topo:2: port 4294967297 is out of range");
  EXPECT_EQ(error("g.topo", "switchguid=0x10000000000000000\nSwitch 4 \"s\"\n"),
            "g.topo:1: GUID 0x10000000000000000 is out of range");
  EXPECT_EQ(error("l.topo", "Switch 4 \"s\"\n[1] \"s\"[2] # 99999999999999999999xEDR\n"),
            "l.topo:2: width 99999999999999999999 is out of range");
  // A name with a control character (fuzz_cable_plan: a NUL cut the name
  // written back to the CSV, which then read as empty; the seed
  // tests/fuzz/corpus/cable_plan/crash-nul-name keeps that one).
  EXPECT_EQ(error("z.topo", "Switch 4 \"s\"\n[0] \"s\"[2]\n"), "z.topo:2: port 0 is out of range");
  EXPECT_EQ(error("y.csv", "StartDevice,StartPort,EndDevice,EndPort\na\x01,1,b,1\n"),
            "y.csv:2: a device name has a control character (0x01)");
  // An empty name (a topology's `# ""`: fuzz_cable_plan's round trip wrote
  // it to a CSV, which refuses it) is refused in every format, as the CSV
  // reader does.
  std::string empty =
      error("e.topo", "Switch 4 \"s\"\n[1] \"h\"[1]\n\nHca 1 \"h\" # \"\"\n[1] \"s\"[1]\n");
  EXPECT_NE(empty.find(": a device name is empty"), std::string::npos) << empty;
  EXPECT_EQ(empty.rfind("e.topo", 0), 0u) << empty;
}

TEST_F(PlanFile, APortCabledTwiceMakesItsNameAmbiguous) {
  std::string file =
      write("twice.csv", "StartDevice,StartPort,EndDevice,EndPort\ns1,1,h1,1\ns1,1,h2,1\n");
  Plan p = load_plan(file, {});
  ASSERT_EQ(p.links.size(), 2u);
  PlanResult r = check_plan(p, fabric_of_net("plan.net"));
  const PlanFinding* a = find(r, kPlanAmbiguous);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->what, "the name \"s1\" is used by two cables of the plan (port 1 at " + file +
                         ":2 and " + file + ":3): its cables are not checked");
  EXPECT_EQ(r.planned, 2u);
  EXPECT_EQ(r.matched, 0u);
}

TEST_F(PlanFile, IbnetdiscoverNamesAreTheDescriptionsOrTheMapsNames) {
  std::string text =
      "switchguid=0x200000(200000)\n"
      "Switch\t4 \"S-0000000000200000\"\t\t# \"leaf1\" base port 0 lid 2 lmc 0\n"
      "[1]\t\"H-0000000000100000\"[1](100001) \t\t# \"node1 mlx5_0\" lid 3 4xEDR\n"
      "\ncaguid=0x100000\n"
      "Ca\t1 \"H-0000000000100000\"\t\t# \"node1 mlx5_0\"\n"
      "[1](100001) \t\"S-0000000000200000\"[1]\t\t# lid 3 lmc 0 \"leaf1\" lid 2 4xEDR\n";
  Plan p = load_plan(write("d.topo", text), {});
  ASSERT_EQ(p.links.size(), 1u);
  EXPECT_EQ(p.links[0].a, (PlanEnd{"leaf1", 1}));
  EXPECT_EQ(p.links[0].b, (PlanEnd{"node1 mlx5_0", 1}));
  EXPECT_EQ(p.links[0].lanes, 4u);
  EXPECT_EQ(p.links[0].speed, mad::Generation::Edr);
  EXPECT_EQ(p.nodes.at("leaf1").guid, 0x200000u);
  NodeNameMap m;
  m.names[0x100000] = "node1";
  Plan named = load_plan(write("d.topo", text), m);
  EXPECT_EQ(named.links[0].b, (PlanEnd{"node1", 1}));
}

// A node with an empty NodeDescription (an HCA before its driver names
// it, an unmanaged switch) has nothing else a person could write: a plan
// knows it by its node GUID, in every format, and so does the check. Two
// such nodes are two names, not one ambiguous "".
TEST_F(PlanFile, ANodeWithoutADescriptionIsNamedByItsGuid) {
  Fabric f = fabric_of_net("plan.net");
  ASSERT_GE(f.nodes.size(), 3u);
  f.nodes[1].description.clear();
  f.nodes[2].description.clear();
  std::string a = mad::guid_hex(f.nodes[1].info.node_guid);
  EXPECT_EQ(plan_name(f.nodes[1]), a);
  EXPECT_EQ(plan_name(f.nodes[0]), f.nodes[0].description);
  Plan own = plan_of(f);
  EXPECT_EQ(own.nodes.count(""), 0u);
  EXPECT_EQ(own.nodes.at(a).guid, f.nodes[1].info.node_guid);
  PlanResult r = check_plan(own, f);
  EXPECT_TRUE(r.findings.empty()) << r.findings[0].what;
  EXPECT_EQ(r.matched, own.links.size());
  // A saved fabric read back as a plan (it was refused whole, for its
  // empty names, before).
  std::string saved = write("nameless.json", "");
  save_fabric(f, saved);
  Plan back = load_plan(saved, {});
  EXPECT_EQ(back.links.size(), own.links.size());
  EXPECT_EQ(back.nodes.count(a), 1u);
  // ibnetdiscover's file: `# ""` with the node's GUID beside it.
  Plan topo = load_plan(write("nameless.topo",
                              "switchguid=0x200000\n"
                              "Switch\t4 \"S-0000000000200000\"\t# \"\" base port 0 lid 2\n"
                              "[1]\t\"H-0000000000100000\"[1]\t# \"h\" lid 3 4xEDR\n"
                              "\ncaguid=0x100000\n"
                              "Ca\t1 \"H-0000000000100000\"\t# \"h\"\n"
                              "[1]\t\"S-0000000000200000\"[1]\t# lid 3 4xEDR\n"),
                        {});
  ASSERT_EQ(topo.links.size(), 1u);
  EXPECT_EQ(topo.links[0].a, (PlanEnd{"0x0000000000200000", 1}));
}

}  // namespace
}  // namespace rdma::ib
