#include "lib/mad/short_key.h"

#include <cstring>

namespace rdma::mad {

ShortKey::ShortKey(std::string_view s) {
  if (s.size() < sizeof(bytes_)) {
    std::memcpy(bytes_, s.data(), s.size());
    bytes_[15] = static_cast<char>(s.size());
    return;
  }
  char* p = new char[s.size()];
  std::memcpy(p, s.data(), s.size());
  auto n = static_cast<uint32_t>(s.size());
  std::memcpy(bytes_, &p, sizeof p);
  std::memcpy(bytes_ + 8, &n, sizeof n);
  bytes_[15] = static_cast<char>(kOut);
}

ShortKey::~ShortKey() {
  if (static_cast<uint8_t>(bytes_[15]) != kOut) return;
  char* p = nullptr;
  std::memcpy(&p, bytes_, sizeof p);
  delete[] p;
}

std::string_view ShortKey::view() const {
  if (static_cast<uint8_t>(bytes_[15]) != kOut) return {bytes_, static_cast<uint8_t>(bytes_[15])};
  const char* p = nullptr;
  uint32_t n = 0;
  std::memcpy(&p, bytes_, sizeof p);
  std::memcpy(&n, bytes_ + 8, sizeof n);
  return {p, n};
}

}  // namespace rdma::mad
