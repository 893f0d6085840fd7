#include "lib/ib/discover.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "lib/error.h"
#include "lib/ib/discover_hold.h"
#include "lib/ib/discover_state.h"
#include "lib/ib/discover_text.h"
#include "lib/ib/fdr10.h"
#include "lib/ib/port_peers.h"
#include "lib/ib/sweep_order.h"
#include "lib/ib/types.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"

namespace rdma::ib {

namespace {

using namespace discover_text;

// Discovery runs in waves, one per hop: the NodeInfo probes of a wave, then
// the details of the nodes it found, then the next wave's probes behind
// their ports. Handling each wave's replies in probe order keeps the result
// (node order, which end of a link is "a") independent of reply timing, and
// links found in one wave are known before the next decides which ports
// still need a probe, so parallel links cost one probe each. A probe goes
// out as soon as its port's PortInfo says the link is up, while the other
// details are still coming: that decision needs nothing the rest of the
// wave could change (no link is added until the wave settles), so only the
// settling waits for the whole wave.
class Discoverer {
 public:
  Discoverer(mad::Engine& e, const DiscoverScope& scope) : e_(e), scope_(scope) {}

  Discovery run() {
    Wave wave(1);  // the start node: behind no port
    wave[0].path = scope_.from;
    while (!wave.empty()) {
      probe(wave);  // those not sent early
      // The wave's probes are spent once settled: not kept through the
      // details (the last wave's are most of the peak's 0.9 MB at 5,000 nodes).
      std::vector<uint32_t> found = settle(std::exchange(wave, {}));
      details(found);
      check_lids(found);
      wave = next_wave(found);
    }
    finished_ = true;  // probes ahead not sent yet are withdrawn
    e_.run();          // what was asked early of switches that did not settle as new nodes
    return std::move(d_);
  }

 private:
  using Probe = discover_state::Probe;
  using Early = discover_state::Early;
  using Sweep = discover_state::Sweep;
  // A wave grows a block at a time, never copied: a vector's doubling held
  // 1.3 MB at once (8,192 probes' room and the 4,096 before) for each of
  // the fat tree's large waves, and freed in the middle of the heap it was
  // RSS for good (bench/fabric_results.md, discovery's memory).
  using Wave = std::deque<Probe>;

  // Submits one SMP Get; done gets the attribute bytes of a good reply.
  // early: asked of a switch before its wave settled (ask_early);
  // unknown_end: a probe of a node not known yet (mad::Query::unknown_end),
  // behind the node with GUID `behind` when not 0 (mad::Query::behind).
  // then runs after the reply or the failure (a sweep's next). A callable
  // of its own type, not a std::function: that was 32 bytes more in every
  // queued query's callback, and a heap block of its own for a sweep's.
  struct NoThen {
    void operator()() const {}
  };
  template <typename Done, typename Then = NoThen>
  void get(const std::vector<uint8_t>& path, const mad::AttrDef& a, uint32_t mod, Done done,
           Early* early = nullptr, bool unknown_end = false, uint64_t behind = 0, Then then = {}) {
    mad::Route r{true, 0, path};
    ++owed(early);
    // No what: the engine names it from the MAD when a message needs it
    // ("PortInfo port 3 from dr 0,1", mad::query_text), not a heap block
    // per queued query.
    mad::Query q{mad::make_smp(r, mad::kGet, a, mod), mad::smp_address(r), "",
                 [this, done, early, then](const mad::Mad* reply, const mad::Failure* f) {
                   --owed(early);
                   if (!reply) {
                     d_.warnings.push_back(f->message);
                   } else {
                     try {
                       done(reply->data());
                     } catch (const Error& err) {  // a reply too short for its view
                       d_.warnings.push_back(err.what());
                     }
                   }
                   then();
                 }};
    q.unknown_end = unknown_end;
    q.behind = behind;
    e_.submit(std::move(q));
  }

  void probe(Wave& wave) {
    for (Probe& p : wave) send_probe(p);
    run_step();
  }

  void send_probe(Probe& p) {
    if (p.sent) return;
    p.sent = true;
    if (p.from) {
      PortPeers::Key key{d_.fabric.nodes[p.from->node].info.node_guid, p.from->port};
      // Not an answer only a deeper probe gave, of a node one route alone
      // showed (PortPeers::doubtful): a route that lies makes a phantom,
      // whose probes ahead would answer for its neighbours' ports, and the
      // node it lies about could go unfound without a warning. The wave
      // probes such a port itself, as it would have without probes ahead
      // (no probe more on an honest fat tree, bench/latency_results.md).
      std::optional<NodeInfo> far = peers_.find(key);
      if (far && !peers_.doubtful(key, p.path.size())) {
        answer(p, *far);
        return;
      }
      // The probe ahead's answer will do, or the far switch's own probe.
      if (asking_.count(key) || holds_.held(key) ||
          hold(d_.fabric.nodes[p.from->node].info, p.from->port)) {
        ++waiting_;
        waiters_[key].push_back(&p);
        return;
      }
    }
    get(
        p.path, mad::kNodeInfo, 0,
        [this, &p](std::span<const uint8_t> a) {
          NodeInfo far = NodeInfo::from(a);
          // Not learnt through a switch demoted since (check_lid): in the
          // order where it was suspect first it sent no probe, and a probe
          // through a neighbour's port must not take its word instead.
          if (p.from && !suspect_.count(p.from->node))
            learn(d_.fabric.nodes[p.from->node].info, p.from->port, far, p.path.size());
          answer(p, far);
        },
        nullptr, true, p.from ? d_.fabric.nodes[p.from->node].info.node_guid : 0);
  }

  void answer(Probe& p, const NodeInfo& far) {
    p.info = far;
    ask_early(far, p.path, p.from.has_value(), p.hops);
  }

  // What a probe through either end of a link found (PortPeers), and the
  // waves' probes that waited for it.
  void learn(const NodeInfo& near, uint8_t port, const NodeInfo& far, size_t hops) {
    peers_.learn(near, port, far, hops);
    wake({near.node_guid, port});
    wake({far.node_guid, far.local_port});
  }
  void wake(const PortPeers::Key& key) {
    auto it = waiters_.find(key);
    if (it == waiters_.end()) return;
    std::optional<NodeInfo> far = peers_.find(key);
    if (!far) return;
    // Learnt from a deeper probe: they wait for the probe through the port
    // itself (its answer, or its failure, wakes them).
    for (const Probe* p : it->second)
      if (peers_.doubtful(key, p->path.size())) return;
    for (Probe* p : take_waiters(key)) answer(*p, *far);
  }
  // The waves' probes waiting for the probe ahead through a port, no longer
  // counted as waiting.
  std::vector<Probe*> take_waiters(const PortPeers::Key& key) {
    auto it = waiters_.find(key);
    if (it == waiters_.end()) return {};
    std::vector<Probe*> waiting = std::move(it->second);
    waiters_.erase(it);
    waiting_ -= waiting.size();
    return waiting;
  }

  // Probes ahead of the waves (not with a hop limit, which needs each
  // node's distance before it is explored through): a switch asked early
  // probes behind each port as its PortInfo says the link is up, so the
  // fabric is found at the pace of single replies, not of whole waves
  // (bench/latency_results.md); each switch's sweep then starts as soon as
  // the switch is found. A wave's probe through a port probed ahead takes
  // that answer, so no port is probed twice but when both ends of a link
  // ask at once; a probe ahead not sent yet when the link is learnt from
  // its other end is withdrawn. The waves still decide what the fabric is,
  // in their order: what is learnt ahead only saves them the waiting.
  void look_ahead(Early& e, uint8_t port) {
    if (scope_.hops || e.suspect || e.path.size() >= mad::kMaxHops) return;
    const Port& base = e.port(0);
    if (!base.info) return;  // port 0 first: its LID is checked
    if (port != 0) return ahead(e, port);
    // Another switch of its size with its LID: not explored through ahead
    // (the wave decides whether it is at all, check_lid).
    // Which of the two the wave finds first is not known yet, and the first
    // to answer need not be it: neither is explored ahead from here on.
    if (uint16_t lid = base.info->lid) {
      auto [owner, fresh] = early_lids_.emplace(std::pair{lid, e.info.num_ports}, &e);
      if (!fresh && owner->second != &e) {
        owner->second->suspect = true;
        e.suspect = true;
        return;
      }
    }
    for (const Port& p : std::as_const(e.ports))
      if (p.num != 0 && p.info) ahead(e, p.num);
  }
  void ahead(Early& e, uint8_t port) {
    if (!e.port(port).info->link_up()) return;
    PortPeers::Key key{e.info.node_guid, port};
    if (peers_.known(key) || asking_.count(key) || holds_.held(key) || hold(e.info, port)) return;
    asking_.insert(key);
    std::vector<uint8_t> path = e.path;
    path.push_back(port);
    mad::Route r{true, 0, path};
    mad::Query q{mad::make_smp(r, mad::kGet, mad::kNodeInfo, 0), mad::smp_address(r), "",
                 [this, key, path, near = e.info](const mad::Mad* reply, const mad::Failure*) {
                   asking_.erase(key);
                   std::optional<NodeInfo> far;
                   try {
                     if (reply) far = NodeInfo::from(reply->data());
                   } catch (const Error&) {  // too short: the wave's own probe will say so
                   }
                   if (far) {
                     learn(near, key.second, *far, path.size());
                     ask_early(*far, path, true, 0);
                     return;
                   }
                   // Failed: the waves' probes that waited ask for themselves
                   // (withdrawn: the link was learnt, and they were answered).
                   for (Probe* p : take_waiters(key)) {
                     p->sent = false;
                     send_probe(*p);
                   }
                 }};
    q.unknown_end = true;
    q.behind = e.info.node_guid;
    q.wanted = [this, key] { return !finished_ && !peers_.known(key); };
    e_.submit(std::move(q));
  }

  // The queries the current step waits for: the wave's probes, the details
  // of its settled nodes, the next wave's probes sent early. A switch's
  // details asked early count apart till it settles: the step does not
  // wait for them, so they run on into the next.
  size_t& owed(Early* e) { return e && !e->n ? e->left : waiting_; }
  void run_step() {
    e_.run([this] { return waiting_ == 0; });
  }

  // A switch's details asked as soon as a probe finds it, before its wave
  // settles: its sweep (39 MADs on a 36-port switch, one at a time at its
  // SMA) then overlaps the rest of the wave's probes instead of following
  // them. Only for a GUID not met before and within the scan; the node it
  // becomes takes the answers when the wave settles (adopt_early).
  void ask_early(const NodeInfo& ni, const std::vector<uint8_t>& path, bool behind_port,
                 unsigned hops) {
    // After the last wave settled nothing adopts what is asked (a probe
    // ahead answered late, of a switch no wave found, swept it for nothing).
    if (finished_) return;
    if (!ni.is_switch() || !behind_port || (scope_.hops && hops > *scope_.hops)) return;
    if (d_.fabric.find(ni.node_guid) || early_nodes_.count(ni.node_guid)) return;
    if (d_.fabric.nodes.size() + early_nodes_.size() >= kMaxNodes) return;
    Early& e = early_nodes_[ni.node_guid];
    e.order = early_nodes_.size();
    e.info = ni;
    e.ports = NodePorts(size_t{ni.num_ports} + 1, false);
    e.path = path;
    Early* ep = &e;
    // The ports first, the rest after them: each port's answer may send a
    // probe further, and what is found through it starts its own sweep.
    // NodeDescription and SwitchInfo asked 5th and 6th held every later
    // port two service times back, at each switch on the way to the last
    // found (2.7% of the time with 1 ms switches, bench/latency_results.md).
    sweep_ports(0, path, ni, ep, [this, path, ep] { ask_early_rest(path, ep); });
  }
  void ask_early_rest(const std::vector<uint8_t>& path, Early* ep) {
    get(
        path, mad::kNodeDescription, 0,
        [this, ep](std::span<const uint8_t> a) {
          std::string text = description_of(a);
          if (ep->n)
            d_.fabric.nodes[*ep->n].description = std::move(text);
          else
            ep->description = std::move(text);
        },
        ep);
    get(
        path, mad::kSwitchInfo, 0,
        [this, ep](std::span<const uint8_t> a) {
          if (ep->n)
            d_.fabric.nodes[*ep->n].sw = SwitchInfo::from(a);
          else
            ep->sw = SwitchInfo::from(a);
        },
        ep);
  }

  // The node n settled as takes what was asked of it early, if that was
  // this node: the same NodeInfo but for the port the probe came in by.
  bool adopt_early(uint32_t n) {
    Node& node = d_.fabric.nodes[n];
    auto it = early_nodes_.find(node.info.node_guid);
    if (it == early_nodes_.end() || it->second.n) return false;
    Early& e = it->second;
    NodeInfo seen = e.info;
    seen.local_port = node.info.local_port;
    const NodeInfo& ni = node.info;
    if (std::tie(seen.base_version, seen.class_version, seen.node_type, seen.num_ports,
                 seen.sys_image_guid, seen.port_guid, seen.partition_cap, seen.device_id,
                 seen.revision, seen.vendor_id) !=
        std::tie(ni.base_version, ni.class_version, ni.node_type, ni.num_ports, ni.sys_image_guid,
                 ni.port_guid, ni.partition_cap, ni.device_id, ni.revision, ni.vendor_id))
      return false;
    e.n = n;
    waiting_ += e.left;  // what is still in flight: this step waits for it now
    e.left = 0;
    if (e.description) node.description = std::move(*e.description);
    if (e.sw) node.sw = *e.sw;
    node.ports[0].guid = ni.port_guid;
    for (uint8_t port : sweep_order(ni)) {
      if (const Port& answered = e.port(port); answered.info)
        port_answered(n, port, *answered.info);
    }
    e.ports = {};
    return true;
  }

  // Adds the wave's nodes and links in probe order; returns the new nodes
  // and asks for the PortInfo of CA ports reached for the first time.
  std::vector<uint32_t> settle(Wave wave) {
    std::vector<uint32_t> found;
    // Room for the wave's nodes at most, not a doubling: the last wave of
    // a fat tree (its CAs) took the vector from 4,096 nodes to 8,192 at
    // 4,768 (1.2 MB, 144 bytes a node, at the heap's peak). At most: the
    // probes that found a GUID not known yet (parallel links to one new
    // node count it more than once).
    std::vector<Node>& nodes = d_.fabric.nodes;
    size_t fresh = 0;
    for (const Probe& p : wave) fresh += p.info && !d_.fabric.find(p.info->node_guid);
    if (nodes.size() + fresh > nodes.capacity())
      nodes.reserve(std::min(nodes.size() + fresh, kMaxNodes));
    found.reserve(fresh);
    hops_.reserve(nodes.capacity());
    // Each probe freed once settled: the nodes' ports added take its room,
    // not the heap's top (a fat tree's last waves hold a probe a CA).
    for (; !wave.empty(); wave.pop_front()) {
      const Probe& p = wave.front();
      if (!p.info) {
        if (!p.from && !p.back)
          throw Error((p.path.empty() ? std::string("the local node")
                                      : "the node at " + mad::route_text({true, 0, p.path})) +
                      " does not answer: " + d_.warnings.back());
        continue;
      }
      const NodeInfo& ni = *p.info;
      const std::string at = route(p.path);
      if (const Node* seen = d_.fabric.find(ni.node_guid);
          seen && (seen->info.node_type != ni.node_type || seen->info.num_ports != ni.num_ports)) {
        d_.warnings.push_back("node " + mad::guid_hex(ni.node_guid) + " is " + what(seen->info) +
                              " at " + route(seen->path) + " but " + what(ni) + " at " + at +
                              ": not exploring through " + at);
        continue;
      }
      if (d_.fabric.nodes.size() >= kMaxNodes && !d_.fabric.find(ni.node_guid)) {
        if (!too_many_) {
          d_.warnings.push_back("more than " + std::to_string(kMaxNodes) +
                                " nodes (the unicast LIDs): not exploring through " + at +
                                " and further new nodes");
          too_many_ = true;
        }
        continue;
      }
      bool known = d_.fabric.find(ni.node_guid) != nullptr;
      // Past the scan's last hop: only links between nodes already found
      // (as libibnetdisc's max_hops, which iblinkinfo -n uses).
      if (!known && scope_.hops && p.hops > *scope_.hops) continue;
      uint32_t n = d_.fabric.add(ni, p.path);
      Node& node = d_.fabric.nodes[n];
      if (ni.local_port >= node.ports.size()) {
        d_.warnings.push_back("NodeInfo from " + mad::route_text({true, 0, p.path}) +
                              ": arrived on port " + std::to_string(ni.local_port) +
                              " of a node with " + std::to_string(ni.num_ports) + " ports");
        continue;
      }
      // The port it answered from is cabled to another already: one of the
      // two links is a lie, and the first found stands.
      if (const Port& arrival = node.ports[ni.local_port];
          p.from && arrival.peer && !(*arrival.peer == *p.from)) {
        const Node& peer = d_.fabric.nodes[arrival.peer->node];
        const Node& from = d_.fabric.nodes[p.from->node];
        d_.warnings.push_back("port " + std::to_string(ni.local_port) + " of node " +
                              mad::guid_hex(ni.node_guid) + " is linked to port " +
                              std::to_string(arrival.peer->port) + " of " +
                              mad::guid_hex(peer.info.node_guid) + " (" + route(peer.path) +
                              ") but answers behind port " + std::to_string(p.from->port) + " of " +
                              mad::guid_hex(from.info.node_guid) + " (" + route(from.path) +
                              "), which it does not point back to: not exploring through " + at);
        continue;
      }
      if (!node.is_switch()) node.ports[ni.local_port].guid = ni.port_guid;
      if (p.from) d_.fabric.connect(*p.from, PortRef{n, ni.local_port});
      if (!known) {
        found.push_back(n);
        if (scope_.nodes_found) *scope_.nodes_found = d_.fabric.nodes.size();
        hops_.resize(d_.fabric.nodes.size());
        hops_[n] = p.hops;
      } else if (!node.is_switch() && !node.ports[ni.local_port].info) {
        port_info(n, p.path, ni.local_port);  // a second port of a known CA
      }
    }
    return found;
  }

  // PortInfo, then where iblinkinfo asks it the vendor's MlnxExtPortInfo
  // (lib/ib/fdr10.h). A node that does not answer that is not a problem:
  // its port is not FDR10, and no warning says otherwise. For node n, or
  // for an early node (e): its node once settled, till then kept in e.
  template <typename Then = NoThen>
  void port_info(uint32_t n, const std::vector<uint8_t>& path, uint8_t port, Early* e = nullptr,
                 Then then = {}) {
    // The route inline: a vector was a heap block a queued PortInfo query.
    auto answered = [this, n, path = NodePath(path), port, e](std::span<const uint8_t> a) {
      PortInfo pi = PortInfo::from(a);
      bool fdr10 = ask_fdr10(e ? e->info : d_.fabric.nodes[n].info, pi);
      if (e && !e->n) {
        e->ports[port].info = pi;
        look_ahead(*e, port);
      } else
        port_answered(e ? *e->n : n, port, std::move(pi));
      if (!fdr10) return;
      mad::Route r{true, 0, path};
      ++owed(e);
      e_.submit({mad::make_smp(r, mad::kGet, mad::kMlnxExtPortInfo, port), mad::smp_address(r),
                 "MlnxExtPortInfo port " + std::to_string(port) + " from " + mad::route_text(r),
                 [this, n, port, e](const mad::Mad* reply, const mad::Failure*) {
                   --owed(e);
                   if (!reply) return;
                   PortInfo& info = e && !e->n ? *e->ports[port].info
                                               : *d_.fabric.nodes[e ? *e->n : n].ports[port].info;
                   info.mlnx_speed_active = mlnx_speed_active(reply->data());
                   info.mlnx_speed_supported = mlnx_speed_supported(reply->data());
                 }});
    };
    get(path, mad::kPortInfo, port, answered, e, false, 0, std::move(then));
  }

  // A switch's PortInfo sweep (node n, or the early node e), a few queries
  // ahead of the replies, each reply queueing the next: the engine sends a
  // switch two at a time, and the whole sweeps of hundreds of switches
  // queued at once were the peak of a large discovery (27,000 queries, 8 MB
  // of 13 at 4,768 nodes, heaptrack).
  // Its ports in sweep_order's order (lib/ib/sweep_order.h).
  // `after` is asked once the last port's PortInfo is queued.
  void sweep_ports(uint32_t n, const std::vector<uint8_t>& path, const NodeInfo& ni, Early* e,
                   std::function<void()> after) {
    auto left = std::make_shared<Sweep>(
        Sweep{path, sweep_order(ni, beside_start(path)), 0, std::move(after), ni.node_guid, 0});
    if (e) e->sweep = left;
    for (size_t i = 0; i < kSweepAhead; ++i) sweep_next(n, left, e);
  }
  void sweep_next(uint32_t n, const std::shared_ptr<Sweep>& s, Early* e) {
    if (s->next == s->ports.size()) {
      if (s->after) std::exchange(s->after, {})();
      return;
    }
    uint8_t port = s->ports[s->next++];
    port_info(n, s->path, port, e, [this, n, s, e] {
      if (++s->answered == s->ports.size()) release(s->guid);
      sweep_next(n, s, e);
    });
  }
  // Whether the probe through `port` of the switch near waits for the far
  // switch's own (lib/ib/discover_hold.h), till that switch's sweep ends.
  bool hold(const NodeInfo& near, uint8_t port) {
    auto self = early_nodes_.find(near.node_guid);
    if (self == early_nodes_.end()) return false;
    auto leads = [&](uint8_t q) -> PortLead {
      std::optional<NodeInfo> ni = peers_.find({near.node_guid, q});
      if (ni && ni->is_switch()) return {PortLead::kSwitch, ni->node_guid};
      return {asking_.count({near.node_guid, q}) ? PortLead::kOut : PortLead::kUnknown, 0};
    };
    return holds_.hold_beside({near.node_guid, port}, near.num_ports, leads, [&](uint64_t far) {
      auto x = early_nodes_.find(far);  // found ahead after near, still sweeping
      std::shared_ptr<Sweep> s = x == early_nodes_.end() ? nullptr : x->second.sweep.lock();
      return s && x->second.order > self->second.order && s->answered < s->ports.size();
    });
  }
  // guid's sweep ended: what waited for it and is still not learnt is probed.
  void release(uint64_t guid) {
    for (const PortPeers::Key& key : holds_.release(guid)) {
      auto e = early_nodes_.find(key.first);
      if (!peers_.known(key) && e != early_nodes_.end() && !e->second.n)
        if (e->second.port(key.second).info) ahead(e->second, key.second);
      if (peers_.known(key) || asking_.count(key)) continue;  // its answer wakes them
      for (Probe* p : take_waiters(key)) p->sent = false, send_probe(*p);
    }
  }

  // A settled node's port answered: its LID checked (port 0), the next
  // wave's probe behind it sent.
  void port_answered(uint32_t n, uint8_t port, PortInfo pi) {
    Node& node = d_.fabric.nodes[n];
    node.ports[port].info.emplace(std::move(pi));
    if (node.is_switch() && port == 0) check_lid(n);
    // A switch's ports are probed early only once its port 0 has passed
    // check_lid: a suspect switch is not explored through, but for what
    // one demoted by a switch found before it sent in the meantime.
    const Port* base = node.port(0);
    bool checked = !node.is_switch() || (base && base->info);
    if (std::optional<Probe> p = checked ? probe_behind(n, node.ports[port]) : std::nullopt) {
      Probe& early = early_[{n, port}] = std::move(*p);
      send_probe(early);
    }
  }

  // NodeDescription, SwitchInfo and PortInfo of the new nodes: every port
  // of a switch, the arrival port of a CA (for the local CA, the port MADs
  // leave from: its other ports may be cabled to another subnet).
  void details(const std::vector<uint32_t>& found) {
    for (uint32_t n : found) {
      // A wave's details queued at once were the peak of a large fabric's
      // discovery (the last wave's 8,000 queries for 4,000 CAs: 3 MB of
      // 14 at 4,768 nodes, heaptrack): run some once many wait, enough
      // left queued to keep the window full.
      if (waiting_ > kDetailsQueued) e_.run([this] { return waiting_ <= kDetailsQueued / 2; });
      if (adopt_early(n)) continue;
      const Node& node = d_.fabric.nodes[n];
      const std::vector<uint8_t>& path = node.path;
      auto description = [this, n, path] {
        get(path, mad::kNodeDescription, 0, [this, n](std::span<const uint8_t> a) {
          d_.fabric.nodes[n].description = description_of(a);
        });
      };
      if (node.is_switch()) {
        d_.fabric.nodes[n].ports[0].guid = node.info.port_guid;
        // As ask_early: the ports first.
        sweep_ports(n, path, node.info, nullptr, [this, n, path, description] {
          description();
          get(path, mad::kSwitchInfo, 0, [this, n](std::span<const uint8_t> a) {
            d_.fabric.nodes[n].sw = SwitchInfo::from(a);
          });
        });
      } else {
        description();
        port_info(n, path, node.info.local_port);
      }
    }
    run_step();
  }

  // Whether a switch at path is the one the start node, a CA here, is
  // cabled to (one hop from it).
  bool beside_start(const std::vector<uint8_t>& path) const {
    const std::vector<Node>& nodes = d_.fabric.nodes;
    return path.size() == 1 && !nodes.empty() && nodes[0].path.empty() && !nodes[0].is_switch();
  }

  // Whether the next wave explores behind node n at all.
  bool explores(uint32_t n) const {
    const Node& node = d_.fabric.nodes[n];
    if (!node.is_switch() && n != 0) return false;  // CAs do not forward
    if (suspect_.count(n)) return false;
    if (scope_.hops && hops_[n] > *scope_.hops) return false;
    return node.path.size() < mad::kMaxHops;
  }

  // The probe behind a port of node n whose link is up and whose peer is
  // not known yet, if the next wave explores behind n.
  std::optional<Probe> probe_behind(uint32_t n, const Port& port) const {
    const Node& node = d_.fabric.nodes[n];
    if (!explores(n)) return std::nullopt;
    if (port.num == 0 || port.peer || !port.info || !port.info->link_up()) return std::nullopt;
    if (!node.is_switch() && port.num != node.info.local_port) return std::nullopt;
    Probe p{{}, PortRef{n, port.num}, std::nullopt, hops_[n] + 1};
    std::vector<uint8_t> path = node.path;
    // A CA forwards no directed route: behind a remote start CA is the
    // node its route came through.
    if (node.is_switch() || path.empty()) {
      path.push_back(port.num);
    } else {
      path.pop_back();
      p.from.reset();
      p.back = true;
    }
    p.path = path;
    return p;
  }

  // Two switches of one size with one LID (port 0's): the second is most
  // likely the first under a damaged GUID, and is not explored through. (A
  // CA's LID given twice is the SM's mistake, for fabric check ids.)
  void check_lids(const std::vector<uint32_t>& found) {
    for (uint32_t n : found) check_lid(n);
  }
  // Once a node (check_lids runs after each wave's details, port_info as
  // soon as a switch's port 0 answers).
  void check_lid(uint32_t n) {
    const Node& node = d_.fabric.nodes[n];
    const Port* port = node.port(0);
    if (suspect_.count(n) || !node.is_switch() || !port || !port->info || !port->info->lid) return;
    uint16_t lid = port->info->lid;
    auto [it, fresh] = lid_owner_.emplace(std::pair{lid, node.info.num_ports}, n);
    if (fresh || it->second == n) return;
    // The one found first owns the LID (node numbers are wave order), not
    // the one whose port 0 answered first: a later owner is demoted. Its
    // probes sent early stay in early_ till the wave ends (a waiting probe
    // may point at one); next_wave leaves them out.
    uint32_t first = std::min(it->second, n);
    uint32_t second = std::max(it->second, n);
    it->second = first;
    const Node& owner = d_.fabric.nodes[first];
    const Node& other = d_.fabric.nodes[second];
    d_.warnings.push_back("nodes " + mad::guid_hex(owner.info.node_guid) + " at " +
                          route(owner.path) + " and " + mad::guid_hex(other.info.node_guid) +
                          " at " + route(other.path) + " both have LID " + std::to_string(lid) +
                          ": not exploring through " + route(other.path));
    suspect_.insert(second);
  }

  // Probes behind every port of the new switches (and the local CA's own
  // port) whose link is up and whose peer is not known yet, in node and
  // port order: those sent early with their answers.
  Wave next_wave(const std::vector<uint32_t>& found) {
    Wave wave;
    for (uint32_t n : found) {
      const Node& node = d_.fabric.nodes[n];
      if (!node.is_switch() && n != 0) continue;  // CAs do not forward
      if (suspect_.count(n)) continue;
      if (scope_.hops && hops_[n] > *scope_.hops) continue;
      if (node.path.size() >= mad::kMaxHops) {
        d_.warnings.push_back("not exploring behind " + mad::route_text({true, 0, node.path}) +
                              ": the directed route has " + std::to_string(mad::kMaxHops) +
                              " hops");
        continue;
      }
      for (const Port& port : node.ports) {
        auto early = early_.find({n, port.num});
        if (early != early_.end()) {
          // Erased as moved: not the map and the wave whole till the clear.
          wave.push_back(std::move(early->second));
          early_.erase(early);
          continue;
        }
        if (std::optional<Probe> p = probe_behind(n, port)) wave.push_back(std::move(*p));
      }
    }
    early_.clear();
    return wave;
  }

  // Every node of a managed subnet has a LID of its own; more nodes than
  // unicast LIDs is a fabric inventing them.
  static constexpr size_t kMaxNodes = 0xbfff;
  // The details queries of a wave left queued before some are run: four
  // windows' worth (at most 256 in flight); each queued query holds its
  // 256-byte MAD (2,048 were 0.75 MB of the peak at 4,768 nodes).
  static constexpr size_t kDetailsQueued = 1024;
  // The PortInfo queries of a switch's sweep queued ahead of its replies.
  static constexpr size_t kSweepAhead = 4;

  mad::Engine& e_;
  const DiscoverScope& scope_;
  // By port 0's LID and the port count: the switch found first with them.
  std::map<std::pair<uint16_t, uint8_t>, uint32_t> lid_owner_;
  std::set<uint32_t> suspect_;  // nodes not explored through
  bool too_many_ = false;
  std::vector<unsigned> hops_;  // by node: links from the start node
  // The next wave's probes sent while this wave's details come in, by
  // (node, port); a std::map, so a callback's reference stays valid.
  std::map<std::pair<uint32_t, uint8_t>, Probe> early_;
  // Switches whose details were asked before their wave settled, by GUID;
  // a std::map, so a callback's pointer stays valid.
  std::map<uint64_t, Early> early_nodes_;
  size_t waiting_ = 0;               // owed(): the current step's queries in flight
  PortPeers peers_;                  // what is behind each port, learnt from either end
  std::set<PortPeers::Key> asking_;  // ports probed ahead, the answer not in yet
  ProbeHolds holds_;                 // ports whose probe waits for the far switch's
  std::map<PortPeers::Key, std::vector<Probe*>> waiters_;  // the waves' probes waiting for them
  // By port 0's LID and the port count: the first early switch with them.
  std::map<std::pair<uint16_t, uint8_t>, Early*> early_lids_;
  bool finished_ = false;  // the last wave has settled
  Discovery d_;
};

}  // namespace

Discovery discover(mad::Engine& e, const DiscoverScope& scope) {
  return Discoverer(e, scope).run();
}

}  // namespace rdma::ib
