// The queries waiting their turn at one of the engine's destinations,
// oldest first: a node each, its MAD packed (PackedMad) beside the rest of
// the Query: 216 bytes where a std::list node of a whole Query was 416,
// for the hundreds a discovery keeps queued, and 16 bytes in the
// destination where the list's were 24 (bench/fabric_results.md, the
// engine's share of the peak).
#pragma once

namespace rdma::mad {

struct Query;  // lib/mad/engine.h

class QueryQueue {
 public:
  QueryQueue() = default;
  QueryQueue(const QueryQueue&) = delete;
  QueryQueue& operator=(const QueryQueue&) = delete;
  ~QueryQueue();
  bool empty() const { return !head_; }
  void push(Query q);
  Query pop();  // the oldest; not empty

 private:
  struct Node;
  Node* head_ = nullptr;
  Node* tail_ = nullptr;
};

}  // namespace rdma::mad
