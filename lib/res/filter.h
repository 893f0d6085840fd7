// Filters of `rdma resource show TYPE KEY VALUE...`: which keys a type
// accepts, how their values are parsed, and whether an entry's value passes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/res/names.h"

namespace rdma::res {

// Where a key's value comes from.
enum class Src {
  kScope,          // dev DEV / link DEV[/PORT]: which device, not a filter
  kNum,            // a numeric attribute (u8, u32 or u64)
  kName,           // an enum attribute, compared by its name
  kPortSpace,      // RES_PS by name
  kAddr,           // the address of a sockaddr attribute
  kAddrPort,       // the port of a sockaddr attribute
  kQpList,         // the QP numbers of an SRQ
  kDevType,        // the device's link layer: infiniband or ether
  kTransportType,  // the device's transport: ib, iwarp, usnic, ...
};

struct FilterKey {
  const char* name;
  Src src;
  int attr = 0;
  const Names* names = nullptr;  // kName
  bool doit = false;             // the object's id: one value selects it by doit
  bool numeric() const { return src == Src::kNum || src == Src::kAddrPort || src == Src::kQpList; }
};

// An inclusive range of numbers.
struct Range {
  uint64_t lo;
  uint64_t hi;
};

struct Filter {
  const FilterKey* key;
  std::string value;               // as given, for messages
  std::vector<Range> ranges;       // numeric keys
  std::vector<std::string> words;  // other keys (addresses normalized)

  bool match(uint64_t v) const;
  bool match(std::string_view s) const;  // ignores case
  // The single number the value names ("7", "0x7", "7-7"), if it does.
  std::optional<uint64_t> single() const;
};

// "1,4-6,0x10": comma-separated numbers (decimal or 0x hex) and inclusive
// ranges. Throws Error naming the key when the value is not one.
std::vector<Range> parse_numbers(std::string_view key, std::string_view value);

// The key `word` names: an exact name wins, otherwise the first key it is a
// prefix of (iproute2's order). Throws Error for an unknown key.
const FilterKey& find_key(std::span<const FilterKey> keys, const std::string& word);

class Filters {
 public:
  // Adds "KEY VALUE". Throws Error for a repeated key or a bad value.
  void add(const FilterKey& key, const std::string& value);

  const Filter* get(std::string_view name) const;
  const std::vector<Filter>& all() const { return filters_; }
  bool empty() const { return filters_.empty(); }

 private:
  std::vector<Filter> filters_;
};

// Names of device facts for dev-type and transport-type.
const char* dev_type_name(std::string_view protocol);  // DEV_PROTOCOL -> infiniband/ether
const char* transport_name(uint8_t node_type);         // DEV_NODE_TYPE -> ib/iwarp/...

}  // namespace rdma::res
