// Reads a recorded netlink exchange (tests/data/golden/<kver>/<name>.nl, as
// tests/vm/capture.sh writes it): "> HEX" is a request, each "< HEX" after it
// a datagram the kernel answered with.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rdma::testkernel::golden {

using Bytes = std::vector<uint8_t>;

struct Exchange {
  Bytes request;
  std::vector<Bytes> replies;
};

inline Bytes unhex(const std::string& s) {
  Bytes b;
  for (size_t i = 0; i + 1 < s.size(); i += 2) b.push_back(std::stoi(s.substr(i, 2), nullptr, 16));
  return b;
}

inline std::vector<Exchange> load(const std::filesystem::path& p) {
  std::vector<Exchange> out;
  std::ifstream in(p);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 2) continue;
    if (line[0] == '>') out.push_back({unhex(line.substr(2)), {}});
    if (line[0] == '<' && !out.empty()) out.back().replies.push_back(unhex(line.substr(2)));
  }
  return out;
}

}  // namespace rdma::testkernel::golden
