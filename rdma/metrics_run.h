// One run of a command that exposes metrics (fabric errors, fabric links,
// perf show with --openmetrics or --prometheus): its samples, then
// PREFIX_up (1 when the run got through, 0 when it failed) and
// PREFIX_duration_seconds, so a scrape tells "nothing wrong" from "could
// not look". With --output FILE a document replaces FILE whole (never half
// written: node_exporter's textfile collector may read at any time): the
// samples and up 1 when the run succeeds; only up 0 and the duration when it
// fails, since samples from a sweep cut short, or the last run's, would pass
// for the fabric's state. Without --output it goes to stdout, failed or not.
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
  // up 0 and the duration: after the samples on stdout; with --output,
  // alone in FILE.
  void fail();

 private:
  void end(bool up);

  view::MetricsSpec spec_;  // a failed run's document starts again from it
  std::optional<std::string> path_;
  std::unique_ptr<view::ReplaceFile> file_;
  std::unique_ptr<view::MetricsPrinter> printer_;
  std::string prefix_;
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  bool ended_ = false;
};

}  // namespace rdma
