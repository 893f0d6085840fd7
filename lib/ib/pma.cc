#include "lib/ib/pma.h"

#include <algorithm>
#include <cstdio>

#include "lib/error.h"
#include "lib/ib/lid_route.h"
#include "lib/ib/port_select.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_ext.h"
#include "lib/mad/attrs_pma.h"
#include "lib/mad/bits.h"
#include "lib/mad/format.h"
#include "lib/mad/result.h"
#include "lib/mad/speed.h"
#include "lib/view/number.h"

namespace rdma::ib {

namespace {

constexpr const mad::AttrDef* kCountersAttrs[] = {&mad::kPortCounters};
constexpr const mad::AttrDef* kExtendedAttrs[] = {&mad::kPortCountersExtended};
constexpr const mad::AttrDef* kDetailsAttrs[] = {&mad::kPortRcvErrorDetails,
                                                 &mad::kPortXmitDiscardDetails};
constexpr const mad::AttrDef* kVlAttrs[] = {&mad::kPortVLXmitWaitCounters};
constexpr const mad::AttrDef* kSlAttrs[] = {&mad::kPortXmitDataSL, &mad::kPortRcvDataSL};
constexpr const mad::AttrDef* kOpAttrs[] = {&mad::kPortOpRcvCounters, &mad::kPortVLOpPackets,
                                            &mad::kPortVLOpData};
constexpr const mad::AttrDef* kFlowCtlAttrs[] = {&mad::kPortFlowCtlCounters,
                                                 &mad::kPortVLXmitFlowCtlUpdateErrors};
constexpr const mad::AttrDef* kCongestionAttrs[] = {
    &mad::kSwPortVLCongestion, &mad::kPortRcvConCtrl,  &mad::kPortSLRcvFECN,
    &mad::kPortSLRcvBECN,      &mad::kPortXmitConCtrl, &mad::kPortVLXmitTimeCong};
constexpr const mad::AttrDef* kSpeedsAttrs[] = {&mad::kPortExtendedSpeedsCounters};
constexpr const mad::AttrDef* kSamplesAttrs[] = {&mad::kPortSamplesControl};
constexpr CounterGroup kGroups[] = {
    {"counters", kCountersAttrs},
    {"extended", kExtendedAttrs},
    {"details", kDetailsAttrs},
    {"vl", kVlAttrs},
    {"sl", kSlAttrs},
    {"op", kOpAttrs},
    {"flowctl", kFlowCtlAttrs},
    {"congestion", kCongestionAttrs},
    {"speeds", kSpeedsAttrs},
    {"samples", kSamplesAttrs},
};
constexpr const mad::AttrDef* kDefaultReset[] = {&mad::kPortCounters, &mad::kPortCountersExtended};

// The fields a port's record shows of each reply: those at or below
// detail, each name once (see add_counters).
std::vector<std::vector<const mad::FieldDef*>> shown_fields(std::span<const PortReply> replies,
                                                            int detail) {
  auto has = [&](size_t i, const mad::FieldDef& f, bool counters_only) {
    for (const mad::FieldDef& g : replies[i].attr->fields)
      if (g.level <= detail && (!counters_only || g.level == mad::kShow) &&
          std::string_view(g.label) == f.label)
        return true;
    return false;
  };
  std::vector<std::vector<const mad::FieldDef*>> out(replies.size());
  for (size_t i = 0; i < replies.size(); ++i)
    for (const mad::FieldDef& f : replies[i].attr->fields) {
      if (f.level > detail) continue;
      bool shown = true, counter = f.level == mad::kShow;
      for (size_t j = 0; j < i && shown && !counter; ++j) shown = !has(j, f, false);
      for (size_t j = i + 1; j < replies.size() && shown && counter; ++j) shown = !has(j, f, true);
      if (shown) out[i].push_back(&f);
    }
  return out;
}

// A ClassPortInfo field by its IBA name.
uint64_t cpi_field(std::span<const uint8_t> cpi, const char* name) {
  const mad::FieldDef* f = mad::find_field(mad::kClassPortInfo, name);
  return mad::get_bits(cpi, f->bit, f->width);
}

}  // namespace

PmaCaps PmaCaps::from(std::span<const uint8_t> cpi) {
  return {static_cast<uint16_t>(cpi_field(cpi, "CapabilityMask")),
          static_cast<uint32_t>(cpi_field(cpi, "CapabilityMask2"))};
}

bool PmaCaps::all_port_select() const {
  return mask & mad::kPmaCapAllPortSelect;
}
bool PmaCaps::extended() const {
  return mask & (mad::kPmaCapExtendedWidth | mad::kPmaCapExtendedWidthNoIetf);
}
bool PmaCaps::extended_errors() const {
  return mask2 & mad::kPmaCap2AdditionalExtCounters;
}
bool PmaCaps::rs_fec_counters() const {
  return mask & mad::kPmaCapRsFecCounters;
}
bool PmaCaps::qp1_dropped() const {
  return mask & mad::kPmaCapQp1Dropped;
}
std::string PmaCaps::mask_text() const {
  return view::hex_text(mask, 4);
}

std::span<const CounterGroup> counter_groups() {
  return kGroups;
}

const mad::AttrDef& port_counters() {
  return mad::kPortCounters;
}

std::span<const mad::AttrDef* const> default_reset_attrs() {
  return kDefaultReset;
}

bool has_counters(const mad::AttrDef& a) {
  return &a != &mad::kPortSamplesControl;
}

bool is_counter_name(std::string_view label) {
  for (const CounterGroup& g : kGroups)
    for (const mad::AttrDef* a : g.attrs)
      for (const mad::FieldDef& f : a->fields)
        if (has_counters(*a) && f.level == mad::kShow && label == f.label) return true;
  return false;
}

const std::string* unknown_counter(std::span<const mad::AttrDef* const> attrs,
                                   std::span<const std::string> counters) {
  for (const std::string& name : counters) {
    bool found = false;
    for (const mad::AttrDef* a : attrs) found |= bool(reset_select(*a, {&name, 1}));
    if (!found) return &name;
  }
  return nullptr;
}

ResetSelect reset_select(const mad::AttrDef& attr, std::span<const std::string> counters) {
  bool pc = &attr == &mad::kPortCounters, ext = &attr == &mad::kPortCountersExtended;
  if (!has_counters(attr)) return {};
  if (counters.empty() && &attr == &mad::kPortExtendedSpeedsCounters) return {~0ull, 0};
  // Every counter: PortCountersExtended's CounterSelect2 clears IBA 1.3's
  // 64-bit error counters (reserved where the PMA lacks them), as perfquery
  // -x -R sets it.
  if (counters.empty()) return {ext ? 0xffu : 0xffffu, pc ? 0xffu : ext ? 0xffffu : 0u};
  auto bit_of = [&](const char* name) {
    auto names = pc ? mad::port_counters_select() : mad::port_counters_ext_select();
    if (!pc && !ext) return mad::counter_select_bit(attr, name);
    for (size_t i = 0; i < names.size(); ++i)
      if (std::string_view(names[i]) == name) return static_cast<int>(i);
    return -1;
  };
  ResetSelect r;
  for (const mad::FieldDef& f : attr.fields) {
    if (f.level != mad::kShow ||
        std::find(counters.begin(), counters.end(), f.label) == counters.end())
      continue;
    // CounterSelect2: bit 0 PortXmitWait, bit 1 QP1Dropped (IBA 1.3; as
    // perfquery -R sets them).
    if (pc && std::string_view(f.name) == "PortXmitWait") {
      r.select2 |= 1;
      continue;
    }
    if (pc && std::string_view(f.name) == "QP1Dropped") {
      r.select2 |= 2;
      continue;
    }
    int bit = bit_of(f.name);
    if (bit >= 0) r.select |= 1ull << bit;
  }
  return r;
}

ResetSelect clear_select(bool all, const PmaCaps& caps) {
  // CounterSelect bits 0-11 are the error counters, 12-15 the traffic
  // counters (port_counters_select's order); CounterSelect2 bit 0 is
  // PortXmitWait, bit 1 QP1Dropped (set, as perfquery -R does, where the
  // PMA says it has it).
  std::vector<std::string> names;
  auto select = mad::port_counters_select();
  for (const char* n : all ? select : select.first(12))
    names.push_back(mad::find_field(mad::kPortCounters, n)->label);
  names.push_back(mad::find_field(mad::kPortCounters, "PortXmitWait")->label);
  if (caps.qp1_dropped()) names.push_back(mad::find_field(mad::kPortCounters, "QP1Dropped")->label);
  return reset_select(mad::kPortCounters, names);
}

ResetSelect extended_clear_select() {
  std::vector<std::string> names;
  for (const char* n : mad::port_counters_ext_select())
    names.push_back(mad::find_field(mad::kPortCountersExtended, n)->label);
  return reset_select(mad::kPortCountersExtended, names);
}

mad::Mad class_port_info_request() {
  return mad::make_gmp(mad::kClassPerf, mad::kGet, mad::kClassPortInfo, 0);
}

mad::Mad counters_request(const mad::AttrDef& attr, uint8_t port) {
  mad::Mad m = mad::make_gmp(mad::kClassPerf, mad::kGet, attr, 0);
  m.set_attr(attr, "PortSelect", port);
  return m;
}

mad::Mad reset_request(const mad::AttrDef& attr, uint8_t port, const ResetSelect& sel) {
  mad::Mad m = mad::make_gmp(mad::kClassPerf, mad::kSet, attr, 0);
  m.set_attr(attr, "PortSelect", port);
  m.set_attr(attr, "CounterSelect", sel.select);
  if (&attr == &mad::kPortCounters) m.set_attr(attr, "CounterSelect2", sel.select2);
  if (&attr == &mad::kPortCountersExtended && sel.select2)  // in the 1.3 layout only
    m.set_attr(mad::kPortCountersExtendedFull, "CounterSelect2", sel.select2);
  return m;
}

std::vector<uint8_t> attr_bytes(const mad::Mad& m, const mad::AttrDef& a) {
  auto d = m.data();
  return {d.begin(), d.begin() + std::min<size_t>(a.bytes, d.size())};
}

void add_counters(std::span<const PortReply> replies, int detail, view::Record& rec) {
  std::vector<std::vector<const mad::FieldDef*>> fields = shown_fields(replies, detail);
  for (size_t i = 0; i < replies.size(); ++i)
    for (const mad::FieldDef* f : fields[i])
      mad::decode_fields({f, 1}, replies[i].reply.data(), detail, rec);
}

std::vector<CounterReading> counter_readings(std::span<const PortReply> replies) {
  std::vector<std::vector<const mad::FieldDef*>> fields = shown_fields(replies, mad::kShow);
  std::vector<CounterReading> out;
  for (size_t i = 0; i < replies.size(); ++i) {
    std::vector<CounterReading> r = readings(fields[i], replies[i].reply.data());
    out.insert(out.end(), r.begin(), r.end());
  }
  return out;
}

void add_class_port_info(std::span<const uint8_t> cpi, int detail, view::Record& rec) {
  for (const mad::FieldDef& f : mad::kClassPortInfo.fields) {
    mad::decode_fields({&f, 1}, cpi, detail, rec);
    std::string_view name = f.name;
    std::string bits;
    if (name == "CapabilityMask")
      bits = mad::pma_caps_names(static_cast<uint16_t>(cpi_field(cpi, f.name)));
    else if (name == "CapabilityMask2")
      bits = mad::pma_caps2_names(static_cast<uint32_t>(cpi_field(cpi, f.name)));
    if (!bits.empty()) rec.pair(std::string(f.label) + "_names", bits);
  }
}

PmaClient::PmaClient(MadClient& client, const mad::Route& route)
    : client_(client), route_(lid_route(client, route, "its PMA is reached by LID")) {}

const NodeInfo& PmaClient::node() {
  if (!node_) node_ = NodeInfo::from(client_.smp(route_, mad::kGet, mad::kNodeInfo, 0).data());
  return *node_;
}

std::vector<uint8_t> PmaClient::class_port_info() {
  mad::Mad cpi = client_.gmp(route_.lid, mad::kClassPerf, mad::kGet, mad::kClassPortInfo, 0);
  auto d = cpi.data();
  return {d.begin(), d.end()};
}

PmaCaps PmaClient::caps_for(bool all, std::span<const mad::AttrDef* const> attrs) {
  bool need = all;
  for (const mad::AttrDef* attr : attrs) need |= attr != &mad::kPortCounters;
  if (!need) return {};
  return PmaCaps::from(class_port_info());
}

std::vector<uint8_t> PmaClient::ports(const PortChoice& choice, const PmaCaps& caps) {
  const NodeInfo& n = node();
  for (uint8_t p : choice.list) check_port(n, p, mad::route_text(route_));
  if (!choice.list.empty()) return choice.list;
  if (choice.each) {
    std::vector<uint8_t> out = perf_ports(n, std::nullopt, true, false);
    if (n.is_switch() &&
        SwitchInfo::from(client_.smp(route_, mad::kGet, mad::kSwitchInfo, 0).data()).enhanced_port0)
      out.insert(out.begin(), 0);
    return out;
  }
  return perf_ports(n, std::nullopt, choice.all, caps.all_port_select());
}

std::optional<std::string> PmaClient::lacks(const mad::AttrDef& attr, const PmaCaps& caps) const {
  if (&attr == &mad::kPortCountersExtended && !caps.extended())
    return "not in the PMA's CapabilityMask " + caps.mask_text();
  return std::nullopt;
}

// As perfquery -T: asked only when the PMA has IsRSFECCountersSupported,
// then PortInfo (a switch's port 0's) must have IsPortInfoExtendedSupported
// and PortInfoExtended say RS-FEC. An SMA that does not answer: the plain
// layout, as perfquery.
bool PmaClient::port_rs_fec(const PmaCaps& caps, uint8_t port) {
  if (!caps.rs_fec_counters()) return false;
  try {
    mad::Mad pi = client_.smp(route_, mad::kGet, mad::kPortInfo, node().is_switch() ? 0 : port);
    if (!(pi.get_attr(mad::kPortInfo, "CapabilityMask") & mad::kCapMask2Supported) ||
        !(pi.get_attr(mad::kPortInfo, "CapabilityMask2") & mad::kPortCap2PortInfoExtended))
      return false;
    return mad::rs_fec_active(client_.smp(route_, mad::kGet, mad::kPortInfoExtended, port).data());
  } catch (const mad::MadError&) {
    return false;
  }
}

PortReply PmaClient::read(const mad::AttrDef& attr, uint8_t port, const PmaCaps& caps) {
  mad::Mad body = counters_request(attr, port);
  mad::Mad reply = client_.gmp(route_.lid, mad::kClassPerf, mad::kGet, attr, 0, &body);
  const mad::AttrDef* layout = &attr;
  if (&attr == &mad::kPortCountersExtended && caps.extended_errors())
    layout = &mad::kPortCountersExtendedFull;
  else if (&attr == &mad::kPortExtendedSpeedsCounters && port != kAllPorts &&
           port_rs_fec(caps, port))
    layout = &mad::kPortExtendedSpeedsRsFecCounters;
  return {&attr, layout, std::move(reply)};
}

bool PmaClient::reset(const mad::AttrDef& attr, uint8_t port,
                      std::span<const std::string> counters) {
  ResetSelect sel = reset_select(attr, counters);
  if (!sel) return false;
  mad::Mad body = reset_request(attr, port, sel);
  client_.gmp(route_.lid, mad::kClassPerf, mad::kSet, attr, 0, &body);
  return true;
}

}  // namespace rdma::ib
