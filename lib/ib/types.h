// InfiniBand's enumerations as lib/ib uses them: defined once in
// lib/mad/types.h (the decoders name them too), brought into rdma::ib.
#pragma once

#include "lib/mad/types.h"

namespace rdma::ib {

using mad::node_type_name;
using mad::NodeType;

using mad::kPortActive;
using mad::kPortArmed;
using mad::kPortDown;
using mad::kPortInit;
using mad::kPortNop;
using mad::PortState;

using mad::kPhysDisabled;
using mad::kPhysErrorRecovery;
using mad::kPhysLinkUp;
using mad::kPhysNop;
using mad::kPhysPolling;
using mad::kPhysSleep;
using mad::kPhysTest;
using mad::kPhysTraining;
using mad::PhysState;

}  // namespace rdma::ib
