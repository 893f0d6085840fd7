// The fabric as a dot graph: levels, the text's nodes, ranks and colours,
// and the picture Graphviz draws from it (when `dot` is installed).
#include "lib/ib/dot.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"

namespace rdma::ib {
namespace {

// A spine over two leaves, two CAs under each.
constexpr const char* kDotTree =
    "Switch 4 \"spine\"\n[1] \"leaf1\"[3]\n[2] \"leaf2\"[3]\n"
    "Switch 4 \"leaf1\"\n[1] \"ca1\"[1]\n[2] \"ca2\"[1]\n[3] \"spine\"[1]\n"
    "Switch 4 \"leaf2\"\n[1] \"ca3\"[1]\n[2] \"ca4\"[1]\n[3] \"spine\"[2]\n"
    "Hca 1 \"ca1\"\n[1] \"leaf1\"[1]\nHca 1 \"ca2\"\n[1] \"leaf1\"[2]\n"
    "Hca 1 \"ca3\"\n[1] \"leaf2\"[1]\nHca 1 \"ca4\"\n[1] \"leaf2\"[2]\n";

Fabric dot_tree_fabric() {
  ibtest::FakeFabric fake(ibtest::parse_topology(kDotTree));
  fake.assign_lids();
  mad::Engine e(fake, {100, 1, 8});
  Fabric f = discover(e).fabric;
  // The double's ports could run faster than they do: make every link run at
  // its best, so a test degrades the ones it means to.
  for (Node& n : f.nodes)
    for (Port& p : n.ports)
      if (p.info) {
        p.info->width_supported = p.info->width_active;
        p.info->speed_supported = p.info->speed_active;
        p.info->speed_ext_supported = p.info->speed_ext_active;
      }
  return f;
}

uint32_t dot_node_named(const Fabric& f, const std::string& name) {
  for (uint32_t i = 0; i < f.nodes.size(); ++i)
    if (f.nodes[i].description == name) return i;
  ADD_FAILURE() << "no node " << name;
  return 0;
}

std::string dot_text(const Fabric& f, const std::vector<PortRef>& over = {}) {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* out = open_memstream(&buf, &len);
  write_dot(f, out, over);
  std::fclose(out);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

// The text's line for the link between two nodes (by description).
std::string dot_edge_line(const Fabric& f, const std::string& text, const std::string& a,
                          const std::string& b) {
  char ida[32], idb[32];
  const Node& na = f.nodes[dot_node_named(f, a)];
  const Node& nb = f.nodes[dot_node_named(f, b)];
  std::snprintf(ida, sizeof ida, "%c-%016llx", na.is_switch() ? 'S' : 'H',
                static_cast<unsigned long long>(na.info.node_guid));
  std::snprintf(idb, sizeof idb, "%c-%016llx", nb.is_switch() ? 'S' : 'H',
                static_cast<unsigned long long>(nb.info.node_guid));
  std::string key = std::string("\"") + ida + "\" -- \"" + idb + "\"";
  size_t at = text.find(key);
  if (at == std::string::npos) return "";
  return text.substr(at, text.find('\n', at) - at);
}

TEST(FabricDot, LevelsFromTheCas) {
  Fabric f = dot_tree_fabric();
  std::vector<unsigned> l = node_levels(f);
  EXPECT_EQ(l[dot_node_named(f, "ca1")], 0u);
  EXPECT_EQ(l[dot_node_named(f, "leaf1")], 1u);
  EXPECT_EQ(l[dot_node_named(f, "leaf2")], 1u);
  EXPECT_EQ(l[dot_node_named(f, "spine")], 2u);
}

TEST(FabricDot, RanksClustersAndColours) {
  Fabric f = dot_tree_fabric();
  std::string t = dot_text(f);
  EXPECT_EQ(t.rfind("graph fabric {\n", 0), 0u) << t;
  EXPECT_NE(t.find("{ rank=same; /* level 2 */ \"S-"), std::string::npos) << t;
  EXPECT_LT(t.find("/* level 2 */"), t.find("/* level 1 */")) << t;
  EXPECT_NE(t.find("label=\"leaf1\"; \"H-"), std::string::npos) << t;  // leaf1's cluster
  // The spine end first (ranked above), ports and rate as labels, no colour.
  std::string up = dot_edge_line(f, t, "spine", "leaf1");
  EXPECT_NE(up.find("taillabel=\"1\", headlabel=\"3\", label=\"4xSDR\""), std::string::npos) << t;
  EXPECT_EQ(up.find("color"), std::string::npos) << up;
  EXPECT_EQ(dot_edge_line(f, t, "leaf1", "spine"), "");

  // leaf2-spine degraded (both could do 4x, run 1x), ca1's link in Init,
  // ca3's port over an error threshold.
  uint32_t leaf2 = dot_node_named(f, "leaf2"), spine = dot_node_named(f, "spine");
  for (PortRef r : {PortRef{leaf2, 3}, PortRef{spine, 2}}) {
    f.at(r).info->width_supported = 3;
    f.at(r).info->width_active = 1;
  }
  f.at({dot_node_named(f, "ca1"), 1}).info->state = kPortInit;
  t = dot_text(f, {{dot_node_named(f, "ca3"), 1}});
  EXPECT_NE(dot_edge_line(f, t, "spine", "leaf2").find("label=\"1xSDR\", color=orange"),
            std::string::npos)
      << t;
  EXPECT_NE(dot_edge_line(f, t, "leaf1", "ca1").find("color=red"), std::string::npos) << t;
  EXPECT_NE(dot_edge_line(f, t, "leaf2", "ca3").find("color=magenta"), std::string::npos) << t;
  EXPECT_EQ(dot_edge_line(f, t, "leaf2", "ca4").find("color"), std::string::npos) << t;
  // A degraded link whose port is over a threshold shows its errors.
  t = dot_text(f, {{spine, 2}});
  EXPECT_NE(dot_edge_line(f, t, "spine", "leaf2").find("label=\"1xSDR\", color=magenta"),
            std::string::npos)
      << t;
}

TEST(FabricDot, DescriptionsEscaped) {
  Fabric f = dot_tree_fabric();
  f.nodes[dot_node_named(f, "ca2")].description = "a \"b\"\\c\n";
  std::string t = dot_text(f);
  EXPECT_NE(t.find("label=\"a \\\"b\\\"\\\\c\\nlid "), std::string::npos) << t;
}

// Graphviz's plain output: the nodes with their heights, the edges' ends.
struct DotPicture {
  std::map<std::string, double> y;  // node id -> y (up is larger)
  std::set<std::pair<std::string, std::string>> edges;
};

DotPicture dot_render(const std::string& text) {
  char path[] = "/tmp/rdma-dot-XXXXXX";
  int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  std::FILE* f = fdopen(fd, "w");
  std::fputs(text.c_str(), f);
  std::fclose(f);
  std::string cmd = std::string("dot -Tplain ") + path + " 2>&1";
  std::FILE* p = popen(cmd.c_str(), "r");
  std::string plain;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) plain.append(buf, n);
  EXPECT_EQ(pclose(p), 0) << plain;
  std::remove(path);
  DotPicture pic;
  std::istringstream in(plain);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string kind, a, b;
    l >> kind >> a;
    auto unquote = [](std::string s) {
      return s.size() > 1 && s[0] == '"' ? s.substr(1, s.size() - 2) : s;
    };
    if (kind == "node") {
      double x, y;
      l >> x >> y;
      pic.y[unquote(a)] = y;
    } else if (kind == "edge") {
      l >> b;
      pic.edges.insert(std::minmax(unquote(a), unquote(b)));
    }
  }
  return pic;
}

TEST(FabricDot, GraphvizDrawsTheFabric) {
  if (std::system("dot -V >/dev/null 2>&1") != 0) GTEST_SKIP() << "Graphviz's dot not installed";
  Fabric f = dot_tree_fabric();
  std::string t = dot_text(f);
  DotPicture pic = dot_render(t);
  auto id = [&](const std::string& name) {
    const Node& n = f.nodes[dot_node_named(f, name)];
    char buf[32];
    std::snprintf(buf, sizeof buf, "%c-%016llx", n.is_switch() ? 'S' : 'H',
                  static_cast<unsigned long long>(n.info.node_guid));
    return std::string(buf);
  };
  // Every node and every link of the fabric, nothing else.
  ASSERT_EQ(pic.y.size(), f.nodes.size()) << t;
  std::set<std::pair<std::string, std::string>> want;
  for (const Link& l : f.links())
    want.insert(std::minmax(id(f.nodes[l.a.node].description), id(f.nodes[l.b.node].description)));
  EXPECT_EQ(pic.edges, want);
  // The spine above the leaves, the leaves above their CAs.
  EXPECT_GT(pic.y[id("spine")], pic.y[id("leaf1")]);
  EXPECT_EQ(pic.y[id("leaf1")], pic.y[id("leaf2")]);
  for (const char* ca : {"ca1", "ca2", "ca3", "ca4"}) EXPECT_GT(pic.y[id("leaf1")], pic.y[id(ca)]);
}

}  // namespace
}  // namespace rdma::ib
