// Changes to one port, as ibportstate makes them: PortInfo Sets (and the
// vendor's MlnxExtPortInfo for FDR10), built from what the port has, sent
// by a directed route that does not cross the port when the change cuts
// its link. The front end (rdma port set) reads words into a PortChange;
// everything about the wire is here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lib/ib/client.h"
#include "lib/mad/mad.h"

namespace rdma::ib {

// A change of the port's state (none, or one of ibportstate's).
enum class PortAction { None, Enable, Disable, Reset, Down, Arm, Active, Init };

// A value a change writes.
enum class PortField {
  Speed,
  ExtSpeed,
  Fdr10,
  Width,
  Vls,
  Mtu,
  Lid,
  SmLid,
  Lmc,
  MKey,
  MKeyLease,
  MKeyProt
};

struct PortFieldDef {
  PortField field;
  const char* word;  // as ibportstate (and rdma port set) name it
  const char* iba;   // the PortInfo field it writes; nullptr: the vendor's FDR10 bit
  uint64_t min, max;
  // Names of its bits ("sdr,qdr", "4x", "all"), for the speed and width
  // masks: what an error lists; nullptr when it takes numbers only.
  const char* expected_names;
  // The PortInfo field that says which values the port supports (a mask
  // of bits, or the highest code); nullptr: none.
  const char* supported;
};

// Every field a change may write, in ibportstate's order.
std::span<const PortFieldDef> port_field_defs();
const PortFieldDef& port_field_def(PortField f);

// "4x", "sdr,qdr", "all" (case-insensitive, comma-separated): the bits of
// a speed or width mask named; nullopt when the word is not made of names
// (a number, or a typo the caller reports) or the field has no names.
std::optional<uint64_t> named_port_bits(PortField f, const std::string& word);

// An MTU in bytes (256 .. 4096, as ibv_devinfo prints it) as PortInfo's
// code (1 .. 5); nullopt for any other word.
std::optional<uint64_t> mtu_code(const std::string& bytes);

struct PortChange {
  uint8_t port = 0;
  PortAction action = PortAction::None;
  std::vector<std::pair<PortField, uint64_t>> values;

  bool has(PortField f) const;
  // Whether the change takes the link down (for a moment or for good).
  bool cuts() const;
};

// The directed route a LID takes: at each switch the output port its
// forwarding table gives; nullopt when a table has no entry for it.
std::optional<std::vector<uint8_t>> dr_of_lid(MadClient& c, uint16_t lid);

// The route to send the change to the port at given by. A change that
// cuts the link must not travel through it: a CA sets only the port its
// SMPs arrive by, so a CA's own link (or the local port) is cut only when
// forced; a switch's port on the way is avoided by a route a discovery
// finds around it. Throws Error saying why otherwise (what: the port's
// name for it).
mad::Route port_change_route(MadClient& c, const mad::Route& given, const PortChange& change,
                             bool force, const std::string& what);

// Throws Error when the change writes a switch's port-0 values (M_Key, its
// lease and protection, LID, SM LID, LMC) to another port.
void check_port_change(MadClient& c, const mad::Route& r, const PortChange& change);

// Makes the change of the port at r (reset: Disabled, then Polling). A
// value the port does not support (a speed or width bit not in its
// Supported mask, an MTU above MTUCap, VLs above VLCap) is an Error
// before anything is sent; a Set refused or unanswered is an Error naming
// what and how.
void apply_port_change(MadClient& c, const mad::Route& r, const PortChange& change,
                       const std::string& what);

// The values of the change the port did not take, read back after it
// (Error when it cannot be read): "mtu 1024 (it has 2048)". An M_Key is
// not read back (a protected port hides it), nor a "no change" value.
std::vector<std::string> port_change_not_taken(MadClient& c, const mad::Route& r,
                                               const PortChange& change);

// The one Set of PortInfo that takes the port to action (with no other
// value): `port set all init` for each link end.
void set_port_action(MadClient& c, const mad::Route& r, uint8_t port, PortAction action,
                     const std::string& what);

// Whether the change set a new M_Key, and its value: the port answers
// only to it from now on.
std::optional<uint64_t> new_mkey(const PortChange& change);

// The port at the other end of r's port (r.path with port appended) when
// one answers there: the peer after a change; nullopt when the link is
// down or r reaches the node by LID. Only a switch's port or the local
// port has a directed route to its peer.
struct PortPeer {
  mad::Route route;
  uint8_t port = 0;
  uint64_t node_guid = 0;
  std::string description;  // its NodeDescription
};
std::optional<PortPeer> port_peer(MadClient& c, const mad::Route& r, uint8_t port);

}  // namespace rdma::ib
