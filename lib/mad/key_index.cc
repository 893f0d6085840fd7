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

// Linear probing's deletion: each entry further along the run moves into
// the hole unless its home slot lies after the hole (it would no longer
// be found), until an empty slot ends the run.
void KeyIndex::remove(uint64_t hash, uint32_t position) {
  if (slots_.empty()) return;
  size_t i = fold(hash) & mask();
  while (slots_[i].pos != position + 1) {
    if (slots_[i].pos == 0) return;  // not there
    i = (i + 1) & mask();
  }
  for (size_t j = (i + 1) & mask();; j = (j + 1) & mask()) {
    if (slots_[j].pos == 0) break;
    size_t home = slots_[j].hash & mask();
    // Stays when home is cyclically in (i, j].
    bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (stays) continue;
    slots_[i] = slots_[j];
    i = j;
  }
  slots_[i] = Slot{};
  --size_;
}

}  // namespace rdma::mad
