#include "lib/ib/errors.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <set>

#include "lib/error.h"
#include "lib/ib/pma.h"
#include "lib/ib/port_select.h"
#include "lib/ib/records.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"
#include "lib/mad/bits.h"

namespace rdma::ib {

namespace {

// Where a node's PMA answers and what it can do.
struct Pma {
  uint16_t lid = 0;
  bool answered = false;
  PmaCaps caps;  // ClassPortInfo's, when it answered
};

// The LID each node's PMA is asked at: a switch's port 0, a CA's first
// port with a LID (each CA port is then asked at its own LID).
uint16_t node_lid(const Node& n) {
  if (n.is_switch()) return n.ports.empty() || !n.ports[0].info ? 0 : n.ports[0].info->lid;
  for (const Port& p : n.ports)
    if (p.num && p.info && p.info->lid) return p.info->lid;
  return 0;
}

// The ports of a node the PMA has counters for: a switch's external ports
// (and port 0 when it is enhanced), a CA's ports with a LID.
std::vector<uint8_t> pma_ports(const Node& n) {
  std::vector<uint8_t> out;
  for (const Port& p : n.ports) {
    if (!p.info) continue;
    if (n.is_switch()) {
      if (p.num == 0 && !(n.sw && n.sw->enhanced_port0)) continue;
    } else if (p.num == 0 || !p.info->lid) {
      continue;
    }
    out.push_back(p.num);
  }
  return out;
}

uint16_t port_address(const Fabric& f, PortRef r) {
  return port_lid(f, r);
}

// Asks every node's PMA for ClassPortInfo, then calls next(node index, pma)
// for those that answered (the callback may submit more; the engine runs
// until all is done).
class PmaWalk {
 public:
  PmaWalk(mad::Engine& e, const Fabric& f, std::vector<std::string>& warnings)
      : e_(e), f_(f), warnings_(warnings), pmas_(f.nodes.size()) {}

  // Asks the PMAs of the nodes sel covers only.
  void only(const NodeSelect& sel) { only_ = sel; }
  // Takes the capabilities of the PMAs known (SweepOptions::known_pmas)
  // without asking, and keeps there those learnt.
  void remember(std::map<uint32_t, PmaCaps>* known) { known_ = known; }
  // Asks the PMAs silent in the last sweep briefly, and keeps there those
  // silent in this one (SweepOptions::silent_pmas).
  void silent(std::set<uint16_t>* lids) { silent_ = lids; }

  // needs_caps(node) false: no ClassPortInfo, next runs at once with a
  // Pma that has not answered (its first query is the liveness check).
  void run(const std::function<void(uint32_t, const Pma&)>& next,
           const std::function<bool(const Node&)>& needs_caps = {}) {
    for (uint32_t n = 0; n < f_.nodes.size(); ++n) {
      if (!only_.covers(f_, n)) continue;
      Pma& pma = pmas_[n];
      pma.lid = node_lid(f_.nodes[n]);
      if (!pma.lid) continue;  // no LID (no SM, or no port up): no PMA to ask
      if (needs_caps && !needs_caps(f_.nodes[n])) {
        next(n, pma);
        continue;
      }
      if (const PmaCaps* caps = known(n)) {
        pma.answered = true;
        pma.caps = *caps;
        next(n, pma);
        continue;
      }
      mad::Query q{class_port_info_request(), mad::gsi_address(pma.lid),
                   "ClassPortInfo from lid " + std::to_string(pma.lid) + " (\"" +
                       f_.nodes[n].description + "\")",
                   [this, n, next](const mad::Mad* reply, const mad::Failure* fail) {
                     Pma& p = pmas_[n];
                     heard(p.lid, fail);
                     if (!reply) {
                       warnings_.push_back(fail->message);
                       return;
                     }
                     p.answered = true;
                     p.caps = PmaCaps::from(reply->data());
                     if (known_) (*known_)[n] = p.caps;
                     next(n, p);
                   }};
      briefly_if_silent(q, pma.lid);
      e_.submit(std::move(q));
    }
    e_.run();
    if (!silent_) return;
    for (uint16_t lid : answered_) silent_->erase(lid);
    for (uint16_t lid : unanswered_)
      if (!answered_.count(lid)) silent_->insert(lid);
  }

  // Submits a Get of a at lid for port (kAllPorts: the sum), or with
  // clear a Set that clears what it selects.
  void counters(uint16_t lid, uint8_t port, const mad::AttrDef& a,
                const std::optional<ResetSelect>& clear, const std::string& node,
                std::function<void(const mad::Mad&)> done,
                std::function<void(const mad::Failure&)> failed = {}, int retries = -1) {
    mad::Mad m = clear ? reset_request(a, port, *clear) : counters_request(a, port);
    std::string what = std::string(clear ? "clearing " : "") + a.name + " port " +
                       (port == kAllPorts ? std::string("all") : std::to_string(port)) +
                       " from lid " + std::to_string(lid) + " (\"" + node + "\")";
    // PortCountersExtended and the details are optional: a PMA without them
    // says so, which is not a problem. PortSamplesControl is asked only for
    // its Tick, which has a default: no answer at all is no warning either.
    bool optional = &a != &port_counters();
    bool quiet = &a == &mad::kPortSamplesControl;
    mad::Query q{std::move(m), mad::gsi_address(lid), what,
                 [this, lid, done, failed, optional, quiet](const mad::Mad* reply,
                                                            const mad::Failure* fail) {
                   if (!quiet || reply) heard(lid, fail);
                   if (!reply) {
                     if (!quiet && !(optional && fail->unsupported()))
                       warnings_.push_back(fail->message);
                     if (failed) failed(*fail);
                     return;
                   }
                   done(*reply);
                 }};
    q.retries = retries;
    briefly_if_silent(q, lid);
    e_.submit(std::move(q));
  }

  // Node n's PortXmitWait tick into ticks (its PortSamplesControl, asked at
  // its first counters port), asked once: a PMA that leaves it unanswered
  // is taken at the default tick (lost_bandwidth.h) rather than waited for
  // through the retries (ibsim's never answers it), and is no warning. Not
  // the local CA's (node 0): under ibsim an SM sharing that port receives
  // the Get and dies of it (opensm 3.3, as with perfquery -c at its LID).
  void tick(uint32_t n, uint16_t lid, const std::vector<uint8_t>& ports,
            std::map<uint32_t, uint8_t>& ticks) {
    const Node& node = f_.nodes[n];
    if (ports.empty() || (n == 0 && !node.is_switch())) return;
    counters(
        lid, ports[0], mad::kPortSamplesControl, std::nullopt, node.description,
        [&ticks, n](const mad::Mad& r) {
          ticks[n] = static_cast<uint8_t>(r.get_attr(mad::kPortSamplesControl, "Tick"));
        },
        {}, 0);
  }

 private:
  // A PMA silent in the last sweep is asked once, with the engine's
  // shortest timeout: no answer costs its window slot 50 ms, not 4 tries
  // of the full timeout; an answer makes it a PMA like the others again.
  void briefly_if_silent(mad::Query& q, uint16_t lid) const {
    if (!silent_ || !silent_->count(lid)) return;
    q.retries = 0;
    q.timeout_ms = e_.config().min_timeout_ms;
  }
  // A query to lid ended: answered (a reply, even an error status or a
  // damaged one), or fail a timeout (no reply, or given up on). One never
  // sent (a sweep cut by its budget first: no try) says nothing of the PMA.
  void heard(uint16_t lid, const mad::Failure* fail) {
    if (!silent_) return;
    if (!fail || fail->kind != mad::Failure::Kind::Timeout)
      answered_.insert(lid);
    else if (fail->tries > 0)
      unanswered_.insert(lid);
  }

  const PmaCaps* known(uint32_t n) const {
    if (!known_) return nullptr;
    auto it = known_->find(n);
    return it == known_->end() ? nullptr : &it->second;
  }

  mad::Engine& e_;
  const Fabric& f_;
  std::vector<std::string>& warnings_;
  std::vector<Pma> pmas_;
  NodeSelect only_;
  std::map<uint32_t, PmaCaps>* known_ = nullptr;
  std::set<uint16_t>* silent_ = nullptr;
  std::set<uint16_t> answered_, unanswered_;  // this sweep's, with silent_
};

}  // namespace

bool has_counters_port(const Fabric& f, uint32_t n, uint8_t port) {
  const Node& node = f.nodes[n];
  const Port* p = node.port(port);
  return p && p->info && (node.is_switch() || (port != 0 && p->info->lid));
}

bool NodeSelect::covers(const Fabric& f, uint32_t n) const {
  if (node && n != *node) return false;
  return !node_type || f.nodes[n].info.node_type == node_type;
}

// CounterSelect's order (lib/mad/attrs.h): the twelve error counters, then
// PortXmitWait; the four traffic counters after them. QP1Dropped (IBA 1.3)
// last: ibqueryerrors does not check it, a threshold file may name it.
const std::vector<const mad::FieldDef*>& error_counters() {
  static const std::vector<const mad::FieldDef*> v = [] {
    std::vector<const mad::FieldDef*> out;
    for (const char* n : mad::port_counters_select().first(12))
      out.push_back(mad::find_field(mad::kPortCounters, n));
    out.push_back(mad::find_field(mad::kPortCounters, "PortXmitWait"));
    out.push_back(mad::find_field(mad::kPortCounters, "QP1Dropped"));
    return out;
  }();
  return v;
}

const std::vector<const mad::FieldDef*>& data_counters() {
  static const std::vector<const mad::FieldDef*> v = [] {
    std::vector<const mad::FieldDef*> out;
    for (const char* n : mad::port_counters_select().subspan(12))
      out.push_back(mad::find_field(mad::kPortCounters, n));
    return out;
  }();
  return v;
}

const mad::FieldDef* error_counter(std::string_view name) {
  for (const mad::FieldDef* f : error_counters())
    if (name == f->name || name == f->label) return f;
  return nullptr;
}

uint64_t PortCounters::get(const mad::FieldDef& f) const {
  return mad::get_bits(pc, f.bit, f.width);
}

std::vector<const mad::FieldDef*> counters_over(const PortCounters& c, const SweepOptions& o) {
  std::vector<const mad::FieldDef*> out;
  for (const mad::FieldDef* f : o.counters)
    if (c.get(*f) > o.thresholds.of(*f)) out.push_back(f);
  return out;
}

bool over_threshold(const PortCounters& c, const SweepOptions& o) {
  return !counters_over(c, o).empty();
}

SweepSummary summarize(const ErrorSweep& s) {
  SweepSummary out;
  out.nodes_checked = s.nodes_checked;
  out.ports_checked = s.ports_checked;
  out.ports_over = s.ports.size();
  std::set<uint32_t> nodes;
  for (const PortCounters& p : s.ports) nodes.insert(p.port.node);
  out.nodes_over = nodes.size();
  out.pma_failures = s.warnings.size();
  return out;
}

ErrorSweep sweep_errors(mad::Engine& e, const Fabric& f, const SweepOptions& o) {
  ErrorSweep out;
  // Results by node and port, so the list comes in fabric order whatever
  // the order of the replies.
  std::vector<std::vector<std::unique_ptr<PortCounters>>> got(f.nodes.size());
  PmaWalk walk(e, f, out.warnings);
  walk.only(o.nodes);
  walk.remember(o.known_pmas);
  walk.silent(o.silent_pmas);

  // One port's PortCounters (and PortCountersExtended when kept and asked
  // for); then(failure or nullptr) once the PortCounters query has ended.
  using Then = std::function<void(const mad::Failure*)>;
  auto port_query = [&](uint32_t n, uint8_t port, const Pma& pma, Then then) {
    PortRef ref{n, port};
    uint16_t lid = port_address(f, ref);
    ++out.ports_checked;
    walk.counters(
        lid, port, mad::kPortCounters, std::nullopt, f.nodes[n].description,
        [&, ref, lid, pma, then](const mad::Mad& reply) {
          auto c = std::make_unique<PortCounters>();
          c->port = ref;
          c->lid = lid;
          c->pc = attr_bytes(reply, mad::kPortCounters);
          if (then) then(nullptr);
          if (!o.every_port && !over_threshold(*c, o)) return;
          PortCounters* kept = c.get();
          auto& slot = got[ref.node];
          if (slot.size() <= ref.port) slot.resize(ref.port + 1u);
          slot[ref.port] = std::move(c);
          if (o.extended && pma.caps.extended())
            walk.counters(lid, ref.port, mad::kPortCountersExtended, std::nullopt,
                          f.nodes[ref.node].description, [kept](const mad::Mad& r) {
                            kept->ext = attr_bytes(r, mad::kPortCountersExtended);
                          });
          if (o.wide_errors && pma.caps.extended_errors())
            walk.counters(lid, ref.port, mad::kPortCountersExtended, std::nullopt,
                          f.nodes[ref.node].description, [kept](const mad::Mad& r) {
                            kept->wide = attr_bytes(r, mad::kPortCountersExtendedFull);
                          });
          if (o.details) {
            // ibqueryerrors --details: where the receive errors came from and
            // why packets were discarded (no capability bit announces them).
            walk.counters(lid, ref.port, mad::kPortRcvErrorDetails, std::nullopt,
                          f.nodes[ref.node].description, [kept](const mad::Mad& r) {
                            kept->rcv_details = attr_bytes(r, mad::kPortRcvErrorDetails);
                          });
            walk.counters(lid, ref.port, mad::kPortXmitDiscardDetails, std::nullopt,
                          f.nodes[ref.node].description, [kept](const mad::Mad& r) {
                            kept->xmit_details = attr_bytes(r, mad::kPortXmitDiscardDetails);
                          });
          }
        },
        [then](const mad::Failure& fail) {
          if (then) then(&fail);
        });
  };

  // A CA's PMA is not asked for ClassPortInfo unless PortCountersExtended
  // is wanted (AllPortSelect is for switches): its first port's
  // PortCounters is the check that it answers, and its other ports are
  // asked after that one, so a silent CA is still one warning.
  std::function<void(uint32_t, const Pma&, std::shared_ptr<std::vector<uint8_t>>, size_t)>
      ca_ports =
          [&](uint32_t n, const Pma& pma, std::shared_ptr<std::vector<uint8_t>> ports, size_t i) {
            port_query(n, (*ports)[i], pma, [&, n, pma, ports, i](const mad::Failure* fail) {
              if (i == 0) {
                if (fail && fail->kind == mad::Failure::Kind::Timeout) return;  // silent PMA
                ++out.nodes_checked;
              }
              if (i + 1 < ports->size()) ca_ports(n, pma, ports, i + 1);
            });
          };

  walk.run(
      [&](uint32_t n, const Pma& pma) {
        const Node& node = f.nodes[n];
        std::vector<uint8_t> ports = pma_ports(node);
        if (o.nodes.port) ports = {*o.nodes.port};
        if (o.wait_tick) walk.tick(n, pma.lid, ports, out.ticks);
        if (!pma.answered) {  // a CA, not asked for ClassPortInfo
          if (!ports.empty())
            ca_ports(n, pma, std::make_shared<std::vector<uint8_t>>(std::move(ports)), 0);
          return;
        }
        ++out.nodes_checked;
        if (node.is_switch() && pma.caps.all_port_select() && !o.every_port && !o.nodes.port) {
          // The sum first; port by port only when it shows a counter over.
          walk.counters(pma.lid, kAllPorts, mad::kPortCounters, std::nullopt, node.description,
                        [&, n, pma, ports](const mad::Mad& reply) {
                          PortCounters sum;
                          sum.pc = attr_bytes(reply, mad::kPortCounters);
                          if (!over_threshold(sum, o)) {
                            out.ports_checked += ports.size();
                            return;
                          }
                          for (uint8_t p : ports) port_query(n, p, pma, nullptr);
                        });
          return;
        }
        for (uint8_t p : ports) port_query(n, p, pma, nullptr);
      },
      [&](const Node& node) { return node.is_switch() || o.extended || o.wide_errors; });

  for (auto& node : got)
    for (auto& p : node)
      if (p) out.ports.push_back(std::move(*p));
  return out;
}

std::map<uint32_t, uint8_t> read_wait_ticks(mad::Engine& e, const Fabric& f,
                                            const NodeSelect& nodes) {
  std::map<uint32_t, uint8_t> ticks;
  std::vector<std::string> warnings;  // none: a tick unanswered is the default
  PmaWalk walk(e, f, warnings);
  walk.only(nodes);
  walk.run(
      [&](uint32_t n, const Pma& pma) {
        std::vector<uint8_t> ports = pma_ports(f.nodes[n]);
        if (nodes.port) ports = {*nodes.port};
        walk.tick(n, pma.lid, ports, ticks);
      },
      [](const Node&) { return false; });
  return ticks;
}

std::vector<std::string> clear_counters(mad::Engine& e, const Fabric& f, bool all,
                                        const ClearSelect& only) {
  std::vector<std::string> warnings;
  PmaWalk walk(e, f, warnings);
  walk.only({only.node, only.node_type, std::nullopt});
  // PortCountersExtended holds traffic counters only (ibclearcounters
  // clears them; its 1.3 error counters are not cleared, as perfquery -x -R
  // would).
  walk.run([&](uint32_t n, const Pma& pma) {
    const Node& node = f.nodes[n];
    std::vector<uint8_t> ports = pma_ports(node);
    if (only.port)
      ports = {*only.port};
    else if (node.is_switch() && pma.caps.all_port_select())
      ports = {kAllPorts};
    for (uint8_t p : ports) {
      uint16_t lid = p == kAllPorts ? pma.lid : port_address(f, {n, p});
      walk.counters(lid, p, mad::kPortCounters, clear_select(all, pma.caps), node.description,
                    [](const mad::Mad&) {});
      if (all && pma.caps.extended())
        walk.counters(lid, p, mad::kPortCountersExtended, extended_clear_select(), node.description,
                      [](const mad::Mad&) {});
    }
  });
  return warnings;
}

}  // namespace rdma::ib
