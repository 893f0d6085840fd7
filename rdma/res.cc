// rdma resource: the per-device summary and the objects of each type (QPs,
// CM IDs, CQs, MRs, PDs, contexts, SRQs), filtered, streamed record by record
// as each reply message is decoded. One dump per device covers all ports.
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <optional>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nldev/devices.h"
#include "lib/res/entry.h"
#include "lib/res/filter.h"
#include "lib/res/summary.h"
#include "lib/res/types.h"
#include "rdma/objects.h"
#include "rdma/stat_watch.h"

namespace rdma {

namespace {

void res_help(Ctx& c) {
  std::fputs(
      "Usage: rdma resource\n"
      "          resource show [DEV]\n"
      "          resource show [qp|cm_id|pd|mr|cq|ctx|srq]\n"
      "          resource show qp link [DEV/PORT]\n"
      "          resource show qp link [DEV/PORT] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show cm_id link [DEV/PORT]\n"
      "          resource show cm_id link [DEV/PORT] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show cq link [DEV/PORT]\n"
      "          resource show cq link [DEV/PORT] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show pd dev [DEV]\n"
      "          resource show pd dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show mr dev [DEV]\n"
      "          resource show mr dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show ctx dev [DEV]\n"
      "          resource show ctx dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show srq dev [DEV]\n"
      "          resource show srq dev [DEV] [FILTER-NAME FILTER-VALUE]\n",
      c.help_out);
}

const nldev::Device* lookup(const std::vector<nldev::Device>& devs, std::string_view name) {
  for (const nldev::Device& d : devs)
    if (d.name == name) return &d;
  return nullptr;
}

const nldev::Device& need_device(const std::vector<nldev::Device>& devs, std::string_view name) {
  const nldev::Device* d = lookup(devs, name);
  if (!d) throw Error("unknown device \"" + std::string(name) + "\"");
  return *d;
}

// ---------------------------------------------------------------- summary

void print_summary(Ctx& c, nl::Request& req) {
  view::Record r;
  c.session().run(req, [&](const nlmsghdr* nlh) {
    res::summary_record(nlh, r);
    c.out.record(r);
  });
}

void summary_doit(Ctx& c, const nldev::Device& d) {
  nl::Request req(RDMA_NLDEV_CMD_RES_GET, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index);
  // With -dd, 6.12 counts the objects it hides by default; 6.1 ignores it.
  if (c.opt.details >= 2) req.u8(nldev::kAttrDriverDetails, 1);
  print_summary(c, req);
}

void summary_all(Ctx& c) {
  if (c.opt.details >= 2) {  // the dump takes no attributes: one doit each
    for (const nldev::Device& d : nldev::list_devices(c.session())) summary_doit(c, d);
    return;
  }
  nl::Request req(RDMA_NLDEV_CMD_RES_GET, nl::Request::kDump);
  print_summary(c, req);
}

// ---------------------------------------------------------------- objects

// Which devices and ports the command covers.
struct Scope {
  std::optional<std::string> dev;
  uint32_t port = 0;      // link DEV/PORT
  bool portless = false;  // link DEV/-
};

void parse_scope(const res::TypeSpec& t, const std::string& key, const std::string& value,
                 Scope& s) {
  if (s.dev) throw Error("only one dev or link may be given");
  std::string dev = value;
  auto slash = dev.find('/');
  if (slash != std::string::npos) {
    std::string port = dev.substr(slash + 1);
    dev.resize(slash);
    if (key != "link")
      throw Error("dev takes a device name, not \"" + value + "\" (use link DEV/PORT)");
    if (!t.per_port && !port.empty())
      throw Error(std::string(t.name) + " objects belong to a device, not a port: use dev " + dev);
    if (port == "-") {
      s.portless = true;
    } else if (!port.empty()) {
      char* end = nullptr;
      errno = 0;
      unsigned long v = std::strtoul(port.c_str(), &end, 10);
      if (*end || errno || v == 0 || v > UINT32_MAX || !std::isdigit(port[0]))
        throw Error("invalid port \"" + port +
                    "\" (expected DEV/PORT with PORT 1 or more, or DEV/-)");
      s.port = static_cast<uint32_t>(v);
    }
  }
  if (dev.empty()) throw Error("missing device name in " + key + " \"" + value + "\"");
  s.dev = dev;
}

// Facts of a device that the cm_id dev-type and transport-type filters read.
struct DevFacts {
  std::string dev_type;
  std::string transport;
};

DevFacts device_facts(Ctx& c, uint32_t index) {
  DevFacts f{"ether", "unspecified"};
  nl::Request req(RDMA_NLDEV_CMD_GET, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, index);
  c.session().run(req, [&](const nlmsghdr* nlh) {
    nl::Attrs a = nl::Attrs::of_message(nlh);
    if (a.has(RDMA_NLDEV_ATTR_DEV_PROTOCOL))
      f.dev_type = res::dev_type_name(a.str(RDMA_NLDEV_ATTR_DEV_PROTOCOL));
    if (a.has(RDMA_NLDEV_ATTR_DEV_NODE_TYPE))
      f.transport = res::transport_name(a.u8(RDMA_NLDEV_ATTR_DEV_NODE_TYPE));
  });
  return f;
}

struct Show {
  Ctx& c;
  const res::TypeSpec& type;
  res::Filters filters;
  Scope scope;
};

// Runs one request and prints the entries of its replies as they come.
void run_request(Show& s, res::EntryView& view, nl::Request& req, bool doit,
                 const DevFacts& facts) {
  view::Record r;
  s.c.session().run(req, [&](const nlmsghdr* nlh) {
    res::for_each_entry(s.type, nlh, doit,
                        [&](const nl::Attrs& e, uint32_t idx, std::string_view name) {
                          res::DevRef d{idx, name, facts.dev_type, facts.transport};
                          if (view.render(e, d, r)) s.c.out.record(r);
                        });
  });
}

void add_attrs(const Show& s, nl::Request& req, uint32_t dev, uint32_t port) {
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev);
  if (port) req.u32(RDMA_NLDEV_ATTR_PORT_INDEX, port);
  // 6.12 hides driver-internal objects unless asked; older kernels ignore it.
  if (s.c.opt.details >= 2) req.u8(nldev::kAttrDriverDetails, 1);
}

// The id a doit can ask for: the type's id key given with one number.
std::optional<uint32_t> doit_id(const Show& s) {
  for (const res::Filter& f : s.filters.all()) {
    if (!f.key->doit) continue;
    std::optional<uint64_t> v = f.single();
    if (v && *v <= UINT32_MAX) return static_cast<uint32_t>(*v);
  }
  return std::nullopt;
}

enum class Found { kShown, kAbsent, kUnsure };

// Asks for one object. kAbsent: not on this device (port); kUnsure: the
// kernel could not say (no doit, or the object is on no port), so a dump
// must decide. Other errors propagate.
Found doit(Show& s, res::EntryView& view, int cmd, uint32_t dev, uint32_t port, uint32_t id,
           const DevFacts& facts) {
  // Restrack keys QP0/QP1 by port too (qp_num | port << 24): ask for that.
  if (s.type.id_attr == RDMA_NLDEV_ATTR_RES_LQPN && id <= 1 && port) id |= port << 24;
  nl::Request req(cmd, nl::Request::kDoit);
  add_attrs(s, req, dev, port);
  req.u32(s.type.id_attr, id);
  try {
    run_request(s, view, req, true, facts);
    return Found::kShown;
  } catch (const KernelError& e) {
    if (e.code == ENOENT) return Found::kAbsent;
    // EAGAIN: the object is on another port (or none); EINVAL/EOPNOTSUPP: a
    // kernel without this doit.
    if (e.code == EAGAIN || e.code == EINVAL || e.code == EOPNOTSUPP) return Found::kUnsure;
    throw;
  }
}

// The objects of one device: a doit per port (or one for per-device types)
// when the filters name one object, else one dump for all ports.
void show_objects(Show& s, const nldev::Device& d, bool raw, const DevFacts& facts) {
  res::EntryOpts o{s.c.opt.details, s.c.opt.pretty && !s.c.opt.json, raw, s.scope.portless,
                   s.c.opt.json};
  res::EntryView view(s.type, s.filters, o);
  int cmd = raw ? s.type.raw_cmd : s.type.cmd;
  std::optional<uint32_t> id = doit_id(s);
  if (id && !s.scope.portless) {
    std::vector<uint32_t> ports;
    if (!s.type.per_port)
      ports = {0};
    else if (s.scope.port)
      ports = {s.scope.port};
    else
      for (uint32_t p = 1; p <= d.ports; ++p) ports.push_back(p);
    bool unsure = false;
    for (uint32_t p : ports) {
      Found f = doit(s, view, cmd, d.index, p, *id, facts);
      if (f == Found::kShown) return;
      unsure |= f == Found::kUnsure;
    }
    // Raw entries carry no ids a dump could be filtered by: the doit is all.
    if (!unsure || raw) return;
  }
  nl::Request req(cmd, nl::Request::kDump);
  add_attrs(s, req, d.index, s.scope.port);
  run_request(s, view, req, false, facts);
}

void show_device(Show& s, const nldev::Device& d) {
  bool need_facts = false;
  for (const res::Filter& f : s.filters.all())
    need_facts |= f.key->src == res::Src::kDevType || f.key->src == res::Src::kTransportType;
  DevFacts facts = need_facts ? device_facts(s.c, d.index) : DevFacts{};
  bool raw = s.c.opt.raw && s.type.raw_cmd;
  try {
    show_objects(s, d, raw, facts);
  } catch (const KernelError& e) {
    // Raw data needs CAP_NET_ADMIN: show what the kernel gives instead.
    if (!raw || e.code != EPERM) throw;
    show_objects(s, d, false, facts);
  }
}

void show_type(Ctx& c, const res::TypeSpec& t) {
  Show s{c, t, {}, {}};
  while (!c.args.empty()) {
    std::string key = c.args.next();
    if (c.args.empty()) throw Error("filter \"" + key + "\" has no value");
    std::string value = c.args.next();
    const res::FilterKey& k = res::find_key(t.keys, key);
    if (k.src == res::Src::kScope)
      parse_scope(t, k.name, value, s.scope);
    else
      s.filters.add(k, value);
  }
  std::vector<nldev::Device> devs = nldev::list_devices(c.session());
  if (s.scope.dev) {
    const nldev::Device& d = need_device(devs, *s.scope.dev);
    if (s.scope.port > d.ports)
      throw Error("device \"" + d.name + "\" has no port " + std::to_string(s.scope.port) +
                  " (ports: 1-" + std::to_string(d.ports) + ")");
    show_device(s, d);
    return;
  }
  for (const nldev::Device& d : devs) show_device(s, d);
}

void res_show(Ctx& c) {
  if (c.args.empty()) return repeat_view(c, summary_all);  // -w SECONDS repeats it
  std::string word = c.args.peek();
  const res::TypeSpec* type = nullptr;
  for (const res::TypeSpec& t : res::types()) {
    if (matches(word, t.name)) {
      type = &t;
      break;
    }
  }
  // "res show DEV" (a device wins over a type, as in iproute2).
  Args rest = c.args;
  rest.next();
  if (rest.empty()) {
    std::vector<nldev::Device> devs = nldev::list_devices(c.session());
    if (const nldev::Device* d = lookup(devs, word)) {
      c.args.next();
      return summary_doit(c, *d);
    }
  }
  if (!type) throw Error("unknown resource type or device \"" + word + "\"");
  c.args.next();
  show_type(c, *type);
}

}  // namespace

void cmd_resource(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, res_show},
      {"show", res_show},
      {"list", res_show},
      {"help", res_help},
  };
  dispatch(c, kTable, "resource command");
}

}  // namespace rdma
