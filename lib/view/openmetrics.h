// Counter records as text exposition for Prometheus: each numeric field of
// a record is a sample of the counter family named prefix + key, the
// record's identifying fields are its labels. Two formats:
// OpenMetrics 1.0 (openmetrics.io; what Prometheus scrapes by preference),
//
//   # HELP rdma_ib_port_symbol_errors InfiniBand PMA counter symbol_errors
//   # TYPE rdma_ib_port_symbol_errors counter
//   rdma_ib_port_symbol_errors_total{node_guid="0002:c903:0000:0001",port="1"} 3
//   ...
//   # EOF
//
// and the Prometheus text format 0.0.4, the only one node_exporter's
// textfile collector reads (node_exporter issue 1988): the family is named
// with its _total, and there is no # EOF.
//
// Record keys listed as gauges are families of TYPE gauge whose samples
// have no _total (a link's width); gauge() adds a family of one sample
// without labels after the others (a run's _up and _duration_seconds).
//
// The format wants the samples of a family together, so the printer keeps
// the samples until finish(); an output abandoned by an error is never
// written (a scrape sees no partial document).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/view/printer.h"

namespace rdma::view {

enum class MetricsFormat : uint8_t { OpenMetrics, Prometheus };

struct MetricsSpec {
  std::string prefix;  // of every family name, e.g. "rdma_ib_port_"
  std::string help;    // HELP text: help + " " + key
  // Record keys that are labels, and the label each becomes.
  std::vector<std::pair<std::string, std::string>> labels;
  // Labels every sample carries (name, value), before the record's.
  std::vector<std::pair<std::string, std::string>> constant_labels;
  // Numeric record keys that are not counters (e.g. "lid").
  std::vector<std::string> ignore;
  MetricsFormat format = MetricsFormat::OpenMetrics;
};

class MetricsPrinter : public Printer {
 public:
  // Numeric record keys that are gauges, not counters (before the records).
  virtual void set_gauges(std::vector<std::string> keys) = 0;
  // A gauge family named in full with one sample without labels, written
  // after the record families.
  virtual void gauge(std::string_view name, std::string_view help, double value) = 0;
};

// A metric or label name: characters outside [a-zA-Z0-9_] become '_'.
std::string metric_name(std::string_view s);
// A label value (or OpenMetrics HELP text) escaped as the formats want:
// \\, \" and \n. Prometheus' HELP escapes only \\ and \n.
std::string escape_label_value(std::string_view s);
std::string escape_prometheus_help(std::string_view s);

std::unique_ptr<MetricsPrinter> make_openmetrics_printer(std::FILE* out, MetricsSpec spec);

}  // namespace rdma::view
