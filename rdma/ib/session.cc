#include "rdma/ib/session.h"

#include <cctype>
#include <cstdio>

#include "lib/error.h"

namespace rdma {

MadWords::MadWords(Ctx& c) {
  std::vector<std::string> all;
  while (!c.args.empty()) all.push_back(c.args.next());
  size_t i = 0;
  target = mad::parse_target(all, i);
  for (; i < all.size(); ++i) {
    if (all[i] == "via") {
      if (i + 1 >= all.size()) throw UsageError("\"via\" needs DEV/PORT");
      via = check_via(all[++i]);
      continue;
    }
    rest_.push_back(all[i]);
  }
}

std::string MadWords::need(const char* what) {
  if (empty()) throw UsageError(std::string("missing ") + what);
  return next();
}

void MadWords::done() const {
  if (!empty()) throw UsageError("unexpected argument \"" + peek() + "\"");
}

namespace {

const mad::Access& access_of(const Ctx& c) {
  if (!c.mad || !c.mad->find_port) throw Error("InfiniBand management is not available here");
  return *c.mad;
}

mad::EngineConfig engine_config(const Ctx& c) {
  mad::EngineConfig cfg;
  cfg.timeout_ms = c.opt.mad_timeout_ms;
  cfg.retries = c.opt.mad_retries;
  cfg.window = static_cast<size_t>(c.opt.mad_window);
  return cfg;
}

}  // namespace

MadSession::MadSession(Ctx& c, const std::string& via)
    : ib::MadClient(access_of(c), via, engine_config(c),
                    c.opt.details >= 2 ? ib::print_trace(c.err) : ib::MadTrace()) {}

std::vector<std::vector<uint8_t>> MadSession::sa_records(const mad::Target& t,
                                                         const mad::AttrDef& rec,
                                                         std::optional<uint8_t> port) {
  if (!local().sm_lid)
    throw Error("no subnet manager: local port " + local().ca + "/" + std::to_string(local().port) +
                " has no SM LID to ask (--sa)");
  if (t.kind == mad::Target::Kind::Dr)
    throw UsageError("--sa asks the SA, which knows LIDs and GUIDs, not directed routes (" +
                     t.text + ")");
  return ib::MadClient::sa_records(t, rec, port);
}

void add_target(view::Record& r, const mad::Route& route) {
  std::string t = mad::route_text(route);
  r.add("target", t + ": ", t);
}

uint8_t parse_port(const std::string& s) {
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])) || *end || v < 0 || v > 254)
    throw UsageError("invalid port \"" + s + "\" (expected 0-254)");
  return static_cast<uint8_t>(v);
}

const std::string& check_via(const std::string& via) {
  size_t slash = via.find('/');
  if (via.empty() || slash == 0)
    throw UsageError("missing device name in \"via " + via + "\" (expected DEV or DEV/PORT)");
  if (slash != std::string::npos) {
    std::string p = via.substr(slash + 1);
    char* end = nullptr;
    long v = std::strtol(p.c_str(), &end, 10);
    if (p.empty() || !std::isdigit(static_cast<unsigned char>(p[0])) || *end || v > 254)
      throw UsageError("invalid port \"" + p + "\" in \"via " + via + "\" (expected DEV/PORT)");
  }
  return via;
}

}  // namespace rdma
