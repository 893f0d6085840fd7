#include "lib/ib/unicast_route.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <set>
#include <utility>

#include "lib/error.h"
#include "lib/ib/find.h"
#include "lib/ib/records.h"
#include "lib/ib/tables_from.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
#include "lib/mad/combined_route.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"
#include "lib/view/number.h"

namespace rdma::ib {

namespace {

std::string switch_name(const Fabric& f, uint32_t node) {
  const Node& n = f.nodes[node];
  return "switch " + mad::guid_hex(n.info.node_guid) + " (" + mad::desc_text(n.description) + ")";
}

// The NodeInfo and SwitchInfo of the switch at r, one after the other; an
// error when r is not a switch ("only switches " + does).
std::pair<NodeInfo, mad::Mad> switch_at(mad::Engine& e, const mad::Route& r, uint16_t requester,
                                        const char* does) {
  std::string where = mad::route_text(r);
  mad::Mad ni = e.call(mad::make_smp_from(requester, r, mad::kGet, mad::kNodeInfo, 0),
                       mad::smp_address(r), "NodeInfo from " + where);
  NodeInfo info = NodeInfo::from(ni.data());
  if (!info.is_switch()) throw Error(where + " is not a switch; only switches " + does);
  mad::Mad si = e.call(mad::make_smp_from(requester, r, mad::kGet, mad::kSwitchInfo, 0),
                       mad::smp_address(r), "SwitchInfo from " + where);
  return {info, si};
}

}  // namespace

Lft read_lft(mad::Engine& e, const mad::Route& r, uint16_t lo, uint16_t hi) {
  return read_lft_from(0, e, r, lo, hi);
}

Lft read_lft_from(uint16_t requester_lid, mad::Engine& e, const mad::Route& r, uint16_t lo,
                  uint16_t hi) {
  std::string where = mad::route_text(r);
  mad::Mad si = switch_at(e, r, requester_lid, "forward by LID").second;
  Lft t;
  t.top = SwitchInfo::from(si.data()).linear_fdb_top;
  t.first = lo;
  if (lo > t.top || lo > hi) return t;
  uint16_t last = std::min(hi, t.top);
  t.ports.assign(size_t{last} - lo + 1, kNoPort);
  std::optional<mad::Failure> failed;
  for (uint32_t block = lo / 64; block <= last / 64u; ++block) {
    std::string what = "LinearForwardingTable block " + std::to_string(block) + " from " + where;
    e.submit({mad::make_smp_from(requester_lid, r, mad::kGet, mad::kLinearForwardingTable, block),
              mad::smp_address(r), what, [&, block](const mad::Mad* reply, const mad::Failure* f) {
                if (!reply) {
                  if (!failed) failed = *f;
                  return;
                }
                auto d = reply->data();
                for (uint32_t i = 0; i < 64; ++i) {
                  uint32_t lid = block * 64 + i;
                  if (lid >= lo && lid <= last) t.ports[lid - lo] = d[i];
                }
              }});
  }
  e.run();
  if (failed) throw mad::MadError(*failed);
  return t;
}

std::optional<uint16_t> mft_last(const mad::Mad& switch_info) {
  return mft_last(static_cast<uint16_t>(switch_info.get_attr(mad::kSwitchInfo, "MulticastFDBCap")),
                  static_cast<uint16_t>(switch_info.get_attr(mad::kSwitchInfo, "MulticastFDBTop")));
}

std::optional<uint16_t> mft_last(uint16_t mcast_fdb_cap, uint16_t mcast_fdb_top) {
  uint32_t cap = mcast_fdb_cap, top = mcast_fdb_top;
  if (cap == 0) return std::nullopt;
  uint32_t last = std::min<uint32_t>(mad::kLastMlid, kFirstMlid + cap - 1);
  // A top below the multicast range means an empty table; 0: not kept.
  if (top && top < last) last = top;
  if (last < kFirstMlid) return std::nullopt;
  return static_cast<uint16_t>(last);
}

namespace {

void submit_mft_from(uint16_t requester_lid, mad::Engine& e, const mad::Route& r, int num_ports,
                     uint16_t lo, uint16_t hi, const MftBits& got,
                     const std::function<void(const mad::Failure&)>& failed) {
  std::string where = mad::route_text(r);
  uint32_t positions = static_cast<uint32_t>(num_ports) / 16 + 1;
  for (uint32_t block = (lo - kFirstMlid) / 32u; block <= (hi - kFirstMlid) / 32u; ++block)
    for (uint32_t pos = 0; pos < positions; ++pos) {
      uint32_t mod = pos << 28 | block;
      std::string what = "MulticastForwardingTable block " + std::to_string(block) + " position " +
                         std::to_string(pos) + " from " + where;
      e.submit(
          {mad::make_smp_from(requester_lid, r, mad::kGet, mad::kMulticastForwardingTable, mod),
           mad::smp_address(r), what,
           [got, failed, lo, hi, block, pos](const mad::Mad* reply, const mad::Failure* f) {
             if (!reply) {
               failed(*f);
               return;
             }
             auto d = reply->data();
             for (uint32_t i = 0; i < 32; ++i) {
               uint32_t mlid = kFirstMlid + block * 32 + i;
               if (mlid < lo || mlid > hi) continue;
               got(static_cast<uint16_t>(mlid), pos,
                   static_cast<uint16_t>(mad::get_bits(d, i * 16, 16)));
             }
           }});
    }
}

}  // namespace

void submit_mft(mad::Engine& e, const mad::Route& r, int num_ports, uint16_t lo, uint16_t hi,
                const MftBits& got, const std::function<void(const mad::Failure&)>& failed) {
  submit_mft_from(0, e, r, num_ports, lo, hi, got, failed);
}

Mft read_mft(mad::Engine& e, const mad::Route& r, uint16_t lo, uint16_t hi) {
  return read_mft_from(0, e, r, lo, hi);
}

Mft read_mft_from(uint16_t requester_lid, mad::Engine& e, const mad::Route& r, uint16_t lo,
                  uint16_t hi) {
  auto [info, si] = switch_at(e, r, requester_lid, "forward multicast");
  Mft t;
  t.first = std::max(lo, kFirstMlid);
  t.num_ports = info.num_ports;
  std::optional<uint16_t> last = mft_last(si);
  if (!last || t.first > std::min(*last, hi)) return t;
  uint16_t end = std::min(*last, hi);
  t.masks.assign(size_t{end} - t.first + 1, {});
  std::optional<mad::Failure> failed;
  submit_mft_from(
      requester_lid, e, r, info.num_ports, t.first, end,
      [&t](uint16_t mlid, uint32_t pos, uint16_t bits) {
        for (uint32_t b = 0; b < 16; ++b)
          if (bits >> b & 1) t.masks[mlid - t.first].set(pos * 16 + b);
      },
      [&failed](const mad::Failure& f) {
        if (!failed) failed = f;
      });
  e.run();
  if (failed) throw mad::MadError(*failed);
  return t;
}

uint8_t lft_port(mad::Engine& e, const mad::Route& r, uint16_t lid) {
  mad::Mad m = e.call(
      mad::make_smp(r, mad::kGet, mad::kLinearForwardingTable, lid / 64), mad::smp_address(r),
      "LinearForwardingTable block " + std::to_string(lid / 64) + " from " + mad::route_text(r));
  return m.data()[lid % 64];
}

std::map<uint16_t, PortRef> lid_owners(const Fabric& f) {
  std::map<uint16_t, PortRef> out;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    for (const Port& p : node.ports) {
      LidRange r = lid_range(node, p);
      for (uint32_t i = 0; i < r.count; ++i)
        out.emplace(static_cast<uint16_t>(r.first + i), PortRef{n, p.num});
    }
  }
  return out;
}

std::vector<Hop> trace(const Fabric& f, PortRef src, uint16_t dlid, const LftLookup& lookup) {
  std::optional<PortRef> dst = find_port_lid(f, dlid);
  if (!dst) throw Error("no port in the fabric has LID " + std::to_string(dlid));
  std::vector<Hop> hops;
  std::set<uint32_t> seen;
  PortRef at = src;
  uint8_t in = 0;
  while (true) {
    const Node& n = f.nodes[at.node];
    Hop h{at, in, 0};
    if (at.node == dst->node && (n.is_switch() || at.port == dst->port)) {
      hops.push_back(h);
      return hops;
    }
    uint8_t out = at.port;
    if (n.is_switch()) {
      if (!seen.insert(at.node).second)
        throw Error("loop in the forwarding tables: LID " + std::to_string(dlid) +
                    " comes back to " + switch_name(f, at.node));
      out = lookup(at.node, dlid);
      if (out == kNoPort || out == 0 || out > n.info.num_ports)
        throw Error(
            "hole in the forwarding tables: " + switch_name(f, at.node) + " has no route to LID " +
            std::to_string(dlid) +
            (out == kNoPort || out == 0 ? std::string() : " (port " + std::to_string(out) + ")"));
    } else if (!hops.empty()) {
      throw Error("LID " + std::to_string(dlid) + " is routed into " +
                  node_type_name(n.info.node_type) + std::string(" ") +
                  mad::guid_hex(n.info.node_guid) + " (" + mad::desc_text(n.description) +
                  "), which does not forward");
    }
    h.out_port = out;
    hops.push_back(h);
    const Port* p = n.port(out);
    if (!p || !p->peer)
      throw Error("hole in the forwarding tables: " +
                  (n.is_switch()
                       ? switch_name(f, at.node)
                       : "port " + std::to_string(out) + " of " + mad::desc_text(n.description)) +
                  " sends LID " + std::to_string(dlid) + " out of port " + std::to_string(out) +
                  ", which has no link");
    in = p->peer->port;
    at = *p->peer;
    if (f.nodes[at.node].is_switch()) at.port = 0;
  }
}

std::vector<Hop> trace_mcast(const Fabric& f, PortRef src, uint16_t dlid, uint16_t mlid,
                             const MftLookup& lookup) {
  std::optional<PortRef> dst = find_port_lid(f, dlid);
  if (!dst) throw Error("no port in the fabric has LID " + std::to_string(dlid));
  auto reached = [&](PortRef at) {
    return at.node == dst->node && (f.nodes[at.node].is_switch() || at.port == dst->port);
  };
  if (reached(src)) return {Hop{src, 0, 0}};
  // Where the walk came from, by node: the hop before and its out port.
  struct Step {
    uint32_t prev = 0;
    uint8_t prev_out = 0;
    uint8_t in = 0;
  };
  std::map<uint32_t, Step> came;
  std::deque<uint32_t> todo;
  std::optional<PortRef> found;
  Step found_step;  // apart from came: the destination may be src's own node
  // Follows port out of node: the destination, or a switch to walk on.
  auto follow = [&](uint32_t node, uint8_t out) {
    const Port* p = f.nodes[node].port(out);
    if (!p || !p->peer) return;
    PortRef next = *p->peer;
    bool sw = f.nodes[next.node].is_switch();
    if (reached(sw ? PortRef{next.node, 0} : next)) {
      found = sw ? PortRef{next.node, 0} : next;
      found_step = {node, out, next.port};
    } else if (sw && next.node != src.node && !came.count(next.node)) {
      came[next.node] = {node, out, next.port};
      todo.push_back(next.node);
    }
  };
  if (f.nodes[src.node].is_switch())
    todo.push_back(src.node);
  else
    follow(src.node, src.port);
  while (!found && !todo.empty()) {
    uint32_t n = todo.front();
    todo.pop_front();
    std::bitset<256> mask = lookup(n, mlid);
    uint8_t in = n == src.node ? 0 : came[n].in;
    for (unsigned p = 1; p <= f.nodes[n].info.num_ports && !found; ++p)
      if (mask.test(p) && p != in) follow(n, static_cast<uint8_t>(p));
  }
  if (!found) {
    throw Error("no multicast route for MLID " + view::hex_text(mlid, 4) + " to LID " +
                std::to_string(dlid) +
                (came.size() == 1 ? ": the table of the one switch the group reaches does"
                                  : ": the tables of the " + std::to_string(came.size()) +
                                        " switches the group reaches do") +
                " not lead there");
  }
  std::vector<Hop> hops{Hop{*found, found_step.in, 0}};
  for (Step st = found_step;; st = came.at(st.prev)) {
    bool first = st.prev == src.node;
    hops.push_back(Hop{first ? src : PortRef{st.prev, 0}, first ? uint8_t{0} : came.at(st.prev).in,
                       st.prev_out});
    if (first) break;
  }
  std::reverse(hops.begin(), hops.end());
  return hops;
}

}  // namespace rdma::ib
