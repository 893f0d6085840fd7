#include "lib/ib/mellanox.h"

#include <cstdio>
#include <string>

#include "lib/error.h"
#include "lib/ib/vendor.h"
#include "lib/mad/attrs.h"

namespace rdma::ib {

namespace {

std::string from(uint16_t lid) {
  return " from lid " + std::to_string(lid);
}

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

// One config space access of records (a Get or a Set); the answer's
// records.
std::vector<mad::ConfigRecord> config_space_call(MadClient& c, uint16_t lid, bool set,
                                                 std::span<const mad::ConfigRecord> records) {
  check_config_records(records.size(), set ? "write" : "read");
  auto n = static_cast<unsigned>(records.size());
  uint32_t mod = mad::config_space_mod(n);
  mad::Mad m = set ? mad::make_vendor_set(mad::kClassMellanox, mad::kMellanoxConfigSpace, mod)
                   : mad::make_vendor_get(mad::kClassMellanox, mad::kMellanoxConfigSpace, mod);
  mad::encode_config_records(records, mad::vendor_data(m));
  mad::Mad r =
      c.engine().call(m, mad::gsi_address(lid),
                      std::string(set ? "config space write to lid " : "config space read") +
                          (set ? std::to_string(lid) : from(lid)));
  return mad::decode_config_records(mad::vendor_data(r), n);
}

}  // namespace

void check_config_records(size_t n, const std::string& kind) {
  if (n < 1 || n > mad::kConfigRecordsMax)
    throw UsageError("a config space access takes 1 to " + std::to_string(mad::kConfigRecordsMax) +
                     " " + kind + " records, not " + std::to_string(n));
}

std::vector<mad::ConfigRecord> config_space_read(MadClient& c, uint16_t lid,
                                                 std::span<const mad::ConfigRecord> want) {
  return config_space_call(c, lid, false, want);
}

std::vector<mad::ConfigRecord> config_space_write(MadClient& c, uint16_t lid,
                                                  std::span<const mad::ConfigRecord> records) {
  config_space_call(c, lid, true, records);
  std::vector<mad::ConfigRecord> back = config_space_call(c, lid, false, records);
  for (size_t i = 0; i < records.size(); ++i) {
    uint32_t want = records[i].data & records[i].mask;
    uint32_t got = back[i].data & records[i].mask;
    if (want != got)
      throw Error("config space record at " + hex(records[i].address) + " of lid " +
                  std::to_string(lid) + " reads back " + hex(got) + " after writing " + hex(want));
  }
  return back;
}

std::vector<XmitWait> is3_port_xmit_wait(MadClient& c, uint16_t lid) {
  mad::MellanoxGeneralInfo g = mellanox_general_info(c, lid);
  if (g.device_id != mad::kIs3DeviceId)
    throw Error("lid " + std::to_string(lid) + " is device " + hex(g.device_id) +
                ": port xmit wait counters are an InfiniScale III's (" + hex(mad::kIs3DeviceId) +
                ")");
  std::vector<XmitWait> out;
  // vendstat's two reads: 16 blocks, then 8.
  for (auto [first, count] : {std::pair{1u, 16u}, std::pair{17u, 8u}}) {
    std::vector<mad::ConfigRecord> want(count);
    for (unsigned i = 0; i < count; ++i) want[i].address = mad::is3_xmit_wait_address(first + i);
    std::vector<mad::ConfigRecord> got = config_space_read(c, lid, want);
    for (unsigned i = 0; i < count; ++i)
      out.push_back({mad::is3_xmit_wait_port(first + i), got[i].data});
  }
  return out;
}

mad::CounterGroupInfo counter_group_info(MadClient& c, uint16_t lid, uint8_t port) {
  mad::Mad m = mad::make_vendor_get(mad::kClassMellanox, mad::kMellanoxCounterGroupInfo, port);
  mad::Mad r = c.engine().call(m, mad::gsi_address(lid), "counter group info" + from(lid));
  return mad::decode_counter_group_info(mad::vendor_data(r));
}

void config_counter_groups(MadClient& c, uint16_t lid, uint8_t port,
                           const mad::CounterGroupSelect& select) {
  mad::Mad m = mad::make_vendor_set(mad::kClassMellanox, mad::kMellanoxConfigCounterGroup, port);
  mad::encode_counter_group_select(select, mad::vendor_data(m));
  c.engine().call(m, mad::gsi_address(lid), "counter group config to lid " + std::to_string(lid));
  mad::Mad g = mad::make_vendor_get(mad::kClassMellanox, mad::kMellanoxConfigCounterGroup, port);
  mad::Mad r = c.engine().call(g, mad::gsi_address(lid), "counter group config" + from(lid));
  mad::CounterGroupSelect back = mad::decode_counter_group_select(mad::vendor_data(r));
  for (unsigned i = 0; i < mad::kCounterGroups; ++i)
    if (back[i] != select[i])
      throw Error("counter group " + std::to_string(i) + " of lid " + std::to_string(lid) +
                  " port " + std::to_string(port) + " reads back " + std::to_string(back[i]) +
                  " after selecting " + std::to_string(select[i]));
}

}  // namespace rdma::ib
