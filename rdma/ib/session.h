// What every MAD command shares: the local port, the transport and engine,
// -dd tracing (its words, a target and `via DEV/PORT`, are read by Args).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/mad/engine.h"
#include "lib/mad/local_port.h"
#include "lib/mad/target.h"
#include "lib/mad/transport.h"
#include "rdma/command.h"

namespace rdma {

// The local port, its transport and the engine, opened through c.mad (the
// seam: libibumad in the tool, a fake fabric in tests).
class MadSession {
 public:
  MadSession(Ctx& c, const std::string& via);
  mad::Engine& engine() { return *engine_; }
  const mad::LocalPort& local() const { return local_; }
  // The target's route; the SM's LID when there is no target.
  mad::Route route(const std::optional<mad::Target>& t);
  // Get (or Set) an SMP / GMP and return the checked reply.
  mad::Mad smp(const mad::Route& r, uint8_t method, const mad::AttrDef& a, uint32_t mod,
               const mad::Mad* body = nullptr);
  mad::Mad gmp(uint16_t lid, uint8_t mgmt_class, uint8_t method, const mad::AttrDef& a,
               uint32_t mod, const mad::Mad* body = nullptr);
  // --sa: the records of type rec whose LID (and port, when given) match,
  // from the SA (a GetTable). The target is a LID, or a GUID or GID found
  // in the NodeRecords; a directed route is an Error.
  std::vector<std::vector<uint8_t>> sa_records(const mad::Target& t, const mad::AttrDef& rec,
                                               std::optional<uint8_t> port = std::nullopt);
  uint16_t sa_lid(const mad::Target& t);

 private:
  mad::LocalPort local_;
  std::unique_ptr<mad::Transport> transport_;
  std::unique_ptr<mad::Engine> engine_;
};

// The record's first field: "lid 4 " / "dr 0,1 " (JSON "target").
void add_target(view::Record& r, const mad::Route& route);

// PortSelect / port numbers: 0-254 (UsageError otherwise).
uint8_t parse_port(const std::string& s);

}  // namespace rdma
