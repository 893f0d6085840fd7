#include "lib/ib/node_ports.h"

#include <algorithm>
#include <utility>

namespace rdma::ib {

NodePorts::NodePorts(size_t count, bool without_zero)
    : size_(static_cast<uint16_t>(count)), first_(without_zero && count > 0) {
  if (stored()) ports_ = std::make_unique<Port[]>(stored());
  for (size_t p = first_; p < size_; ++p) ports_[p - first_].num = static_cast<uint8_t>(p);
}

NodePorts::NodePorts(const NodePorts& o) : size_(o.size_), first_(o.first_) {
  if (stored()) {
    ports_ = std::make_unique<Port[]>(stored());
    std::copy_n(o.ports_.get(), stored(), ports_.get());
  }
}

NodePorts::NodePorts(NodePorts&& o) noexcept
    : ports_(std::move(o.ports_)),
      size_(std::exchange(o.size_, 0)),
      first_(std::exchange(o.first_, 0)) {}

NodePorts& NodePorts::operator=(const NodePorts& o) {
  if (this != &o) *this = NodePorts(o);
  return *this;
}

NodePorts& NodePorts::operator=(NodePorts&& o) noexcept {
  ports_ = std::move(o.ports_);
  size_ = std::exchange(o.size_, 0);
  first_ = std::exchange(o.first_, 0);
  return *this;
}

const Port& NodePorts::none() {
  static const Port kNone{};
  return kNone;
}

void NodePorts::keep_zero() {
  auto all = std::make_unique<Port[]>(size_);
  std::copy_n(ports_.get(), stored(), all.get() + 1);
  ports_ = std::move(all);
  first_ = 0;
}

void NodePorts::resize(size_t count) {
  if (count <= first_) {  // port 0 alone, not kept, or none
    *this = NodePorts(count, first_ != 0);
    return;
  }
  auto kept = std::make_unique<Port[]>(count - first_);
  std::copy_n(ports_.get(), std::min(stored(), count - first_), kept.get());
  ports_ = std::move(kept);
  size_ = static_cast<uint16_t>(count);
}

}  // namespace rdma::ib
