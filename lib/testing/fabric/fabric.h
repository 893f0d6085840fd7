// A fabric test double: a whole InfiniBand subnet, built from a topology
// (ibsim's format), seen through one CA port as a mad::Transport. It routes
// every MAD the way the wire does (directed route hop by hop per IBA
// 14.2.2, LID routing through the switches' forwarding tables) and answers
// as the node's agents would: the SMA (SMPs), the PMA, and the SA at the
// subnet manager's LID. Tests can make it sick: drop or delay answers,
// unlink ports, take ports down, degrade links.
//
// Timeouts: a request nobody answers is reported back through receive() as
// a Received holding the request with status ETIMEDOUT, as umad does after
// the send's timeout. By default the report comes at once (the engine
// retries immediately, tests never sleep); real_timeouts makes it wait
// timeout_ms of real time.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/mad/field.h"
#include "lib/mad/local_port.h"
#include "lib/mad/transport.h"
#include "lib/mad/vendor.h"
#include "lib/testing/fabric/topology.h"

namespace rdma::ibtest {

// PortInfo values (IBA 14.2.5.6).
enum PortState : uint8_t { kDown = 1, kInit = 2, kArmed = 3, kActive = 4 };
enum PhysState : uint8_t { kPolling = 2, kDisabled = 3, kLinkUp = 5 };

// How the SA sends a table that does not fit one MAD.
enum class RmppMode {
  All,        // every segment at once, as a receiver that ACKs the whole window sees them
  FirstOnly,  // only the first segment, its header whole (PayloadLength counts the rest)
  // What the SA under ibsim gives through umad2sim (no RMPP): its buffer
  // cut to one MAD, a record cut in two at its end, the RMPP header with
  // only the Active flag (no PayloadLength); a shorter reply at its length.
  Umad2sim,
  // One Received: the first segment's 56-byte header, then the whole
  // payload, as the kernel hands a transfer to an agent registered with
  // RMPP (umad_register's rmpp_version 1). Longer than 256 bytes.
  Reassembled,
  // The RMPP protocol as an SA speaks it (13.6.5): segment 1, then what
  // the receiver's ACKs (RMPPType 2: SegmentNumber, NewWindowLast) open.
  Acked,
};

struct FabricOptions {
  std::string attach_node;  // the CA the transport is on; "": the first CA in the file
  int attach_port = 1;
  uint64_t seed = 1;  // for drop rates
  bool real_timeouts = false;
  RmppMode rmpp = RmppMode::All;
};

struct FabricPort {
  int peer_node = -1;  // now; -1: no link (unlinked, down, or never connected)
  uint8_t peer_port = 0;
  int wired_node = -1;  // the link in the topology (relink restores it)
  uint8_t wired_port = 0;
  uint8_t state = kDown;
  uint8_t phys = kPolling;
  uint8_t width_enabled = kWidth4x, width_supported = 31, width_active = kWidth4x;
  uint8_t speed_enabled = kSpeedSdr, speed_supported = 7, speed_active = kSpeedSdr;
  uint8_t speed_ext_enabled = 0, speed_ext_supported = 0, speed_ext_active = 0;
  uint8_t speed_ext2_active = 0;  // LinkSpeedExtActive2 (XDR); tests set it
  // MlnxExtPortInfo (0xff90), which every node answers, as ibsim's do: the
  // speeds (FDR10 1) when the link runs FDR10, zeros otherwise.
  uint8_t mlnx_speed_enabled = 0, mlnx_speed_active = 0;
  // As a real device, not ibsim: MlnxExtPortInfo's speeds also when the
  // link does not run FDR10 (ibsim fills them only when it does).
  bool mlnx_speeds_always = false;
  // PortInfoExtended (0x0033): answered only where set (else status 0x0c,
  // as ibsim); FEC modes per generation FDR, EDR, HDR, NDR. A Set stores
  // the Enabled masks.
  bool port_info_ext = false;
  uint16_t fec_active = 0;
  std::array<uint16_t, 4> fec_supported{}, fec_enabled{};
  uint16_t lid = 0;  // CA ports, switch port 0
  uint8_t lmc = 0;
  uint16_t sm_lid = 0;
  uint64_t guid = 0;
  std::map<std::string, uint64_t, std::less<>> counters;  // PMA, by IBA name
  // The SMA's port tables. P_KeyTable entries (the capacity is the node's,
  // entries past the vector read 0); GUIDInfo: entry 0 is guid, then
  // alias_guids, up to guid_cap (PortInfo GUIDCap: CAs 32, switch port 0 1,
  // external ports 0); VLArbitrationTable entries up to PortInfo's caps.
  std::vector<uint16_t> pkeys{0xffff};  // the default full-member key
  // PortInfo PartitionEnforcementInbound and Outbound (a switch's external
  // port checks P_Keys); ibsim keeps neither, whatever the SM sets.
  bool pkey_enforce = false;
  uint8_t guid_cap = 32;
  std::vector<uint64_t> alias_guids;
  uint8_t vlarb_low_cap = 8, vlarb_high_cap = 8;
  struct VlArb {
    uint8_t vl = 0, weight = 0;
  };
  std::vector<VlArb> vlarb_low, vlarb_high;
  // What PortInfo Sets change besides the above (fabric_sma_set.cc):
  // OperationalVLs (0: VL0-7 once the link is up, VL0 before), NeighborMTU,
  // and the M_Key a Set must carry (a CA port's, a switch's port 0's; 0:
  // none), as IBA 14.2.4 with protection bits 0: a Set with another key is
  // dropped unanswered.
  uint8_t oper_vls = 0;
  uint8_t neighbor_mtu = 4;  // 2048
  uint64_t mkey = 0;
  uint16_t mkey_lease = 0x0ff9;  // M_KeyLeasePeriod (ibsim's template's)
  // M_KeyProtectBits, kept and read back: Sets are guarded at every
  // level; a Get without the key is answered with the M_Key zeroed at 1
  // and dropped at 2 and 3 (fabric_smp.cc).
  uint8_t mkey_protect = 0;
};

// A node's congestion control agent (class 0x21, lib/testing/fabric/
// fabric_cc.cc): its CC_Key (a MAD with another is dropped and counted, as
// IBA A10.4.1.1 says) and the settings as last written, by AttributeID <<
// 16 | AttributeModifier (zeros until then).
struct FabricCc {
  bool agent = true;  // false: no CC agent, the class goes unanswered
  uint64_t key = 0;
  uint8_t key_protect = 0;
  uint16_t key_lease = 0;
  uint16_t key_violations = 0;
  uint32_t timestamp = 0;  // Timestamp: counts up each Get
  std::map<uint32_t, std::array<uint8_t, 192>> settings;
};

// A node's vendor-class agents (fabric_vendor.cc; ibsim has none): the
// servers of ibping (-S) and ibsysstat (-S), off until a test starts them,
// answering with host and cpus; a Mellanox agent (vendstat) with its
// ClassPortInfo, GeneralInfo, config space and counter groups.
struct FabricVendor {
  bool ping_server = false;
  bool sysstat_server = false;
  std::string host = "fake-host";
  std::string cpus;
  bool mellanox = false;
  mad::MellanoxGeneralInfo general;
  // Its configuration space (words by address; 0 where unset), the
  // addresses whose writes it drops (a read-only word), and each port's
  // counter groups and their selects.
  std::map<uint32_t, uint32_t> config;
  std::vector<uint32_t> read_only;
  mad::CounterGroupInfo counter_groups;
  std::map<uint8_t, mad::CounterGroupSelect> group_selects;
};

struct FabricNode {
  NodeType type = NodeType::Ca;
  std::string id, description;
  uint64_t node_guid = 0, sys_guid = 0;
  uint32_t vendor_id = 0;
  uint16_t device_id = 0;
  bool enhanced_port0 = false;
  bool all_port_select = true;    // PMA ClassPortInfo capability
  bool extended_counters = true;  // PMA PortCountersExtended (else status 0x0c)
  // PMA attributes (by AttributeID) the node answers with status 0x0c, as a
  // PMA without the optional ones (PortRcvErrorDetails, PortVLXmitWaitCounters, ...).
  std::set<uint16_t> pma_refused;
  // Every PMA Set answered with status 0x1c (invalid field): counters that
  // cannot be cleared.
  bool pma_set_refused = false;
  // PMA ClassPortInfo CapabilityMask2 IsAdditionalPortCountersExtendedSupported:
  // PortCountersExtended holds the 64-bit error counters too.
  bool additional_ext_counters = false;
  // RS-FEC active on every port: the PMA's IsRSFECCountersSupported, PortInfo
  // IsPortInfoExtendedSupported and PortInfoExtended FECModeActive RS-FEC,
  // and PortExtendedSpeedsCounters in its RS-FEC layout.
  bool rs_fec = false;
  // PortInfo CapabilityMask IsExtendedSpeedsSupported (bit 14, ibsim's
  // templates have it) and CapabilityMask2 IsExtendedSpeeds2Supported (bit
  // 11, theirs lack it): a CA's ports', a switch's port 0's.
  bool ext_speeds_cap = true;
  bool ext_speeds2_cap = false;
  // NodeInfo PartitionCap: a CA port's or a switch's port 0 P_KeyTable
  // (ibsim's 64 and 8); SwitchInfo PartitionEnforcementCap: a switch's
  // external ports'.
  uint16_t partition_cap = 64;
  uint16_t partition_enforcement_cap = 64;
  // SLtoVLMappingTable: a switch's by (input port << 8 | output port), a
  // CA's one table at 0; a table not set maps every SL to VL0.
  std::map<uint16_t, std::array<uint8_t, 16>> sl2vl;
  std::vector<FabricPort> ports;  // [0]: a switch's port 0 (unused on CAs)
  std::vector<uint8_t> lft;       // switches: output port by LID, 0xff none
  // Switches: MulticastForwardingTable, the port mask (bit p: port p) by
  // MLID (0xc000 ...); an MLID not here forwards nowhere.
  std::map<uint16_t, uint64_t> mft;
  // Switches: SwitchInfo MulticastFDBTop (0: not kept, the whole capacity).
  uint16_t mcast_fdb_top = 0;
  FabricCc cc;
  FabricVendor vendor;
  int num_ports() const { return static_cast<int>(ports.size()) - 1; }
  bool is_switch() const { return type == NodeType::Switch; }
};

// A multicast group as the SA keeps it (MCMemberRecord): its parameters
// and its member ports (node, port), full members all.
struct McGroup {
  std::array<uint8_t, 16> mgid{};
  uint16_t mlid = 0;
  uint32_t qkey = 0;
  uint16_t pkey = 0xffff;
  uint8_t mtu = 4, rate = 3, sl = 0, scope = 2;
  std::vector<std::pair<int, int>> members;
};

// A service an SA client registered (ServiceRecord).
struct FabricService {
  uint64_t id = 0;
  int node = 0, port = 1;  // the ServiceGID's port
  uint16_t pkey = 0xffff;
  uint32_t lease = 0xffffffff;  // infinite
  std::string name;
};

// Which MADs a fault applies to; -1 fields match anything. node is the
// node that answers (the SM's node for SA queries).
struct MadMatch {
  int node = -1;
  int mgmt_class = -1;  // 0x81 and 0x01 are told apart
  int attr = -1;
};

struct DropRule {
  MadMatch match;
  double rate = 1.0;  // share of matching answers dropped (seeded)
  int times = -1;     // drop at most this many, -1: no limit
};

struct DelayRule {
  MadMatch match;
  int ms = 0;             // the answer comes this many real ms later ...
  int after_replies = 0;  // ... or after this many other answers were received
};

struct FabricStats {
  uint64_t received[256] = {};  // requests the fabric got, by class
  uint64_t answered[256] = {};  // replies sent (RMPP segments counted each)
  uint64_t unrouted = 0;        // lost on the way: no link, bad path, unknown LID
  uint64_t dropped = 0;         // by a DropRule
  uint64_t timeouts = 0;        // timeout reports given back
  // Requests by the local P_Key table index they left with (--pkey-idx).
  std::map<uint16_t, uint64_t> by_pkey_index;
};

class FakeFabric : public mad::Transport {
 public:
  explicit FakeFabric(const Topology& t, FabricOptions o = {});

  // mad::Transport.
  void send(const mad::Mad& mad, const mad::Address& to, int timeout_ms) override;
  std::optional<mad::Received> receive(int timeout_ms) override;

  // The subnet manager, run from the attached port: a LID for every CA
  // port with a link and every switch (port 0), in breadth-first order from
  // the SM (its port is LID 1); min-hop forwarding tables; SM LID on every
  // port; linked ports Active. Until then every LID is 0 (no SM) and only
  // directed routes work. Call again after faults to re-sweep.
  void assign_lids();
  bool has_sm() const { return sm_lid_ != 0; }
  // SMInfo of the SM as it answers, and as an SMInfo Set changes it.
  struct SmSettings {
    uint8_t priority = 0;
    uint8_t state = 3;  // MASTER
  };
  SmSettings& sm() { return sm_; }

  // What the transport is attached to, as the tool's port lookup gives it.
  mad::LocalPort local_port() const;
  int attach_node() const { return attach_node_; }
  int attach_port() const { return attach_port_; }

  // The SA's multicast groups: assign_lids creates the IPoIB broadcast
  // group (ff12:401b:ffff::ffff:ffff, MLID 0xc000) with every CA port with
  // a LID as a member, as opensm does when IPoIB joins, and programs every
  // group's MFT entries along a spanning tree of the switches.
  std::vector<McGroup>& mcast_groups() { return groups_; }
  std::vector<FabricService>& services() { return services_; }

  // The model, for assertions and for settings the helpers below lack.
  std::vector<FabricNode>& nodes() { return nodes_; }
  const std::vector<FabricNode>& nodes() const { return nodes_; }
  int node(std::string_view id) const;         // index by topology id; throws Error
  uint16_t lid(int node, int port = 0) const;  // a switch's LID is its port 0's

  // PMA counters (IBA names: "SymbolErrorCounter", "PortXmitData", ...).
  void set_counter(int node, int port, std::string_view name, uint64_t v);
  uint64_t counter(int node, int port, std::string_view name) const;

  // Faults.
  void drop(DropRule r) { drops_.push_back(r); }
  void delay(DelayRule r) { delays_.push_back(r); }
  void clear_faults();
  void unlink(int node, int port);  // both ends go Down/Polling
  void relink(int node, int port);  // the topology's link again (ports Init, or Active with an SM)
  void set_port_disabled(int node, int port, bool disabled);  // like PortInfo Set PhysState 3
  // A degraded link: both ends report this active width and speed.
  void set_link_active(int node, int port, uint8_t width, uint8_t speed, uint8_t speed_ext = 0);

  const FabricStats& stats() const { return stats_; }

  // Where the last request sent was delivered (node -1: nowhere) and how
  // many links it crossed to get there: for the latency model (latency.h).
  struct Delivery {
    int node = -1;
    int hops = 0;
  };
  const Delivery& last_delivery() const { return last_; }

 private:
  struct Pending {
    mad::Received r;
    std::chrono::steady_clock::time_point ready;
    int after = 0;  // answers still to deliver before this one
  };
  struct Hop {  // where a request arrived: the node and the port it came in by
    int node = -1;
    int port = 0;
    int hops = 0;  // links crossed
  };
  void link_up(int a, int ap, int b, int bp);
  void link_down(int a, int ap);
  std::optional<Hop> route_lid(int from_node, int from_port, uint16_t dlid, bool smp) const;
  std::optional<Hop> owner_of(uint16_t lid) const;
  // Walks and fills ReturnPath; dlid: where a combined route starts.
  std::optional<Hop> route_directed(mad::Mad& m, uint16_t dlid) const;
  bool matches(const MadMatch& mm, int node, const mad::Mad& m) const;
  void lost(const mad::Mad& m, int timeout_ms);
  std::vector<mad::Mad> answer(mad::Mad& m, Hop at, bool directed);
  std::vector<mad::Mad> answer_smp(const mad::Mad& m, Hop at, bool directed);
  std::vector<mad::Mad> answer_pma(const mad::Mad& m, Hop at);
  std::vector<mad::Mad> answer_cc(const mad::Mad& m, Hop at);
  std::vector<mad::Mad> answer_vendor(const mad::Mad& m, Hop at);
  std::vector<mad::Mad> answer_sa(const mad::Mad& m);
  std::vector<mad::Mad> answer_sa_guid(const mad::Mad& m);  // GuidInfoRecord Set, Delete
  std::vector<mad::Mad> rmpp_ack(const mad::Mad& m);
  // The SMA's answer to a LID-routed Get of attr at node n (port p for a
  // CA); false for an error status.
  bool sma_get(int n, int p, uint16_t attr, uint32_t mod, std::span<uint8_t> out);
  // The SMA's Set of PortInfo, MlnxExtPortInfo or SMInfo (fabric_sma_set.cc):
  // applies it and returns 0, or the error status (nothing changed), or
  // nullopt for a Set dropped unanswered (a wrong M_Key).
  std::optional<uint16_t> sma_set(const mad::Mad& m, Hop at);
  uint16_t set_port_info(const mad::Mad& m, int node, int port);
  void retrain(int node, int port);
  void program_mft();
  std::vector<mad::Mad> answer_path(const mad::Mad& m, mad::Mad& r);
  std::vector<mad::Mad> sa_reply(const mad::Mad& m, mad::Mad& r, const mad::AttrDef& def,
                                 std::vector<std::vector<uint8_t>>& found);

  std::vector<FabricNode> nodes_;
  std::map<std::string, int, std::less<>> index_;
  std::vector<Hop> lids_;  // owner by LID (node -1: none)
  int attach_node_ = 0;
  int attach_port_ = 1;
  uint16_t sm_lid_ = 0;
  uint32_t sm_activity_ = 0;
  SmSettings sm_;
  FabricOptions opt_;
  std::mt19937_64 rng_;
  std::vector<DropRule> drops_;
  std::vector<DelayRule> delays_;
  std::deque<Pending> queue_;
  std::vector<uint8_t> reassembled_;
  std::map<uint64_t, std::vector<mad::Mad>>
      transfers_;  // RmppMode::Acked, by TID  // RmppMode::Reassembled, Umad2sim: the reply
                   // sa_reply built
  FabricStats stats_;
  Delivery last_;
  std::vector<McGroup> groups_;
  std::vector<FabricService> services_;
};

}  // namespace rdma::ibtest
