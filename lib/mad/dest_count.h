// How the engine keeps a directed route's count when no Dest holds it
// (Engine::probe_sent_): the route packed in 64 bits, the count with a
// retired Dest's window fill above it; and a give-up window as bits.
// Shared by engine.cc and engine_retire.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rdma::mad::dest_count {

// A directed route's key in 64 bits (its length, then its ports), when it
// has at most 7 hops (a 3-level fat tree's shortest routes have 6; probes
// ahead find some nodes along 8 or 9, which do not pack): Engine::probe_sent_.
inline std::optional<uint64_t> packed_route(std::string_view key) {
  if (key.empty() || key[0] != 'd' || key.size() > 8) return std::nullopt;
  uint64_t v = key.size();
  for (size_t i = 1; i < key.size(); ++i) v |= uint64_t{static_cast<uint8_t>(key[i])} << (8 * i);
  return v;
}

// A count in Engine::probe_sent_: the MADs sent in its low bits, a retired
// Dest's recent_count (at most 64) above them.
inline constexpr int kSentBits = 56;
inline constexpr uint64_t kSentMask = (uint64_t{1} << kSentBits) - 1;

// The tries of a destination's window (give_up_window) as bits of
// Dest::recent.
inline uint64_t window_bits(int n) {
  return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
}

}  // namespace rdma::mad::dest_count
