// rdma monitor [dev DEV]: RDMA device events (RDMA_NL_GROUP_NOTIFY, Linux
// 6.12+) as iproute2 6.13+ prints them, one line per event; with -j one JSON
// object per line, so the output can be piped while it runs.
#include <sys/time.h>

#include <ctime>
#include <memory>
#include <optional>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nldev/devices.h"
#include "lib/view/printer.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void monitor_help(Ctx& c) {
  std::fputs(
      "Usage: rdma [ -j [ -p ] ] [ -t | --timestamp ] [ -c COUNT ] monitor [ dev DEV ]\n"
      "Prints REGISTER, UNREGISTER, NETDEV_ATTACH, NETDEV_DETACH, RENAME and\n"
      "NETDEV_RENAME events of RDMA devices (Linux 6.12 or newer).\n",
      c.help_out);
}

// SYS_GET tells whether the kernel sends monitor events at all: 6.1 lets us
// join the group but never sends anything there.
bool kernel_supports_monitor(nl::Session& s) {
  nl::Request req(RDMA_NLDEV_CMD_SYS_GET, nl::Request::kDoit);
  bool supported = false;
  s.run(req, [&](const nlmsghdr* nlh) {
    nl::Attrs a = nl::Attrs::of_message(nlh);
    supported = a.has(nldev::kAttrMonitorMode) && a.u8(nldev::kAttrMonitorMode) != 0;
  });
  return supported;
}

std::string event_name(uint8_t type) {
  static constexpr const char* kNames[] = {
      "[REGISTER]",      "[UNREGISTER]", "[NETDEV_ATTACH]",
      "[NETDEV_DETACH]", "[RENAME]",     "[NETDEV_RENAME]",
  };
  if (type < std::size(kNames)) return kNames[type];
  char buf[32];
  std::snprintf(buf, sizeof buf, "[UNKNOWN 0x%02x]", type);
  return buf;
}

// Events of one device, followed by index so that renames keep matching; a
// device that registers later under the name is picked up too.
struct DevFilter {
  std::string name;
  std::optional<uint32_t> index;
  bool match(const nl::Attrs& a) {
    bool by_name = a.has(RDMA_NLDEV_ATTR_DEV_NAME) && a.str(RDMA_NLDEV_ATTR_DEV_NAME) == name;
    bool by_index =
        index && a.has(RDMA_NLDEV_ATTR_DEV_INDEX) && a.u32(RDMA_NLDEV_ATTR_DEV_INDEX) == *index;
    if (by_name && a.has(RDMA_NLDEV_ATTR_DEV_INDEX)) index = a.u32(RDMA_NLDEV_ATTR_DEV_INDEX);
    return by_name || by_index;
  }
};

// "[2026-11-22T19:45:00.123456] " in local time, as `ip -ts monitor`.
std::string timestamp_text(const timeval& tv) {
  tm t{};
  localtime_r(&tv.tv_sec, &t);
  char buf[64];
  size_t n = std::strftime(buf, sizeof buf, "[%Y-%m-%dT%H:%M:%S", &t);
  std::snprintf(buf + n, sizeof buf - n, ".%06ld] ", static_cast<long>(tv.tv_usec));
  return buf;
}

// One event: with -t first the time, text "[local time] " and JSON seconds
// since the epoch.
void event_record(const nl::Attrs& a, bool timestamp, view::Record& r) {
  r.clear();
  if (timestamp) {
    timeval tv{};
    gettimeofday(&tv, nullptr);
    r.add("timestamp", timestamp_text(tv), static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6);
  }
  r.add("event_type", event_name(a.u8(nldev::kAttrEventType)) + "\t",
        event_name(a.u8(nldev::kAttrEventType)));
  if (a.has(RDMA_NLDEV_ATTR_DEV_INDEX)) {
    uint32_t v = a.u32(RDMA_NLDEV_ATTR_DEV_INDEX);
    r.add("rdma_index", "dev " + std::to_string(v), v);
  }
  if (a.has(RDMA_NLDEV_ATTR_DEV_NAME)) {
    std::string v(a.str(RDMA_NLDEV_ATTR_DEV_NAME));
    r.add("rdma_dev", " " + v, v);
  }
  if (a.has(RDMA_NLDEV_ATTR_PORT_INDEX)) {
    uint32_t v = a.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
    r.add("port", " port " + std::to_string(v), v);
  }
  if (a.has(RDMA_NLDEV_ATTR_NDEV_INDEX)) {
    uint32_t v = a.u32(RDMA_NLDEV_ATTR_NDEV_INDEX);
    r.add("netdev_idx", " netdev " + std::to_string(v), v);
  }
  if (a.has(RDMA_NLDEV_ATTR_NDEV_NAME)) {
    std::string v(a.str(RDMA_NLDEV_ATTR_NDEV_NAME));
    r.add("netdev_name", " " + v, v);
  }
}

void monitor_show(Ctx& c) {
  if (c.opt.watch_s)
    throw UsageError("-w does not apply to monitor (-c COUNT stops after COUNT events)");
  refuse_in_json_batch(c, "monitor");
  no_openmetrics(c);
  std::optional<DevFilter> filter;
  if (!c.args.empty()) {
    std::string key = c.args.next();
    if (!matches(key, "dev"))
      throw UsageError("unknown monitor parameter \"" + key + "\" (expected \"dev DEV\")");
    filter = DevFilter{c.args.need("device name after \"dev\""), std::nullopt};
    c.args.done();
  }
  nl::Session& s = c.session();
  if (!kernel_supports_monitor(s))
    throw Error("RDMA monitoring is not supported by this kernel (it needs Linux 6.12 or newer)");
  // -j: one document per event (JSON lines) instead of c.out's array.
  std::unique_ptr<view::Printer> lines;
  if (c.opt.json) lines = view::make_json_lines_printer(c.help_out, c.opt.pretty);
  own_json_output(c, "monitor");
  view::Printer& out = lines ? *lines : c.out;
  view::Record r;
  if (filter) {
    for (const nldev::Device& d : nldev::list_devices(s))
      if (d.name == filter->name) filter->index = d.index;
  }
  s.transport().join_group(nldev::kGroupNotify);
  int printed = 0;
  while (!c.opt.count || printed < c.opt.count) {
    s.receive_notifications([&](const nlmsghdr* nlh) {
      if (nlh->nlmsg_type != nldev::msg_type(nldev::kCmdMonitor)) return;
      if (c.opt.count && printed >= c.opt.count) return;
      nl::Attrs a = nl::Attrs::of_message(nlh);
      if (!a.has(nldev::kAttrEventType))
        throw Error("malformed kernel notification: monitor event without an event type");
      if (filter && !filter->match(a)) return;
      event_record(a, c.opt.timestamp, r);
      out.record(r);
      out.flush();
      ++printed;
    });
  }
}

}  // namespace

void cmd_monitor(Ctx& c) {
  static constexpr Cmd kTable[] = {
      // monitor_show refuses -w with a message of its own; -c counts events.
      {nullptr, monitor_show, Takes::Own},
      {"help", monitor_help, Takes::Own},
  };
  // "monitor dev DEV": monitor_show reads "dev" itself.
  if (!c.args.empty() && matches(c.args.peek(), "dev")) return monitor_show(c);
  dispatch(c, kTable, "monitor command");
}

}  // namespace rdma
