#include "rdma/ib/session.h"

#include <cctype>
#include <cstdio>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
#include "lib/mad/describe.h"
#include "lib/mad/sa.h"

namespace rdma {

namespace {

// -dd: every MAD decoded on stderr, header and attribute, then its bytes.
void trace_mad(std::FILE* err, const char* dir, std::span<const uint8_t> bytes) {
  view::Record h, a;
  std::string line = std::string(dir) + " ";
  try {
    mad::describe(bytes, h, a);
    for (const view::Field& f : h) line += f.text;
    line += "\n" + std::string(dir) + " ";
    for (const view::Field& f : a) line += f.text;
  } catch (const Error& e) {
    line += e.what();
  }
  std::fprintf(err, "%s\n%s", line.c_str(), mad::hex_dump(bytes).c_str());
}

}  // namespace

MadSession::MadSession(Ctx& c, const std::string& via) {
  if (!c.mad || !c.mad->find_port) throw Error("InfiniBand management is not available here");
  local_ = c.mad->find_port(via);
  transport_ = c.mad->open(local_);
  mad::EngineConfig cfg;
  cfg.timeout_ms = c.opt.mad_timeout_ms;
  cfg.retries = c.opt.mad_retries;
  cfg.window = static_cast<size_t>(c.opt.mad_window);
  engine_ = std::make_unique<mad::Engine>(*transport_, cfg);
  if (c.opt.details >= 2)
    engine_->trace = [err = c.err](const char* dir, std::span<const uint8_t> bytes) {
      trace_mad(err, dir, bytes);
    };
}

mad::Route MadSession::route(const std::optional<mad::Target>& t) {
  if (t) return mad::resolve(*engine_, local_, *t);
  if (!local_.sm_lid)
    throw Error("no subnet manager: local port " + local_.ca + "/" + std::to_string(local_.port) +
                " has no SM LID");
  mad::Route r;
  r.lid = local_.sm_lid;
  return r;
}

mad::Mad MadSession::smp(const mad::Route& r, uint8_t method, const mad::AttrDef& a, uint32_t mod,
                         const mad::Mad* body) {
  mad::Mad m = mad::make_smp(r, method, a, mod);
  if (body) std::copy(body->data().begin(), body->data().end(), m.data().begin());
  return engine_->call(m, mad::smp_address(r), std::string(a.name) + " from " + mad::route_text(r));
}

mad::Mad MadSession::gmp(uint16_t lid, uint8_t mgmt_class, uint8_t method, const mad::AttrDef& a,
                         uint32_t mod, const mad::Mad* body) {
  mad::Mad m = mad::make_gmp(mgmt_class, method, a, mod);
  if (body) std::copy(body->data().begin(), body->data().end(), m.data().begin());
  return engine_->call(m, mad::gsi_address(lid),
                       std::string(a.name) + " from lid " + std::to_string(lid));
}

uint16_t MadSession::sa_lid(const mad::Target& t) {
  if (!local_.sm_lid)
    throw Error("no subnet manager: local port " + local_.ca + "/" + std::to_string(local_.port) +
                " has no SM LID to ask (--sa)");
  switch (t.kind) {
    case mad::Target::Kind::Lid:
      return t.lid;
    case mad::Target::Kind::Dr:
      throw UsageError("--sa asks the SA, which knows LIDs and GUIDs, not directed routes (" +
                       t.text + ")");
    case mad::Target::Kind::Guid:
    case mad::Target::Kind::Gid:
      break;
  }
  uint64_t guid = t.kind == mad::Target::Kind::Guid ? t.guid : mad::get_bits(t.gid, 64, 64);
  std::vector<uint8_t> none(mad::kNodeRecord.bytes);
  mad::SaTable all = mad::get_table(*engine_, local_.sm_lid, mad::kNodeRecord, 0, none);
  for (const auto& r : all.records) {
    auto ni = std::span(r).subspan(mad::kNodeRecordNodeInfo);
    // A port GUID names that port's LID; a node GUID its first record's.
    if (mad::get_bits(ni, 160, 64) == guid) return static_cast<uint16_t>(mad::get_bits(r, 0, 16));
  }
  for (const auto& r : all.records)
    if (mad::get_bits(std::span(r).subspan(mad::kNodeRecordNodeInfo), 96, 64) == guid)
      return static_cast<uint16_t>(mad::get_bits(r, 0, 16));
  throw Error("cannot resolve " + t.text + ": the SA has no such node or port");
}

std::vector<std::vector<uint8_t>> MadSession::sa_records(const mad::Target& t,
                                                         const mad::AttrDef& rec,
                                                         std::optional<uint8_t> port) {
  uint16_t lid = sa_lid(t);
  std::vector<uint8_t> example(rec.bytes);
  mad::set_bits(example, 0, 16, lid);
  uint64_t mask = 1;  // the LID
  if (port) {
    mad::set_bits(example, 16, 8, *port);
    mask |= 2;
  }
  std::vector<std::vector<uint8_t>> out;
  for (auto& r : mad::get_table(*engine_, local_.sm_lid, rec, mask, example).records)
    if (mad::get_bits(r, 0, 16) == lid && (!port || mad::get_bits(r, 16, 8) == *port))
      out.push_back(std::move(r));
  if (out.empty())
    throw Error("the SA has no " + std::string(rec.name) + " for lid " + std::to_string(lid) +
                (port ? " port " + std::to_string(*port) : std::string()));
  return out;
}

void add_target(view::Record& r, const mad::Route& route) {
  std::string t = mad::route_text(route);
  r.add("target", t + ": ", t);
}

uint8_t parse_port(const std::string& s) {
  return static_cast<uint8_t>(need_number(s, "port", {.max = 254}));
}

}  // namespace rdma
