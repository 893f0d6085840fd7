// Discovery under the latency model (lib/testing/fabric/latency.h): the
// tool's discovery (lib/ib/discover) at a window and per-node limit, or a
// model of ibnetdiscover's (libibnetdisc's query order, its window of 2),
// against the floor: the busiest node's total service time, and the reach
// floor (lib/testing/fabric/latency.h ReachFloor). One line of
// figures on stdout; bench/latency_model.sh runs the sizes.
//
//   latency_model FILE [--tool rdma|ibnetdiscover] [--window N] [--per-node K]
//                 [--switch-us N] [--ca-us N] [--hop-us N] [--host-ns N] [--queue N] [--timeline]
//                 [--last N] [--busiest N] [--found] [--guid-xor K]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/latency.h"
#include "lib/testing/fabric/topology.h"

namespace {

using namespace rdma;

struct Found {
  size_t nodes = 0, links = 0, warnings = 0;
};

// libibnetdisc's scan as its callbacks chain it (ibnetdisc.c): one FIFO of
// SMPs, at most max_smps (2) on the wire, each reply queueing the next:
// NodeInfo -> a new node's NodeDescription, then for a switch SwitchInfo
// and PortInfo 0, whose reply queues PortInfo 1..N; a CA's PortInfo of its
// arrival port (again for a CA seen before); each switch port's PortInfo
// that shows LinkUp (not the arrival port) queues a NodeInfo behind it,
// whether or not the peer is known (it links the ports on the reply).
class IbnetdiscoverModel {
 public:
  explicit IbnetdiscoverModel(mad::Engine& e) : e_(e) {}
  Found run() {
    node_info({}, 0, 0);
    e_.run();
    return {guids_.size(), links_.size(), warnings_};
  }

 private:
  template <typename Done>
  void get(const std::vector<uint8_t>& path, const mad::AttrDef& a, uint32_t mod, Done done) {
    mad::Route r{true, 0, path};
    e_.submit({mad::make_smp(r, mad::kGet, a, mod), mad::smp_address(r), a.name,
               [this, done](const mad::Mad* reply, const mad::Failure*) {
                 if (!reply) {
                   ++warnings_;
                   return;
                 }
                 done(reply->data());
               }});
  }
  // The NodeInfo behind port `port` of the node `from` (0: the start node).
  void node_info(const std::vector<uint8_t>& path, uint64_t from, unsigned port) {
    bool start = from == 0;
    get(path, mad::kNodeInfo, 0, [this, path, from, port, start](std::span<const uint8_t> a) {
      ib::NodeInfo ni = ib::NodeInfo::from(a);
      if (!start) links_.insert(std::minmax(End{from, port}, End{ni.node_guid, ni.local_port}));
      bool fresh = guids_.insert(ni.node_guid).second;
      if (fresh) {
        get(path, mad::kNodeDescription, 0, [](std::span<const uint8_t>) {});
        if (ni.is_switch()) {
          get(path, mad::kSwitchInfo, 0, [](std::span<const uint8_t>) {});
          get(path, mad::kPortInfo, 0, [this, path, ni](std::span<const uint8_t>) {
            for (unsigned p = 1; p <= ni.num_ports; ++p) port_info(path, ni, p, false);
          });
        }
      }
      if (!ni.is_switch()) port_info(path, ni, ni.local_port, start);
    });
  }
  void port_info(const std::vector<uint8_t>& path, const ib::NodeInfo& ni, unsigned p, bool start) {
    get(path, mad::kPortInfo, p, [this, path, ni, p, start](std::span<const uint8_t> a) {
      ib::PortInfo pi = ib::PortInfo::from(a);
      if (pi.phys_state != 5) return;  // LinkUp
      if (ni.is_switch() ? p == ni.local_port : !start) return;
      std::vector<uint8_t> next = path;
      next.push_back(static_cast<uint8_t>(p));
      node_info(next, ni.node_guid, p);
    });
  }

  mad::Engine& e_;
  using End = std::pair<uint64_t, unsigned>;
  std::unordered_set<uint64_t> guids_;
  std::set<std::pair<End, End>> links_;
  size_t warnings_ = 0;
};

// --timeline: per millisecond of virtual time, the MADs sent and the most
// in flight, to see where a schedule leaves the window idle.
class Timeline : public mad::Transport {
 public:
  Timeline(mad::Transport& t, const ibtest::FakeFabric& f) : t_(t), f_(f) {}
  void send(const mad::Mad& mad, const mad::Address& to, int timeout_ms) override {
    Bucket& b = at();
    ++b.sent;
    b.most = std::max(b.most, ++in_flight_);
    t_.send(mad, to, timeout_ms);
    int node = f_.last_delivery().node;
    if (node >= 0 && mad.get(mad::hdr::kAttrId) == mad::kNodeInfo.id) {
      if (node_infos_.size() <= static_cast<size_t>(node)) node_infos_.resize(node + 1);
      if (!node_infos_[node]++) found_by(node, mad);
    }
    if (node >= 0 && mad.get(mad::hdr::kAttrId) == mad::kPortInfo.id) {
      if (port_infos_.size() <= static_cast<size_t>(node)) port_infos_.resize(node + 1);
      port_infos_[node].emplace_back(
          static_cast<unsigned>(mad.get(mad::hdr::kAttrMod)),
          std::chrono::duration_cast<std::chrono::nanoseconds>(t_.now().time_since_epoch())
              .count());
    }
  }
  // --found: each switch in the order found, when its first NodeInfo went
  // and through which node's port, and that node's own first NodeInfo:
  // how long each link of the chain that found it took.
  void print_found(const ibtest::LatencyFabric& lf) const {
    std::vector<size_t> order;
    for (size_t i = 0; i < found_.size(); ++i)
      if (found_[i].at >= 0 && f_.nodes()[i].is_switch()) order.push_back(i);
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return found_[a].at < found_[b].at; });
    for (size_t i : order) {
      const Found& x = found_[i];
      std::printf(
          "  %-12s asked %6.2f by %-12s port %2u (found %6.2f, its PortInfo asked %6.2f, "
          "answered %6.2f)  service %.0f  last %.2f\n",
          f_.nodes()[i].id.c_str(), x.at / 1e6,
          x.parent >= 0 ? f_.nodes()[x.parent].id.c_str() : "-", x.port,
          x.parent >= 0 ? found_[x.parent].at / 1e6 : 0.0, port_info_at(x.parent, x.port) / 1e6,
          port_answer_at(x.parent, x.port) / 1e6,
          std::chrono::duration<double>(lf.service(static_cast<int>(i))).count() * 1e3,
          std::chrono::duration<double>(lf.last_at(static_cast<int>(i))).count() * 1e3);
    }
  }
  // The NodeInfo requests a node served (the probes that landed on it).
  size_t node_infos(int node) const {
    return static_cast<size_t>(node) < node_infos_.size() ? node_infos_[node] : 0;
  }
  std::optional<mad::Received> receive(int timeout_ms) override {
    std::optional<mad::Received> r = t_.receive(timeout_ms);
    if (r && in_flight_) --in_flight_;
    if (r && !r->status && r->bytes.size() >= 256) {
      mad::Mad m;
      std::copy_n(r->bytes.begin(), 256, m.bytes.begin());
      if (m.get(mad::hdr::kAttrId) == mad::kPortInfo.id) {
        int node = end_of(m);
        if (node >= 0) {
          if (port_answers_.size() <= static_cast<size_t>(node)) port_answers_.resize(node + 1);
          port_answers_[node].emplace_back(
              static_cast<unsigned>(m.get(mad::hdr::kAttrMod)),
              std::chrono::duration_cast<std::chrono::nanoseconds>(t_.now().time_since_epoch())
                  .count());
        }
      }
    }
    return r;
  }
  std::chrono::steady_clock::time_point now() const override { return t_.now(); }
  void print() const {
    for (size_t i = 0; i < buckets_.size(); ++i)
      std::printf("  ms %3zu  sent %5zu  most in flight %4zu\n", i, buckets_[i].sent,
                  buckets_[i].most);
  }

 private:
  struct Bucket {
    size_t sent = 0, most = 0;
  };
  struct Found {
    int64_t at = -1;  // virtual ns its first NodeInfo was sent
    int parent = -1;  // the node whose port it went out of
    unsigned port = 0;
  };
  // Walks the directed route from the attached CA to the node before its end.
  void found_by(int node, const mad::Mad& mad) {
    if (found_.size() < f_.nodes().size()) found_.resize(f_.nodes().size());
    Found& x = found_[node];
    x.at =
        std::chrono::duration_cast<std::chrono::nanoseconds>(t_.now().time_since_epoch()).count();
    std::span<const uint8_t> path = mad.dr_path();
    int at = f_.attach_node();
    for (size_t h = 0; h < path.size() && at >= 0; ++h) {
      unsigned port = path[h];
      if (h + 1 == path.size()) {
        x.parent = at;
        x.port = port;
        break;
      }
      at = port < f_.nodes()[at].ports.size() ? f_.nodes()[at].ports[port].peer_node : -1;
    }
  }
  std::vector<Found> found_;
  std::vector<std::vector<std::pair<unsigned, int64_t>>> port_infos_;    // --found: port, sent
  std::vector<std::vector<std::pair<unsigned, int64_t>>> port_answers_;  // port, answered
  int end_of(const mad::Mad& m) const {
    int at = f_.attach_node();
    for (uint8_t port : m.dr_path()) {
      if (at < 0) break;
      at = port < f_.nodes()[at].ports.size() ? f_.nodes()[at].ports[port].peer_node : -1;
    }
    return at;
  }
  int64_t port_answer_at(int node, unsigned port) const {
    if (node < 0 || static_cast<size_t>(node) >= port_answers_.size()) return -1;
    for (auto [p, at] : port_answers_[node])
      if (p == port) return at;
    return -1;
  }
  int64_t port_info_at(int node, unsigned port) const {
    if (node < 0 || static_cast<size_t>(node) >= port_infos_.size()) return -1;
    for (auto [p, at] : port_infos_[node])
      if (p == port) return at;
    return -1;
  }
  Bucket& at() {
    if (!start_) start_ = t_.now();
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t_.now() - *start_).count();
    if (buckets_.size() <= static_cast<size_t>(ms)) buckets_.resize(ms + 1);
    return buckets_[ms];
  }
  mad::Transport& t_;
  const ibtest::FakeFabric& f_;
  std::vector<size_t> node_infos_;
  std::optional<std::chrono::steady_clock::time_point> start_;
  std::vector<Bucket> buckets_;
  size_t in_flight_ = 0;
};

int arg_int(int& i, int argc, char** argv) {
  if (i + 1 >= argc) throw Error(std::string(argv[i]) + " needs a value");
  return std::atoi(argv[++i]);
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: latency_model FILE [--tool rdma|ibnetdiscover] [--window N] "
        "[--per-node K] [--switch-us N] [--ca-us N] [--hop-us N] [--host-ns N] [--queue N] "
        "[--timeline] "
        "[--last N] [--busiest N] [--found] [--guid-xor K]\n");
    return 2;
  }
  std::string tool = "rdma";
  mad::EngineConfig cfg;
  cfg.window = 256;  // rdma's default (rdma/options.h)
  bool window_given = false;
  bool timeline = false;
  bool found_list = false;
  size_t last = 0;
  size_t busiest = 0;
  uint64_t guid_xor = 0;
  cfg.per_node = mad::kPerNode;
  ibtest::LatencyOptions lo;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--tool" && i + 1 < argc)
      tool = argv[++i];
    else if (a == "--window") {
      cfg.window = static_cast<size_t>(arg_int(i, argc, argv));
      window_given = true;
    } else if (a == "--per-node")
      cfg.per_node = static_cast<size_t>(arg_int(i, argc, argv));
    else if (a == "--switch-us")
      lo.switch_service = std::chrono::microseconds(arg_int(i, argc, argv));
    else if (a == "--host-ns")
      lo.host_per_mad = std::chrono::nanoseconds(arg_int(i, argc, argv));
    else if (a == "--ca-us")
      lo.ca_service = std::chrono::microseconds(arg_int(i, argc, argv));
    else if (a == "--hop-us")
      lo.hop = std::chrono::microseconds(arg_int(i, argc, argv));
    else if (a == "--timeline")
      timeline = true;
    else if (a == "--found")
      found_list = true;
    else if (a == "--guid-xor")
      guid_xor = static_cast<uint64_t>(arg_int(i, argc, argv));
    else if (a == "--busiest")
      busiest = static_cast<size_t>(arg_int(i, argc, argv));
    else if (a == "--last")
      last = static_cast<size_t>(arg_int(i, argc, argv));
    else if (a == "--queue")
      lo.queue_depth = static_cast<size_t>(arg_int(i, argc, argv));
    else
      throw Error("unknown argument " + a);
  }
  if (tool == "ibnetdiscover") {
    cfg.per_node = 0;                   // one FIFO, as libibnetdisc's
    if (!window_given) cfg.window = 2;  // ibnetdiscover -o default
  }
  ibtest::FakeFabric f(ibtest::load_topology(argv[1]));
  // Another draw of the GUIDs, for what depends on them (where each
  // switch's sweep starts): the same fabric under other names.
  for (ibtest::FabricNode& n : f.nodes()) n.node_guid ^= guid_xor;
  size_t true_nodes = 0, true_links = 0;
  for (const auto& n : f.nodes()) {
    if (n.ports.size() > 1 || n.is_switch()) ++true_nodes;
    for (size_t p = 1; p < n.ports.size(); ++p) true_links += n.ports[p].peer_node >= 0;
  }
  true_links /= 2;
  ibtest::LatencyFabric lf(f, lo);
  Timeline tl(lf, f);
  mad::Engine e(tl, cfg);
  auto real = std::chrono::steady_clock::now();
  Found found;
  if (tool == "rdma") {
    ib::Discovery d = ib::discover(e);
    found = {d.fabric.nodes.size(), d.fabric.links().size(), d.warnings.size()};
  } else if (tool == "ibnetdiscover") {
    found = IbnetdiscoverModel(e).run();
  } else {
    throw Error("--tool: rdma or ibnetdiscover");
  }
  double real_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - real).count();
  const ibtest::LatencyStats& ls = lf.stats();
  double t = std::chrono::duration<double>(lf.elapsed()).count();
  double floor = std::chrono::duration<double>(ls.busiest_service).count();
  double busy = std::chrono::duration<double>(ls.total_service).count() / t;
  double window_floor =
      std::chrono::duration<double>(ls.total_round_trip).count() / static_cast<double>(cfg.window);
  const mad::EngineStats& st = e.stats();
  ibtest::ReachFloor reach = lf.reach_floor();
  auto ms = [](std::chrono::nanoseconds d) {
    return std::chrono::duration<double>(d).count() * 1e3;
  };
  std::printf(
      "%-13s window %-3zu per_node %zu  nodes %zu/%zu links %zu/%zu  mads %llu retried %llu "
      "timeouts %llu dropped %llu  most_at_node %llu (%s)  time %.1f ms floor %.1f ms  "
      "x_floor %.2f  window_floor %.1f ms  reach_floor %.1f ms x_reach %.2f (%s: reachable "
      "%.1f ms, reached %.1f)  busy_nodes %.1f  busiest %s  (sim %.1f s real)\n",
      tool.c_str(), cfg.window, cfg.per_node, found.nodes, true_nodes, found.links, true_links,
      static_cast<unsigned long long>(st.sent), static_cast<unsigned long long>(st.retried),
      static_cast<unsigned long long>(st.timeouts), static_cast<unsigned long long>(ls.dropped),
      static_cast<unsigned long long>(ls.most_at_node),
      ls.crowded >= 0 ? f.nodes()[ls.crowded].id.c_str() : "-", t * 1e3, floor * 1e3, t / floor,
      window_floor * 1e3, ms(reach.at), t * 1e3 / ms(reach.at),
      reach.node >= 0 ? f.nodes()[reach.node].id.c_str() : "-", ms(reach.reach), ms(reach.first),
      busy, ls.busiest >= 0 ? f.nodes()[ls.busiest].id.c_str() : "-", real_s);
  // The floor: the larger of the fabric's (the busiest node's work;
  // the reach floor, which no tool beats either) and the tool's own work.
  if (lo.host_per_mad.count()) {
    double host = ms(ls.host);
    std::printf("  host %.1f ms (%.1f us a MAD)  x_larger_floor %.2f  x_larger_reach %.2f\n", host,
                lo.host_per_mad.count() / 1e3, t * 1e3 / std::max(floor * 1e3, host),
                t * 1e3 / std::max(ms(reach.at), host));
  }
  if (timeline) tl.print();
  if (found_list) tl.print_found(lf);
  // The n nodes first by `before`: when each was first reached, its work,
  // the NodeInfo probes that landed on it, and its idle time between (0:
  // never idle once reached).
  auto list = [&](size_t n, auto before) {
    std::vector<int> order;
    for (size_t i = 0; i < f.nodes().size(); ++i) order.push_back(static_cast<int>(i));
    std::sort(order.begin(), order.end(), before);
    for (size_t i = 0; i < n && i < order.size(); ++i) {
      int k = order[i];
      std::printf("  %-12s first %.2f service %.2f node_infos %zu last %.2f idle %.2f\n",
                  f.nodes()[k].id.c_str(), ms(lf.first_at(k)), ms(lf.service(k)), tl.node_infos(k),
                  ms(lf.last_at(k)), ms(lf.last_at(k) - lf.first_at(k) - lf.service(k)));
    }
  };
  // The nodes with the most work.
  list(busiest, [&](int a, int b) { return lf.service(a) > lf.service(b); });
  // The nodes that finished last.
  list(last, [&](int a, int b) { return lf.last_at(a) > lf.last_at(b); });
  return found.warnings ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "latency_model: %s\n", e.what());
  return 1;
}
