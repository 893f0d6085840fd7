#include "lib/ib/slurm_topology_conf.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "lib/ib/check_fattree.h"
#include "lib/ib/topology.h"
#include "lib/view/number.h"

namespace rdma::ib {

namespace {

// A name Slurm's parser takes as one word of a list: no blank, '=', ',',
// brackets or '#'.
bool slurm_word(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      return false;
  return true;
}

std::string host_of(const Node& n) {
  size_t b = n.description.find_first_not_of(" \t");
  std::string first = b == std::string::npos
                          ? ""
                          : n.description.substr(b, n.description.find_first_of(" \t", b) - b);
  return slurm_word(first) ? first : topology_node_name(n);
}

// A name split as "prefix" and its trailing digits.
struct Split {
  std::string prefix, digits;
  // digits as a number: at most 18 of them (split), so no overflow.
  uint64_t number() const { return view::parse_number(digits, {}).value_or(0); }
  bool operator<(const Split& o) const {
    if (prefix != o.prefix) return prefix < o.prefix;
    if (digits.size() != o.digits.size()) return digits.size() < o.digits.size();
    return digits < o.digits;
  }
};

Split split(const std::string& s) {
  size_t i = s.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1]))) --i;
  // Numbers past 18 digits stay text (no range arithmetic on them).
  if (s.size() - i > 18) i = s.size();
  return {s.substr(0, i), s.substr(i)};
}

}  // namespace

std::string slurm_hostlist(std::vector<std::string> names) {
  std::vector<Split> v;
  for (const std::string& n : names) v.push_back(split(n));
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end(),
                      [](const Split& a, const Split& b) {
                        return a.prefix == b.prefix && a.digits == b.digits;
                      }),
          v.end());
  std::string out;
  for (size_t i = 0; i < v.size();) {
    if (!out.empty()) out += ',';
    if (v[i].digits.empty()) {
      out += v[i++].prefix;
      continue;
    }
    // The names of this prefix with numbers of one width, as ranges.
    size_t j = i;
    while (j < v.size() && v[j].prefix == v[i].prefix && !v[j].digits.empty() &&
           v[j].digits.size() == v[i].digits.size())
      ++j;
    if (j - i == 1) {
      out += v[i].prefix + v[i].digits;
      i = j;
      continue;
    }
    std::string ranges;
    for (size_t k = i; k < j;) {
      size_t e = k;
      while (e + 1 < j && v[e + 1].number() == v[e].number() + 1) ++e;
      if (!ranges.empty()) ranges += ',';
      ranges += v[k].digits;
      if (e > k) ranges += "-" + v[e].digits;
      k = e + 1;
    }
    out += v[i].prefix + "[" + ranges + "]";
    i = j;
  }
  return out;
}

void write_slurm_topology(const Fabric& f, SlurmFormat format, std::FILE* out) {
  // Switch names: the description when it is a word no other switch has.
  std::map<std::string, unsigned> uses;
  for (const Node& n : f.nodes)
    if (n.is_switch()) ++uses[n.description];
  std::vector<std::string> name(f.nodes.size());
  for (uint32_t i = 0; i < f.nodes.size(); ++i) {
    const Node& n = f.nodes[i];
    name[i] = n.is_switch()
                  ? (slurm_word(n.description) && uses[n.description] == 1 ? n.description
                                                                           : topology_node_name(n))
                  : host_of(n);
  }
  // Levels by hops from the leaves (switches with a CA).
  std::vector<std::vector<std::string>> hosts(f.nodes.size());
  std::vector<uint32_t> leaves;
  for (uint32_t i = 0; i < f.nodes.size(); ++i) {
    if (!f.nodes[i].is_switch()) continue;
    for (const Port& p : f.nodes[i].ports)
      if (p.peer && !f.nodes[p.peer->node].is_switch()) hosts[i].push_back(name[p.peer->node]);
    if (!hosts[i].empty()) leaves.push_back(i);
  }
  std::vector<int> level = switch_distances(f, leaves);
  int top = level.empty() ? 0 : std::max(0, *std::max_element(level.begin(), level.end()));
  std::fprintf(out, "# Slurm topology.conf (topology/%s), written by rdma fabric topology slurm\n",
               format == SlurmFormat::Tree ? "tree" : "block");
  // Each level's switches by name (discovery order depends on the port
  // the fabric is seen from).
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < f.nodes.size(); ++i)
    if (level[i] >= 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return level[a] != level[b] ? level[a] < level[b] : split(name[a]) < split(name[b]);
  });
  for (int l = 0; l <= top; ++l) {
    for (uint32_t i : order) {
      if (level[i] != l) continue;
      if (format == SlurmFormat::Block) {
        if (l == 0)
          std::fprintf(out, "BlockName=%s Nodes=%s\n", name[i].c_str(),
                       slurm_hostlist(hosts[i]).c_str());
        continue;
      }
      if (l == 0) {
        std::fprintf(out, "SwitchName=%s Nodes=%s\n", name[i].c_str(),
                     slurm_hostlist(hosts[i]).c_str());
        continue;
      }
      std::vector<std::string> below;
      std::set<uint32_t> seen;
      for (const Port& p : f.nodes[i].ports)
        if (p.peer && level[p.peer->node] == l - 1 && seen.insert(p.peer->node).second)
          below.push_back(name[p.peer->node]);
      std::fprintf(out, "SwitchName=%s Switches=%s\n", name[i].c_str(),
                   slurm_hostlist(below).c_str());
    }
  }
}

}  // namespace rdma::ib
