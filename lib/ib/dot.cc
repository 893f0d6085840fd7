#include "lib/ib/dot.h"

#include <algorithm>
#include <cinttypes>
#include <deque>
#include <map>
#include <string>

#include "lib/ib/degraded.h"
#include "lib/ib/topology.h"

namespace rdma::ib {

namespace {

// A dot string's body: quotes and backslashes escaped, control bytes dropped
// (descriptions come from the wire).
std::string escaped(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (static_cast<unsigned char>(ch) < 0x20) continue;
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

uint16_t node_lid(const Node& n) {
  for (const Port& p : n.ports)
    if (p.info && p.info->lid) return p.info->lid;
  return 0;
}

// The switch a CA's first link leads to, or none.
std::optional<uint32_t> leaf_of(const Fabric& f, const Node& n) {
  for (const Port& p : n.ports)
    if (p.peer && f.nodes[p.peer->node].is_switch()) return p.peer->node;
  return std::nullopt;
}

const char* link_colour(const Port& a, const Port& b, const std::vector<PortRef>& over, PortRef ra,
                        PortRef rb) {
  if (!a.info || !b.info || a.info->state != kPortActive || b.info->state != kPortActive)
    return "red";
  // Errors first: a link over a threshold is often degraded too, and
  // orange would hide where the errors are.
  if (std::find(over.begin(), over.end(), ra) != over.end() ||
      std::find(over.begin(), over.end(), rb) != over.end())
    return "magenta";
  if (degraded(*a.info, *b.info) || degraded(*b.info, *a.info)) return "orange";
  return nullptr;
}

}  // namespace

std::vector<unsigned> node_levels(const Fabric& f) {
  constexpr unsigned kUnset = ~0u;
  std::vector<unsigned> level(f.nodes.size(), kUnset);
  std::deque<uint32_t> todo;
  for (uint32_t i = 0; i < f.nodes.size(); ++i)
    if (!f.nodes[i].is_switch()) {
      level[i] = 0;
      todo.push_back(i);
    }
  unsigned top = 0;
  while (!todo.empty()) {
    uint32_t i = todo.front();
    todo.pop_front();
    for (const Port& p : f.nodes[i].ports) {
      if (!p.peer || level[p.peer->node] != kUnset) continue;
      level[p.peer->node] = level[i] + 1;
      top = std::max(top, level[i] + 1);
      todo.push_back(p.peer->node);
    }
  }
  for (unsigned& l : level)
    if (l == kUnset) l = top + 1;
  return level;
}

void write_dot(const Fabric& f, std::FILE* out, const std::vector<PortRef>& over) {
  std::vector<unsigned> level = node_levels(f);
  std::fprintf(out, "graph fabric {\n  node [shape=box];\n");
  for (const Node& n : f.nodes)
    std::fprintf(out, "  \"%s\" [label=\"%s\\nlid %u\"%s];\n", topology_node_name(n).c_str(),
                 escaped(n.description).c_str(), node_lid(n),
                 n.is_switch() ? ", style=filled, fillcolor=lightblue" : "");
  // Switches by level, the highest first (on top: edges run downward).
  std::map<unsigned, std::vector<uint32_t>, std::greater<>> by_level;
  std::map<uint32_t, std::vector<uint32_t>> cas_of_leaf;
  for (uint32_t i = 0; i < f.nodes.size(); ++i) {
    if (f.nodes[i].is_switch())
      by_level[level[i]].push_back(i);
    else if (std::optional<uint32_t> leaf = leaf_of(f, f.nodes[i]))
      cas_of_leaf[*leaf].push_back(i);
  }
  for (const auto& [l, nodes] : by_level) {
    std::fprintf(out, "  { rank=same; /* level %u */", l);
    for (uint32_t i : nodes) std::fprintf(out, " \"%s\";", topology_node_name(f.nodes[i]).c_str());
    std::fprintf(out, " }\n");
  }
  for (const auto& [leaf, cas] : cas_of_leaf) {
    std::string id = topology_node_name(f.nodes[leaf]);
    std::fprintf(out, "  subgraph \"cluster_%s\" { label=\"%s\";", id.c_str(),
                 escaped(f.nodes[leaf].description).c_str());
    for (uint32_t i : cas) std::fprintf(out, " \"%s\";", topology_node_name(f.nodes[i]).c_str());
    std::fprintf(out, " }\n");
  }
  for (const Link& l : f.links()) {
    // The higher end first, so dot ranks it above; links within a level do
    // not constrain the ranks.
    PortRef hi = l.a, lo = l.b;
    if (level[hi.node] < level[lo.node]) std::swap(hi, lo);
    const Port& a = f.at(hi);
    const Port& b = f.at(lo);
    const PortInfo* pi = a.info ? &*a.info : b.info ? &*b.info : nullptr;
    std::string rate = pi ? rate_text(*pi) : "?";
    std::fprintf(out, "  \"%s\" -- \"%s\" [taillabel=\"%u\", headlabel=\"%u\", label=\"%s\"",
                 topology_node_name(f.nodes[hi.node]).c_str(),
                 topology_node_name(f.nodes[lo.node]).c_str(), hi.port, lo.port, rate.c_str());
    if (const char* colour = link_colour(a, b, over, hi, lo))
      std::fprintf(out, ", color=%s, fontcolor=%s", colour, colour);
    if (level[hi.node] == level[lo.node]) std::fprintf(out, ", constraint=false");
    std::fprintf(out, "];\n");
  }
  std::fprintf(out, "}\n");
}

}  // namespace rdma::ib
