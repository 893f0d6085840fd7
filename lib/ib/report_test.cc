// The report's parts: findings grouped and counted, the verdict, the page's
// structure and escaping, the switches' picture as dot text, and Graphviz
// rendering it (with the real `dot` where installed, and its failures).
#include "lib/ib/report.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>

#include "lib/ib/discover.h"
#include "lib/ib/graphviz.h"
#include "lib/mad/format.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"

namespace rdma::ib {
namespace {

// Two leaves under a spine, linked to it twice and once; two CAs each.
constexpr const char* kReportTree =
    "Switch 4 \"spine\"\n[1] \"leaf1\"[3]\n[2] \"leaf2\"[3]\n[3] \"leaf1\"[4]\n"
    "Switch 4 \"leaf1\"\n[1] \"ca1\"[1]\n[2] \"ca2\"[1]\n[3] \"spine\"[1]\n[4] \"spine\"[3]\n"
    "Switch 4 \"leaf2\"\n[1] \"ca3\"[1]\n[2] \"ca4\"[1]\n[3] \"spine\"[2]\n"
    "Hca 1 \"ca1\"\n[1] \"leaf1\"[1]\nHca 1 \"ca2\"\n[1] \"leaf1\"[2]\n"
    "Hca 1 \"ca3\"\n[1] \"leaf2\"[1]\nHca 1 \"ca4\"\n[1] \"leaf2\"[2]\n";

Fabric report_fabric() {
  ibtest::FakeFabric fake(ibtest::parse_topology(kReportTree));
  fake.assign_lids();
  mad::Engine e(fake, {100, 1, 8});
  return discover(e).fabric;
}

uint32_t report_node(const Fabric& f, const std::string& name) {
  for (uint32_t i = 0; i < f.nodes.size(); ++i)
    if (f.nodes[i].description == name) return i;
  ADD_FAILURE() << "no node " << name;
  return 0;
}

TEST(Report, FindingsSayingOneThingAreOneGroupErrorsFirst) {
  Fabric f = report_fabric();
  uint32_t l1 = report_node(f, "leaf1"), l2 = report_node(f, "leaf2");
  std::vector<Finding> found = {
      {"links", Severity::Warning, "degraded link", {{l1, 1, 0, 0}}},
      {"ids", Severity::Error, "LID 3 answered by two ports", {{l1, 0, 3, 0}, {l2, 0, 3, 0}}},
      {"links", Severity::Warning, "degraded link", {{l2, 2, 0, 0}}},
      {"sm", Severity::Info, "one master", {}},
  };
  std::vector<FindingGroup> g = report_groups(f, found);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].check, "ids");
  EXPECT_EQ(g[1].what, "degraded link");
  ASSERT_EQ(g[1].members.size(), 2u);
  EXPECT_EQ(g[1].members[0], "\"leaf1\" " + mad::guid_hex(f.nodes[l1].info.node_guid) + " port 1");
  EXPECT_EQ(g[2].severity, Severity::Info);
  EXPECT_TRUE(g[2].members.empty());

  Report r;
  r.checks = {
      {"ids", 0, 0, 0, ""}, {"links", 0, 0, 0, ""}, {"credit", 0, 0, 0, "needs a live fabric"}};
  count_findings(r.checks, found);
  ASSERT_EQ(r.checks.size(), 4u);  // sm added
  EXPECT_EQ(r.checks[0].errors, 1u);
  EXPECT_EQ(r.checks[1].warnings, 2u);
  EXPECT_EQ(r.checks[3].name, "sm");
  EXPECT_EQ(r.checks[3].notes, 1u);
  EXPECT_EQ(verdict(r), "unhealthy");
  r.checks[0].errors = 0;
  EXPECT_EQ(verdict(r), "healthy with warnings");
  r.checks[1].warnings = 0;
  EXPECT_EQ(verdict(r), "healthy");
  r.warnings.push_back("PMA of LID 7 did not answer");
  EXPECT_EQ(verdict(r), "unhealthy");  // what was not read is not healthy
}

TEST(Report, PageHasTheVerdictFirstAndEscapesNames) {
  Report r;
  r.source = "mlx5_0/1";
  r.nodes = 7;
  r.checks = {{"ids", 1, 0, 0, ""}, {"credit", 0, 0, 0, "needs the forwarding tables"}};
  r.groups = {
      {"ids", Severity::Error, "GUID <0> & \"x\"", {"\"a<b\" 0x1 port 1", "\"c\" 0x2 port 1"}}};
  r.rankings = {{"errors", "no port over a threshold", {}}};
  r.no_svg = "dot could not be run";
  std::string h = report_html(r);
  EXPECT_EQ(h.rfind("<!DOCTYPE html>", 0), 0u);
  size_t v = h.find("id=\"verdict\""), s = h.find("id=\"summary\""), g = h.find("id=\"findings\"");
  ASSERT_NE(v, std::string::npos);
  EXPECT_LT(v, s);
  EXPECT_LT(s, g);
  EXPECT_NE(h.find("Fabric unhealthy: 1 error, 0 warnings, 0 notes"), std::string::npos);
  EXPECT_NE(h.find("GUID &lt;0&gt; &amp; &quot;x&quot;"), std::string::npos);
  EXPECT_NE(h.find("&quot;a&lt;b&quot; 0x1 port 1"), std::string::npos);
  EXPECT_EQ(h.find("a<b"), std::string::npos);
  EXPECT_NE(h.find("data-count=\"2\""), std::string::npos);
  EXPECT_NE(h.find("not run: needs the forwarding tables"), std::string::npos);
  EXPECT_NE(h.find("No picture: dot could not be run"), std::string::npos);
  EXPECT_NE(h.find("no port over a threshold"), std::string::npos);
  // Self-contained: nothing fetched.
  EXPECT_EQ(h.find("<script"), std::string::npos);
  EXPECT_EQ(h.find("src="), std::string::npos);
  EXPECT_EQ(h.find("http"), std::string::npos);
}

// A picture of hundreds of switches is laid out with few passes and
// straight edges (dot's defaults took 31 s of CPU at 687 switches); a
// small one with dot's defaults.
TEST(Report, ALargePictureIsLaidOutQuickly) {
  const std::string quick = "nslimit=0.2";
  EXPECT_EQ(report_dot(report_fabric(), {}, {}).find(quick), std::string::npos);
  Fabric big;
  for (uint64_t g = 1; g <= 201; ++g) {
    NodeInfo info;
    info.node_type = static_cast<uint8_t>(NodeType::Switch);
    info.num_ports = 4;
    info.node_guid = info.port_guid = g;
    big.add(info, {});
  }
  EXPECT_NE(report_dot(big, {}, {}).find(quick), std::string::npos);
  big.nodes.pop_back();
  EXPECT_EQ(report_dot(big, {}, {}).find(quick), std::string::npos);
}

TEST(Report, PictureDrawsSwitchesWithLinksMergedAndColoured) {
  Fabric f = report_fabric();
  uint32_t spine = report_node(f, "spine"), l1 = report_node(f, "leaf1"),
           l2 = report_node(f, "leaf2");
  auto id = [&](uint32_t n) { return "\"S-" + mad::guid_hex(f.nodes[n].info.node_guid) + "\""; };
  std::string d = report_dot(f, {}, {});
  EXPECT_EQ(d.find("ca1"), std::string::npos);  // CAs are counted, not drawn
  EXPECT_NE(d.find("leaf1\\nlid"), std::string::npos);
  EXPECT_NE(d.find("2 CA links"), std::string::npos);
  Fabric odd = f;
  odd.nodes[l2].description = "rack \"7\" \\ b";
  EXPECT_NE(report_dot(odd, {}, {}).find("label=\"rack \\\"7\\\" \\\\ b\\nlid"), std::string::npos)
      << report_dot(odd, {}, {});
  auto edge = [&](uint32_t up, uint32_t down) {
    return id(up) + " -- " + id(down) + " [id=\"e" + std::to_string(up) + "_" +
           std::to_string(down) + "\"";
  };
  EXPECT_NE(d.find(edge(spine, l1) + ", label=\"x2\"];"), std::string::npos) << d;
  EXPECT_NE(d.find(edge(spine, l2) + "];"), std::string::npos) << d;
  // spine on top: its rank line comes first.
  EXPECT_LT(d.find("rank=same; /* level 2 */ " + id(spine)), d.find("/* level 1 */"));

  // A warning on one of the parallel links, an error counter over its
  // threshold on the other: magenta (the threshold wins over "degraded").
  std::vector<Finding> warn = {{"links", Severity::Warning, "degraded link", {{l1, 3, 0, 0}}}};
  d = report_dot(f, warn, {{l1, 4}});
  EXPECT_NE(d.find(edge(spine, l1) + ", label=\"x2\", color=magenta, penwidth=3];"),
            std::string::npos)
      << d;
  // An error wins over both; a sick CA link outlines its leaf.
  std::vector<Finding> err = {{"links", Severity::Error, "port down", {{spine, 2, 0, 0}}},
                              {"errors", Severity::Warning, "symbol errors", {{l2, 1, 0, 0}}}};
  d = report_dot(f, err, {});
  EXPECT_NE(d.find(edge(spine, l2) + ", color=red, penwidth=3];"), std::string::npos) << d;
  EXPECT_NE(d.find("color=orange, penwidth=3]"), std::string::npos) << d;
}

// The report lays the picture out before the checks and colours it after:
// the same SVG as dot draws with the marks in the graph.
TEST(Report, MarksColourTheLaidOutPictureAsDotWould) {
  if (access("/usr/bin/dot", X_OK) != 0) {
    ADD_FAILURE() << "Graphviz's dot is not installed (scripts/setup-debian.sh installs it)";
    return;
  }
  Fabric f = report_fabric();
  uint32_t spine = report_node(f, "spine"), l1 = report_node(f, "leaf1"),
           l2 = report_node(f, "leaf2");
  std::vector<Finding> found = {{"links", Severity::Error, "port down", {{spine, 2, 0, 0}}},
                                {"errors", Severity::Warning, "symbol errors", {{l2, 1, 0, 0}}},
                                {"sm", Severity::Info, "a note", {{l1, 1, 0, 0}}}};
  std::vector<PortRef> over = {{l1, 4}};
  Svg plain = render_svg(report_dot(f, {}, {}));
  Svg marked = render_svg(report_dot(f, found, over));
  ASSERT_EQ(plain.why, "");
  ASSERT_EQ(marked.why, "");
  ASSERT_EQ(plain.svg.find("stroke=\"red\""), std::string::npos);
  std::string coloured = mark_svg(plain.svg, f, found, over);
  EXPECT_NE(coloured.find("stroke=\"red\" stroke-width=\"3\""), std::string::npos) << coloured;
  EXPECT_NE(coloured.find("stroke=\"magenta\""), std::string::npos) << coloured;
  EXPECT_NE(coloured.find("stroke=\"orange\""), std::string::npos) << coloured;
  EXPECT_EQ(coloured, marked.svg);
  // No marks: the picture as laid out.
  EXPECT_EQ(mark_svg(plain.svg, f, {}, {}), plain.svg);
}

// dot runs on its own once started: the job does not wait for it until
// finish(), and a job dropped unfinished stops its program.
TEST(Report, PictureJobRunsWhileTheCallerWorks) {
  char dir[] = "/tmp/rdma-svgjob-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string go = std::string(dir) + "/go", prog = std::string(dir) + "/wait-dot";
  // Answers only once the caller has made "go", after the start returned.
  std::ofstream(prog) << "#!/bin/sh\nwhile [ ! -e " << go
                      << " ]; do sleep 0.01; done\ncat >/dev/null; echo '<svg>x</svg>'\n";
  chmod(prog.c_str(), 0755);
  SvgJob job("graph {}", prog, 20000);
  std::ofstream(go) << "";
  Svg s = job.finish();
  EXPECT_EQ(s.why, "");
  EXPECT_EQ(s.svg, "<svg>x</svg>\n");
  EXPECT_EQ(job.finish().why, prog + " was already collected");
  unlink(go.c_str());
  auto t0 = std::chrono::steady_clock::now();
  { SvgJob dropped("graph {}", prog, 20000); }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
  unlink(prog.c_str());
  rmdir(dir);
}

TEST(Report, GraphvizDrawsThePictureOrSaysWhyNot) {
  Fabric f = report_fabric();
  if (access("/usr/bin/dot", X_OK) == 0) {
    Svg s = render_svg(report_dot(f, {}, {}));
    EXPECT_EQ(s.why, "");
    EXPECT_EQ(s.svg.rfind("<svg", 0), 0u);
    EXPECT_NE(s.svg.find("leaf2"), std::string::npos);
    EXPECT_NE(s.svg.find("</svg>"), std::string::npos);
    // A graph dot cannot read: its own message.
    Svg bad = render_svg("graph {");
    EXPECT_EQ(bad.svg, "");
    EXPECT_EQ(bad.why.rfind("dot failed", 0), 0u) << bad.why;
  } else {
    ADD_FAILURE() << "Graphviz's dot is not installed (scripts/setup-debian.sh installs it)";
  }
  Svg missing = render_svg("graph {}", "rdma-no-such-dot");
  EXPECT_EQ(missing.why.rfind("rdma-no-such-dot could not be run", 0), 0u) << missing.why;
  EXPECT_NE(missing.why.find("apt-get install graphviz"), std::string::npos);

  // A program that never answers is stopped at the timeout.
  char dir[] = "/tmp/rdma-report-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string slow = std::string(dir) + "/slow-dot";
  std::ofstream(slow) << "#!/bin/sh\nexec sleep 10\n";
  chmod(slow.c_str(), 0755);
  Svg late = render_svg("graph {}", slow, 200);
  EXPECT_EQ(late.why, slow + " took longer than 200 ms to lay the picture out");
  // One that prints something else.
  std::string odd = std::string(dir) + "/odd-dot";
  std::ofstream(odd) << "#!/bin/sh\ncat >/dev/null; echo hello\n";
  chmod(odd.c_str(), 0755);
  EXPECT_EQ(render_svg("graph {}", odd).why, odd + " printed no SVG");
  // One that exits without reading a large graph: a failure, not SIGPIPE.
  std::string early = std::string(dir) + "/early-dot";
  std::ofstream(early) << "#!/bin/sh\nexit 3\n";
  chmod(early.c_str(), 0755);
  EXPECT_EQ(render_svg(std::string(1 << 20, 'x'), early).why, early + " failed");
  unlink(slow.c_str());
  unlink(odd.c_str());
  unlink(early.c_str());
  rmdir(dir);
}

}  // namespace
}  // namespace rdma::ib
