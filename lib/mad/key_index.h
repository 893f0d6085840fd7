// An open-addressing index from a key's hash to the position of its entry
// in a container the caller keeps (the engine's destinations, in a deque;
// the fabric model's nodes, by GUID): 8 bytes a slot, at most three
// quarters of them used, instead of a hash node per entry. The caller
// compares keys (is_key), so the index holds none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace rdma::mad {

class KeyIndex {
 public:
  // The position stored under hash whose entry is_key(position) says is
  // the one wanted; none when no such.
  template <typename IsKey>
  std::optional<uint32_t> find(uint64_t hash, IsKey is_key) const {
    if (slots_.empty()) return std::nullopt;
    const uint32_t h = fold(hash);
    for (size_t i = h & mask();; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.pos == 0) return std::nullopt;
      if (s.hash == h && is_key(s.pos - 1)) return s.pos - 1;
    }
  }
  // Stores position under hash; the caller has checked that its key is
  // not there yet (find).
  void add(uint64_t hash, uint32_t position);
  // Forgets position, stored under hash (a destination the engine let go,
  // its slot in the deque reused): the entries after it in its run moved
  // back, so no slot is left marked as removed and lookups stay as short.
  void remove(uint64_t hash, uint32_t position);
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint32_t hash = 0;  // the hash folded to 32 bits: most compares skipped
    uint32_t pos = 0;   // position + 1; 0: empty
  };
  static uint32_t fold(uint64_t hash) { return static_cast<uint32_t>(hash ^ (hash >> 32)); }
  size_t mask() const { return slots_.size() - 1; }
  void place(Slot s);

  std::vector<Slot> slots_;  // a power of two of them, or none
  size_t size_ = 0;
};

}  // namespace rdma::mad
