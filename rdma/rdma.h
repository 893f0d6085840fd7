// The whole program as a function, so tests can run it against a test
// kernel and read what it printed.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "lib/mad/access.h"
#include "lib/nl/connection.h"
#include "rdma/command.h"

namespace rdma {

struct Env {
  std::FILE* out = stdout;
  std::FILE* err = stderr;
  std::FILE* in = stdin;         // "-b -"
  nl::Connection::Factory open;  // the transport: a socket, or a test kernel
  std::FILE* trace = nullptr;    // netlink hex dump (RDMA_NETLINK_TRACE)
  mad::Access mad;               // InfiniBand: umad, or a fake fabric
  VerbsFactory verbs;            // verbs views; unset: libibverbs (dlopen)
  // Whether err is a terminal (progress lines); unset: isatty. A test seam.
  std::function<bool(std::FILE*)> is_terminal = {};
  // infiniband-diags' site settings, read unless --config names another
  // file; empty: none (main sets ib::kSiteIbdiagConf; tests leave it).
  std::string ibdiag_conf;
};

// args excludes argv[0]. Returns the exit status.
int run(std::vector<std::string> args, Env& env);

}  // namespace rdma
