// Names of nldev enum values as iproute2 prints them.
#pragma once

#include <cstdint>

namespace rdma::nldev {

const char* node_type_name(uint8_t v);
const char* port_state_name(uint8_t v);
const char* phys_state_name(uint8_t v);
const char* dev_cap_name(unsigned bit);   // IB_DEVICE_* capability bit
const char* port_cap_name(unsigned bit);  // IB_PORT_* capability bit

}  // namespace rdma::nldev
