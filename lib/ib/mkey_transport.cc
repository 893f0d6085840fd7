#include "lib/ib/mkey_transport.h"

#include <algorithm>

#include "lib/mad/attrs.h"

namespace rdma::ib {

namespace {

bool is_smp(const mad::Mad& m) {
  return m.mgmt_class() == mad::kClassSmiLid || m.mgmt_class() == mad::kClassSmiDr;
}

// Unanswered Gets are forgotten past this many (a sick fabric's timeouts).
constexpr size_t kMaxAsked = 4096;

}  // namespace

void MkeyTransport::send(const mad::Mad& mad, const mad::Address& to, int timeout_ms) {
  if (!is_smp(mad)) return wire_->send(mad, to, timeout_ms);
  mad::Mad keyed = mad;
  if (!keys_.per_route()) {
    // One key for every port (-y, or none): no route text to build, and
    // no port GUID to learn (a discovery's SMPs, thousands a sweep).
    keyed.set(mad::hdr::kMKey, keys_.key());
  } else {
    const std::string where = MkeySource::where(mad, to);
    keyed.set(mad::hdr::kMKey, keys_.key_for(where));
    // A port's GUID only chooses its key by the file: without one,
    // nothing is kept.
    if (keys_.by_guid() && mad.get(mad::hdr::kAttrId) == mad::kNodeInfo.id &&
        mad.get(mad::hdr::kMethod) == mad::kGet) {
      if (asked_.size() >= kMaxAsked) asked_.clear();
      asked_[mad.get(mad::hdr::kTid)] = {where, keyed};
    }
  }
  if (trace) trace(">", keyed.bytes);
  wire_->send(keyed, to, timeout_ms);
}

std::optional<mad::Received> MkeyTransport::receive(int timeout_ms) {
  std::optional<mad::Received> r = wire_->receive(timeout_ms);
  if (!r || asked_.empty() || r->bytes.size() < 24) return r;
  mad::Mad head;
  std::copy_n(r->bytes.begin(), std::min(r->bytes.size(), head.bytes.size()), head.bytes.begin());
  auto it = asked_.find(head.get(mad::hdr::kTid));
  if (it == asked_.end()) return r;
  // A send that failed (its bytes are the request) teaches nothing.
  if (!r->status) keys_.heard(it->second.first, it->second.second, r->bytes);
  asked_.erase(it);
  return r;
}

}  // namespace rdma::ib
