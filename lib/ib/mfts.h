// Every switch's multicast forwarding table in one run: the range each
// holds from its SwitchInfo (discovery's, or asked again where the fabric
// lacks MulticastFDBTop), then its MulticastForwardingTable blocks, all
// switches' SMPs submitted together by directed route as read_lfts does.
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

Mfts read_mfts(mad::Engine& e, const Fabric& f, std::vector<std::string>& warnings);

}  // namespace rdma::ib
