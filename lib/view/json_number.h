// Whole numbers read from the JSON files a user gives the tool (saved
// fabrics, counter snapshots). nlohmann's get<T> takes any JSON number: it
// converts a float (undefined behaviour past T's range: the fuzzers found
// 1e76 as a port GUID) and wraps a negative or too large value, where a
// damaged file must be an error naming the value.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "lib/error.h"

namespace rdma::view {

// The value as T when it is a JSON integer from 0 to T's largest; else an
// Error "WHAT is not a whole number from 0 to MAX".
template <typename T, typename Json>
T json_whole(const Json& v, const std::string& what) {
  static_assert(std::is_unsigned_v<T>);
  constexpr uint64_t kMax = std::numeric_limits<T>::max();
  if (!v.is_number_unsigned() || v.template get<uint64_t>() > kMax)
    throw Error(what + " is not a whole number from 0 to " + std::to_string(kMax));
  return static_cast<T>(v.template get<uint64_t>());
}

}  // namespace rdma::view
