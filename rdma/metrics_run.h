// One run of a command that exposes metrics (fabric errors, fabric links,
// perf show with --openmetrics or --prometheus): its samples, then
// PREFIX_up (1 when the run got through, 0 when it failed) and
// PREFIX_duration_seconds, so a scrape tells "nothing wrong" from "could
// not look". With --output FILE the document replaces FILE only when the
// run succeeds; a failed run leaves FILE as it was (node_exporter's
// textfile collector never reads half a file, and the file's age tells
// the run stopped). Without --output it goes to stdout, failed or not.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "lib/view/openmetrics.h"
#include "lib/view/replace_file.h"
#include "rdma/command.h"

namespace rdma {

class MetricsRun {
 public:
  // Nothing to do (printer() null) without --openmetrics/--prometheus;
  // Error with -w, or when --output's temporary file cannot be made. The
  // duration counts from here.
  // The record keys in gauges are gauges, the others counters; what names
  // the run in the HELP texts.
  MetricsRun(Ctx& c, view::MetricsSpec spec, std::string prefix, std::string what,
             std::vector<std::string> gauges = {});
  // A run neither succeeded nor failed (an exception on its way): failed.
  ~MetricsRun();
  MetricsRun(const MetricsRun&) = delete;
  MetricsRun& operator=(const MetricsRun&) = delete;

  view::Printer* printer() { return printer_.get(); }
  // up 1 and the duration; the document written (FILE replaced).
  void succeed();
  // up 0 and the duration: written to stdout; with --output, nothing.
  void fail();

 private:
  void end(bool up);

  std::unique_ptr<view::ReplaceFile> file_;
  std::unique_ptr<view::MetricsPrinter> printer_;
  std::string prefix_;
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  bool ended_ = false;
};

}  // namespace rdma
