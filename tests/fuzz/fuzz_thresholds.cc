// Threshold files (`fabric errors thresholds FILE`, ibqueryerrors'
// format): NAME=VALUE lines and comments. A bad line is an Error naming the
// file and line; an unknown name a warning.
#include "lib/ib/errors.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rdma::fuzz::MemFile file(data, size);
  if (!file.ok()) return 0;
  try {
    rdma::ib::Thresholds t;
    t.load(file.path());
  } catch (const rdma::Error&) {
  }
  return 0;
}
