// rdma bw: python-rdma ibtool's bandwidth and latency test between two
// ports, as perftest's ib_write_bw and ib_send_lat with -R (rdma_cm): the
// words here, the connection in lib/verbs/cm.h, the loops and their
// arithmetic in lib/bw.
#include <arpa/inet.h>
#include <unistd.h>

#include <algorithm>
#include <memory>

#include "lib/bw/measure.h"
#include "lib/bw/report.h"
#include "lib/error.h"
#include "lib/ib/cm_path.h"
#include "lib/ib/sa_records.h"
#include "lib/nldev/devices.h"
#include "lib/verbs/cm.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

constexpr uint16_t kDefaultPort = 18515;           // perftest's
constexpr uint32_t kDefaultSize = 65536;           // ib_write_bw's
constexpr uint32_t kMaxSize = 1024 * 1024 * 1024;  // 1 GiB a write
constexpr uint32_t kDefaultIterations = 1000;
constexpr uint32_t kLatSize = 2;  // ib_send_lat's
constexpr int kStepMs = 10000;    // each rdma_cm step, and a stall of the loops
constexpr uint64_t kNsPerMs = 1000000;

void bw_help(Ctx& c) {
  std::fputs(
      "Usage: rdma bw server [ DEV[/PORT] ] [ port N ] [ wait SECONDS ]\n"
      "       rdma bw client TARGET [ size BYTES ] [ iterations N ] [ port N ] [ DEV[/PORT] ]\n"
      "       rdma bw path IBTARGET [ DEV[/PORT] ]\n"
      "where  TARGET := { ADDRESS | IBTARGET }\n"
      "       ADDRESS := an IPv4 or IPv6 address of the server's RoCE or iWARP netdev\n"
      "       IBTARGET := { lid LID | guid GUID | gid GID | dr PATH | dr lid LID PATH |\n"
      "                   name NAME } of the server's InfiniBand port (a directed\n"
      "                   route: by its port's LID), reached over the PathRecord the\n"
      "                   SA gives\n",
      c.help_out);
}

uint16_t cm_port(const std::string& w) {
  return static_cast<uint16_t>(need_number(w, "port", {.min = 1, .max = 65535}));
}

// DEV[/PORT], checked against the devices netlink lists; a word that is
// none is an unknown parameter of the command (what) with its choices.
void take_dev(Ctx& c, const std::string& w, const char* what,
              std::initializer_list<const char*> keywords, std::string& dev, uint32_t& port) {
  DevPort dp = parse_dev_port(w, {.min = 1, .max = 255});
  std::vector<nldev::Device> devs = nldev::list_devices(c.session());
  const nldev::Device* d = nullptr;
  for (const nldev::Device& x : devs)
    if (x.name == dp.dev) d = &x;
  if (!d) {
    std::vector<std::string> choices(keywords.begin(), keywords.end());
    for (const nldev::Device& x : devs) choices.push_back(x.name);
    throw UsageError(unknown_word(what, w, choices));
  }
  if (!dev.empty()) throw UsageError("more than one device: \"" + dev + "\" and \"" + w + "\"");
  if (dp.port_bad())
    throw UsageError("invalid port \"" + *dp.port_text + "\" (expected DEV/PORT with PORT 1-255)");
  if (dp.port && *dp.port > d->ports)
    throw Error("device \"" + d->name + "\" has no port " + std::to_string(*dp.port) +
                " (ports: 1-" + std::to_string(d->ports) + ")");
  dev = dp.dev;
  port = dp.port.value_or(0);
}

void bw_server(Ctx& c) {
  verbs::ListenOn on;
  on.port = kDefaultPort;
  int wait_ms = -1;
  while (!c.args.empty()) {
    std::string w = c.args.next();
    if (matches(w, "port")) {
      on.port = cm_port(c.args.need_value(w, "port number"));
    } else if (matches(w, "wait")) {
      wait_ms = static_cast<int>(
          need_number(c.args.need_value(w, "seconds"), "wait", {.min = 1, .max = 86400}) * 1000);
    } else {
      take_dev(c, w, "bw server parameter", {"port", "wait"}, on.dev, on.dev_port);
    }
  }
  std::unique_ptr<verbs::Cm> cm = verbs::open_librdmacm();
  std::unique_ptr<verbs::Connection> conn = cm->accept(on, wait_ms, kStepMs);
  verbs::Hello h = conn->hello();
  // The client writes first: its pings come after its writes, which at
  // 10 Mb/s, slower than any RDMA link, take this long.
  double writes_ns = static_cast<double>(h.size) * h.iterations * 8 * 100;
  uint64_t first = kStepMs * kNsPerMs + static_cast<uint64_t>(std::min(writes_ns, 86400e9));
  auto nap = [] { ::usleep(200); };
  bw::answer_pings(*conn, bw::steady_ns, nap, first, kStepMs * kNsPerMs);
  view::Record& r = c.out.scratch();
  bw::server_record({conn->device(), conn->port(), conn->peer(), on.port, h}, r);
  c.out.record(r);
}

bool ip_address(const std::string& w) {
  in6_addr any;
  return inet_pton(AF_INET, w.c_str(), &any) == 1 || inet_pton(AF_INET6, w.c_str(), &any) == 1;
}

// An InfiniBand target (lid N, N, guid G, gid G, dr PATH, name NAME) as the next
// words give it; UsageError naming the choices when they give none.
mad::Target ib_target(Ctx& c, bool or_address) {
  if (c.args.empty())
    throw UsageError(or_address ? "missing server address or InfiniBand target"
                                : "missing InfiniBand target");
  std::string w = c.args.peek();
  std::optional<mad::Target> t = c.args.target();
  if (!t)
    throw UsageError("invalid " + std::string(or_address ? "server address \"" : "target \"") + w +
                     "\" (expected " + (or_address ? "an IPv4 or IPv6 address, " : "") +
                     "lid LID, guid GUID, gid GID, dr PATH or name NAME)");
  return *t;
}

// The SA's PathRecord from the local port (DEV/PORT's, when given) to t.
// A host without an InfiniBand port (RoCE, iWARP: no SA) says so, naming
// the target that needs one.
ib::CmPath ib_path(Ctx& c, const mad::Target& t, const std::string& dev, uint32_t port) {
  std::unique_ptr<MadSession> s;
  try {
    s = std::make_unique<MadSession>(
        c, dev.empty() ? "" : dev + (port ? "/" + std::to_string(port) : ""));
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw Error(t.text + " is an InfiniBand target: " + e.what());
  }
  return ib::cm_path(*s, t);
}

// rdma bw path: what `bw client` would connect an InfiniBand target over,
// printed as `sa show paths` prints a PathRecord.
void bw_path(Ctx& c) {
  mad::Target t = ib_target(c, false);
  std::string dev;
  uint32_t port = 0;
  while (!c.args.empty()) take_dev(c, c.args.next(), "bw path parameter", {}, dev, port);
  ib::CmPath p = ib_path(c, t, dev, port);
  view::Record& r = c.out.scratch();
  ib::sa_record(*ib::find_sa_kind("paths"), p.record, c.opt.details, r, c.opt.show_keys);
  c.out.record(r);
}

void bw_client(Ctx& c) {
  verbs::ConnectTo to;
  to.port = kDefaultPort;
  std::optional<mad::Target> ib;
  if (!c.args.empty() && ip_address(c.args.peek()))
    to.address = c.args.next();
  else
    ib = ib_target(c, true);
  verbs::Hello h{kDefaultSize, kDefaultIterations, kLatSize};
  while (!c.args.empty()) {
    std::string w = c.args.next();
    if (matches(w, "size")) {
      h.size = static_cast<uint32_t>(
          need_number(c.args.need_value(w, "bytes"), "size", {.min = 1, .max = kMaxSize}));
    } else if (matches(w, "iterations")) {
      h.iterations = static_cast<uint32_t>(
          need_number(c.args.need_value(w, "count"), "iterations", {.min = 1, .max = 100000000}));
    } else if (matches(w, "port")) {
      to.port = cm_port(c.args.need_value(w, "port number"));
    } else {
      take_dev(c, w, "bw client parameter", {"size", "iterations", "port"}, to.dev, to.dev_port);
    }
  }
  if (ib) {
    ib::CmPath p = ib_path(c, *ib, to.dev, to.dev_port);
    to.ib = verbs::IbPath{p.record, p.sgid, p.dgid, p.pkey, ib->text};
  }
  std::unique_ptr<verbs::Cm> cm = verbs::open_librdmacm();
  std::unique_ptr<verbs::Connection> conn = cm->connect(to, h, kStepMs);
  bw::Bandwidth b = bw::write_bandwidth(*conn, bw::steady_ns, kStepMs * kNsPerMs);
  bw::Latency l = bw::ping_latency(*conn, bw::steady_ns, kStepMs * kNsPerMs);
  view::Record& r = c.out.scratch();
  bw::client_record({conn->device(), conn->port(), conn->peer(), to.port, h}, b, l, r);
  c.out.record(r);
}

}  // namespace

void cmd_bw(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, bw_help}, {"server", bw_server}, {"client", bw_client},
      {"path", bw_path},  {"help", bw_help},
  };
  dispatch(c, kTable, "bw command");
}

}  // namespace rdma
