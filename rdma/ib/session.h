// What every MAD command shares: the local port, the transport and engine,
// -dd tracing (its words, a target and `via DEV/PORT`, are read by Args).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/client.h"
#include "lib/mad/engine.h"
#include "lib/mad/local_port.h"
#include "lib/mad/target.h"
#include "lib/mad/transport.h"
#include "rdma/command.h"
#include "rdma/ib/progress.h"

namespace rdma {

// The MAD client (lib/ib/client.h) of a command: the port `via` names,
// opened through c.mad (the seam: libibumad in the tool, a fake fabric in
// tests), the engine as --timeout, --retries and --window set it, -dd's
// trace on c.err.
//
// --deadline: the engine stops at it; the session, when it ends, says so
// ("deadline of N s reached: ...") and makes the exit status 1. The
// progress line (rdma/ib/progress.h) follows every MAD sent and received.
class MadSession : public ib::MadClient {
 public:
  // trace_level: the -d count from which every MAD is printed (-dd; the
  // commands that write print them from -d).
  MadSession(Ctx& c, const std::string& via, int trace_level = 2);
  ~MadSession();
  MadSession(const MadSession&) = delete;
  MadSession& operator=(const MadSession&) = delete;
  // Nodes found so far by a discovery, for the progress line.
  size_t nodes_found = 0;
  // Blanks the progress line (before printing a result or warnings).
  void end_progress() { progress_.clear(); }
  // --sa: throws when the SA cannot be asked about t: an Error when the
  // local port has no SM LID, a UsageError for a directed route (the SA
  // knows LIDs, GUIDs and GIDs, found in its NodeRecords).
  void check_sa(const mad::Target& t) const;

 private:
  Ctx& c_;
  Progress progress_;
};

// The record's first field: "lid 4 " / "dr 0,1 " (JSON "target").
void add_target(view::Record& r, const mad::Route& route);

// -d's text of one object (node show, port show): a field a line, as
// smpquery and perfquery print theirs, not 60 fields on one line. JSON
// and the text without -d are left as they are.
// The record to print: r, or its fields' text a line each.
view::Record one_field_a_line(const Ctx& c, const view::Record& r);

// PortSelect / port numbers: 0-254 (UsageError otherwise).
uint8_t parse_port(const std::string& s);

}  // namespace rdma
