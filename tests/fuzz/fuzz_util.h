// Shared by the libFuzzer targets (tests/fuzz/fuzz_*.cc): a null output, an
// in-memory stdin and a MAD layer that has no port, so a target never
// touches the host (no umad, no netns, no sleeping -w).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/mad/transport.h"
#include "rdma/mad_session.h"
#include "rdma/options.h"
#include "rdma/rdma.h"

namespace rdma::fuzz {

inline std::FILE* null_file() {
  static std::FILE* f = std::fopen("/dev/null", "w");
  return f;
}

// MAD commands fail at once, as on a machine without InfiniBand ports.
inline void no_mad_ports() {
  static bool done = false;
  if (done) return;
  done = true;
  mad_hooks().find_port = [](const std::string&) -> mad::LocalPort {
    throw Error("no InfiniBand port (fuzzer)");
  };
  mad_hooks().open = [](const mad::LocalPort&) -> std::unique_ptr<mad::Transport> {
    throw Error("no InfiniBand port (fuzzer)");
  };
}

// Whether a command line may run in-process: not one that waits by design
// (-w), reads files or the host (-b, -n). Malformed options are fine: run()
// rejects them itself.
inline bool safe_to_run(std::vector<std::string> args) {
  try {
    Options o = parse_options(args);
    return !o.watch_s && !o.batch && !o.netns;
  } catch (const Error&) {
    return true;
  }
}

}  // namespace rdma::fuzz
