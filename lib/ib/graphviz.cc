#include "lib/ib/graphviz.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

extern char** environ;

namespace rdma::ib {

namespace {

long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A memory file holding text, read from its start; -1 on failure.
int memory_file(const char* name, const std::string& text) {
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) return -1;
  for (size_t sent = 0; sent < text.size();) {
    ssize_t n = write(fd, text.data() + sent, text.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      return -1;
    }
    sent += static_cast<size_t>(n);
  }
  lseek(fd, 0, SEEK_SET);
  return fd;
}

// All of a memory file's text.
std::string read_all(int fd) {
  std::string text;
  lseek(fd, 0, SEEK_SET);
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  return text;
}

}  // namespace

SvgJob::SvgJob(const std::string& graph, const std::string& program, int timeout_ms)
    : program_(program), timeout_ms_(timeout_ms), deadline_ns_(now_ns() + timeout_ms * 1000000LL) {
  int in = memory_file("rdma-dot-in", graph);
  out_ = memory_file("rdma-dot-out", "");
  err_ = memory_file("rdma-dot-err", "");
  if (in < 0 || out_ < 0 || err_ < 0) {
    why_ = std::string("memfd_create: ") + strerror(errno);
    if (in >= 0) close(in);
    return;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in, 0);
  posix_spawn_file_actions_adddup2(&fa, out_, 1);
  posix_spawn_file_actions_adddup2(&fa, err_, 2);
  std::string tsvg = "-Tsvg";
  char* argv[] = {const_cast<char*>(program.c_str()), tsvg.data(), nullptr};
  pid_t pid;
  int rc = posix_spawnp(&pid, program.c_str(), &fa, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in);
  if (rc != 0) {
    why_ = program + " could not be run (" + strerror(rc) +
           "; Graphviz's dot draws the picture: apt-get install graphviz)";
    return;
  }
  pid_ = pid;
}

SvgJob::~SvgJob() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  if (out_ >= 0) close(out_);
  if (err_ >= 0) close(err_);
}

Svg SvgJob::finish() {
  if (pid_ <= 0) return {"", why_};
  int status = 0;
  bool timed_out = false;
  // Polled: a child's end has no descriptor to wait on with a timeout
  // here, and a few milliseconds against seconds of layout are nothing.
  for (;;) {
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) break;
    if (r < 0 && errno != EINTR) break;
    if (now_ns() >= deadline_ns_) {
      timed_out = true;
      kill(pid_, SIGKILL);
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid_ = -1;
  why_ = program_ + " was already collected";
  if (timed_out)
    return {"", program_ + " took longer than " +
                    (timeout_ms_ % 1000 ? std::to_string(timeout_ms_) + " ms"
                                        : std::to_string(timeout_ms_ / 1000) + " s") +
                    " to lay the picture out"};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string msg = read_all(err_);
    std::string first = msg.substr(0, msg.find('\n'));
    return {"", program_ + " failed" + (first.empty() ? "" : ": " + first)};
  }
  std::string svg = read_all(out_);
  size_t at = svg.find("<svg");
  if (at == std::string::npos) return {"", program_ + " printed no SVG"};
  return {svg.substr(at), ""};
}

Svg render_svg(const std::string& graph, const std::string& program, int timeout_ms) {
  return SvgJob(graph, program, timeout_ms).finish();
}

}  // namespace rdma::ib
