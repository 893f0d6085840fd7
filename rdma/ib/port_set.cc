// rdma port set TARGET port N OP...: ibportstate's operations, the words
// read and checked before anything is sent, the change made by lib/ib's
// port_change.h; and rdma port set all init, every link of the subnet back
// to INIT, far links first.
#include "rdma/ib/port_set.h"

#include <cstdio>
#include <optional>
#include <string>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/ib/dr_avoid.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/port_change.h"
#include "lib/mad/format.h"
#include "rdma/objects.h"
#include "rdma/words.h"

namespace rdma {

namespace {

struct ActionWord {
  const char* word;
  ib::PortAction action;
};
constexpr ActionWord kActions[] = {
    {"enable", ib::PortAction::Enable}, {"disable", ib::PortAction::Disable},
    {"reset", ib::PortAction::Reset},   {"down", ib::PortAction::Down},
    {"arm", ib::PortAction::Arm},       {"active", ib::PortAction::Active},
    {"init", ib::PortAction::Init},
};

uint64_t parse_value(const ib::PortFieldDef& op, const std::string& word) {
  if (op.field == ib::PortField::Mtu) {  // also in bytes, as ibv_devinfo prints it
    if (std::optional<uint64_t> v = ib::mtu_code(word)) return *v;
    if (std::optional<uint64_t> v =
            view::parse_number(word, {.min = op.min, .max = op.max, .c_bases = true}))
      return *v;
    throw UsageError("invalid mtu \"" + word + "\" (expected 1-5, or 256, 512, 1024, 2048 or " +
                     "4096 bytes)");
  }
  if (op.expected_names) {
    if (std::optional<uint64_t> v = ib::named_port_bits(op.field, word)) return *v;
    // Not a number either: say which names the operation takes.
    bool numeric = word.rfind("0x", 0) == 0 || word.rfind("0X", 0) == 0 ||
                   word.find_first_not_of("0123456789") == std::string::npos;
    if (!numeric)
      throw UsageError("invalid " + std::string(op.word) + " \"" + word + "\" (expected " +
                       op.expected_names + ")");
  }
  uint64_t v = need_number(word, op.word, {.min = op.min, .max = op.max, .c_bases = true});
  if (op.field == ib::PortField::Width && v > 31 && v != op.max)
    throw UsageError("invalid width \"" + word + "\" (expected 0-31 or 255)");
  return v;
}

ib::PortChange parse_request(Ctx& c) {
  ib::PortChange req;
  bool have_port = false;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (matches(k, "port")) {
      req.port = parse_port(c.args.need_word("port number"));
      have_port = true;
      continue;
    }
    const ActionWord* act = nullptr;
    for (const ActionWord& a : kActions)
      if (k == a.word) act = &a;
    if (act) {
      if (req.action != ib::PortAction::None)
        throw UsageError("one state change at a time (\"" + k + "\" after another)");
      req.action = act->action;
      continue;
    }
    const ib::PortFieldDef* op = nullptr;
    for (const ib::PortFieldDef& o : ib::port_field_defs())
      if (k == o.word) op = &o;
    if (!op) {
      std::vector<std::string> words = {"port"};
      for (const ActionWord& a : kActions) words.push_back(a.word);
      for (const ib::PortFieldDef& o : ib::port_field_defs()) words.push_back(o.word);
      throw UsageError(unknown_word("port set argument", k, words));
    }
    if (req.has(op->field)) throw UsageError("\"" + k + "\" given twice");
    req.values.push_back({op->field, parse_value(*op, c.args.need_value(k, op->word))});
  }
  if (!have_port) throw UsageError("missing \"port N\"");
  if (req.action == ib::PortAction::None && req.values.empty())
    throw UsageError(
        "missing action: enable, disable, reset, down, arm, active or init, or OP VALUE (speed, "
        "espeed, fdr10, width, vls, mtu, lid, smlid, lmc, mkey, mkeylease, mkeyprot)");
  return req;
}

std::string port_text(const mad::Route& r, unsigned port) {
  return mad::route_text(r) + " port " + std::to_string(port);
}

// After the change, as ibportstate: the port, and the port at the other
// end of its link when a directed route reaches it (a switch's port, or
// the local port); a link the change took down has no peer to show.
void show_after(Ctx& c, MadSession& s, const mad::Route& r, const mad::Route& label,
                const ib::PortChange& req, const ib::NodeNameMap& names) {
  show_port(c, s, r, req.port, label);
  if (req.action == ib::PortAction::Disable) return;
  try {
    if (std::optional<ib::PortPeer> peer = ib::port_peer(s, r, req.port)) {
      // Headed by name, as the site knows the node (its node-name-map).
      std::string name = names.name(peer->node_guid, peer->description);
      show_port(c, s, peer->route, peer->port, peer->route, &name);
    }
  } catch (const mad::MadError&) {
    // The link went while it was read: nothing at the other end answers.
  }
}

void port_set_all(Ctx& c) {
  std::string via = c.args.take_via();
  if (c.args.empty() || c.args.next() != "init")
    throw UsageError("\"port set all\" takes one change: init");
  c.args.done();
  if (!c.opt.yes)
    throw UsageError(
        "port set all init takes every link of the subnet down to INIT: no data moves until the "
        "SM activates them again; --yes to do it");
  MadSession s(c, via, 1);
  ib::Discovery d = ib::discover(s.engine());
  for (const std::string& w : d.warnings) std::fprintf(c.err, "warning: %s\n", w.c_str());
  int failed = 0;
  for (const ib::PortRef& end : ib::far_first_link_ends(d.fabric, s.local().port)) {
    mad::Route r{true, 0, d.fabric.nodes[end.node].path};
    std::string what = port_text(r, end.port);
    try {
      ib::set_port_action(s, r, end.port, ib::PortAction::Init, what);
    } catch (const Error& e) {
      std::fprintf(c.err, "%s\n", e.what());
      ++failed;
      continue;
    }
    view::Record rec;
    add_target(rec, r);
    rec.pair("port", static_cast<unsigned>(end.port));
    rec.pair("state", "INIT");
    c.out.record(rec);
  }
  if (failed) c.status = 1;
}

}  // namespace

void port_set(Ctx& c) {
  if (!c.args.empty() && c.args.peek() == "all") {
    c.args.next();
    return port_set_all(c);
  }
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  if (!target) throw UsageError("missing target (lid N, guid G, gid G, dr PATH or name NAME)");
  ib::PortChange req = parse_request(c);
  // The peer's name; a bad map is an error before anything is sent.
  ib::NodeNameMap names = ib::load_node_name_map(c.opt.node_name_map);
  MadSession s(c, via, 1);
  mad::Route given = s.route(target);
  std::string what = port_text(given, req.port);
  ib::check_port_change(s, given, req);
  mad::Route r;
  try {
    r = ib::port_change_route(s, given, req, c.opt.force, what);
    ib::apply_port_change(s, r, req, what);
  } catch (const mad::MadError& e) {
    // A Get refused (the Sets' failures are Errors): a port the node lacks
    // is said so, by the target given.
    if (e.failure.kind == mad::Failure::Kind::Status)
      explain_port_failure(s, given, req.port, mad::route_text(given));
    throw;
  }
  // The port answers to its new key now (over a file's entry for it too).
  if (std::optional<uint64_t> key = ib::new_mkey(req)) {
    s.set_mkey(*key);
    s.set_mkey_at(r, *key);
  }
  show_after(c, s, r, given, req, names);
  // A write is read back: a value the port kept as it was is said, and
  // the exit status is 1.
  try {
    for (const std::string& v : ib::port_change_not_taken(s, r, req)) {
      std::fprintf(c.err, "warning: %s did not take %s\n", what.c_str(), v.c_str());
      c.status = 1;
    }
  } catch (const mad::MadError& e) {
    std::fprintf(c.err, "warning: %s not read back: %s\n", what.c_str(), e.what());
    c.status = 1;
  }
  if (req.has(ib::PortField::Speed) || req.has(ib::PortField::ExtSpeed) ||
      req.has(ib::PortField::Width) || req.has(ib::PortField::Fdr10))
    std::fprintf(c.err,
                 "note: the enabled speeds and widths take effect when the link retrains "
                 "(port set ... reset)\n");
}

}  // namespace rdma
