// Cable plans (`fabric plan FILE`, `fabric report plan FILE`;
// ib::load_plan on a memfd): a cable-plan CSV, a topology file or a saved
// fabric, told apart by their first bytes. A bad plan is an Error naming
// the file and line; anything else is a bug. What loads is written back as
// the CSV, and that CSV read again (the writer's output is a plan the
// reader takes).
#include "lib/ib/cable_plan.h"
#include "lib/ib/node_name_map.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rdma::fuzz::MemFile file(data, size);
  if (!file.ok()) return 0;
  rdma::ib::Plan p;
  try {
    p = rdma::ib::load_plan(file.path(), rdma::ib::NodeNameMap{});
  } catch (const rdma::Error&) {
    return 0;
  }
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* out = open_memstream(&buf, &len);
  if (!out) return 0;
  rdma::ib::write_plan_csv(p, out);
  std::fclose(out);
  std::string csv(buf, len);
  std::free(buf);
  rdma::ib::parse_plan_csv(csv, "back");  // an Error here is a bug: it escapes
  return 0;
}
