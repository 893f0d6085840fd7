// Construction, the transport (routing, faults, the reply queue) and the
// fault helpers. The agents' answers are in fabric_smp.cc, fabric_pma.cc
// and fabric_sa.cc; the subnet manager in fabric_sm.cc.
#include "lib/testing/fabric/fabric.h"

#include <algorithm>
#include <cerrno>
#include <thread>

#include "lib/error.h"
#include "lib/mad/attrs.h"

namespace rdma::ibtest {

using mad::hdr::kHopCount;
using mad::hdr::kHopPointer;
using Clock = std::chrono::steady_clock;

namespace {

uint8_t path_at(const mad::Mad& m, const mad::FieldDef& f, size_t i) {
  return static_cast<uint8_t>(mad::get_bits(m.bytes, f.bit + i * 8, 8));
}
void set_path_at(mad::Mad& m, const mad::FieldDef& f, size_t i, uint8_t v) {
  mad::set_bits(m.bytes, f.bit + i * 8, 8, v);
}

uint8_t best(uint8_t mask, std::initializer_list<uint8_t> order) {
  for (uint8_t b : order)
    if (mask & b) return b;
  return 0;
}

}  // namespace

FakeFabric::FakeFabric(const Topology& t, FabricOptions o) : opt_(std::move(o)), rng_(opt_.seed) {
  nodes_.reserve(t.nodes.size());
  for (const TopoNode& tn : t.nodes) {
    FabricNode n;
    n.type = tn.type;
    n.id = tn.id;
    n.description = tn.description;
    n.node_guid = tn.node_guid;
    n.sys_guid = tn.sys_guid;
    n.vendor_id = tn.vendor_id;
    n.device_id = tn.device_id;
    n.enhanced_port0 = tn.enhanced_port0 > 0;
    n.ports.resize(tn.ports.size());
    for (size_t p = 0; p < tn.ports.size(); ++p) {
      FabricPort& fp = n.ports[p];
      const TopoPort& tp = tn.ports[p];
      fp.guid = tn.port_guid(static_cast<int>(p));
      fp.wired_node = tp.peer_node;
      fp.wired_port = tp.peer_port;
      fp.width_enabled = tp.width_enabled;
      fp.speed_enabled = tp.speed_enabled;
      fp.speed_ext_enabled = tp.speed_ext_enabled;
      fp.speed_ext_supported = tp.speed_ext_enabled ? 15 : 0;
      fp.mlnx_speed_enabled = tp.mlnx_speed_enabled;
      if (n.is_switch()) fp.guid_cap = p == 0 ? 1 : 0;
    }
    if (n.is_switch()) {  // port 0, the switch's own: always up (ibsim's smaport)
      n.partition_cap = 8;
      n.ports[0].state = kActive;
      n.ports[0].phys = kLinkUp;
    }
    index_[n.id] = static_cast<int>(nodes_.size());
    nodes_.push_back(std::move(n));
  }
  for (size_t i = 0; i < nodes_.size(); ++i)
    for (int p = 1; p <= nodes_[i].num_ports(); ++p) {
      const FabricPort& fp = nodes_[i].ports[p];
      if (fp.wired_node > static_cast<int>(i) ||
          (fp.wired_node == static_cast<int>(i) && fp.wired_port > p))
        link_up(static_cast<int>(i), p, fp.wired_node, fp.wired_port);
    }
  if (opt_.attach_node.empty()) {
    auto ca = std::find_if(nodes_.begin(), nodes_.end(),
                           [](const FabricNode& n) { return n.type == NodeType::Ca; });
    if (ca == nodes_.end()) throw Error("the topology has no CA to attach to");
    attach_node_ = static_cast<int>(ca - nodes_.begin());
  } else {
    attach_node_ = node(opt_.attach_node);
    if (nodes_[attach_node_].is_switch())
      throw Error("cannot attach to \"" + opt_.attach_node + "\": it is a switch");
  }
  attach_port_ = opt_.attach_port;
  if (attach_port_ < 1 || attach_port_ > nodes_[attach_node_].num_ports())
    throw Error("\"" + nodes_[attach_node_].id + "\" has no port " + std::to_string(attach_port_));
}

int FakeFabric::node(std::string_view id) const {
  auto it = index_.find(id);
  if (it == index_.end()) throw Error("no node \"" + std::string(id) + "\" in the fabric");
  return it->second;
}

uint16_t FakeFabric::lid(int n, int port) const {
  const FabricNode& nd = nodes_.at(n);
  return nd.ports.at(nd.is_switch() ? 0 : port).lid;
}

mad::LocalPort FakeFabric::local_port() const {
  const FabricPort& p = nodes_[attach_node_].ports[attach_port_];
  mad::LocalPort l;
  l.ca = "fabric0";
  l.port = attach_port_;
  l.lid = p.lid;
  l.sm_lid = p.sm_lid;
  l.gid_prefix = 0xfe80000000000000ull;
  l.port_guid = p.guid;
  l.state = p.state;
  return l;
}

// Links: the active width and speed are the best both ends enable (ibsim).
void FakeFabric::link_up(int a, int ap, int b, int bp) {
  FabricPort& x = nodes_[a].ports[ap];
  FabricPort& y = nodes_[b].ports[bp];
  if (x.phys == kDisabled || y.phys == kDisabled) return;
  x.peer_node = b;
  x.peer_port = static_cast<uint8_t>(bp);
  y.peer_node = a;
  y.peer_port = static_cast<uint8_t>(ap);
  uint8_t w =
      best(x.width_enabled & y.width_enabled, {kWidth12x, kWidth8x, kWidth4x, kWidth2x, kWidth1x});
  uint8_t s = best(x.speed_enabled & y.speed_enabled, {kSpeedQdr, kSpeedDdr, kSpeedSdr});
  uint8_t e = best(x.speed_ext_enabled & y.speed_ext_enabled,
                   {kSpeedExtNdr, kSpeedExtHdr, kSpeedExtEdr, kSpeedExtFdr});
  for (FabricPort* p : {&x, &y}) {
    p->width_active = w ? w : kWidth1x;
    p->speed_active = s ? s : kSpeedSdr;
    p->speed_ext_active = e;
    p->mlnx_speed_active = x.mlnx_speed_enabled & y.mlnx_speed_enabled;
    p->phys = kLinkUp;
    p->state = has_sm() ? kActive : kInit;
  }
}

void FakeFabric::link_down(int a, int ap) {
  FabricPort& x = nodes_[a].ports[ap];
  if (x.peer_node >= 0) {
    FabricPort& y = nodes_[x.peer_node].ports[x.peer_port];
    y.peer_node = -1;
    y.peer_port = 0;
    y.state = kDown;
    if (y.phys != kDisabled) y.phys = kPolling;
  }
  x.peer_node = -1;
  x.peer_port = 0;
  x.state = kDown;
  if (x.phys != kDisabled) x.phys = kPolling;
}

void FakeFabric::unlink(int n, int port) {
  nodes_.at(n).ports.at(port);
  link_down(n, port);
}

void FakeFabric::relink(int n, int port) {
  FabricPort& p = nodes_.at(n).ports.at(port);
  if (p.wired_node < 0) throw Error("port has no link in the topology");
  FabricPort& q = nodes_[p.wired_node].ports[p.wired_port];
  if (p.peer_node >= 0 || q.peer_node >= 0) return;
  link_up(n, port, p.wired_node, p.wired_port);
}

void FakeFabric::set_port_disabled(int n, int port, bool disabled) {
  FabricPort& p = nodes_.at(n).ports.at(port);
  if (disabled) {
    link_down(n, port);
    p.phys = kDisabled;
  } else if (p.phys == kDisabled) {
    p.phys = kPolling;
    if (p.wired_node >= 0) relink(n, port);
  }
}

void FakeFabric::set_link_active(int n, int port, uint8_t width, uint8_t speed, uint8_t speed_ext) {
  FabricPort& p = nodes_.at(n).ports.at(port);
  if (p.peer_node < 0) throw Error("port has no link");
  for (FabricPort* x : {&p, &nodes_[p.peer_node].ports[p.peer_port]}) {
    x->width_active = width;
    x->speed_active = speed;
    x->speed_ext_active = speed_ext;
  }
}

void FakeFabric::clear_faults() {
  drops_.clear();
  delays_.clear();
}

void FakeFabric::set_counter(int n, int port, std::string_view name, uint64_t v) {
  nodes_.at(n).ports.at(port).counters[std::string(name)] = v;
}

uint64_t FakeFabric::counter(int n, int port, std::string_view name) const {
  const auto& c = nodes_.at(n).ports.at(port).counters;
  auto it = c.find(name);
  return it == c.end() ? 0 : it->second;
}

// ---- routing ----

std::optional<FakeFabric::Hop> FakeFabric::owner_of(uint16_t lid) const {
  if (lid == 0 || lid >= lids_.size() || lids_[lid].node < 0) return std::nullopt;
  return lids_[lid];
}

// A LID-routed packet leaving from_node by from_port (0: from a switch's
// own port, through its table). SMPs cross links that are up (Init and
// beyond), other MADs need Active ports (IBA 7.2, 14.2.2).
std::optional<FakeFabric::Hop> FakeFabric::route_lid(int from_node, int from_port, uint16_t dlid,
                                                     bool smp) const {
  auto dest = owner_of(dlid);
  if (!dest) return std::nullopt;
  if (dest->node == from_node) return Hop{from_node, nodes_[from_node].is_switch() ? 0 : from_port};
  int n = from_node, out = from_port;
  for (int hops = 0; hops < 64; ++hops) {
    const FabricNode& nd = nodes_[n];
    if (nd.is_switch() && out == 0) {
      out = dlid < nd.lft.size() ? nd.lft[dlid] : 0xff;
      if (out == 0 || out > nd.num_ports()) return std::nullopt;
    }
    const FabricPort& p = nd.ports[out];
    if (p.peer_node < 0 || p.phys != kLinkUp) return std::nullopt;
    const FabricPort& q = nodes_[p.peer_node].ports[p.peer_port];
    uint8_t need = smp ? kInit : kActive;
    if (p.state < need || q.state < need) return std::nullopt;
    n = p.peer_node;
    int in = p.peer_port;
    const FabricNode& next = nodes_[n];
    if (n == dest->node) return Hop{n, next.is_switch() ? 0 : in, hops + 1};
    if (!next.is_switch()) return std::nullopt;  // a CA does not forward
    out = 0;
  }
  return std::nullopt;
}

// Directed route, IBA 14.2.2.2 (outgoing, D=0): the sender takes
// InitialPath[1] (its own port), each hop i records its arrival port in
// ReturnPath[i] and leaves by InitialPath[i+1]; only switches forward. The
// reply (D=1) retraces ReturnPath, so it arrives with HopPointer 0 at the
// requester (14.2.2.4). Returns where the SMP is delivered, or nullopt when
// a real SMI would discard it. DrDLID must be permissive (no LID-routed
// end). A DrSLID that is not (a combined route, 14.2.2.1) makes the start
// the switch at the address's DLID, reached by LID, and the reply's last
// leg LID-routed from there to DrSLID, which must be the requester's.
std::optional<FakeFabric::Hop> FakeFabric::route_directed(mad::Mad& m, uint16_t dlid) const {
  using namespace mad::hdr;
  size_t hc = m.get(kHopCount);
  if (m.get(kDirection) || m.get(kHopPointer) != 0 || hc > mad::kMaxHops) return std::nullopt;
  if (m.get(kDrDlid) != mad::kPermissiveLid) return std::nullopt;
  int n = attach_node_, in = attach_port_, lid_hops = 0;
  bool combined = m.get(kDrSlid) != mad::kPermissiveLid;
  if (combined) {
    std::optional<Hop> start = route_lid(attach_node_, attach_port_, dlid, true);
    uint16_t back = static_cast<uint16_t>(m.get(kDrSlid));
    if (!start || back != nodes_[attach_node_].ports[attach_port_].lid) return std::nullopt;
    if (start->node != attach_node_ && !route_lid(start->node, start->port, back, true))
      return std::nullopt;
    if (hc > 0 && !nodes_[start->node].is_switch()) return std::nullopt;
    n = start->node;
    in = start->port;
    lid_hops = start->hops;
  } else if (hc > 0 && path_at(m, kInitialPath, 1) != attach_port_) {
    return std::nullopt;
  }
  for (size_t hp = 1; hp <= hc; ++hp) {
    const FabricNode& nd = nodes_[n];
    int out = hp == 1 && !combined ? attach_port_ : path_at(m, kInitialPath, hp);
    if (hp > 1 && !nd.is_switch()) return std::nullopt;
    if (out < 1 || out > nd.num_ports()) return std::nullopt;
    const FabricPort& p = nd.ports[out];
    if (p.peer_node < 0 || p.phys != kLinkUp) return std::nullopt;
    n = p.peer_node;
    in = p.peer_port;
    set_path_at(m, kReturnPath, hp, static_cast<uint8_t>(in));
  }
  m.set(kHopPointer, hc + 1);  // at the end of the path: handed to the SMA
  int hops = lid_hops + static_cast<int>(hc);
  if (hc == 0 && combined) return Hop{n, in, hops};
  return Hop{n, hc == 0 ? (nodes_[n].is_switch() ? 0 : attach_port_) : in, hops};
}

// ---- the transport ----

bool FakeFabric::matches(const MadMatch& mm, int n, const mad::Mad& m) const {
  return (mm.node < 0 || mm.node == n) && (mm.mgmt_class < 0 || mm.mgmt_class == m.mgmt_class()) &&
         (mm.attr < 0 || mm.attr == static_cast<int>(m.get(mad::hdr::kAttrId)));
}

void FakeFabric::lost(const mad::Mad& m, int timeout_ms) {
  // umad reports only sends that wait for a reply: not responses (RMPP
  // ACKs), not sends with no timeout.
  if (m.get(mad::hdr::kResponse) || timeout_ms <= 0) return;
  ++stats_.timeouts;
  Pending p;
  p.r.bytes.assign(m.bytes.begin(), m.bytes.end());
  p.r.status = ETIMEDOUT;
  p.ready = Clock::now() + std::chrono::milliseconds(opt_.real_timeouts ? timeout_ms : 0);
  queue_.push_back(std::move(p));
}

void FakeFabric::send(const mad::Mad& request, const mad::Address& to, int timeout_ms) {
  ++stats_.received[request.mgmt_class()];
  ++stats_.by_pkey_index[to.pkey_index];
  last_ = {};
  mad::Mad m = request;
  std::optional<Hop> at;
  bool directed = m.mgmt_class() == mad::kClassSmiDr;
  uint16_t slid = to.lid;
  if (directed) {
    at = route_directed(m, to.lid);
    if (m.get(mad::hdr::kDrSlid) == mad::kPermissiveLid) slid = mad::kPermissiveLid;
  } else if (m.mgmt_class() == mad::kClassSmiLid && to.lid == mad::kPermissiveLid) {
    at = Hop{attach_node_, attach_port_};  // the local SMA
  } else {
    bool smp = m.mgmt_class() == mad::kClassSmiLid;
    at = route_lid(attach_node_, attach_port_, to.lid, smp);
    // The reply must find its way back, too.
    uint16_t back = nodes_[attach_node_].ports[attach_port_].lid;
    if (at && at->node != attach_node_ && !route_lid(at->node, at->port, back, smp)) at.reset();
    if (at && !smp && to.qp != 1) at.reset();  // GMPs go to the GSI (QP1)
  }
  if (!at) {
    ++stats_.unrouted;
    lost(request, timeout_ms);
    return;
  }
  last_ = {at->node, at->hops};
  std::vector<mad::Mad> replies = answer(m, *at, directed);
  if (replies.empty()) {
    lost(request, timeout_ms);
    return;
  }
  for (DropRule& d : drops_) {
    if (!d.times || !matches(d.match, at->node, request)) continue;
    double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    if (u >= d.rate) continue;
    if (d.times > 0) --d.times;
    ++stats_.dropped;
    lost(request, timeout_ms);
    return;
  }
  Pending p;
  p.ready = Clock::now();
  for (const DelayRule& d : delays_)
    if (matches(d.match, at->node, request)) {
      p.ready += std::chrono::milliseconds(d.ms);
      p.after = std::max(p.after, d.after_replies);
    }
  p.r.slid = slid;
  for (mad::Mad& r : replies) {
    ++stats_.answered[r.mgmt_class()];
    p.r.bytes.assign(r.bytes.begin(), r.bytes.end());
    queue_.push_back(p);
  }
  if (!reassembled_.empty()) {
    queue_.back().r.bytes = std::move(reassembled_);
    reassembled_.clear();
  }
}

std::optional<mad::Received> FakeFabric::receive(int timeout_ms) {
  auto limit = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
  for (;;) {
    auto now = Clock::now();
    // The first ready answer in send order; one held for K others waits
    // only while others are there to pass it.
    auto it = std::find_if(queue_.begin(), queue_.end(),
                           [&](const Pending& p) { return p.ready <= now && p.after == 0; });
    if (it == queue_.end())
      it = std::find_if(queue_.begin(), queue_.end(), [&](const Pending& p) {
        return p.ready <= now && std::none_of(queue_.begin(), queue_.end(),
                                              [](const Pending& o) { return !o.after; });
      });
    if (it != queue_.end()) {
      mad::Received r = std::move(it->r);
      bool counts = it->after == 0;
      queue_.erase(it);
      if (counts)
        for (Pending& p : queue_)
          if (p.after) --p.after;
      return r;
    }
    if (queue_.empty() || now >= limit) return std::nullopt;
    auto next = limit;
    for (const Pending& p : queue_)
      if (p.ready > now) next = std::min(next, p.ready);
    if (next > now) std::this_thread::sleep_until(next);
  }
}

}  // namespace rdma::ibtest
