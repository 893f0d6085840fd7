// rdma gid show: the valid entries of the GID tables, one line each (what
// Mellanox's show_gids prints: device, port, index, GID, IPv4 address when
// the GID holds one, type, netdev), filtered by port, type and netdev.
#pragma once

#include <optional>
#include <string>

#include "lib/verbs/verbs.h"
#include "lib/view/record.h"

namespace rdma::verbs {

struct GidFilter {
  uint32_t port = 0;             // 0: every port
  std::optional<uint32_t> type;  // enum ibv_gid_type
  std::string netdev;            // empty: any
  bool matches(const Gid& g) const;
};

// "ib", "roce-v1", "roce-v2" <-> enum ibv_gid_type; parse throws Error.
const char* gid_type_name(uint32_t t);
uint32_t parse_gid_type(const std::string& word);

// "fe80:0000:0000:0000:5054:00ff:fe12:3456", as sysfs and ibv_devinfo print it.
std::string gid_text(const uint8_t (&raw)[16]);
// The IPv4 address of an IPv4-mapped GID (::ffff:a.b.c.d); empty otherwise.
std::string gid_ipv4(const uint8_t (&raw)[16]);

void gid_record(const std::string& dev, const Gid& g, view::Record& out);

}  // namespace rdma::verbs
