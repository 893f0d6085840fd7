#include "rdma/metrics_run.h"

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
    file_ = std::make_unique<view::ReplaceFile>(*c.opt.output);
    out = file_->file();
  }
  printer_ = view::make_openmetrics_printer(out, std::move(spec));
  printer_->set_gauges(std::move(gauges));
}

MetricsRun::~MetricsRun() {
  if (printer_ && !ended_) fail();
}

void MetricsRun::succeed() {
  end(true);
}

void MetricsRun::fail() {
  if (file_) {
    // FILE stays as it was; the temporary file goes with file_.
    printer_->detach();
    ended_ = true;
    return;
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
