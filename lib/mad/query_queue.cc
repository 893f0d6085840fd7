#include "lib/mad/query_queue.h"

#include <utility>

#include "lib/mad/engine.h"
#include "lib/mad/packed_mad.h"

namespace rdma::mad {

// The query's fields but its MAD, beside the MAD packed: a field added to
// Query is carried here too (the static_assert below is there to say so).
struct QueryQueue::Node {
  Node* next = nullptr;
  PackedMad mad;
  Address to;
  bool unknown_end = false;
  int retries = -1;
  int timeout_ms = 0;
  uint64_t behind = 0;
  std::vector<uint8_t>* whole = nullptr;
  std::string what;
  Done done;
  std::function<bool()> wanted;
};
static_assert(sizeof(Query) == sizeof(Mad) + 144, "a field added to Query: carry it in the Node");

QueryQueue::~QueryQueue() {
  while (head_) delete std::exchange(head_, head_->next);
}

void QueryQueue::push(Query q) {
  Node* n = new Node{nullptr,
                     PackedMad(q.mad),
                     q.to,
                     q.unknown_end,
                     q.retries,
                     q.timeout_ms,
                     q.behind,
                     q.whole,
                     std::move(q.what),
                     std::move(q.done),
                     std::move(q.wanted)};
  (tail_ ? tail_->next : head_) = n;
  tail_ = n;
}

Query QueryQueue::pop() {
  Node* n = std::exchange(head_, head_->next);
  if (!head_) tail_ = nullptr;
  Query q{n->mad.unpack(), n->to, std::move(n->what), std::move(n->done)};
  q.whole = n->whole;
  q.unknown_end = n->unknown_end;
  q.behind = n->behind;
  q.wanted = std::move(n->wanted);
  q.retries = n->retries;
  q.timeout_ms = n->timeout_ms;
  delete n;
  return q;
}

}  // namespace rdma::mad
