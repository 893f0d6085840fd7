#include "rdma/ib/port_check.h"

#include "lib/choices.h"
#include "lib/error.h"
#include "lib/ib/port_verdicts.h"
#include "lib/ib/thresholds.h"
#include "rdma/ib/session.h"
#include "rdma/words.h"

namespace rdma {

namespace {

// Text: one line a port, "lid 5 port 1: ok" or its failed verdicts'
// reasons; JSON: an object a verdict, {lid, port, check, ok, reason}.
void print_verdicts(Ctx& c, const std::vector<ib::PortVerdict>& verdicts) {
  view::Record rec;
  for (size_t i = 0; i < verdicts.size();) {
    size_t end = i;
    while (end < verdicts.size() && verdicts[end].lid == verdicts[i].lid &&
           verdicts[end].port == verdicts[i].port)
      ++end;
    if (c.opt.json) {
      for (; i < end; ++i) {
        const ib::PortVerdict& v = verdicts[i];
        rec.clear();
        rec.add("lid", "", v.lid);
        rec.add("port", "", v.port);
        rec.add("check", "", v.check);
        rec.add("ok", "", v.ok);
        rec.add("reason", "", v.reason);
        c.out.record(rec);
      }
      continue;
    }
    std::string line = "lid " + std::to_string(verdicts[i].lid) + " port " +
                       std::to_string(verdicts[i].port) + ":";
    std::string reasons;
    for (; i < end; ++i)
      if (!verdicts[i].ok) reasons += (reasons.empty() ? " " : "; ") + verdicts[i].reason;
    rec.clear();
    rec.add("", line + (reasons.empty() ? " ok" : reasons), nullptr);
    c.out.record(rec);
  }
}

}  // namespace

void port_check(Ctx& c) {
  std::optional<mad::Target> target =
      c.args.target_or_name({"port", "state", "width", "speed", "errors", "thresholds"});
  std::string via = c.args.take_via();
  if (!target) throw UsageError("missing target (lid N, guid G, gid G, dr PATH or name NAME)");
  std::optional<uint8_t> port;
  bool all = false;
  ib::PortChecks which{false, false, false, false};
  std::optional<std::string> thresholds;  // `thresholds FILE`, as fabric errors'
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (matches(k, "port")) {
      std::string p = c.args.need_word("port number or \"all\"");
      all = p == "all";
      port = all ? std::nullopt : std::optional<uint8_t>(parse_port(p));
    } else if (k == "state") {
      which.state = true;
    } else if (k == "width") {
      which.width = true;
    } else if (k == "speed") {
      which.speed = true;
    } else if (k == "errors") {
      which.errors = true;
    } else if (k == "thresholds") {
      thresholds = c.args.need_value(k, "FILE");
    } else {
      throw UsageError(unknown_word("port check argument", k,
                                    {"port", "state", "width", "speed", "errors", "thresholds"}));
    }
  }
  if (!which.state && !which.width && !which.speed && !which.errors) which = {};
  // The thresholds of `fabric errors`: the file named, else the site's
  // where it exists; read before anything is sent.
  ib::SweepOptions o;
  if (std::optional<std::string> file = ib::thresholds_file(thresholds))
    c.warn(o.thresholds.load(*file));
  MadSession s(c, via);
  std::vector<ib::PortVerdict> v = ib::check_node_ports(s, s.route(target), port, all, o, which);
  print_verdicts(c, v);
  for (const ib::PortVerdict& one : v)
    if (!one.ok) c.found();
}

}  // namespace rdma
