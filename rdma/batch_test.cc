#include "rdma/batch.h"

#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>

#include "lib/error.h"
#include "lib/testing/kernel/testkernel.h"
#include "rdma/test_util.h"

namespace rdma {
namespace {

using Words = std::vector<std::string>;

TEST(Batch, SplitsQuotesEscapesAndComments) {
  EXPECT_EQ(split_words("dev show  rxe0 # trailing"), (Words{"dev", "show", "rxe0"}));
  EXPECT_EQ(split_words("a \"b c\" 'd e' f\\ g"), (Words{"a", "b c", "d e", "f g"}));
  EXPECT_EQ(split_words("a \"x\\\"y\""), (Words{"a", "x\"y"}));
  EXPECT_EQ(split_words("a#b"), (Words{"a#b"}));  // '#' inside a word is not a comment
  EXPECT_TRUE(split_words("   # only a comment").empty());
  EXPECT_THROW(split_words("dev \"unterminated"), Error);
  // Runs of plain characters next to quotes, escapes and NUL bytes.
  EXPECT_EQ(split_words("ab\"c d\"ef'g'h\\ i\tj\r"), (Words{"abc defgh i", "j"}));
  EXPECT_EQ(split_words(std::string("a\0b c", 5)), (Words{std::string("a\0b", 3), "c"}));
}

TEST(Batch, ContinuationsAndLineNumbers) {
  const char text[] = "# header\n\ndev show \\\n  rxe0\nlink\n";
  std::FILE* f = fmemopen(const_cast<char*>(text), std::strlen(text), "r");
  int lineno = 0;
  BatchLine l;
  ASSERT_TRUE(read_batch_line(f, lineno, l));
  EXPECT_EQ(l.lineno, 3);
  EXPECT_EQ(l.words, (Words{"dev", "show", "rxe0"}));
  ASSERT_TRUE(read_batch_line(f, lineno, l));
  EXPECT_EQ(l.lineno, 5);
  EXPECT_EQ(l.words, (Words{"link"}));
  EXPECT_FALSE(read_batch_line(f, lineno, l));
  std::fclose(f);
}

// run_batch with a stand-in for the commands: each line's first word says
// what it returns ("found": findings, status 1; "warned": no findings
// command, status 1 after its own warning; "failed": ExitError 2, "bad":
// UsageError 1; anything else 0); what ran is recorded.
struct FakeLines {
  std::vector<std::string> ran;
  test::Result run(const std::string& text, bool force) {
    char* err = nullptr;
    size_t err_n = 0;
    Env env;
    env.err = open_memstream(&err, &err_n);
    env.in = fmemopen(const_cast<char*>(text.data()), text.size(), "r");
    Options opt;
    opt.batch = "-";
    opt.force = force;
    nl::Connection conn([]() -> std::unique_ptr<nl::Transport> { throw Error("no netlink"); });
    test::Result r;
    r.status = run_batch(opt, conn, env, [&](std::vector<std::string> words, const Options&) {
      ran.push_back(words[0]);
      if (words[0] == "found") return LineStatus{1, true};
      if (words[0] == "warned") return LineStatus{1, false};
      if (words[0] == "failed") throw ExitError(2, "it failed");
      if (words[0] == "bad") throw UsageError("bad word");
      return LineStatus{0, words[0] == "clean"};
    });
    std::fclose(env.in);
    std::fclose(env.err);
    r.err.assign(err, err_n);
    std::free(err);
    return r;
  }
};

TEST(Batch, GoesOnPastFindingsAndStopsAtAFailureNamingTheLine) {
  FakeLines a;
  test::Result r = a.run("clean\nfound\nok\n\nfailed\nok\n", false);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "-:2: found something (exit status 1)\n-:5: it failed\n");
  EXPECT_EQ(a.ran, (Words{"clean", "found", "ok", "failed"}));

  FakeLines b;
  r = b.run("found\nwarned\nok\n", false);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "-:1: found something (exit status 1)\n-:2: failed (exit status 1)\n");
  EXPECT_EQ(b.ran, (Words{"found", "warned"}));

  // -f: every line; the highest status of a failed line.
  FakeLines c;
  r = c.run("bad\nfailed\nwarned\nfound\nok\n", true);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "-:1: bad word\n-:2: it failed\n-:3: failed (exit status 1)\n"
            "-:4: found something (exit status 1)\n");
  EXPECT_EQ(c.ran.size(), 5u);

  // Findings only: 1; nothing: 0.
  EXPECT_EQ(FakeLines().run("ok\nfound\nok\n", false).status, 1);
  EXPECT_EQ(FakeLines().run("ok\nclean\n", false).status, 0);
}

using testkernel::KernelVersion;
using testkernel::TestKernel;

// The test kernel as the program's transport, counting what a batch costs:
// sockets opened, device dumps (GET with NLM_F_DUMP) and requests; before
// each request it calls on_send (a kernel-side change, a measurement).
struct Counted {
  TestKernel k{KernelVersion::k6_12};
  int opened = 0;
  int device_dumps = 0;
  int requests = 0;
  std::function<void(int request)> on_send;

  class Link : public nl::Transport {
   public:
    explicit Link(Counted& c) : c_(c) {}
    void send(const uint8_t* d, size_t n) override {
      auto* nlh = reinterpret_cast<const nlmsghdr*>(d);
      if (RDMA_NL_GET_OP(nlh->nlmsg_type) == RDMA_NLDEV_CMD_GET && (nlh->nlmsg_flags & NLM_F_DUMP))
        ++c_.device_dumps;
      if (c_.on_send) c_.on_send(c_.requests);
      ++c_.requests;
      c_.k.send(d, n);
    }
    size_t recv(uint8_t* b, size_t n, int) override { return c_.k.recv(b, n); }
    uint32_t port_id() const override { return c_.k.port_id(); }
    void join_group(unsigned g) override { c_.k.join_group(g); }

   private:
    Counted& c_;
  };

  test::Result run(std::vector<std::string> args, const std::string& in = "") {
    return test::run_program(
        std::move(args),
        [this]() -> std::unique_ptr<nl::Transport> {
          ++opened;
          return std::make_unique<Link>(*this);
        },
        in);
  }
};

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(BatchReuse, OneSocketAndOneDeviceDumpForManyLines) {
  Counted single;
  std::string expected = single.run({"link", "show", "rxe0/1"}).out + single.run({"res"}).out +
                         single.run({"stat", "show", "link", "rxe1/1"}).out;
  EXPECT_GE(single.device_dumps, 2);  // one a command that names or lists devices

  Counted c;
  test::Result r = c.run({"-b", "-"}, repeat("link show rxe0/1\nres\nstat show link rxe1/1\n", 20));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, repeat(expected, 20));
  EXPECT_EQ(c.opened, 1);
  EXPECT_EQ(c.device_dumps, 1);
}

TEST(BatchReuse, DevShowLinesShareOneSocket) {
  Counted single;
  std::string expected = single.run({"dev", "show", "rxe0"}).out;
  Counted c;
  test::Result r = c.run({"-b", "-"}, repeat("dev show rxe0\n", 50));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, repeat(expected, 50));
  EXPECT_EQ(c.opened, 1);
  EXPECT_EQ(c.device_dumps, 50);  // the view itself is a dump of the devices
}

TEST(BatchReuse, ALineThatRenamesIsSeenByTheNext) {
  Counted c;
  test::Result r = c.run({"-f", "-b", "-"},
                         "link show rxe0/1\ndev set rxe0 name foo\nlink show foo/1\n"
                         "link show rxe0/1\nlink show rxe1/1\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "-:4: unknown device \"rxe0\"\n");
  EXPECT_NE(r.out.find("link foo/1 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("link rxe1/1 "), std::string::npos) << r.out;
  EXPECT_EQ(c.k.state.devices[0].name, "foo");
  // Line 1 dumps, line 2 reuses it and writes, line 3 dumps again, line 4
  // misses and asks once more before giving up; line 5 reuses that.
  EXPECT_EQ(c.device_dumps, 3);
  EXPECT_EQ(c.opened, 1);
}

TEST(BatchReuse, ADeviceAnotherProgramRenamedIsFound) {
  Counted c;
  // After the first line, someone else renames rxe0.
  c.on_send = [&](int request) {
    if (request == 2) c.k.state.devices[0].name = "ext0";
  };
  test::Result r = c.run({"-b", "-"}, "link show rxe0/1\nlink show rxe1/1\nlink show ext0/1\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("link ext0/1 "), std::string::npos) << r.out;
  EXPECT_EQ(c.device_dumps, 2);
}

TEST(BatchReuse, ErrorsNameFileAndLineAndForceGoesOn) {
  char path[] = "/tmp/rdma-batch-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  std::string text = "link show rxe0/1\nlink show nosuch/1\n\nres\nlink show rxe1/9\nsys\n";
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(fd);
  std::string f = path;

  Counted forced;
  test::Result r = forced.run({"-force", "-b", f});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, f + ":2: unknown device \"nosuch\"\n" + f +
                       ":5: device \"rxe1\" has no port 9 (ports: 1-1)\n");
  EXPECT_NE(r.out.find("link rxe0/1 "), std::string::npos);
  EXPECT_NE(r.out.find("rxe1: pd"), std::string::npos);
  EXPECT_NE(r.out.find("netns shared"), std::string::npos);
  EXPECT_EQ(forced.opened, 1);

  Counted plain;
  r = plain.run({"-b", f});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, f + ":2: unknown device \"nosuch\"\n");
  EXPECT_EQ(r.out, plain.run({"link", "show", "rxe0/1"}).out);
  std::remove(path);
}

// Memory in use does not grow with the number of lines: the largest heap
// in use while a batch runs (sampled at each request) is the same for a
// short and a long batch. BATCH_BENCH_LINES sets the long one (default
// 20000; bench/batch_testkernel.sh runs 100000).
struct BatchRun {
  double secs = 0;
  size_t peak_heap = 0;
};

BatchRun run_lines(int lines) {
  static const char* kLines[] = {"dev show rxe0", "link show rxe1/1", "res",  "stat show",
                                 "sys",           "-d dev",           "link", "res show pd"};
  char path[] = "/tmp/rdma-batch-XXXXXX";
  int fd = mkstemp(path);
  std::FILE* f = fdopen(fd, "w");
  for (int i = 0; i < lines; ++i) std::fprintf(f, "%s\n", kLines[i % 8]);
  std::fclose(f);
  Counted c;
  BatchRun out;
  c.on_send = [&](int) { out.peak_heap = std::max(out.peak_heap, mallinfo2().uordblks); };
  Env env;
  env.out = std::fopen("/dev/null", "w");
  env.err = std::fopen("/dev/null", "w");
  env.open = [&]() -> std::unique_ptr<nl::Transport> {
    ++c.opened;
    return std::make_unique<Counted::Link>(c);
  };
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(rdma::run({"-b", path}, env), 0);
  out.secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fclose(env.out);
  std::fclose(env.err);
  std::remove(path);
  EXPECT_EQ(c.opened, 1);
  return out;
}

TEST(BatchMemory, FlatWithTheNumberOfLines) {
#ifdef RDMA_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator does not report through mallinfo2";
#endif
  const char* e = std::getenv("BATCH_BENCH_LINES");
  int lines = e ? std::atoi(e) : 20000;
  BatchRun small = run_lines(lines / 10);
  BatchRun large = run_lines(lines);
  std::printf(
      "batch of %d lines (test kernel): %.2f s, %.2f us a line, heap in use at most %zu "
      "bytes (%d lines: %zu)\n",
      lines, large.secs, large.secs * 1e6 / lines, large.peak_heap, lines / 10, small.peak_heap);
  // Flat: the same buffers whatever the count; a little slack for the allocator.
  EXPECT_LT(large.peak_heap, small.peak_heap + 64 * 1024);
}

}  // namespace
}  // namespace rdma
