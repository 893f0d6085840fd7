#include "lib/mad/key_index.h"

namespace rdma::mad {

void KeyIndex::place(Slot s) {
  size_t i = s.hash & mask();
  while (slots_[i].pos != 0) i = (i + 1) & mask();
  slots_[i] = s;
}

void KeyIndex::add(uint64_t hash, uint32_t position) {
  // At most half full: a lookup then probes about two slots.
  if (2 * (size_ + 1) > slots_.size()) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{});
    for (const Slot& s : old)
      if (s.pos != 0) place(s);
  }
  place({fold(hash), position + 1});
  ++size_;
}

}  // namespace rdma::mad
