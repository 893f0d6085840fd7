// The command line: options, objects, commands, keywords, filters and their
// values, against the test kernel (lib/testing/kernel) so that commands which
// parse well go on to run. Input: arguments separated by NUL bytes.
#include "lib/testing/kernel/testkernel.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::string cur;
  for (size_t i = 0; i < size && args.size() < 24; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  if (!cur.empty()) args.push_back(cur);
  if (!rdma::fuzz::safe_to_run(args)) return 0;
  rdma::Env env;
  env.out = rdma::fuzz::null_file();
  env.err = rdma::fuzz::null_file();
  env.in = std::fopen("/dev/null", "r");
  env.open = [] { return std::make_unique<rdma::testkernel::TestKernel>(); };
  rdma::run(args, env);
  std::fclose(env.in);
  return 0;
}
