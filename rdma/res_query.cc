#include "rdma/res_query.h"

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/res/entry.h"
#include "lib/res/types.h"
#include "rdma/words.h"

namespace rdma {

void parse_res_scope(const res::TypeSpec& t, const std::string& key, const std::string& value,
                     ResScope& s) {
  if (s.dev) throw UsageError("only one dev or link may be given");
  DevPort d = parse_dev_port(value, {.min = 1, .max = UINT32_MAX});
  const std::string& dev = d.dev;
  if (d.port_text) {
    const std::string& port = *d.port_text;
    if (key != "link")
      throw UsageError("dev takes a device name, not \"" + value + "\" (use link DEV/PORT)");
    if (!t.per_port && !port.empty())
      throw UsageError(std::string(t.name) + " objects belong to a device, not a port: use dev " +
                       dev);
    if (port == "-") {
      s.portless = true;
    } else if (!port.empty()) {
      if (!d.port)
        throw UsageError("invalid port \"" + port +
                         "\" (expected DEV/PORT with PORT 1 or more, or DEV/-)");
      s.port = *d.port;
    }
  }
  if (dev.empty()) throw UsageError("missing device name in " + key + " \"" + value + "\"");
  s.dev = dev;
}

namespace {

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

// Runs one request and prints the entries of its replies as they come.
void run_request(ResShow& s, res::EntryView& view, nl::Request& req, bool doit,
                 const DevFacts& facts) {
  view::Record& r = s.c.out.scratch();
  s.c.session().run(req, [&](const nlmsghdr* nlh) {
    res::for_each_entry(s.type, nlh, doit,
                        [&](const nl::Attrs& e, uint32_t idx, std::string_view name) {
                          res::DevRef d{idx, name, facts.dev_type, facts.transport};
                          if (view.render(e, d, r)) s.c.out.record(r);
                        });
  });
}

void add_attrs(const ResShow& s, nl::Request& req, uint32_t dev, uint32_t port) {
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev);
  if (port) req.u32(RDMA_NLDEV_ATTR_PORT_INDEX, port);
  // 6.12 hides driver-internal objects unless asked; older kernels ignore it.
  if (s.c.opt.details >= 2) req.u8(nldev::kAttrDriverDetails, 1);
}

// The id a doit can ask for: the type's id key given with one number.
std::optional<uint32_t> doit_id(const ResShow& s) {
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
Found doit_once(ResShow& s, res::EntryView& view, int cmd, uint32_t dev, uint32_t port, uint32_t id,
                const DevFacts& facts) {
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

Found doit(ResShow& s, res::EntryView& view, int cmd, uint32_t dev, uint32_t port, uint32_t id,
           const DevFacts& facts) {
  // Restrack keys SMI/GSI QPs (QP0/QP1) by port too (res::special_qp_id):
  // ask for that first. A device without them (iWARP: siw numbers its QPs
  // from 1) keeps QP 1 under its number.
  if (s.type.id_attr == RDMA_NLDEV_ATTR_RES_LQPN && id <= 1 && port) {
    Found f = doit_once(s, view, cmd, dev, port, res::special_qp_id(id, port), facts);
    if (f != Found::kAbsent) return f;
  }
  return doit_once(s, view, cmd, dev, port, id, facts);
}

// The objects of one device: a doit per port (or one for per-device types)
// when the filters name one object, else one dump for all ports.
void show_objects(ResShow& s, const nldev::Device& d, bool raw, const DevFacts& facts) {
  res::EntryOpts o{s.c.opt.details, s.c.opt.pretty, raw, s.scope.portless, s.c.opt.json};
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

}  // namespace

void show_res_device(ResShow& s, const nldev::Device& d) {
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

}  // namespace rdma
