// Node-name-map files (--node-name-map, infiniband-diags' format): GUIDs in
// three spellings, quoted and bare names, comments. A bad line is an Error
// naming the file and line.
#include "lib/ib/node_name_map.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    rdma::ib::NodeNameMap m = rdma::ib::parse_node_name_map(text, "fuzz.map");
    static const std::string none;
    for (const auto& [guid, name] : m.names)
      if (&m.name(guid, none) != &name) __builtin_trap();  // a name the map gives is used
  } catch (const rdma::Error&) {
  }
  return 0;
}
