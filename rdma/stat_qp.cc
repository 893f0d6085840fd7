// rdma statistic qp: QP counters (show), how QPs get bound to them (mode,
// set ... auto) and manual binding (bind, unbind).
#include <rdma/rdma_netlink.h>

#include <cctype>
#include <cerrno>
#include <optional>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/res/comm.h"
#include "lib/stat/filter.h"
#include "lib/stat/qp_counter.h"
#include "rdma/stat.h"
#include "rdma/stat_ports.h"

namespace rdma {

namespace {

// RDMA_NLDEV_ATTR_STAT_OPCOUNTER_ENABLED (u8, Linux 6.15): bind the enabled
// optional counters too. Older kernels ignore it and do not report it.
constexpr uint16_t kAttrStatOpcounterEnabled = 104;

// "DEV/PORT" after a mandatory "link" keyword.
std::string need_link(Ctx& c) {
  if (c.args.empty() || !matches(c.args.peek(), "link"))
    throw UsageError(c.args.empty() ? "missing \"link DEV/PORT\""
                                    : "expected \"link DEV/PORT\", not \"" + c.args.peek() + "\"");
  c.args.next();
  return c.args.need("DEV/PORT after \"link\"");
}

// "KEY NUMBER": a u32 argument named by its keyword.
uint32_t keyword_number(Ctx& c, const char* key) {
  if (c.args.empty() || !matches(c.args.peek(), key))
    throw UsageError(std::string("missing \"") + key + " N\"" +
                     (c.args.empty() ? "" : ", found \"" + c.args.peek() + "\""));
  c.args.next();
  std::string v = c.args.need(key);
  uint64_t n;
  if (!stat::NumberFilter(key, v).single(n))
    throw UsageError(std::string(key) + " takes one number, not \"" + v + "\"");
  return static_cast<uint32_t>(n);
}

// --- show ------------------------------------------------------------------

struct QpFilters {
  std::optional<stat::NumberFilter> cntn, lqpn, pid;
  std::optional<std::string> qp_type;
};

// iproute2's rule: a counter passes lqpn only when all its QPs do.
bool passes(const QpFilters& f, const stat::QpCounter& k) {
  if (f.cntn && !f.cntn->match(k.id)) return false;
  if (f.qp_type && (!k.qp_type || *f.qp_type != stat::qp_type_name(*k.qp_type))) return false;
  if (f.pid && (!k.pid || !f.pid->match(*k.pid))) return false;
  if (f.lqpn)
    for (uint32_t q : k.lqpns)
      if (!f.lqpn->match(q)) return false;
  return true;
}

void add_counter_record(uint32_t dev_index, const std::string& dev, const stat::QpCounter& k,
                        view::Record& r) {
  r.add("ifindex", "", dev_index);
  r.add("ifname", "", dev);
  if (k.port) {
    r.add("port", "", *k.port);
    r.add("", "link " + dev + "/" + std::to_string(*k.port) + " ", nullptr);
  } else {
    r.add("", "link " + dev + "/- ", nullptr);
  }
  r.pair("cntn", k.id);
  if (k.qp_type) {
    std::string t = stat::qp_type_name(*k.qp_type);
    r.pair("qp-type", t);
  }
  std::optional<std::string> comm;
  if (k.pid) {
    r.pair("pid", *k.pid);
    comm = res::process_name(*k.pid);
    if (comm) comm = comm->substr(0, 17);
  }
  if (k.kern) comm = k.kern;
  if (comm) {
    // Kernel owners in brackets, cut to 17 characters as iproute2 does.
    std::string text = k.pid ? *comm : ("[" + *comm + "]").substr(0, 17);
    r.pair("comm", text, comm->substr(0, 17));
  }
  stat::add_counters(k.counters, r);
  std::string lqpn_text = "\n    LQPN: <";
  view::Json lqpns = view::Json::array();
  for (size_t i = 0; i < k.lqpns.size(); ++i) {
    if (i) lqpn_text += ",";
    lqpn_text += std::to_string(k.lqpns[i]);
    lqpns.push_back(k.lqpns[i]);
  }
  r.add("lqpn", lqpn_text + ">", lqpns);
}

void qp_show(Ctx& c) {
  std::string spec;
  if (!c.args.empty() && matches(c.args.peek(), "link")) {
    c.args.next();
    if (!c.args.empty() && c.args.peek() != "cntn" && c.args.peek() != "lqpn" &&
        c.args.peek() != "pid" && c.args.peek() != "qp-type")
      spec = c.args.next();
  }
  QpFilters f;
  while (!c.args.empty()) {
    std::string key = c.args.next();
    std::string value = c.args.need(("a value after \"" + key + "\"").c_str());
    auto once = [&](bool given) {
      if (given) throw UsageError("filter \"" + key + "\" given twice");
    };
    if (key == "cntn") {
      once(f.cntn.has_value());
      f.cntn.emplace(key, value);
    } else if (key == "lqpn") {
      once(f.lqpn.has_value());
      f.lqpn.emplace(key, value);
    } else if (key == "pid") {
      once(f.pid.has_value());
      f.pid.emplace(key, value);
    } else if (key == "qp-type") {
      once(f.qp_type.has_value());
      for (char& ch : value) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      f.qp_type = value;
    } else {
      throw UsageError("unknown filter \"" + key + "\" (filters: cntn, lqpn, pid, qp-type)");
    }
  }

  view::Record r;
  for (const PortRef& p : resolve_ports(c.session(), spec, false)) {
    nl::Request req(RDMA_NLDEV_CMD_STAT_GET, nl::Request::kDump);
    req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.dev_index)
        .u32(RDMA_NLDEV_ATTR_PORT_INDEX, p.port)
        .u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
    c.session().run(req, [&](const nlmsghdr* nlh) {
      nl::Attrs a = nl::Attrs::of_message(nlh);
      if (!a.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !a.has(RDMA_NLDEV_ATTR_DEV_NAME) ||
          !a.has(RDMA_NLDEV_ATTR_STAT_COUNTER))
        throw Error("malformed kernel reply: QP counters without device or counter table");
      uint32_t index = a.u32(RDMA_NLDEV_ATTR_DEV_INDEX);
      std::string dev(a.str(RDMA_NLDEV_ATTR_DEV_NAME));
      nl::for_each_nested(a.get(RDMA_NLDEV_ATTR_STAT_COUNTER), [&](const nlattr* entry) {
        stat::QpCounter k = stat::parse_qp_counter(nl::Attrs::of_nest(entry));
        if (!passes(f, k)) return;
        r.clear();
        add_counter_record(index, dev, k, r);
        c.out.record(r);
      });
    });
  }
}

// --- mode ------------------------------------------------------------------

// "qp auto off", "qp auto type,pid on" (+ " optional-counters on|off" when
// the kernel reports it), as iproute2 prints the mode.
std::string mode_text(const nl::Attrs& a) {
  uint32_t mode = a.has(RDMA_NLDEV_ATTR_STAT_MODE) ? a.u32(RDMA_NLDEV_ATTR_STAT_MODE) : 0;
  if (mode != RDMA_COUNTER_MODE_AUTO) return "qp auto off";
  if (!a.has(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK))
    throw Error("malformed kernel reply: auto mode without its criteria");
  uint32_t mask = a.u32(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK);
  if (!mask) return "qp auto off";
  std::string s = "qp auto";
  const char* sep = " ";
  if (mask & RDMA_COUNTER_MASK_QP_TYPE) {
    s += sep + std::string("type");
    sep = ",";
  }
  if (mask & RDMA_COUNTER_MASK_PID) s += sep + std::string("pid");
  s += " on";
  if (a.has(kAttrStatOpcounterEnabled))
    s += a.u8(kAttrStatOpcounterEnabled) ? " optional-counters on" : " optional-counters off";
  return s;
}

void qp_mode(Ctx& c) {
  std::string spec = link_arg(c);
  c.args.done();
  view::Record r;
  for (const PortRef& p : resolve_ports(c.session(), spec, false)) {
    nl::Request req(RDMA_NLDEV_CMD_STAT_GET, nl::Request::kDoit);
    // A STAT_MODE attribute asks for the mode instead of the counters.
    req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.dev_index)
        .u32(RDMA_NLDEV_ATTR_PORT_INDEX, p.port)
        .u32(RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL)
        .u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
    c.session().run(req, [&](const nlmsghdr* nlh) {
      nl::Attrs a = nl::Attrs::of_message(nlh);
      if (!a.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !a.has(RDMA_NLDEV_ATTR_DEV_NAME) ||
          !a.has(RDMA_NLDEV_ATTR_PORT_INDEX))
        throw Error("malformed kernel reply: QP counter mode without device or port");
      std::string dev(a.str(RDMA_NLDEV_ATTR_DEV_NAME));
      uint32_t port = a.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
      std::string mode = mode_text(a);
      r.clear();
      r.add("ifindex", "", a.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
      r.add("ifname", "", dev);
      r.add("port", "link " + dev + "/" + std::to_string(port) + " ", port);
      r.pair("mode", mode);
      c.out.record(r);
    });
  }
}

// --- set, bind, unbind ---------------------------------------------------------

// Sends a change; a kernel error says which change failed.
void send(Ctx& c, nl::Request& req, const std::string& what) {
  try {
    c.session().run(req, [](const nlmsghdr*) {});
  } catch (const KernelError& e) {
    throw KernelError(e.code, "cannot " + what + ": " + e.what());
  }
}

std::string port_text(const PortRef& p) {
  return p.dev + "/" + std::to_string(p.port);
}

void qp_set(Ctx& c) {
  std::string spec = need_link(c);
  std::string word = c.args.need("\"auto\"");
  if (!matches(word, "auto")) throw UsageError("expected \"auto\", not \"" + word + "\"");
  std::string crit = c.args.need("\"off\" or criteria (type, pid) after \"auto\"");
  uint32_t mask = 0;
  std::optional<bool> opcnt;
  if (!matches(crit, "off")) {
    size_t start = 0;
    for (;;) {
      size_t comma = crit.find(',', start);
      std::string one = crit.substr(start, comma == std::string::npos ? comma : comma - start);
      if (one == "type")
        mask |= RDMA_COUNTER_MASK_QP_TYPE;
      else if (one == "pid")
        mask |= RDMA_COUNTER_MASK_PID;
      else
        throw UsageError("unknown auto mode criterion \"" + one + "\" (criteria: type, pid)");
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    std::string on = c.args.need("\"on\" after the criteria");
    if (!parse_on_off(on, crit.c_str()))
      throw UsageError("use \"auto off\" to turn automatic binding off");
    if (!c.args.empty()) {
      std::string key = c.args.next();
      if (!matches(key, "optional-counters"))
        throw UsageError("unknown parameter \"" + key + "\" (expected optional-counters on|off)");
      opcnt = parse_on_off(c.args.need("on or off after optional-counters"), "optional-counters");
    }
  }
  c.args.done();
  for (const PortRef& p : resolve_ports(c.session(), spec, false)) {
    nl::Request req(RDMA_NLDEV_CMD_STAT_SET, nl::Request::kDoit);
    req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.dev_index)
        .u32(RDMA_NLDEV_ATTR_PORT_INDEX, p.port)
        .u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP)
        .u32(RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO)
        .u32(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, mask);
    if (opcnt) req.u8(kAttrStatOpcounterEnabled, *opcnt);
    send(c, req, "set the QP counter mode of " + port_text(p));
  }
}

void qp_bind(Ctx& c) {
  std::string spec = need_link(c);
  uint32_t lqpn = keyword_number(c, "lqpn");
  std::optional<uint32_t> cntn;
  if (!c.args.empty()) cntn = keyword_number(c, "cntn");
  c.args.done();
  PortRef p = resolve_ports(c.session(), spec, true).at(0);
  nl::Request req(RDMA_NLDEV_CMD_STAT_SET, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL)
      .u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP)
      .u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.dev_index)
      .u32(RDMA_NLDEV_ATTR_PORT_INDEX, p.port)
      .u32(RDMA_NLDEV_ATTR_RES_LQPN, lqpn);
  if (cntn) req.u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, *cntn);
  send(c, req,
       "bind QP " + std::to_string(lqpn) + " on " + port_text(p) +
           (cntn ? " to counter " + std::to_string(*cntn) : " to a new counter"));
}

void unbind_one(Ctx& c, const PortRef& p, uint32_t cntn, uint32_t lqpn) {
  nl::Request req(RDMA_NLDEV_CMD_STAT_DEL, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL)
      .u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP)
      .u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.dev_index)
      .u32(RDMA_NLDEV_ATTR_PORT_INDEX, p.port)
      .u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn)
      .u32(RDMA_NLDEV_ATTR_RES_LQPN, lqpn);
  send(c, req,
       "unbind QP " + std::to_string(lqpn) + " from counter " + std::to_string(cntn) + " on " +
           port_text(p));
}

// Without lqpn, every QP of the counter is unbound (the kernel frees the
// counter with its last QP).
void qp_unbind(Ctx& c) {
  std::string spec = need_link(c);
  uint32_t cntn = keyword_number(c, "cntn");
  std::optional<uint32_t> lqpn;
  if (!c.args.empty()) lqpn = keyword_number(c, "lqpn");
  c.args.done();
  PortRef p = resolve_ports(c.session(), spec, true).at(0);
  if (lqpn) return unbind_one(c, p, cntn, *lqpn);

  nl::Request req(RDMA_NLDEV_CMD_STAT_GET, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.dev_index)
      .u32(RDMA_NLDEV_ATTR_PORT_INDEX, p.port)
      .u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP)
      .u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn);
  std::vector<uint32_t> qps;
  try {
    c.session().run(req, [&](const nlmsghdr* nlh) {
      qps = stat::parse_qp_counter(nl::Attrs::of_message(nlh)).lqpns;
    });
  } catch (const KernelError& e) {
    if (e.code != ENOENT) throw;
    throw KernelError(e.code, "no counter " + std::to_string(cntn) + " on " + p.dev + "/" +
                                  std::to_string(p.port) + " (" + e.what() + ")");
  }
  for (uint32_t q : qps) unbind_one(c, p, cntn, q);
}

}  // namespace

void stat_qp(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, qp_show}, {"show", qp_show}, {"list", qp_show},     {"mode", qp_mode},
      {"set", qp_set},    {"bind", qp_bind}, {"unbind", qp_unbind}, {"help", stat_help, Takes::Own},
  };
  dispatch(c, kTable, "statistic qp command");
}

}  // namespace rdma
