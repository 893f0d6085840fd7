#include "lib/mad/key_index.h"

namespace rdma::mad {

void KeyIndex::place(Slot s) {
  size_t i = s.hash & mask();
  while (slots_[i].pos != 0) i = (i + 1) & mask();
  slots_[i] = s;
}

void KeyIndex::add(uint64_t hash, uint32_t position) {
  // At most three quarters full: a lookup that finds probes about 2.5
  // slots, one that does not about 8.5, each compare a 32-bit hash first.
  // Half full took 16,384 slots (128 KiB) for the 4,768-node tree's
  // nodes, grown from 8,192 at the peak of discovery's memory.
  if (4 * (size_ + 1) > 3 * slots_.size()) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{});
    for (const Slot& s : old)
      if (s.pos != 0) place(s);
  }
  place({fold(hash), position + 1});
  ++size_;
}

}  // namespace rdma::mad
