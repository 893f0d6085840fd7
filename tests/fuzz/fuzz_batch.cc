// Batch files (-b -): line splitting, quotes, escapes, continuations and the
// options and commands of each line, run with -force against the test
// kernel. Byte 0 bit 0: -j (one JSON document for the whole batch).
#include "lib/testing/kernel/testkernel.h"
#include "rdma/batch.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  // Lines that would wait or read the host are left out (see safe_to_run);
  // a line that does not split is the batch's own error, fine to run.
  {
    std::FILE* scan = fmemopen(const_cast<uint8_t*>(data + 1), size - 1, "r");
    if (!scan) return 0;
    int lineno = 0;
    rdma::BatchLine line;
    bool safe = true;
    for (;;) {
      try {
        if (!rdma::read_batch_line(scan, lineno, line)) break;
        if (!rdma::fuzz::safe_to_run(line.words)) safe = false;
      } catch (const rdma::Error&) {
      }
    }
    std::fclose(scan);
    if (!safe) return 0;
  }
  std::FILE* in = fmemopen(const_cast<uint8_t*>(data + 1), size - 1, "r");
  if (!in) return 0;
  rdma::Env env;
  env.out = rdma::fuzz::null_file();
  env.err = rdma::fuzz::null_file();
  env.in = in;
  env.open = [] { return std::make_unique<rdma::testkernel::TestKernel>(); };
  std::vector<std::string> args{"-f", "-b", "-"};
  if (data[0] & 1) args.insert(args.begin(), "-j");
  rdma::run(args, env);
  std::fclose(in);
  return 0;
}
