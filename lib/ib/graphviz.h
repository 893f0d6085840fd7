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

// Runs program (found in PATH, as "dot") with -Tsvg on the graph, for at
// most timeout_ms; a program that is missing, fails, prints no SVG or runs
// longer (then killed) is a failure saying so.
Svg render_svg(const std::string& graph, const std::string& program = "dot",
               int timeout_ms = 30000);

}  // namespace rdma::ib
