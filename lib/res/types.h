// The resource types of `rdma resource show`: per type its nldev commands,
// attributes, output columns and filter keys. A type is a table, not code.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "lib/res/filter.h"
#include "lib/res/names.h"

namespace rdma::res {

// The id restrack keys an SMI or GSI QP (QP0, QP1) by: its number with
// the port in bits 24 and up (the kernel's qp_restrack_id).
inline uint32_t special_qp_id(uint32_t qp_num, uint32_t port) {
  return qp_num | port << 24;
}

// How a column shows its attribute.
enum class Col {
  kLink,       // "link DEV/PORT" or "link DEV/-"; JSON ifindex, ifname, port
  kDev,        // "dev DEV"; JSON ifindex, ifname
  kNum,        // decimal number (u8, u32 or u64 attribute)
  kKey,        // hex: "0x2eb" in text, "2eb" in JSON (iproute2's print_key)
  kName,       // enum value by name
  kPortSpace,  // RES_PS by name
  kOnOff,      // u8 0/1 as off/on, JSON boolean; other values hide it
  kAddr,       // sockaddr as ADDR:PORT ([ADDR]:PORT for IPv6)
  kQpList,     // an SRQ's QPs as "1,4-6"
  kComm,       // process name from /proc, or [kernel module]
  kDriver,     // drv_* attributes (-dd)
};

struct Column {
  std::string_view key;  // JSON key and text label
  Col col;
  int attr = 0;
  const Names* names = nullptr;  // kName
};

struct TypeSpec {
  const char* name;  // "qp"
  int cmd;           // RDMA_NLDEV_CMD_RES_*_GET
  int raw_cmd;       // RDMA_NLDEV_CMD_RES_*_GET_RAW; 0: no raw form
  int table;         // RDMA_NLDEV_ATTR_RES_QP
  int entry;         // RDMA_NLDEV_ATTR_RES_QP_ENTRY
  int id_attr;       // the attribute a doit selects by (RES_LQPN)
  bool per_port;     // objects belong to a port: "link DEV/PORT" scope
  std::span<const Column> columns;
  std::span<const FilterKey> keys;  // iproute2's order, which abbreviations follow
};

// All types, in the order of iproute2's `res show` table (for abbreviations).
std::span<const TypeSpec> types();

}  // namespace rdma::res
