// Fabric files read by `from FILE`: `fabric save`'s JSON Lines with a
// header, nodes and links, on the fast path and the JSON one, and
// ibnetdiscover's topology text (told apart by content). A bad
// file is an Error naming the file and line; anything else (a crash, a
// hang, an exception of another kind) is a bug. What loads is written back
// out, as `fabric save` of a loaded fabric would.
#include "lib/ib/cache.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rdma::fuzz::MemFile file(data, size);
  if (!file.ok()) return 0;
  try {
    rdma::ib::Fabric f = rdma::ib::load_fabric(file.path());
    rdma::ib::write_fabric(f, rdma::fuzz::null_file());
  } catch (const rdma::Error&) {
  }
  return 0;
}
