// InfiniBand management objects (issue 5): placeholders until the MAD core
// lands.
#include "lib/error.h"
#include "rdma/objects.h"

namespace rdma {

void cmd_node(Ctx&) {
  throw Error("rdma node is not implemented yet");
}
void cmd_port(Ctx&) {
  throw Error("rdma port is not implemented yet");
}
void cmd_perf(Ctx&) {
  throw Error("rdma perf is not implemented yet");
}
void cmd_sm(Ctx&) {
  throw Error("rdma sm is not implemented yet");
}
void cmd_mad(Ctx&) {
  throw Error("rdma mad is not implemented yet");
}

}  // namespace rdma
