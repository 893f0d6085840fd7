// Which probes ahead wait for the far switch's own: a port beside a block
// of parallel links to a switch found later and still sweeping most likely
// leads there too, and that switch probing it lands the probe here, on a
// switch found sooner, not on it (why: discover_hold.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace rdma::ib {

// What one port of a switch leads to, as far as discovery knows yet.
struct PortLead {
  enum Kind : uint8_t { kUnknown, kOut, kSwitch } kind = kUnknown;  // kOut: its probe is out
  uint64_t guid = 0;                                                // kSwitch: that switch
};

class ProbeHolds {
 public:
  using Key = std::pair<uint64_t, uint8_t>;  // switch GUID, port
  // What port q (1..ports) of the switch leads to, learnt or asked.
  using Leads = std::function<PortLead(uint8_t q)>;

  // The switch the probe through port k.second of the switch k.first
  // (ports ports) would most likely reach, where it is a block's
  // neighbour: none unless the switch's learnt ports show a block of
  // kBlock links to one switch. A port held already counts as leading
  // where it waits.
  std::optional<uint64_t> beside_block(const Key& k, unsigned ports, const Leads& leads) const;
  // Holds port k when beside_block names a switch that `later` accepts
  // (found after it and still sweeping); whether it did.
  bool hold_beside(const Key& k, unsigned ports, const Leads& leads,
                   const std::function<bool(uint64_t)>& later);
  bool held(const Key& k) const { return held_for_.count(k) != 0; }
  // far's sweep is done: the ports that waited for it, no longer held.
  std::vector<Key> release(uint64_t far);

  // Parallel links seen side by side before a switch's ports are taken for
  // blocks: fat trees' blocks of 2 (5,000 nodes) would hold the port after
  // each for the wrong switch (bench/latency_results.md).
  static constexpr int kBlock = 3;

 private:
  std::map<Key, uint64_t> held_for_;
  std::map<uint64_t, std::vector<Key>> held_;
};

}  // namespace rdma::ib
