// Counter snapshots (`fabric errors save FILE`, read back by `fabric
// errors since FILE`; ib::parse_reading): one JSON document, the time and
// every port's GUIDs and counters. A bad file is an Error naming the file;
// anything else (a crash, a hang, an exception of another kind, a value
// that does not fit its field) is a bug. What parses is written back out
// and judged against itself, as `since` judges a saved reading against a
// sweep: every counter is compared, so a reading short of counters shows.
#include "lib/ib/counter_window.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    rdma::ib::Reading r = rdma::ib::parse_reading(text, "fuzz");
    rdma::ib::Reading back = rdma::ib::parse_reading(rdma::ib::reading_json(r), "back");
    rdma::ib::Thresholds t;
    rdma::ib::judge_window(r, back, rdma::ib::error_counters(), t, true);
  } catch (const rdma::Error&) {
  }
  return 0;
}
