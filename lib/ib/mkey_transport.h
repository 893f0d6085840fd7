// The transport every MAD of a MadClient goes through: each SMP leaves
// with the M_Key its MkeySource chooses, whichever path built it (the
// client's smp(), discovery, the batch reads of P_Keys, LFTs, MFTs and
// port states, sweeps, port set's read-back), and each NodeInfo answer
// teaches the source the port GUID at its route. GMPs pass as they are
// (their P_Key index is the engine's, -Y).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "lib/ib/mkey_source.h"
#include "lib/mad/transport.h"

namespace rdma::ib {

class MkeyTransport : public mad::Transport {
 public:
  MkeyTransport(std::unique_ptr<mad::Transport> wire, MkeySource& keys)
      : wire_(std::move(wire)), keys_(keys) {}
  void send(const mad::Mad& mad, const mad::Address& to, int timeout_ms) override;
  std::optional<mad::Received> receive(int timeout_ms) override;
  std::chrono::steady_clock::time_point now() const override { return wire_->now(); }
  // Sees each SMP as it leaves, its key given (the engine's trace sees
  // it before: MadClient leaves SMPs to this one, so -dd shows the key).
  std::function<void(const char* dir, std::span<const uint8_t> mad)> trace;

 private:
  std::unique_ptr<mad::Transport> wire_;
  MkeySource& keys_;
  // NodeInfo Gets in flight by TransactionID: where they went.
  std::map<uint64_t, std::pair<std::string, mad::Mad>> asked_;
};

}  // namespace rdma::ib
