// Every switch's multicast forwarding table in one run: the range each
// holds from its SwitchInfo (discovery's, or asked again where the fabric
// lacks MulticastFDBTop), then its MulticastForwardingTable blocks, all
// switches' SMPs submitted together by directed route as read_lfts does;
// only the blocks of the MLIDs in use when the SA says which.
#pragma once

#include <bitset>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/mad/engine.h"

namespace rdma::ib {

// A switch's table: the port mask (bit p: port p) of each MLID it
// forwards anywhere; MLIDs with no bit set are left out.
using McastMasks = std::map<uint16_t, std::bitset<256>>;

// The tables by node index: nullopt for CAs and routers, and for a switch
// whose table could not be read, which adds a warning naming it.
using Mfts = std::vector<std::optional<McastMasks>>;

// only: the MLIDs whose blocks of 32 are read (sa_mlids); nullptr: every
// block up to the switch's last MLID. A switch that keeps no
// MulticastFDBTop (ibsim's) is otherwise read to its whole capacity: on
// the 4,768-node tree, 68,000 SMPs for the few MLIDs opensm hands out.
Mfts read_mfts(mad::Engine& e, const Fabric& f, std::vector<std::string>& warnings,
               const std::vector<uint16_t>* only = nullptr);

// The MLIDs of the multicast groups the SA (at the SM's LID the local port
// knows) has, sorted: an untrusted GetTable of every MCMemberRecord gets
// one record a group from opensm. nullopt, with why, when the SA cannot be
// asked: no SM LID, no answer, or a table cut short (no RMPP).
struct SaMlids {
  std::optional<std::vector<uint16_t>> mlids;
  std::string why;
};
SaMlids sa_mlids(mad::Engine& e, const Fabric& f);

}  // namespace rdma::ib
