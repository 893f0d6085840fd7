// A node-name-map file, as infiniband-diags reads it (--node-name-map):
// the names a site gives its nodes, by node GUID, shown where the
// NodeDescription would be.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "lib/ib/fabric_model.h"
#include "lib/view/record.h"

namespace rdma::ib {

// Where infiniband-diags looks when no file is named (rdma-core's
// IBDIAG_NODENAME_MAP_PATH as Debian builds it); used when it exists.
inline constexpr const char* kDefaultNodeNameMap = "/etc/rdma/ib-node-name-map";

struct NodeNameMap {
  std::unordered_map<uint64_t, std::string> names;  // by node GUID
  // The name the map gives guid, else desc.
  const std::string& name(uint64_t guid, const std::string& desc) const;
};

// One line per node: a GUID (0x hex, decimal, or xxxx:xxxx:xxxx:xxxx),
// blanks, then the name in double quotes or bare up to a '#' (blanks at
// its ends dropped). '#' starts a comment; blank lines are skipped. A
// GUID with no name maps nothing; a GUID given twice keeps its first name
// (both as infiniband-diags). Throws Error "FILE:LINE: ..." for a line
// that is not so.
NodeNameMap parse_node_name_map(std::string_view text, const std::string& file);

// The file named (Error when it cannot be read), or with none named the
// default one when it exists (an empty map when it does not).
NodeNameMap load_node_name_map(const std::optional<std::string>& file,
                               const char* default_file = kDefaultNodeNameMap);

// Every node of f named as the map says (its description replaced).
void rename_nodes(const NodeNameMap& m, Fabric& f);

// The "description" field of rec (a node's record) named as the map says
// for the node guid: text quoted as every description, JSON the name.
void rename_description(const NodeNameMap& m, uint64_t guid, view::Record& rec);

}  // namespace rdma::ib
