// The performance management agent of every node (IBA 16.1): ClassPortInfo,
// PortCounters, PortCountersExtended (with the error counters where
// additional_ext_counters), the optional counter attributes,
// PortExtendedSpeedsCounters (RS-FEC layout where rs_fec) and
// PortSamplesControl (lib/mad/attrs_pma.h; a node refuses those in
// pma_refused; every field is the counter of its IBA name), per port or
// summed over all ports (PortSelect 0xFF, where ClassPortInfo says
// AllPortSelect), and Set to clear the counters CounterSelect and
// CounterSelect2 (PortXmitWait, QP1Dropped; PortCountersExtended's error
// counters) name.
#include <algorithm>

#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"
#include "lib/testing/fabric/fabric.h"

namespace rdma::ibtest {

using mad::Mad;
namespace hdr = mad::hdr;

namespace {

// The attributes the agent answers besides ClassPortInfo.
const mad::AttrDef* pma_counter_attr(uint16_t id) {
  static const mad::AttrDef* const kAttrs[] = {
      &mad::kPortCounters,
      &mad::kPortCountersExtended,
      &mad::kPortRcvErrorDetails,
      &mad::kPortXmitDiscardDetails,
      &mad::kPortOpRcvCounters,
      &mad::kPortFlowCtlCounters,
      &mad::kPortVLOpPackets,
      &mad::kPortVLOpData,
      &mad::kPortVLXmitFlowCtlUpdateErrors,
      &mad::kPortVLXmitWaitCounters,
      &mad::kSwPortVLCongestion,
      &mad::kPortRcvConCtrl,
      &mad::kPortSLRcvFECN,
      &mad::kPortSLRcvBECN,
      &mad::kPortXmitConCtrl,
      &mad::kPortVLXmitTimeCong,
      &mad::kPortXmitDataSL,
      &mad::kPortRcvDataSL,
      &mad::kPortExtendedSpeedsCounters,
      &mad::kPortSamplesControl,
  };
  for (const mad::AttrDef* a : kAttrs)
    if (a->id == id) return a;
  return nullptr;
}

}  // namespace

std::vector<Mad> FakeFabric::answer_pma(const Mad& m, Hop at) {
  FabricNode& n = nodes_[at.node];
  if (m.get(hdr::kResponse)) return {};
  Mad r = m;
  r.set(hdr::kResponse, 1);
  r.set(hdr::kMethod, mad::kGet);
  auto fail = [&](uint16_t s) {
    r.set(hdr::kStatus, s);
    return std::vector<Mad>{r};
  };
  if (m.get(hdr::kBaseVersion) != 1 || m.get(hdr::kClassVersion) != 1)
    return fail(mad::kStatusBadVersion);
  uint8_t method = static_cast<uint8_t>(m.get(hdr::kMethod));
  if (method != mad::kGet && method != mad::kSet) return fail(mad::kStatusBadMethod);
  uint16_t attr = static_cast<uint16_t>(m.get(hdr::kAttrId));
  auto d = r.data();
  if (attr == mad::kClassPortInfo.id) {
    if (method != mad::kGet) return fail(mad::kStatusBadMethodAttr);
    std::fill(d.begin(), d.end(), 0);
    r.set_attr(mad::kClassPortInfo, "BaseVersion", 1);
    r.set_attr(mad::kClassPortInfo, "ClassVersion", 1);
    r.set_attr(mad::kClassPortInfo, "CapabilityMask",
               (n.extended_counters ? mad::kPmaCapExtendedWidth : 0) |
                   (n.all_port_select ? mad::kPmaCapAllPortSelect : 0) | mad::kPmaCapQp1Dropped |
                   (n.rs_fec ? mad::kPmaCapRsFecCounters : 0));
    r.set_attr(mad::kClassPortInfo, "CapabilityMask2",
               n.additional_ext_counters ? mad::kPmaCap2AdditionalExtCounters : 0);
    r.set_attr(mad::kClassPortInfo, "RespTimeValue", 18);
    return {r};
  }
  bool ext = attr == mad::kPortCountersExtended.id;
  const mad::AttrDef* found = pma_counter_attr(attr);
  if (!found || (ext && !n.extended_counters) || n.pma_refused.contains(attr))
    return fail(mad::kStatusBadMethodAttr);
  if (method == mad::kSet && n.pma_set_refused) return fail(mad::kStatusBadField);
  const mad::AttrDef& a = ext && n.additional_ext_counters ? mad::kPortCountersExtendedFull
                          : found == &mad::kPortExtendedSpeedsCounters && n.rs_fec
                              ? mad::kPortExtendedSpeedsRsFecCounters
                              : *found;
  bool pc = &a == &mad::kPortCounters;
  int sel = static_cast<int>(m.get_attr(a, "PortSelect"));
  std::vector<int> ports;
  if (sel == 0xff) {
    if (!n.all_port_select) return fail(mad::kStatusBadField);
    for (int p = 1; p <= n.num_ports(); ++p) ports.push_back(p);
  } else {
    if (sel > n.num_ports() || (sel == 0 && !n.is_switch())) return fail(mad::kStatusBadField);
    ports.push_back(sel);
  }
  bool has_select = mad::find_field(a, "CounterSelect") != nullptr;  // not PortSamplesControl
  uint64_t select = has_select ? m.get_attr(a, "CounterSelect") : 0;
  if (method == mad::kSet) {
    uint32_t select2 = pc ? static_cast<uint32_t>(m.get_attr(a, "CounterSelect2")) : 0;
    for (int p : ports) {
      auto& c = n.ports[p].counters;
      if (&a == &mad::kPortExtendedSpeedsRsFecCounters) {
        if (select == ~0ull)  // named bits unknown here: all ones clears them all
          for (const mad::FieldDef& f : a.fields) c.erase(f.name);
      } else if (!pc && !ext) {
        for (const mad::FieldDef& f : a.fields) {
          int bit = mad::counter_select_bit(a, f.name);
          if (bit >= 0 && (select & (1ull << bit))) c.erase(f.name);
        }
      } else if (ext) {
        auto names = mad::port_counters_ext_select();
        for (size_t i = 0; i < names.size(); ++i)
          if (select & (1u << i)) c.erase(names[i]);
        // IBA 1.3's error counters, after CounterSelect2: bit i the i-th.
        uint64_t select2 = n.additional_ext_counters ? m.get_attr(a, "CounterSelect2") : 0;
        bool after = false;
        unsigned bit = 0;
        for (const mad::FieldDef& f : a.fields) {
          if (after && (select2 >> bit++ & 1)) c.erase(f.name);
          after |= std::string_view(f.name) == "CounterSelect2";
        }
      } else {
        auto names = mad::port_counters_select();
        for (size_t i = 0; i < names.size(); ++i)
          if (select & (1u << i)) c.erase(names[i]);
        if (select2 & 1) c.erase("PortXmitWait");
        if (select2 & 2) c.erase("QP1Dropped");
      }
    }
  }
  // The reply: the request's PortSelect and CounterSelect, each counter
  // summed over the ports and saturated at its width.
  std::fill(d.begin(), d.end(), 0);
  r.set_attr(a, "PortSelect", static_cast<uint64_t>(sel));
  if (has_select) r.set_attr(a, "CounterSelect", select);
  for (const mad::FieldDef& f : a.fields) {
    std::string_view name = f.name;
    if (name == "PortSelect" || name == "OpCode" || name.starts_with("CounterSelect")) continue;
    uint64_t max = f.width >= 64 ? ~0ull : (1ull << f.width) - 1;
    uint64_t sum = 0;
    for (int p : ports) {
      auto it = n.ports[p].counters.find(name);
      uint64_t v = it == n.ports[p].counters.end() ? 0 : it->second;
      sum = sum + v < sum ? ~0ull : sum + v;
    }
    mad::set_bits(d, f.bit, f.width, std::min(sum, max));
  }
  return {r};
}

}  // namespace rdma::ibtest
