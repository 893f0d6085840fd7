// The one PMA client (libibmad's pma_query_via / performance_reset_via):
// what a PMA's ClassPortInfo says it has, the counter groups `perf` names,
// which ports a query covers, the layout each reply is decoded by (the
// capability bits and RS-FEC), and resets by counter name, turned into
// CounterSelect / CounterSelect2 here and nowhere else. The request
// builders serve the engine's sweeps (lib/ib/errors.h); PmaClient asks one
// PMA, one query at a time (perf).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ib/client.h"
#include "lib/ib/rates.h"
#include "lib/ib/smp.h"
#include "lib/mad/field.h"
#include "lib/mad/mad.h"
#include "lib/mad/target.h"
#include "lib/view/record.h"

namespace rdma::ib {

// What the PMA's ClassPortInfo says it has. An optional attribute with no
// capability bit is asked anyway: a PMA without it answers "unsupported".
struct PmaCaps {
  uint16_t mask = 0;   // CapabilityMask
  uint32_t mask2 = 0;  // CapabilityMask2
  static PmaCaps from(std::span<const uint8_t> class_port_info);
  bool all_port_select() const;
  // PortCountersExtended (IsExtendedWidthSupported or its NoIETF form), as
  // perfquery reads it.
  bool extended() const;
  // PortCountersExtended holds the 64-bit error counters too (IBA 1.3).
  bool extended_errors() const;
  // PortExtendedSpeedsCounters may have its RS-FEC layout.
  bool rs_fec_counters() const;
  // CounterSelect2 bit 1 clears QP1Dropped.
  bool qp1_dropped() const;
  // CapabilityMask as a warning names it ("0x0300").
  std::string mask_text() const;
};

// A word of `perf show` and the PMA attributes it reads, in print order.
struct CounterGroup {
  const char* word;
  std::span<const mad::AttrDef* const> attrs;
};
std::span<const CounterGroup> counter_groups();
// PortCounters: what a show reads without a group, and the one attribute
// every PMA has (its failure is the PMA's).
const mad::AttrDef& port_counters();
// What a reset without a group clears: PortCounters and
// PortCountersExtended (where the PMA has it).
std::span<const mad::AttrDef* const> default_reset_attrs();
// False for PortSamplesControl: a sampling set-up, nothing to reset or rate.
bool has_counters(const mad::AttrDef& a);
// A counter's name as `perf show` prints it, in any group's attribute.
bool is_counter_name(std::string_view label);
// The first of counters that none of attrs has; nullptr when all are known.
const std::string* unknown_counter(std::span<const mad::AttrDef* const> attrs,
                                   std::span<const std::string> counters);

// The CounterSelect (and CounterSelect2) of a Set of attr that clears the
// counters named by their printed names (every one when none is); both 0:
// none of them is attr's.
struct ResetSelect {
  uint64_t select = 0;
  uint32_t select2 = 0;
  explicit operator bool() const { return select || select2; }
};
ResetSelect reset_select(const mad::AttrDef& attr, std::span<const std::string> counters);
// What ibclearerrors clears (the error counters and PortXmitWait, and
// QP1Dropped where caps say so) or, with all, ibclearcounters (every
// PortCounters counter).
ResetSelect clear_select(bool all, const PmaCaps& caps);
// What ibclearcounters clears of PortCountersExtended: its traffic
// counters (CounterSelect only; its 1.3 error counters stay).
ResetSelect extended_clear_select();

// The GMPs a PMA is asked, for the engine: ClassPortInfo, a Get of attr at
// PortSelect port (kAllPorts: the sum), a Set that clears what sel names.
mad::Mad class_port_info_request();
mad::Mad counters_request(const mad::AttrDef& attr, uint8_t port);
mad::Mad reset_request(const mad::AttrDef& attr, uint8_t port, const ResetSelect& sel);
// The first bytes of a reply that are attr's.
std::vector<uint8_t> attr_bytes(const mad::Mad& reply, const mad::AttrDef& attr);

// A reply of one port's attribute, with the layout it is decoded by.
struct PortReply {
  const mad::AttrDef* asked;  // the group's attribute: what a reset sets
  const mad::AttrDef* attr;   // its layout in this reply
  mad::Mad reply;
};
// Adds the counters of a port's replies at or below detail, each name once:
// a counter two attributes have (PortCounters' and PortCountersExtended's
// xmit_bytes) shows the later, wider one; the other fields the first.
void add_counters(std::span<const PortReply> replies, int detail, view::Record& rec);
// The counters add_counters shows without -d, as rates read them.
std::vector<CounterReading> counter_readings(std::span<const PortReply> replies);
// ClassPortInfo's fields, the capability bits named after each mask.
void add_class_port_info(std::span<const uint8_t> cpi, int detail, view::Record& rec);

// Which ports a query covers: those listed; every port (`all`: the sum
// where the PMA has AllPortSelect); or each in turn (`each`, perfquery -l).
struct PortChoice {
  std::vector<uint8_t> list;
  bool all = false;
  bool each = false;
};

// One PMA at route (a LID), asked through client one query at a time.
class PmaClient {
 public:
  PmaClient(MadClient& client, const mad::Route& route);
  const mad::Route& route() const { return route_; }
  // The node's NodeInfo (an SMP), read once.
  const NodeInfo& node();
  // ClassPortInfo's capabilities, read when something depends on them
  // (`port all`, an attribute besides PortCounters); zero otherwise.
  PmaCaps caps_for(bool all, std::span<const mad::AttrDef* const> attrs);
  // ClassPortInfo's bytes.
  std::vector<uint8_t> class_port_info();
  // The ports choice covers; Error for a port the node lacks, before
  // anything is read. `each` on a switch with an enhanced port 0 starts
  // with port 0 (one SMP more, as perfquery -l).
  std::vector<uint8_t> ports(const PortChoice& choice, const PmaCaps& caps);
  // Why the PMA cannot have attr by its capabilities; nullopt: ask it.
  std::optional<std::string> lacks(const mad::AttrDef& attr, const PmaCaps& caps) const;
  // attr at port, with its layout; mad::MadError when the PMA refuses.
  PortReply read(const mad::AttrDef& attr, uint8_t port, const PmaCaps& caps);
  // Clears attr's counters named (all when none is) at port; false when
  // none of them is attr's. mad::MadError when the PMA refuses.
  bool reset(const mad::AttrDef& attr, uint8_t port, std::span<const std::string> counters);

 private:
  bool port_rs_fec(const PmaCaps& caps, uint8_t port);

  MadClient& client_;
  mad::Route route_;
  std::optional<NodeInfo> node_;
};

}  // namespace rdma::ib
