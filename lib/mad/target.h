// What a command talks to: `lid N` (or a bare number), `guid G`, `gid G`,
// `dr 0,1,4` or `name NAME`, and how it is reached.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/mad/engine.h"
#include "lib/mad/local_port.h"
#include "lib/mad/mad.h"

namespace rdma::mad {

struct Target {
  // Name: a node by its NodeDescription or node-name-map name, which only
  // the fabric can resolve (lib/ib/client.h, lib/ib/find.h): resolve()
  // refuses it.
  enum class Kind { Lid, Guid, Gid, Dr, Name } kind = Kind::Lid;
  uint16_t lid = 0;  // also Dr: where a combined route starts, else 0
  uint64_t guid = 0;
  std::array<uint8_t, 16> gid{};
  std::vector<uint8_t> path;  // Dr: output ports after the node at lid (0: the local port)
  std::string name;           // Name: as given
  std::string text;           // as given, for messages: "lid 4", "dr 0,1"
};

// Parses a target starting at words[i] and advances i past it; nullopt
// (i unchanged) when words[i] starts no target. Throws UsageError for a
// malformed value: these are words of a command line.
std::optional<Target> parse_target(const std::vector<std::string>& words, size_t& i);

// A Name target for name (UsageError when it is empty).
Target name_target(const std::string& name);

// Value parsers, each throwing a UsageError that names the bad word.
uint16_t parse_lid(const std::string& s);                 // decimal or 0x hex, unicast
uint64_t parse_guid(const std::string& s);                // 0x... or xxxx:xxxx:xxxx:xxxx
std::array<uint8_t, 16> parse_gid(const std::string& s);  // IPv6 form
std::vector<uint8_t> parse_path(const std::string& s);    // "0,1,4" -> {1, 4}

// A GID's halves (IBA 4.1.1): the subnet prefix and the interface ID, a
// port GUID.
uint64_t gid_prefix(const std::array<uint8_t, 16>& gid);
uint64_t gid_guid(const std::array<uint8_t, 16>& gid);
std::array<uint8_t, 16> make_gid(uint64_t prefix, uint64_t guid);

// resolve's Error when the SA knows no port with the GUID or GID (no path
// to it): the caller may look further (a node GUID is no port's).
class NoSuchPort : public Error {
 public:
  using Error::Error;
};

// How to reach the target: LIDs and routes as given, GUIDs and GIDs through
// the SA (a PathRecord from the local port). Throws Error (NoSuchPort when
// the SA has no path to it).
Route resolve(Engine& e, const LocalPort& local, const Target& t);

// "lid 4" / "dr 0,1,4": the target's route for messages.
std::string route_text(const Route& r);

}  // namespace rdma::mad
