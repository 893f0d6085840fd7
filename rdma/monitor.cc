// rdma monitor [dev DEV] [ports]: RDMA device events (RDMA_NL_GROUP_NOTIFY,
// Linux 6.12+) as iproute2 6.13+ prints them, one line per event; with -j one
// JSON object per line, so the output can be piped while it runs. With
// "ports", the host side of a link flap as well: each device's verbs async
// events (PORT_ACTIVE, PORT_ERR, LID/GID/P_Key/SM changes, speed changes).
#include <libmnl/libmnl.h>
#include <poll.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nldev/devices.h"
#include "lib/verbs/port.h"
#include "lib/verbs/verbs.h"
#include "lib/view/number.h"
#include "lib/view/printer.h"
#include "lib/view/time_text.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void monitor_help(Ctx& c) {
  std::fputs(
      "Usage: rdma [ -j [ -p ] ] [ -t | --timestamp ] [ -c COUNT ] monitor [ dev DEV ] [ ports "
      "]\n"
      "Prints REGISTER, UNREGISTER, NETDEV_ATTACH, NETDEV_DETACH, RENAME and\n"
      "NETDEV_RENAME events of RDMA devices (Linux 6.12 or newer); with ports also\n"
      "the port events of verbs (PORT_ACTIVE, PORT_ERR, LID_CHANGE, GID_CHANGE, ...).\n",
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
  return "[UNKNOWN " + view::hex_text(type, 2) + "]";
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
std::string timestamp_text(const view::WallTime& t) {
  char usec[16];
  std::snprintf(usec, sizeof usec, ".%06ld] ", t.usec);
  return view::time_text("[%Y-%m-%dT%H:%M:%S", false, t.sec) + usec;
}

// With -t first the time, text "[local time] " and JSON seconds since the
// epoch.
void add_timestamp(view::Record& r) {
  view::WallTime t = view::wall_now();
  r.add("timestamp", timestamp_text(t), t.seconds());
}

// One event.
void event_record(const nl::Attrs& a, bool timestamp, view::Record& r) {
  r.clear();
  if (timestamp) add_timestamp(r);
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

// A verbs async event, in the netlink events' layout: "[PORT_ERR]\tdev 0
// rxe0 port 1"; a speed change adds the port's effective speed where
// libibverbs reports it.
void port_event_record(const nldev::Device& d, verbs::Device& v, const verbs::AsyncEvent& e,
                       bool timestamp, view::Record& r) {
  r.clear();
  if (timestamp) add_timestamp(r);
  std::string name = "[" + verbs::async_event_name(e.type) + "]";
  r.add("event_type", name + "\t", name);
  r.add("rdma_index", "dev " + std::to_string(d.index), d.index);
  r.add("rdma_dev", " " + d.name, d.name);
  if (e.port) r.add("port", " port " + std::to_string(e.port), e.port);
  if (e.type == verbs::kEventDeviceSpeedChange && e.port) {
    if (auto speed = v.query_port_speed(static_cast<uint8_t>(e.port)))
      r.add("effective_speed_mbps", " effective_speed " + verbs::speed_text(*speed), *speed * 100);
  }
}

// The devices whose port events are watched: one verbs context each, opened
// at start. It holds the device: a driver that cannot disassociate user
// contexts (rxe, siw) waits for it before the device can be deleted, which
// is why port events are asked for and not the default.
struct PortWatch {
  nldev::Device dev;
  std::unique_ptr<verbs::Device> ctx;
};

// Waits on the verbs async fds (100 ms at a time) and reads netlink events
// without waiting in between: the notification socket has no fd to give
// poll through the transport seam, so its events wait at most that long.
void watch_with_ports(Ctx& c, nl::Session& s, std::vector<PortWatch>& watches,
                      const std::function<void(const nlmsghdr*)>& on_msg,
                      const std::function<bool()>& done, int& printed, view::Printer& out,
                      view::Record& r) {
  std::vector<pollfd> fds;
  for (PortWatch& w : watches) fds.push_back({w.ctx->async_fd(), POLLIN, 0});
  std::vector<uint8_t> buf(MNL_SOCKET_BUFFER_SIZE);
  while (!done()) {
    if (poll(fds.data(), fds.size(), 100) < 0 && errno != EINTR)
      throw Error(std::string("cannot wait for verbs events: ") + std::strerror(errno));
    for (PortWatch& w : watches) {
      while (!done()) {
        std::optional<verbs::AsyncEvent> e = w.ctx->next_async_event();
        if (!e) break;
        port_event_record(w.dev, *w.ctx, *e, c.opt.timestamp, r);
        out.record(r);
        out.flush();
        ++printed;
      }
    }
    while (!done()) {
      size_t n = s.transport().recv(buf.data(), buf.size(), 0);
      if (n == 0) break;
      if (n > buf.size()) {  // a larger datagram: the transport asks for room
        buf.resize(n);
        continue;
      }
      int len = static_cast<int>(n);
      for (auto* nlh = reinterpret_cast<const nlmsghdr*>(buf.data()); mnl_nlmsg_ok(nlh, len);
           nlh = mnl_nlmsg_next(nlh, &len))
        if (nlh->nlmsg_type >= NLMSG_MIN_TYPE) on_msg(nlh);
      if (len != 0) throw Error("malformed kernel notification: a truncated netlink message");
    }
  }
}

void monitor_show(Ctx& c) {
  if (c.opt.watch_s)
    throw UsageError("-w does not apply to monitor (-c COUNT stops after COUNT events)");
  refuse_in_json_batch(c, "monitor");
  no_openmetrics(c);
  std::optional<DevFilter> filter;
  bool ports = false;
  while (!c.args.empty()) {
    std::string key = c.args.next();
    if (matches(key, "dev") && !filter)
      filter = DevFilter{c.args.need("device name after \"dev\""), std::nullopt};
    else if (matches(key, "ports") && !ports)
      ports = true;
    else
      throw UsageError("unknown monitor parameter \"" + key +
                       "\" (expected \"dev DEV\" or \"ports\")");
  }
  nl::Session& s = c.session();
  // Port events come from verbs on any kernel: with "ports", a kernel
  // without netlink events (6.1) still shows them.
  if (!ports && !kernel_supports_monitor(s))
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
  // Verbs contexts first: a device that cannot be opened fails the command
  // before it starts to print.
  std::vector<PortWatch> watches;
  if (ports) {
    std::vector<nldev::Device> devs = nldev::list_devices(s);
    std::erase_if(devs, [&](const nldev::Device& d) { return filter && d.name != filter->name; });
    if (!devs.empty()) {
      std::unique_ptr<verbs::Verbs> v = c.verbs();
      for (const nldev::Device& d : devs) watches.push_back({d, v->open(d.name)});
    }
  }
  s.transport().join_group(nldev::kGroupNotify);
  int printed = 0;
  auto done = [&] { return c.opt.count && printed >= c.opt.count; };
  auto on_msg = [&](const nlmsghdr* nlh) {
    if (nlh->nlmsg_type != nldev::msg_type(nldev::kCmdMonitor)) return;
    if (done()) return;
    nl::Attrs a = nl::Attrs::of_message(nlh);
    if (!a.has(nldev::kAttrEventType))
      throw Error("malformed kernel notification: monitor event without an event type");
    if (filter && !filter->match(a)) return;
    event_record(a, c.opt.timestamp, r);
    out.record(r);
    out.flush();
    ++printed;
  };
  if (ports) return watch_with_ports(c, s, watches, on_msg, done, printed, out, r);
  while (!done()) s.receive_notifications(on_msg);
}

}  // namespace

void cmd_monitor(Ctx& c) {
  static constexpr Cmd kTable[] = {
      // monitor_show refuses -w with a message of its own; -c counts events.
      {nullptr, monitor_show, Takes::Own},
      {"help", monitor_help, Takes::Own},
  };
  // "monitor dev DEV", "monitor ports": monitor_show reads its words itself.
  if (!c.args.empty() && (matches(c.args.peek(), "dev") || matches(c.args.peek(), "ports")))
    return monitor_show(c);
  dispatch(c, kTable, "monitor command");
}

}  // namespace rdma
