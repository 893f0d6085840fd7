// The picture of `rdma fabric report`, laid out by Graphviz: the `dot`
// program renders a dot graph to SVG. A program, not libgvc linked in, so
// that rdma does not map Graphviz's dozen libraries on every start, and a
// host without Graphviz still gets a report (without the picture).
#pragma once

#include <string>

namespace rdma::ib {

struct Svg {
  std::string svg;  // the <svg> element alone (no XML prolog), "" on failure
  std::string why;  // on failure: what went wrong, for the report and stderr
};

// A picture being laid out: program (found in PATH, as "dot") started
// with -Tsvg on the graph, running on its own while the caller does other
// work (the report's checks); finish() collects it. The graph and the SVG
// go through memory files, not pipes, so nobody has to feed dot meanwhile.
class SvgJob {
 public:
  SvgJob(const std::string& graph, const std::string& program = "dot", int timeout_ms = 30000);
  ~SvgJob();  // a job not finished is killed and reaped
  SvgJob(const SvgJob&) = delete;
  SvgJob& operator=(const SvgJob&) = delete;
  // Waits until timeout_ms after the start at most; a program that is
  // missing, fails, prints no SVG or runs longer (then killed) is a
  // failure saying so. Once.
  Svg finish();

 private:
  std::string program_;
  int timeout_ms_;
  std::string why_;  // the start's failure
  int pid_ = -1;
  int out_ = -1, err_ = -1;
  long long deadline_ns_ = 0;  // steady clock
};

// SvgJob(graph, program, timeout_ms).finish().
Svg render_svg(const std::string& graph, const std::string& program = "dot",
               int timeout_ms = 30000);

}  // namespace rdma::ib
