// Value formatting shared by views that build their fields by hand.
#pragma once

#include <cstdint>
#include <string>

namespace rdma::view {

// A GUID as xxxx:xxxx:xxxx:xxxx.
std::string guid_colons(uint64_t v);
// The same into out (at least 19 bytes, not terminated); returns its end.
char* guid_chars(uint64_t v, char* out);

}  // namespace rdma::view
