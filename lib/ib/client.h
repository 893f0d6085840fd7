// A MAD client on one local port: the port found and opened through
// mad::Access, the engine, routes to targets, checked SMP and GMP queries,
// the SA's records about a target, and the -dd trace. Built from its
// parts, not from a command line.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/ib/mkey_source.h"
#include "lib/mad/access.h"
#include "lib/mad/engine.h"
#include "lib/mad/local_port.h"
#include "lib/mad/target.h"
#include "lib/mad/transport.h"

namespace rdma::ib {

// Sees every MAD sent (">") and received ("<").
using MadTrace = std::function<void(const char* dir, std::span<const uint8_t> mad)>;

// A trace printing each MAD on err: its header and its attribute decoded,
// a line each, the keys (M_Key, SM_Key, CC_Key ...) shown only with
// show_keys, then its bytes in hex (what -dd shows).
MadTrace print_trace(std::FILE* err, bool show_keys);

class MadClient {
 public:
  // The port via names (DEV or DEV/PORT; empty: the default one), opened
  // through access, with an engine of config; trace, when set, sees every
  // MAD. Throws Error when the port cannot be found or opened.
  MadClient(const mad::Access& access, const std::string& via, const mad::EngineConfig& config,
            MadTrace trace = {});
  mad::Engine& engine() { return *engine_; }
  const mad::LocalPort& local() const { return local_; }
  // The SM's LID (where the SA answers); Error when the port has none.
  uint16_t sm_lid() const;
  // The target's route; the SM's LID when there is no target. A GUID no
  // port has may be a node's (fabric show prints a CA's): its first
  // NodeRecord's LID, as sa_lid takes it. A name: name_route.
  mad::Route route(const std::optional<mad::Target>& t);
  // The node-name-map names are also looked up in (read when a name is
  // resolved; lib/ib/node_name_map.h: the default file when not given).
  void set_node_name_map(std::optional<std::string> file) { name_map_ = std::move(file); }
  // A `name NAME` target's route (lib/ib/find.h's find_named): found in
  // the SA's NodeRecords, or, when there is no SA or its table is cut
  // short (no RMPP), in the fabric discovered by directed route; its LID
  // (a CA: its first port with one), else its directed route. Throws
  // Error for a name no node or several nodes have, naming candidates.
  mad::Route name_route(const mad::Target& t);
  // The M_Key every SMP carries from now on (IBA 14.2.4: a port whose
  // M_Key is set answers Sets, and with protection Gets, only to it),
  // whichever path sends it (lib/ib/mkey_transport.h).
  void set_mkey(uint64_t key) { keys_.set_key(key); }
  // M_Keys by port GUID (opensm's guid2mkey; lib/ib/mkey_file.h): an SMP
  // to a port in it carries its key, others set_mkey's. The port GUIDs at
  // the fabric's LIDs and routes are asked of the SA once here (its
  // NodeRecords and LinkRecords), so that a port that drops Gets without
  // its key is keyed from its first SMP; others are learnt from their
  // NodeInfo answers.
  void set_mkeys(std::map<uint64_t, uint64_t> by_port_guid);
  // The key of the port at r from now on (a Set that changed it).
  void set_mkey_at(const mad::Route& r, uint64_t key);
  // Get (or Set) an SMP / GMP and return the checked reply.
  mad::Mad smp(const mad::Route& r, uint8_t method, const mad::AttrDef& a, uint32_t mod,
               const mad::Mad* body = nullptr);
  mad::Mad gmp(uint16_t lid, uint8_t mgmt_class, uint8_t method, const mad::AttrDef& a,
               uint32_t mod, const mad::Mad* body = nullptr);
  // The LID the SA knows the target by: a LID as given; a port GUID, a
  // node GUID (its first NodeRecord) or a GID (its interface ID) found in
  // the NodeRecords. Throws Error for a directed route, which the SA does
  // not know, or a GUID it has no record of.
  uint16_t sa_lid(const mad::Target& t);
  // The records of type rec (a GetTable) whose LID (and port, when given)
  // are the target's. Throws Error when there is none.
  std::vector<std::vector<uint8_t>> sa_records(const mad::Target& t, const mad::AttrDef& rec,
                                               std::optional<uint8_t> port = std::nullopt);

 private:
  // The LID of the first NodeRecord of the node with this GUID; nullopt
  // when the SA has none (or does not answer the query).
  std::optional<uint16_t> node_guid_lid(uint64_t guid);
  // Where an SMP to r goes, as MkeySource names it.
  std::string key_where(const mad::Route& r) const;

  mad::LocalPort local_;
  MkeySource keys_;  // before transport_, which holds it
  std::unique_ptr<mad::Transport> transport_;
  std::unique_ptr<mad::Engine> engine_;
  std::optional<std::string> name_map_;
};

}  // namespace rdma::ib
