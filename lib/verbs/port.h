// rdma link status: a port's link as verbs sees it (ibv_query_port): link
// layer, state, MTUs, width, ibstat's rate and port GUID; with -d the lane
// speed and every other attribute ibv_devinfo -v prints for the port. One
// line per port, "link DEV/PORT".
#pragma once

#include <optional>
#include <string>

#include "lib/mad/speed.h"
#include "lib/verbs/verbs.h"
#include "lib/view/record.h"

namespace rdma::verbs {

// An ibv_query_port_speed answer (100 Mb/s units) as "2.5Gb/s", "400Gb/s".
std::string speed_text(uint64_t speed);

// The generation of ibv_port_attr's active_speed (Unknown for a value that
// names none).
mad::Generation generation(uint8_t active_speed);

// The port GUID in a port's GID 0 (its interface ID, as ibstat reads it
// from sysfs gids/0).
uint64_t port_guid(const Gid& gid0);

// A port's line: state, MTUs, width, and the rate as ibstat prints it;
// with details the lane speed and the rest of ibv_devinfo -v.
// port_guid: shown after the rate where the port's GID 0 is known.
// effective: ibv_query_port_speed's answer (100 Mb/s units), shown after
// speed as "effective_speed 400Gb/s" (JSON effective_speed_mbps) when known.
void port_record(const std::string& dev, uint8_t port, const ibv_port_attr& a, int details,
                 view::Record& out, std::optional<uint64_t> effective = std::nullopt,
                 std::optional<uint64_t> port_guid = std::nullopt);

}  // namespace rdma::verbs
