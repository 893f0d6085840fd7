// rdma monitor (issue 4): placeholder until monitor lands.
#include "lib/error.h"
#include "rdma/objects.h"

namespace rdma {

void cmd_monitor(Ctx&) {
  throw Error("rdma monitor is not implemented yet");
}

}  // namespace rdma
