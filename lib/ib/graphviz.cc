#include "lib/ib/graphviz.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace rdma::ib {

namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  bool open() { return pipe2(fd, O_CLOEXEC) == 0; }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
  ~Pipe() {
    close_end(0);
    close_end(1);
  }
};

}  // namespace

Svg render_svg(const std::string& graph, const std::string& program, int timeout_ms) {
  Pipe in, out, err;
  if (!in.open() || !out.open() || !err.open())
    return {"", std::string("pipe: ") + strerror(errno)};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in.fd[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err.fd[1], 2);
  std::string tsvg = "-Tsvg";
  char* argv[] = {const_cast<char*>(program.c_str()), tsvg.data(), nullptr};
  pid_t pid;
  int rc = posix_spawnp(&pid, program.c_str(), &fa, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    return {"", program + " could not be run (" + strerror(rc) +
                    "; Graphviz's dot draws the picture: apt-get install graphviz)"};
  in.close_end(0);
  out.close_end(1);
  err.close_end(1);
  fcntl(in.fd[1], F_SETFL, O_NONBLOCK);
  // A program that exits before reading it all must not kill rdma with
  // SIGPIPE: held back while writing, and taken if it came.
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  // The graph in while its SVG comes out: a large graph fills both pipes.
  std::string svg, msg;
  size_t sent = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  bool timed_out = false;
  while (out.fd[0] >= 0 || err.fd[0] >= 0) {
    if (sent == graph.size()) in.close_end(1);
    pollfd p[3] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}, {in.fd[1], POLLOUT, 0}};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    if (poll(p, 3, static_cast<int>(left)) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    char buf[65536];
    for (int i = 0; i < 2; ++i)
      if (p[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t n = read(p[i].fd, buf, sizeof buf);
        if (n > 0)
          (i == 0 ? svg : msg).append(buf, static_cast<size_t>(n));
        else if (n == 0 || errno != EINTR)
          (i == 0 ? out : err).close_end(0);
      }
    if (p[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
      ssize_t n = write(in.fd[1], graph.data() + sent, graph.size() - sent);
      if (n > 0)
        sent += static_cast<size_t>(n);
      else if (n < 0 && errno != EAGAIN && errno != EINTR)
        sent = graph.size();  // it stopped reading: its status says why
    }
  }
  in.close_end(1);
  sigset_t pending;
  sigpending(&pending);
  if (sigismember(&pending, SIGPIPE) && !sigismember(&old_set, SIGPIPE)) {
    timespec now{0, 0};
    sigtimedwait(&pipe_set, nullptr, &now);
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out)
    return {"", program + " took longer than " +
                    (timeout_ms % 1000 ? std::to_string(timeout_ms) + " ms"
                                       : std::to_string(timeout_ms / 1000) + " s") +
                    " to lay the picture out"};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string first = msg.substr(0, msg.find('\n'));
    return {"", program + " failed" + (first.empty() ? "" : ": " + first)};
  }
  size_t at = svg.find("<svg");
  if (at == std::string::npos) return {"", program + " printed no SVG"};
  return {svg.substr(at), ""};
}

}  // namespace rdma::ib
