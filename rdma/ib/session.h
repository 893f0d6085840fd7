// What every MAD command shares: its words (a target, `via DEV/PORT`,
// keywords), the local port, the transport and engine, -dd tracing.
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

namespace rdma {

// The words of a MAD command, split: the target (first), `via`, the rest.
class MadWords {
 public:
  // Takes every remaining word of c.args.
  explicit MadWords(Ctx& c);
  std::optional<mad::Target> target;
  std::string via;
  bool empty() const { return i_ >= rest_.size(); }
  const std::string& peek() const { return rest_[i_]; }
  std::string next() { return rest_[i_++]; }
  std::string need(const char* what);
  void done() const;

 private:
  std::vector<std::string> rest_;
  size_t i_ = 0;
};

// The MAD client (lib/ib/client.h) of a command: the port `via` names,
// opened through c.mad (the seam: libibumad in the tool, a fake fabric in
// tests), the engine as --timeout, --retries and --window set it, -dd's
// trace on c.err.
class MadSession : public ib::MadClient {
 public:
  MadSession(Ctx& c, const std::string& via);
  // --sa: the records of type rec whose LID (and port, when given) match,
  // from the SA (a GetTable). The target is a LID, or a GUID or GID found
  // in the NodeRecords; a directed route is a UsageError.
  std::vector<std::vector<uint8_t>> sa_records(const mad::Target& t, const mad::AttrDef& rec,
                                               std::optional<uint8_t> port = std::nullopt);
};

// The record's first field: "lid 4 " / "dr 0,1 " (JSON "target").
void add_target(view::Record& r, const mad::Route& route);

// PortSelect / port numbers: 0-254 (UsageError otherwise).
uint8_t parse_port(const std::string& s);

// The value of `via`: DEV or DEV/PORT, checked as a word (UsageError); a
// device or port that does not exist is found when the port is opened.
const std::string& check_via(const std::string& via);

}  // namespace rdma
