#include "rdma/metrics_run.h"

#include "lib/error.h"

namespace rdma {

MetricsRun::MetricsRun(Ctx& c, view::MetricsSpec spec, std::string prefix, std::string what,
                       std::vector<std::string> gauges)
    : prefix_(std::move(prefix)), what_(std::move(what)), start_(std::chrono::steady_clock::now()) {
  if (c.opt.exposition == Options::Exposition::None) return;
  no_metrics_watch(c);
  spec.format = c.opt.exposition == Options::Exposition::OpenMetrics
                    ? view::MetricsFormat::OpenMetrics
                    : view::MetricsFormat::Prometheus;
  std::FILE* out = c.help_out;
  if (c.opt.output) {
    path_ = *c.opt.output;
    spec_ = spec;
    file_ = std::make_unique<view::ReplaceFile>(*path_);
    out = file_->file();
  }
  printer_ = view::make_openmetrics_printer(out, std::move(spec));
  printer_->set_gauges(std::move(gauges));
}

MetricsRun::~MetricsRun() {
  if (!printer_ || ended_) return;
  try {
    fail();
  } catch (const Error&) {
    // FILE could not be replaced: it stays as it was. A destructor must not
    // throw, and the error that ended the run is the one to report.
  }
}

void MetricsRun::succeed() {
  end(true);
}

void MetricsRun::fail() {
  if (file_ && !ended_) {
    // The samples so far go with their temporary file; a new one gets
    // only up 0 and the duration.
    printer_->detach();
    file_.reset();
    try {
      file_ = std::make_unique<view::ReplaceFile>(*path_);
    } catch (const Error&) {
      ended_ = true;  // FILE stays as it was: nothing else can be done
      return;
    }
    printer_ = view::make_openmetrics_printer(file_->file(), spec_);
  }
  end(false);
}

void MetricsRun::end(bool up) {
  if (!printer_ || ended_) return;
  ended_ = true;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  printer_->gauge(prefix_ + "up", "1 when " + what_ + " succeeded, 0 when it failed", up);
  printer_->gauge(prefix_ + "duration_seconds", "Seconds " + what_ + " took", seconds);
  printer_->finish();
  if (file_) file_->commit();
}

}  // namespace rdma
