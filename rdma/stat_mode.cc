// rdma statistic mode [supported], set/unset ... optional-counters: the
// optional (dynamically enabled) hardware counters of a port.
#include <rdma/rdma_netlink.h>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/stat/hwcounters.h"
#include "rdma/stat.h"
#include "rdma/stat_ports.h"

namespace rdma {

namespace {

struct PortStatus {
  uint32_t dev_index = 0;
  std::string dev;
  uint32_t port = 0;
  std::vector<stat::HwCounter> counters;  // with index and, if optional, enabled
};

PortStatus read_status(nl::Session& s, const PortRef& p) {
  nl::Request req(RDMA_NLDEV_CMD_STAT_GET_STATUS, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.dev_index).u32(RDMA_NLDEV_ATTR_PORT_INDEX, p.port);
  PortStatus st;
  s.run(req, [&](const nlmsghdr* nlh) {
    nl::Attrs a = nl::Attrs::of_message(nlh);
    if (!a.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !a.has(RDMA_NLDEV_ATTR_DEV_NAME) ||
        !a.has(RDMA_NLDEV_ATTR_PORT_INDEX) || !a.has(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS))
      throw Error("malformed kernel reply: counter status without device, port or counter table");
    st.dev_index = a.u32(RDMA_NLDEV_ATTR_DEV_INDEX);
    st.dev = std::string(a.str(RDMA_NLDEV_ATTR_DEV_NAME));
    st.port = a.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
    st.counters = stat::parse_hwcounters(a.get(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS), false);
  });
  return st;
}

// "link DEV/PORT optional-counters \n    a,\n    b" (iproute2 6.7+); JSON
// {"ifname", "port", "optional-counters": [...]}. Nothing for a port
// without such counters.
void show_mode(Ctx& c, bool supported) {
  std::string spec = link_arg(c);
  c.args.done();
  const char* key = supported ? "supported optional-counters" : "optional-counters";
  view::Record r;
  for (const PortRef& p : resolve_ports(c.session(), spec, false)) {
    PortStatus st = read_status(c.session(), p);
    std::string text = std::string(key) + " ";
    view::Json names = view::Json::array();
    for (const stat::HwCounter& k : st.counters) {
      if (!k.enabled || (!supported && !*k.enabled)) continue;
      if (!names.empty()) text += ",";
      text += "\n    " + k.name;
      names.push_back(k.name);
    }
    if (names.empty()) continue;
    r.clear();
    r.add("ifname", "link " + st.dev + "/", st.dev);
    r.add("port", std::to_string(st.port) + " ", st.port);
    r.add(key, text, names);
    c.out.record(r);
  }
}

void mode_enabled(Ctx& c) {
  show_mode(c, false);
}
void mode_supported(Ctx& c) {
  show_mode(c, true);
}

// "link DEV/PORT optional-counters [LIST]"; returns the port and LIST.
PortRef optional_counters_args(Ctx& c, std::string* list) {
  std::string word = c.args.need("\"link DEV/PORT\"");
  if (!matches(word, "link")) throw UsageError("expected \"link DEV/PORT\", not \"" + word + "\"");
  std::string spec = c.args.need("DEV/PORT after \"link\"");
  word = c.args.need("\"optional-counters\"");
  if (!matches(word, "optional-counters"))
    throw UsageError("expected \"optional-counters\", not \"" + word + "\"");
  if (list) *list = c.args.need("the optional counters to enable (NAME[,NAME]...)");
  c.args.done();
  return resolve_ports(c.session(), spec, true).at(0);
}

void send_enabled(Ctx& c, const PortRef& p, const std::vector<uint32_t>& indexes) {
  nl::Request req(RDMA_NLDEV_CMD_STAT_SET, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.dev_index).u32(RDMA_NLDEV_ATTR_PORT_INDEX, p.port);
  nlattr* nest = req.begin_nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
  for (uint32_t i : indexes) req.u32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, i);
  req.end_nest(nest);
  c.session().run(req, [](const nlmsghdr*) {});
}

// The listed counters are enabled, every other optional counter disabled.
void set_link(Ctx& c) {
  std::string list;
  PortRef p = optional_counters_args(c, &list);
  PortStatus st = read_status(c.session(), p);
  std::vector<uint32_t> indexes;
  size_t start = 0;
  for (;;) {
    size_t comma = list.find(',', start);
    std::string name = list.substr(start, comma == std::string::npos ? comma : comma - start);
    const stat::HwCounter* found = nullptr;
    std::string known;
    for (const stat::HwCounter& k : st.counters) {
      if (!k.enabled) continue;
      known += (known.empty() ? "" : ", ") + k.name;
      if (k.name == name) found = &k;
    }
    if (!found)
      throw Error("\"" + name + "\" is not an optional counter of " + p.dev + "/" +
                  std::to_string(p.port) +
                  " (optional counters: " + (known.empty() ? "none" : known) + ")");
    if (!found->index)
      throw Error("malformed kernel reply: optional counter \"" + name + "\" without an index");
    indexes.push_back(*found->index);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  send_enabled(c, p, indexes);
}

void unset_link(Ctx& c) {
  send_enabled(c, optional_counters_args(c, nullptr), {});
}

}  // namespace

void stat_mode(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, mode_enabled},
      {"show", mode_enabled},
      {"supported", mode_supported},
      {"help", stat_help, Takes::Own},
  };
  // "mode link X": show_mode reads "link" itself.
  if (!c.args.empty() && matches(c.args.peek(), "link")) {
    check_takes(c, Takes::Once);
    return mode_enabled(c);
  }
  dispatch(c, kTable, "statistic mode parameter");
}

void stat_set(Ctx& c) {
  set_link(c);
}
void stat_unset(Ctx& c) {
  unset_link(c);
}

}  // namespace rdma
