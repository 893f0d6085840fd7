// rdma resource (issue 6): placeholder until the resource views land.
#include "lib/error.h"
#include "rdma/objects.h"

namespace rdma {

void cmd_resource(Ctx&) { throw Error("rdma resource is not implemented yet"); }

}  // namespace rdma
