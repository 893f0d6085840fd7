// rdma(8): the real kernel, umad and site files handed to rdma::run().
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "lib/ib/ibdiag_conf.h"
#include "lib/nl/socket.h"
#include "rdma/rdma.h"

int main(int argc, char** argv) {
  rdma::Env env;
  env.open = [] { return std::make_unique<rdma::nl::Socket>(); };
  env.mad = rdma::mad::umad_access();
  env.ibdiag_conf = rdma::ib::kSiteIbdiagConf;
  // Debugging and golden vectors: every netlink message in hex.
  if (const char* path = std::getenv("RDMA_NETLINK_TRACE")) env.trace = std::fopen(path, "a");
  int status = rdma::run(std::vector<std::string>(argv + 1, argv + argc), env);
  if (env.trace) std::fclose(env.trace);
  return status;
}
