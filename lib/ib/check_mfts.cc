// The multicast half of the routes check (ibdmchk's multicast group
// check): for each MLID the switches' tables forward, the ports its bits
// name, and the tree its entries make over the switch links. A switch
// forwards a multicast packet out of every port its entry sets but the one
// it came in by, so the entries must form a tree: a link whose two ends set
// each other carries the group both ways; a cycle of entries sends packets
// round for ever; a switch the tree does not reach leaves its members out.
#include <algorithm>
#include <cstdio>
#include <numeric>

#include "lib/ib/check.h"
#include "lib/mad/format.h"
#include "lib/view/number.h"

namespace rdma::ib {

namespace {

enum Kind { kBadPort, kDown, kNotActive, kLoop, kOneWay, kCutOff, kStray, kKinds };

// What the rest of each kind is counted as.
const char* const kKindText[kKinds] = {
    "multicast entries to a port the switch does not have",
    "multicast entries to a port without a link",
    "multicast entries to a port that is not Active",
    "multicast loops",
    "multicast entries the next switch does not send back",
    "switches with members cut off from their group's tree",
    "multicast entries on switches their group's tree does not reach",
};

std::string mlid_text(uint16_t mlid) {
  return "MLID " + view::hex_text(mlid, 4);
}

// A switch port whose entry sends the group into a link to another switch
// whose table was read: where a packet of the group goes next.
struct Channel {
  uint32_t node;
  uint8_t port;
  uint32_t next;    // the switch on the other end
  uint8_t next_in;  // the port it comes in by there
};

// Union-find over node indexes, for the tree's parts.
struct Parts {
  std::vector<uint32_t> up;
  explicit Parts(size_t n) : up(n) { std::iota(up.begin(), up.end(), 0u); }
  uint32_t find(uint32_t x) {
    while (up[x] != x) x = up[x] = up[up[x]];
    return x;
  }
  void join(uint32_t a, uint32_t b) { up[find(a)] = find(b); }
};

// A cycle in the channels of one group (a channel leads to those of the
// next switch but the one back), found by a depth-first search: the
// channels on it, empty when there is none.
std::vector<uint32_t> first_cycle(const std::vector<Channel>& ch,
                                  const std::vector<std::vector<uint32_t>>& next) {
  enum : uint8_t { kWhite, kGrey, kBlack };
  std::vector<uint8_t> color(ch.size(), kWhite);
  std::vector<std::pair<uint32_t, size_t>> stack;  // channel, next successor
  for (uint32_t root = 0; root < ch.size(); ++root) {
    if (color[root] != kWhite) continue;
    color[root] = kGrey;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [v, i] = stack.back();
      if (i == next[v].size()) {
        color[v] = kBlack;
        stack.pop_back();
        continue;
      }
      uint32_t w = next[v][i++];
      if (color[w] == kWhite) {
        color[w] = kGrey;
        stack.push_back({w, 0});
      } else if (color[w] == kGrey) {
        size_t k = stack.size();
        while (stack[k - 1].first != w) --k;
        std::vector<uint32_t> c;
        for (; k <= stack.size(); ++k) c.push_back(stack[k - 1].first);
        return c;
      }
    }
  }
  return {};
}

}  // namespace

std::vector<Finding> check_mfts(const Fabric& f, const Mfts& mfts) {
  std::vector<Finding> found[kKinds];
  auto add = [&](Kind k, Severity s, std::string what, std::vector<FindingPlace> where) {
    found[k].push_back({"routes", s, std::move(what), std::move(where)});
  };
  // The switches each MLID is on.
  std::map<uint16_t, std::vector<uint32_t>> groups;
  for (uint32_t n = 0; n < f.nodes.size() && n < mfts.size(); ++n)
    if (f.nodes[n].is_switch() && mfts[n])
      for (const auto& [mlid, mask] : *mfts[n])
        if (mask.any()) groups[mlid].push_back(n);
  auto mask_of = [&](uint32_t n, uint16_t mlid) -> const std::bitset<256>* {
    if (n >= mfts.size() || !mfts[n]) return nullptr;
    auto it = mfts[n]->find(mlid);
    return it == mfts[n]->end() ? nullptr : &it->second;
  };
  Parts parts(f.nodes.size());
  for (const auto& [mlid, switches] : groups) {
    std::string m = mlid_text(mlid);
    for (uint32_t n : switches) parts.up[n] = n;
    std::vector<Channel> ch;
    // Per switch of the group: the CA ports it sends the group to.
    std::map<uint32_t, std::vector<FindingPlace>> members;
    for (uint32_t n : switches) {
      const Node& node = f.nodes[n];
      const std::bitset<256>& mask = *mask_of(n, mlid);
      for (unsigned p = 1; p < mask.size(); ++p) {
        if (!mask.test(p)) continue;
        uint8_t port = static_cast<uint8_t>(p);
        const Port* out = node.port(p);
        if (p > node.info.num_ports || !out) {
          add(kBadPort, Severity::Error,
              m + " sent to port " + std::to_string(p) + ", which the switch has not",
              {place(f, n, port)});
          continue;
        }
        if (!out->peer) {
          const char* st = out->info ? mad::port_state_name(out->info->state) : nullptr;
          add(kDown, Severity::Error,
              m + " sent to port " + std::to_string(p) + ", which has no link" +
                  (st ? std::string(" (") + st + ")" : ""),
              {place(f, n, port)});
          continue;
        }
        if (out->info && out->info->state != 4) {
          const char* st = mad::port_state_name(out->info->state);
          add(kNotActive, Severity::Error,
              m + " sent to port " + std::to_string(p) + ", which is not Active (" +
                  (st ? st : std::to_string(out->info->state)) + ")",
              {place(f, n, port)});
          continue;
        }
        PortRef peer = *out->peer;
        if (!f.nodes[peer.node].is_switch()) {
          members[n].push_back(place(f, peer.node, peer.port));
          continue;
        }
        if (peer.node >= mfts.size() || !mfts[peer.node]) continue;  // not read: warned
        ch.push_back({n, port, peer.node, peer.port});
        const std::bitset<256>* back = mask_of(peer.node, mlid);
        if (back && back->test(peer.port)) {
          parts.join(n, peer.node);
        } else {
          add(kOneWay, Severity::Warning,
              m + " sent to port " + std::to_string(p) + " toward " +
                  mad::desc_text(f.nodes[peer.node].description) + " port " +
                  std::to_string(peer.port) + ", whose entry does not send it back",
              {place(f, n, port), place(f, peer.node, peer.port)});
        }
      }
    }
    // Loops: a channel leads to the next switch's channels but the one
    // going back the way the packet came.
    std::map<std::pair<uint32_t, uint8_t>, uint32_t> by_port;
    for (uint32_t i = 0; i < ch.size(); ++i) by_port[{ch[i].node, ch[i].port}] = i;
    std::vector<std::vector<uint32_t>> next(ch.size());
    for (uint32_t i = 0; i < ch.size(); ++i) {
      auto it = by_port.lower_bound({ch[i].next, 0});
      for (; it != by_port.end() && it->first.first == ch[i].next; ++it)
        if (it->first.second != ch[i].next_in) next[i].push_back(it->second);
    }
    std::vector<uint32_t> cycle = first_cycle(ch, next);
    if (!cycle.empty()) {
      std::vector<FindingPlace> where;
      std::string ring;
      for (uint32_t c : cycle) {
        where.push_back(place(f, ch[c].node, ch[c].port));
        ring += mad::desc_text(f.nodes[ch[c].node].description) + " port " +
                std::to_string(ch[c].port) + " -> ";
      }
      add(kLoop, Severity::Error,
          "multicast loop: " + m + " goes round " + ring +
              mad::desc_text(f.nodes[ch[cycle[0]].node].description),
          std::move(where));
    }
    // The tree: the part of the first switch with a member (as ibdmchk
    // starts); a switch outside it loses its members, or is a stray entry.
    auto root = std::find_if(switches.begin(), switches.end(),
                             [&](uint32_t n) { return members.count(n) > 0; });
    if (root == switches.end()) continue;
    uint32_t tree = parts.find(*root);
    for (uint32_t n : switches) {
      if (parts.find(n) == tree) continue;
      auto it = members.find(n);
      if (it == members.end()) {
        add(kStray, Severity::Warning, m + " entry on a switch its tree does not reach",
            {place(f, n, 0)});
        continue;
      }
      std::vector<FindingPlace> where{place(f, n, 0)};
      where.insert(where.end(), it->second.begin(), it->second.end());
      add(kCutOff, Severity::Error,
          m + ": switch cut off from the group's tree with " + std::to_string(it->second.size()) +
              (it->second.size() == 1 ? " member port" : " member ports"),
          std::move(where));
    }
  }
  std::vector<Finding> out;
  for (int k = 0; k < kKinds; ++k) add_first_few(out, std::move(found[k]), kKindText[k]);
  if (!groups.empty()) {
    std::string list;
    size_t i = 0;
    for (const auto& [mlid, switches] : groups) {
      if (i++ == kFirstFew) {
        list += ", ...";
        break;
      }
      list += (list.empty() ? "" : ", ") + mlid_text(mlid).substr(5) + " on " +
              std::to_string(switches.size()) + (switches.size() == 1 ? " switch" : " switches");
    }
    out.push_back({"routes",
                   Severity::Info,
                   "multicast: " + std::to_string(groups.size()) +
                       (groups.size() == 1 ? " MLID" : " MLIDs") + " in use (" + list + ")",
                   {}});
  }
  return out;
}

}  // namespace rdma::ib
