#include "rdma/ib/progress.h"

#include <unistd.h>

namespace rdma {

bool progress_wanted(std::FILE* err, bool quiet, const IsTerminal& is_terminal) {
  if (quiet || !err) return false;
  return is_terminal ? is_terminal(err) : isatty(fileno(err)) == 1;
}

std::string Progress::text(const mad::EngineStats& s, size_t nodes) {
  // Queries started (tries less retries) less those ended.
  uint64_t ended = s.answered + s.failed();
  uint64_t started = s.sent - s.retried;
  uint64_t in_flight = started > ended ? started - ended : 0;
  std::string out = "fabric: ";
  if (nodes) out += std::to_string(nodes) + (nodes == 1 ? " node, " : " nodes, ");
  out += std::to_string(s.sent) + " MADs sent, " + std::to_string(in_flight) + " in flight, " +
         std::to_string(s.timeouts) + (s.timeouts == 1 ? " timeout" : " timeouts");
  return out;
}

void Progress::update(const mad::EngineStats& s, size_t nodes) {
  if (!on_) return;
  auto now = std::chrono::steady_clock::now();
  if (now < start_ || (width_ && now - last_ < every_)) return;
  last_ = now;
  std::string line = text(s, nodes);
  // Spaces over what is left of a longer line before.
  size_t pad = width_ > line.size() ? width_ - line.size() : 0;
  std::fprintf(err_, "\r%s%*s", line.c_str(), static_cast<int>(pad), "");
  std::fflush(err_);
  width_ = line.size() + pad;
}

void Progress::clear() {
  if (!width_) return;
  std::fprintf(err_, "\r%*s\r", static_cast<int>(width_), "");
  std::fflush(err_);
  width_ = 0;
}

}  // namespace rdma
