// Names of verbs values as ibv_devinfo prints them (rdma-core's
// libibverbs/examples/devinfo.c), so that both tools say the same words.
#pragma once

#include <cstdint>
#include <string>

#include "lib/view/record.h"

namespace rdma::verbs {

const char* transport_name(int t);   // "InfiniBand", "iWARP", ...
const char* atomic_cap_name(int a);  // "ATOMIC_HCA", ...
const char* mtu_name(int m);         // "1024", ...
const char* width_name(uint8_t w);   // "4X", ...
const char* speed_name(uint8_t s);   // Gb/s per lane: "2.5", "25.0", ...
const char* port_state_name(int s);  // "ACTIVE", ... (iproute2's words)
const char* phys_state_name(uint8_t s);
const char* link_layer_name(uint8_t l);
const char* vl_name(uint8_t v);  // "1", "2", "4", "8", "15"

// The names of a flags word, in bit order; bits without a name end the list
// as one "0x..." (ibv_devinfo prints them as "Unknown flags: 0x...").
struct Flag {
  uint64_t bit;
  const char* name;
};
view::Json flag_names(uint64_t v, const Flag* flags, size_t n);
template <size_t N>
view::Json flag_names(uint64_t v, const Flag (&flags)[N]) {
  return flag_names(v, flags, N);
}
// "<A, B>", as iproute2 prints capability lists.
std::string flag_text(const view::Json& names);

extern const Flag kDeviceCapFlags[24];
extern const Flag kDeviceCapFlagsEx[2];
extern const Flag kOdpGeneralCaps[2];
extern const Flag kOdpTransportCaps[6];
extern const Flag kRawPacketCaps[4];
extern const Flag kSupportedQpts[2];
extern const Flag kTmCaps[1];

}  // namespace rdma::verbs
