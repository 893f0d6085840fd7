// Value formatting shared by views that build their fields by hand.
#pragma once

#include <cstdint>
#include <string>

namespace rdma::view {

// A GUID as xxxx:xxxx:xxxx:xxxx.
std::string guid_text(uint64_t v);

}  // namespace rdma::view
