// vendstat's other queries of a Mellanox switch's vendor agent (class
// 0x0a; GeneralInfo, -N, is lib/ib/vendor.h's): the InfiniScale III
// configuration space (-R, -W), its port xmit wait counters (-w), and the
// InfiniScale IV counter groups of a port (-i, -c). The MADs are built in
// lib/mad/vendor.h; the front end is rdma node vendor.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/ib/client.h"
#include "lib/mad/vendor.h"

namespace rdma::ib {

// Throws UsageError unless 1 to mad::kConfigRecordsMax records of kind
// (read, write) fit one access: the front end asks before sending any.
void check_config_records(size_t n, const std::string& kind);

// The records at the addresses of want (their masks), as the device
// answers them (data with its mask). At most mad::kConfigRecordsMax.
std::vector<mad::ConfigRecord> config_space_read(MadClient& c, uint16_t lid,
                                                 std::span<const mad::ConfigRecord> want);

// Writes the records (the bits of each mask), then reads them back:
// throws Error naming the first record whose masked bits differ. Returns
// what was read back.
std::vector<mad::ConfigRecord> config_space_write(MadClient& c, uint16_t lid,
                                                  std::span<const mad::ConfigRecord> records);

// One port's PortXmitWait (32 bits), labelled as vendstat labels it.
struct XmitWait {
  unsigned port = 0;
  uint32_t value = 0;
};

// vendstat -w: the agent's ClassPortInfo and GeneralInfo first (an
// InfiniScale III only: another device id is an Error naming it), then
// the 24 counters in two reads.
std::vector<XmitWait> is3_port_xmit_wait(MadClient& c, uint16_t lid);

// vendstat -i: port's counter groups.
mad::CounterGroupInfo counter_group_info(MadClient& c, uint16_t lid, uint8_t port);

// vendstat -c: selects port's counter groups, then reads the selects
// back (vendstat reads without looking): an Error when they differ.
void config_counter_groups(MadClient& c, uint16_t lid, uint8_t port,
                           const mad::CounterGroupSelect& select);

}  // namespace rdma::ib
