// ibnetdiscover/ibsim topology files, as the fake fabric (lib/testing)
// reads them. The tool itself reads none (it writes them: `fabric
// topology`), but the tests' fabrics come from them, and a file that
// crashes the reader would crash a test, not fail it with its line.
#include "lib/testing/fabric/topology.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    rdma::ibtest::Topology t = rdma::ibtest::parse_topology(text, "fuzz.net");
    (void)t.links();
  } catch (const rdma::Error&) {
  }
  return 0;
}
