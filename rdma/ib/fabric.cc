// rdma fabric { show | links | topology | save | diff }: the whole subnet,
// discovered by directed route (lib/ib/discover.h) or read from a file
// saved earlier (`from FILE`, lib/ib/cache.h).
#include <cstdio>

#include "lib/error.h"
#include "lib/ib/cache.h"
#include "lib/ib/diff.h"
#include "lib/ib/discover.h"
#include "lib/ib/records.h"
#include "lib/ib/topology.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void fabric_help(Ctx& c) {
  std::fputs(
      "Usage: rdma fabric show [ switches | cas | routers ] [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric links [ all ] [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric topology [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric save FILE [via DEV/PORT]\n"
      "       rdma fabric diff FILE [ from FILE2 ] [via DEV/PORT]\n"
      "Options --window N, --timeout MS and --retries N set how many MADs are in\n"
      "flight, how long each waits and how often it is sent again.\n",
      c.help_out);
}

// The words every fabric command takes besides its own: `from FILE` and
// `via DEV/PORT`, anywhere.
struct FabricWords {
  std::vector<std::string> rest;
  std::string from;
  std::string via;
};

FabricWords words(Ctx& c) {
  FabricWords w;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (k == "from") {
      w.from = c.args.need("FILE after \"from\"");
    } else if (k == "via") {
      w.via = c.args.need("DEV/PORT after \"via\"");
    } else {
      w.rest.push_back(k);
    }
  }
  if (!w.from.empty() && !w.via.empty())
    throw UsageError("\"from FILE\" reads a saved fabric: \"via\" has no port to leave from");
  return w;
}

// The fabric: read from the file, or discovered from the local port. A
// sick fabric gives what was found, a warning line per problem and a
// non-zero exit status; -d adds what the discovery cost.
ib::Fabric fabric_of(Ctx& c, const FabricWords& w) {
  if (!w.from.empty()) return ib::load_fabric(w.from);
  MadSession s(c, w.via);
  ib::Discovery d = ib::discover(s.engine());
  for (const std::string& warning : d.warnings)
    std::fprintf(c.err, "warning: %s\n", warning.c_str());
  if (!d.warnings.empty()) c.status = 1;
  if (c.opt.details) {
    const mad::EngineStats& st = s.engine().stats();
    std::fprintf(c.err,
                 "fabric: %zu nodes, %zu links; MADs sent %llu, retried %llu, failed %llu "
                 "(window %zu)\n",
                 d.fabric.nodes.size(), d.fabric.links().size(),
                 static_cast<unsigned long long>(st.sent),
                 static_cast<unsigned long long>(st.retried),
                 static_cast<unsigned long long>(st.failed()), s.engine().config().window);
  }
  return std::move(d.fabric);
}

void unexpected(const std::vector<std::string>& rest, size_t from) {
  if (rest.size() > from) throw UsageError("unexpected argument \"" + rest[from] + "\"");
}

void fabric_show(Ctx& c) {
  FabricWords w = words(c);
  int type = 0;  // all
  if (!w.rest.empty()) {
    const std::string& k = w.rest[0];
    if (matches(k, "switches"))
      type = static_cast<int>(ib::NodeType::Switch);
    else if (matches(k, "cas"))
      type = static_cast<int>(ib::NodeType::Ca);
    else if (matches(k, "routers"))
      type = static_cast<int>(ib::NodeType::Router);
    else
      throw UsageError("unknown fabric show argument \"" + k + "\" (switches, cas or routers)");
  }
  unexpected(w.rest, 1);
  ib::Fabric f = fabric_of(c, w);
  view::Record rec;
  for (const ib::Node& n : f.nodes) {
    if (type && n.info.node_type != type) continue;
    rec.clear();
    ib::node_record(n, c.opt.details, rec);
    c.out.record(rec);
  }
}

void fabric_links(Ctx& c) {
  FabricWords w = words(c);
  bool all = false;
  if (!w.rest.empty()) {
    if (!matches(w.rest[0], "all"))
      throw UsageError("unknown fabric links argument \"" + w.rest[0] + "\" (all)");
    all = true;
  }
  unexpected(w.rest, 1);
  ib::Fabric f = fabric_of(c, w);
  view::Record rec;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    for (const ib::Port& p : f.nodes[n].ports) {
      if (p.peer) {
        // Each link once, from its end found first.
        if (p.peer->node < n || (p.peer->node == n && p.peer->port < p.num)) continue;
      } else if (!all || p.num == 0 || !p.info) {
        continue;  // `all`: the ports with no peer too (switch port 0 is no link)
      }
      rec.clear();
      ib::port_record(f, {n, p.num}, c.opt.details, rec);
      c.out.record(rec);
    }
  }
}

void fabric_topology(Ctx& c) {
  FabricWords w = words(c);
  unexpected(w.rest, 0);
  if (c.out.is_json()) throw UsageError("fabric topology is ibnetdiscover's text format; no JSON");
  ib::Fabric f = fabric_of(c, w);
  std::fflush(c.help_out);
  ib::write_topology(f, c.help_out);
}

void fabric_save(Ctx& c) {
  FabricWords w = words(c);
  if (w.rest.empty()) throw UsageError("missing FILE to save the fabric to");
  unexpected(w.rest, 1);
  ib::Fabric f = fabric_of(c, w);
  ib::save_fabric(f, w.rest[0]);
}

// Exit status as diff(1): 0 the same, 1 different, 2 trouble.
void fabric_diff(Ctx& c) {
  try {
    FabricWords w = words(c);
    if (w.rest.empty()) throw UsageError("missing FILE to compare the fabric with");
    unexpected(w.rest, 1);
    ib::Fabric before = ib::load_fabric(w.rest[0]);
    ib::Fabric now = fabric_of(c, w);
    std::vector<ib::Change> changes = ib::diff(before, now);
    view::Record rec;
    for (const ib::Change& ch : changes) {
      rec.clear();
      ib::change_record(ch, rec);
      c.out.record(rec);
    }
    if (!changes.empty()) c.status = 1;
  } catch (const Error& e) {
    throw ExitError(2, e.what());
  }
}

}  // namespace

void cmd_fabric(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, fabric_show},  {"show", fabric_show},         {"list", fabric_show},
      {"links", fabric_links}, {"topology", fabric_topology}, {"save", fabric_save},
      {"diff", fabric_diff},   {"help", fabric_help},
  };
  dispatch(c, kTable, "fabric command");
}

}  // namespace rdma
