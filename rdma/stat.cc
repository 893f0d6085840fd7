// rdma statistic (issue 4): placeholder until the statistic views land.
#include "lib/error.h"
#include "rdma/objects.h"

namespace rdma {

void cmd_statistic(Ctx&) {
  throw Error("rdma statistic is not implemented yet");
}

}  // namespace rdma
