// `rdma mad decode` (text and JSON) of any input, and the MAD describer on
// the input's raw bytes: header by class, attribute by its table.
#include <cstdio>

#include "lib/mad/describe.h"
#include "lib/view/printer.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  for (bool json : {false, true}) {
    std::FILE* in = fmemopen(const_cast<uint8_t*>(data), size, "r");
    if (!in) in = std::fopen("/dev/null", "r");  // fmemopen refuses size 0
    rdma::Env env;
    env.out = rdma::fuzz::null_file();
    env.err = rdma::fuzz::null_file();
    env.in = in;
    std::vector<std::string> args{"mad", "decode"};
    if (json) args.insert(args.begin(), "-j");
    rdma::run(args, env);
    std::fclose(in);
  }
  rdma::view::Record header, attr;
  try {
    rdma::mad::describe({data, size}, header, attr);
    for (bool json : {false, true}) {
      auto p = json ? rdma::view::make_json_printer(rdma::fuzz::null_file(), true)
                    : rdma::view::make_text_printer(rdma::fuzz::null_file());
      p->record(header);
      p->record(attr);
      p->finish();
    }
  } catch (const rdma::Error&) {
  }
  return 0;
}
