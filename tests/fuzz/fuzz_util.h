// Shared by the libFuzzer targets (tests/fuzz/fuzz_*.cc): a null output and
// an in-memory stdin, so a target never touches the host (no netns, no
// sleeping -w). MAD commands fail at once: an Env's MAD access (Env::mad)
// is empty unless set, and the targets set none, so no umad port is opened.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/mad/transport.h"
#include "rdma/options.h"
#include "rdma/rdma.h"

namespace rdma::fuzz {

inline std::FILE* null_file() {
  static std::FILE* f = std::fopen("/dev/null", "w");
  return f;
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
