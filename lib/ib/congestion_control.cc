#include "lib/ib/congestion_control.h"

#include <algorithm>
#include <string>

#include "lib/mad/attrs.h"
#include "lib/mad/attrs_cc.h"
#include "lib/mad/mad.h"

namespace rdma::ib {

namespace {

constexpr unsigned kPortsPerBlock = 48;  // SwitchPortCongestionSetting
constexpr uint64_t kLogTypeCa = 2;       // CongestionLog's LogType of a CA

// One CC Get or Set (body: the attribute's data a Set writes); the data
// of the answer.
std::vector<uint8_t> cc_exchange(MadClient& c, uint16_t lid, const mad::AttrDef& a, uint32_t mod,
                                 uint64_t key, uint8_t method, std::span<const uint8_t> body) {
  mad::Mad m = mad::make_gmp(mad::kClassCc, method, a, mod);
  m.set(mad::hdr::kCcKey, key);
  size_t at = mad::cc_data_offset(a.id);
  std::copy(body.begin(), body.end(), m.bytes.begin() + at);
  std::string what = std::string(a.name) + (method == mad::kSet ? " Set to lid " : " from lid ") +
                     std::to_string(lid);
  mad::Mad reply = c.engine().call(m, mad::gsi_address(lid), what);
  return {reply.bytes.begin() + at, reply.bytes.end()};
}

}  // namespace

uint32_t cc_port_block(unsigned port) {
  return port / kPortsPerBlock;
}
unsigned cc_port_element(unsigned port) {
  return port % kPortsPerBlock;
}

const mad::AttrDef& cc_default_attr() {
  return mad::kCongestionInfo;
}

bool cc_has_ports(const mad::AttrDef& a) {
  return &a == &mad::kSwitchPortCongestionSetting;
}

bool cc_has_blocks(const mad::AttrDef& a) {
  return &a == &mad::kSwitchPortCongestionSetting || &a == &mad::kCongestionControlTable;
}

bool cc_read_only(const mad::AttrDef& a) {
  return &a == &mad::kCongestionInfo || &a == &mad::kCongestionLogSwitch ||
         &a == &mad::kTimestamp || &a == &mad::kClassPortInfo;
}

std::vector<uint8_t> cc_get(MadClient& c, uint16_t lid, const mad::AttrDef& a, uint32_t mod,
                            uint64_t key) {
  return cc_exchange(c, lid, a, mod, key, mad::kGet, {});
}

std::vector<uint8_t> cc_change(MadClient& c, uint16_t lid, const mad::AttrDef& a, uint32_t mod,
                               uint64_t key, std::span<const mad::Assignment> changes) {
  std::vector<uint8_t> data = cc_get(c, lid, a, mod, key);
  for (const mad::Assignment& change : changes) mad::store(change, data);
  return cc_exchange(c, lid, a, mod, key, mad::kSet, data);
}

const mad::AttrDef& cc_layout(const mad::AttrDef& a, std::span<const uint8_t> data) {
  if (&a == &mad::kCongestionLogSwitch && mad::get_field(a, data, "LogType") == kLogTypeCa)
    return mad::kCongestionLogCa;
  return a;
}

}  // namespace rdma::ib
