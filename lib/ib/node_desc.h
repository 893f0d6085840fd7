// The node description a local device gives in its NodeDescription
// (what the fabric's views name it by): the kernel keeps it in sysfs,
// /sys/class/infiniband/DEV/node_desc, where set_nodedesc.sh and rdma-ndd
// write it; no netlink attribute carries it. The directory is a parameter:
// the seam tests put a temporary one in.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rdma::ib {

inline constexpr const char* kSysfsInfiniband = "/sys/class/infiniband";
// NodeDescription's size (IBA 14.2.5.2): the kernel keeps at most this.
inline constexpr size_t kNodeDescBytes = 64;

// What is wrong with text as a description: empty, longer than
// kNodeDescBytes, or with a control character (a NUL would end it early,
// a newline break the views' lines). nullopt when it is fine.
std::optional<std::string> node_desc_problem(const std::string& text);

// The devices under root that have a node_desc file, sorted.
std::vector<std::string> node_desc_devices(const std::string& root);

// DEV's description as sysfs shows it, without the newline it adds.
// Throws Error when it cannot be read.
std::string read_node_desc(const std::string& root, const std::string& dev);

// Writes text as DEV's description (as set_nodedesc.sh: the bytes, no
// newline) and reads it back. Throws Error naming the file and why when it
// cannot be written (a read-only sysfs, as in most containers; a driver
// that cannot change it), or when it reads back otherwise.
void write_node_desc(const std::string& root, const std::string& dev, const std::string& text);

}  // namespace rdma::ib
