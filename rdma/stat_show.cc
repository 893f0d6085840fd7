// rdma statistic show [link [DEV[/PORT]]]: the port counters, optionally
// repeated with per-second rates (-w SECONDS [-c COUNT]).
#include <rdma/rdma_netlink.h>

#include <cerrno>
#include <charconv>
#include <memory>
#include <optional>
#include <string_view>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/stat/hwcounters.h"
#include "lib/stat/rate.h"
#include "rdma/stat.h"
#include "rdma/stat_ports.h"
#include "rdma/stat_watch.h"

namespace rdma {

namespace {

struct PortCounters {
  stat::RateTracker::Key key;
  std::vector<stat::HwCounter> counters;
};

// A port's counters reply, read in place (views into the message).
struct PortReply {
  uint32_t dev_index = 0;
  std::string_view dev;
  uint32_t port = 0;
  const nlattr* table = nullptr;  // STAT_HWCOUNTERS
};

// Asks for a port's counters and calls fn(const PortReply&) with the reply.
template <typename Fn>
void read_port(nl::Session& s, const PortRef& p, Fn&& fn) {
  nl::Request req(RDMA_NLDEV_CMD_STAT_GET, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.dev_index).u32(RDMA_NLDEV_ATTR_PORT_INDEX, p.port);
  s.run(req, [&](const nlmsghdr* nlh) {
    nl::Attrs a = nl::Attrs::of_message(nlh);
    if (!a.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !a.has(RDMA_NLDEV_ATTR_DEV_NAME) ||
        !a.has(RDMA_NLDEV_ATTR_PORT_INDEX) || !a.has(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS))
      throw Error("malformed kernel reply: port counters without device, port or counter table");
    fn(PortReply{a.u32(RDMA_NLDEV_ATTR_DEV_INDEX), a.str(RDMA_NLDEV_ATTR_DEV_NAME),
                 a.u32(RDMA_NLDEV_ATTR_PORT_INDEX), a.get(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS)});
  });
}

// The counters copied out, for the rates of a watch.
PortCounters read_port(nl::Session& s, const PortRef& p) {
  PortCounters out;
  read_port(s, p, [&](const PortReply& pr) {
    out.key = {pr.dev_index, std::string(pr.dev), pr.port};
    out.counters = stat::parse_hwcounters(pr.table);
  });
  return out;
}

// "link DEV/PORT ", ifname and port in JSON.
void add_link(std::string_view dev, uint32_t port, view::Record& r) {
  view::Field& f = r.next();
  f.text.append("link ", 5).append(dev.data(), dev.size()).append("/", 1);
  if (!r.text_only()) {
    f.key.assign("ifname");
    f.value = std::string(dev);
  }
  char num[16];
  char* end = std::to_chars(num, num + sizeof num, port).ptr;
  view::Field& g = r.next();
  g.text.append(num, end).append(" ", 1);
  if (!r.text_only()) {
    g.key.assign("port");
    g.value = port;
  }
}

// One record per port, as iproute2 6.7+ prints it; with --openmetrics a
// counter family per counter, labelled by device and port.
void show_once(Ctx& c, const std::string& spec) {
  std::unique_ptr<view::Printer> metrics = openmetrics_output(
      c, {"rdma_stat_", "RDMA port counter", {{"ifname", "device"}, {"port", "port"}}, {}, {}});
  view::Printer& out = metrics ? *metrics : c.out;
  // The scratch record of the printer it goes to: a text printer's record
  // holds no JSON forms, which the exporter reads.
  view::Record& r = out.scratch();
  std::optional<KernelError> failed;
  for (const PortRef& p : resolve_ports(c.session(), spec, false)) {
    // The record is written from the reply in place, and printed once the
    // request is done.
    bool replied = false;
    try {
      read_port(c.session(), p, [&](const PortReply& pr) {
        r.clear();
        add_link(pr.dev, pr.port, r);
        stat::add_counters_from(pr.table, r);
        replied = true;
      });
    } catch (const KernelError& e) {
      KernelError named(e.code, "cannot read the counters of " + p.dev + "/" +
                                    std::to_string(p.port) + ": " + e.what());
      // Text and -j stop here, as iproute2. An exporter's scrape goes on:
      // one line per port without counters (siw has none), the others'
      // samples in a whole document, and exit 1.
      if (!metrics) throw named;
      if (failed) std::fprintf(c.err, "%s\n", failed->what());
      failed = named;
      continue;
    }
    if (!replied) {  // a bare ack: the empty port line it always printed
      r.clear();
      add_link("", 0, r);
    }
    out.record(r);
  }
  if (metrics) metrics->finish();
  if (failed) throw *failed;
}

// Counters with their rate: "\n    name value (rate/s) " in text, and a
// "rate" object in JSON once there is an earlier reading.
void add_counters_with_rates(const PortCounters& pc,
                             const std::vector<std::optional<double>>& rates, view::Record& r) {
  view::Json rate_obj = view::Json::object();
  for (size_t i = 0; i < pc.counters.size(); ++i) {
    const stat::HwCounter& k = pc.counters[i];
    std::string text = "\n    " + k.name + " " + std::to_string(k.value) + " ";
    if (rates[i]) {
      text += "(" + stat::rate_text(*rates[i]) + "/s) ";
      double v = *rates[i];
      if (v == static_cast<double>(static_cast<uint64_t>(v)))
        rate_obj[k.name] = static_cast<uint64_t>(v);
      else
        rate_obj[k.name] = v;
    }
    r.add(k.name, text, k.value);
  }
  if (!rate_obj.empty()) r.add("rate", "", rate_obj);
}

// Every interval: text records followed by an empty line, or one JSON
// document per line. Ports that vanish are dropped; a named device that
// vanishes ends the watch with an error (after complete output).
void watch(Ctx& c, const std::string& spec) {
  stat::RateTracker tracker;
  view::Record r;
  watch_view(c, [&](Interval& iv) {
    for (const PortRef& port : resolve_ports(c.session(), spec, false)) {
      PortCounters pc;
      try {
        pc = read_port(c.session(), port);
      } catch (const KernelError& e) {
        if (e.code == EINVAL || e.code == ENODEV || e.code == ENOENT) continue;  // gone
        throw;
      }
      r.clear();
      add_link(pc.key.dev, pc.key.port, r);
      add_counters_with_rates(pc, tracker.update(pc.key, pc.counters, c.opt.watch_s), r);
      iv.out().record(r);
    }
    tracker.end_interval();
  });
}

void show_link(Ctx& c) {
  std::string spec = c.args.empty() ? "" : c.args.next();
  c.args.done();
  if (c.opt.watch_s)
    watch(c, spec);
  else
    show_once(c, spec);
}

}  // namespace

std::span<const Cmd> stat_show_commands() {
  static constexpr Cmd kTable[] = {
      {nullptr, show_link, Takes::Watch | Takes::Metrics},
      {"link", show_link, Takes::Watch | Takes::Metrics},
      {"mr", stat_mr},
      {"help", stat_help, Takes::Own},
  };
  return kTable;
}

void stat_show(Ctx& c) {
  dispatch(c, stat_show_commands(), "statistic show parameter");
}

}  // namespace rdma
