// The progress line of a long sweep on stderr (nodes found, MADs in flight,
// timeouts), rewritten in place with \r and cleared at the end; only on a
// terminal, never with -q.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "lib/mad/engine.h"

namespace rdma {

// Whether to draw on err: a terminal and no -q. The terminal check is a
// seam (isatty by default) so tests can force it.
using IsTerminal = std::function<bool(std::FILE*)>;
bool progress_wanted(std::FILE* err, bool quiet, const IsTerminal& is_terminal = {});

class Progress {
 public:
  // Draws no more often than every `every` (0: at each update), and not
  // before `after` has passed: a command that ends quickly draws nothing.
  Progress(std::FILE* err, bool on,
           std::chrono::milliseconds every = std::chrono::milliseconds(100),
           std::chrono::milliseconds after = std::chrono::milliseconds(500))
      : err_(err), on_(on), every_(every), start_(std::chrono::steady_clock::now() + after) {}
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // "fabric: 12 nodes, 8 MADs in flight, 3 timeouts" (nodes only once known).
  static std::string text(const mad::EngineStats& s, size_t nodes);
  void update(const mad::EngineStats& s, size_t nodes);
  // Blanks the line, when one is drawn.
  void clear();

 private:
  std::FILE* err_;
  bool on_;
  std::chrono::milliseconds every_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
  size_t width_ = 0;  // of the line drawn; 0: none
};

}  // namespace rdma
