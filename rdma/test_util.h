// Runs the whole program in-process for tests: the words after argv[0], its
// standard input, the transport factory it opens the kernel with, and how it
// reaches an InfiniBand fabric (MAD commands) or the verbs library; returns
// the exit status and what it wrote to stdout and stderr.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lib/nl/nldev.h"
#include "lib/nl/transport.h"
#include "lib/testing/kernel/testkernel.h"
#include "rdma/rdma.h"

// RDMA_TEST_ASAN: AddressSanitizer is on. GCC says so with
// __SANITIZE_ADDRESS__, clang only through __has_feature (and GCC 12 has no
// __has_feature, so the two tests cannot share one #if).
#if defined(__SANITIZE_ADDRESS__)
#define RDMA_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RDMA_TEST_ASAN 1
#endif
#endif

namespace rdma::test {

// Lends the test's kernel to the program, which owns its transport.
class Borrowed : public nl::Transport {
 public:
  explicit Borrowed(nl::Transport& t) : t_(t) {}
  void send(const uint8_t* d, size_t n) override { t_.send(d, n); }
  size_t recv(uint8_t* b, size_t n, int ms) override { return t_.recv(b, n, ms); }
  uint32_t port_id() const override { return t_.port_id(); }
  void join_group(unsigned g) override { t_.join_group(g); }

 private:
  nl::Transport& t_;
};

// A directory of the test's own, removed with everything in it at the end.
struct ScratchDir {
  explicit ScratchDir(const std::string& prefix)
      : path(std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() { std::filesystem::remove_all(path); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::filesystem::path path;
};

struct Result {
  int status = 0;
  std::string out, err;
};

// env's streams are set here; the rest (open, mad, verbs) by the caller.
inline Result run_env(std::vector<std::string> args, Env env, const std::string& input) {
  char *out = nullptr, *err = nullptr;
  size_t out_n = 0, err_n = 0;
  env.out = open_memstream(&out, &out_n);
  env.err = open_memstream(&err, &err_n);
  // Never the test runner's own stdin: "-b -" reads this (empty) text.
  std::string in = input.empty() ? std::string("\n") : input;
  env.in = fmemopen(in.data(), in.size(), "r");
  Result r;
  r.status = run(std::move(args), env);
  std::fclose(env.in);
  // open_memstream updates buf and size only on flush or close.
  std::fclose(env.out);
  std::fclose(env.err);
  r.out.assign(out, out_n);
  r.err.assign(err, err_n);
  std::free(out);
  std::free(err);
  return r;
}

inline Result run_program(std::vector<std::string> args, nl::Connection::Factory open,
                          const std::string& input = "", mad::Access mad = {}) {
  Env env;
  env.open = std::move(open);
  env.mad = std::move(mad);
  return run_env(std::move(args), std::move(env), input);
}

inline Result run_program(std::vector<std::string> args, nl::Connection::Factory open,
                          const std::string& input, VerbsFactory verbs) {
  Env env;
  env.open = std::move(open);
  env.verbs = std::move(verbs);
  return run_env(std::move(args), std::move(env), input);
}

// The test kernel, recording (for tests that assert what was asked) the command of every request.
class NlRecorder : public nl::Transport {
 public:
  NlRecorder(testkernel::TestKernel& k, std::vector<int>& cmds) : k_(k), cmds_(cmds) {}
  void send(const uint8_t* d, size_t n) override {
    if (n >= sizeof(nlmsghdr))
      cmds_.push_back(RDMA_NL_GET_OP(reinterpret_cast<const nlmsghdr*>(d)->nlmsg_type));
    k_.send(d, n);
  }
  size_t recv(uint8_t* b, size_t n, int) override { return k_.recv(b, n); }
  uint32_t port_id() const override { return k_.port_id(); }
  void join_group(unsigned g) override { k_.join_group(g); }

 private:
  testkernel::TestKernel& k_;
  std::vector<int>& cmds_;
};

// The test kernel, with hooks that change the kernel (or answer for it) when
// a request is sent, and when the program joins a multicast group.
class Hooked : public nl::Transport {
 public:
  Hooked(testkernel::TestKernel& k, std::function<bool(const nlmsghdr*)> on_send,
         std::function<void()> on_join)
      : k_(k), on_send_(std::move(on_send)), on_join_(std::move(on_join)) {}
  void send(const uint8_t* d, size_t n) override {
    if (on_send_ && on_send_(reinterpret_cast<const nlmsghdr*>(d))) return;
    k_.send(d, n);
  }
  size_t recv(uint8_t* b, size_t n, int) override { return k_.recv(b, n); }
  uint32_t port_id() const override { return k_.port_id(); }
  void join_group(unsigned g) override {
    k_.join_group(g);
    if (on_join_) on_join_();
  }

 private:
  testkernel::TestKernel& k_;
  std::function<bool(const nlmsghdr*)> on_send_;
  std::function<void()> on_join_;
};

// Runs the program against k; on_send returns true when it answered the
// request itself.
inline Result run_on(testkernel::TestKernel& k, std::vector<std::string> args,
                     std::function<bool(const nlmsghdr*)> on_send = {},
                     std::function<void()> on_join = {}) {
  return run_program(std::move(args), [&]() -> std::unique_ptr<nl::Transport> {
    return std::make_unique<Hooked>(k, on_send, on_join);
  });
}

// The command line as a shell would take it back, for failure messages.
inline std::string command_line(const std::vector<std::string>& args) {
  std::string s = "rdma";
  for (const std::string& a : args) s += " '" + a + "'";
  return s;
}

}  // namespace rdma::test
