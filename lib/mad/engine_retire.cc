// Engine's destinations kept and let go: found and made through the
// index (a retired one's slot reused), and retired once quiet.
#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "lib/mad/dest_count.h"
#include "lib/mad/engine.h"

namespace rdma::mad {

using dest_count::kSentBits;
using dest_count::kSentMask;
using dest_count::packed_route;
using dest_count::window_bits;

// A destination with nothing queued or in flight, nothing learnt of it
// (its timeout), and none of its window's tries unanswered is let go, its
// slot reused by the next one made: all it still says is its count and how
// many tries its window holds, kept in probe_sent_ under its route, which
// a Dest made for it again takes back (route_dest). So it goes on as if
// kept: the same count, the same give-up state (the window's bits all 0),
// and its queries scheduled as before. The CAs of a discovery are asked
// two queries each and then nothing: 4,096 of the 6,902 destinations of
// the 4,768-node tree's, whose deque held 485 KB at the end of discovery
// and its index 16,384 slots, doubled at the very end; now at most 3,066
// (169 KB) and 4,096 slots (bench/fabric_results.md, quiet destinations
// retired). Directed routes up to 7 hops only (probe_sent_'s keys): a
// LID's Dest, a group, the SA are kept, and so is a route's end whose
// timeout was learnt.
//
// A turn it still has in a ring, with nothing to start, is dropped: a CA's
// second query started from the idle ring leaves its turn in ring_, which
// is not reached while idle destinations wait (the whole last wave). The
// one difference from keeping it: asked again before that turn came, it
// would have been served there; it now queues anew.
void Engine::retire(Dest& d) {
  if (c_.per_node == 0 || !d.pending.empty() || d.in_flight || d.given_up || !d.limited ||
      d.group || d.timeout_ms || d.unanswered || d.sent > kSentMask ||
      (d.recent & window_bits(give_up_window(c_, false))))
    return;
  std::optional<uint64_t> p = packed_route(d.key.view());
  if (!p) return;
  const uint64_t hash = std::hash<std::string_view>{}(d.key.view());
  std::optional<uint32_t> pos =
      dest_index_.find(hash, [&](uint32_t j) { return &dests_[j] == &d; });
  if (!pos) return;
  // Its turn is among the last pushed: looked for from the back.
  auto drop_turn = [&d](std::deque<Dest*>& ring) {
    auto it = std::find(ring.rbegin(), ring.rend(), &d);
    if (it != ring.rend()) ring.erase(std::next(it).base());
  };
  if (d.in_ring) drop_turn(ring_);
  if (d.in_idle) drop_turn(idle_);
  probe_sent_[*p] = d.sent | uint64_t{d.recent_count} << kSentBits;
  dest_index_.remove(hash, *pos);
  std::destroy_at(&d);
  std::construct_at(&d, std::string_view{});
  d.sent = free_dest_;
  free_dest_ = *pos + 1;
}

Engine::Dest* Engine::find_dest(std::string_view key) {
  std::optional<uint32_t> i = dest_index_.find(
      std::hash<std::string_view>{}(key), [&](uint32_t j) { return dests_[j].key.view() == key; });
  return i ? &dests_[*i] : nullptr;
}

std::pair<Engine::Dest*, bool> Engine::add_dest(std::string_view key) {
  if (Dest* d = find_dest(key)) return {d, false};
  uint32_t pos = static_cast<uint32_t>(dests_.size());
  Dest* d = nullptr;
  if (free_dest_) {  // a retired one's slot
    pos = free_dest_ - 1;
    d = &dests_[pos];
    free_dest_ = static_cast<uint32_t>(d->sent);
    std::destroy_at(d);
    std::construct_at(d, key);
  } else {
    d = &dests_.emplace_back(key);
  }
  dest_index_.add(std::hash<std::string_view>{}(key), pos);
  if (next_order_ == std::numeric_limits<uint32_t>::max()) {  // renumbered, in their order
    std::vector<Dest*> all;
    for (Dest& x : dests_) all.push_back(&x);
    std::sort(all.begin(), all.end(), [](Dest* x, Dest* y) { return x->order < y->order; });
    next_order_ = 0;
    for (Dest* x : all) x->order = next_order_++;
  }
  d->order = next_order_++;
  return {d, true};
}

}  // namespace rdma::mad
