// The OpenMetrics printer: families grouped whatever the record order,
// labels from the record and constant ones, escaping, nothing written for
// an abandoned output.
#include "lib/view/openmetrics.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace rdma::view {
namespace {

// What a printer wrote to a memory stream.
class Captured {
 public:
  Captured() : f_(open_memstream(&buf_, &size_)) {}
  ~Captured() {
    if (f_) std::fclose(f_);
    std::free(buf_);
  }
  std::FILE* file() { return f_; }
  std::string text() {
    std::fflush(f_);
    return std::string(buf_, size_);
  }

 private:
  char* buf_ = nullptr;
  size_t size_ = 0;
  std::FILE* f_;
};

MetricsSpec spec() {
  return {"rdma_ib_port_",
          "InfiniBand PMA counter",
          {{"node_guid", "node_guid"}, {"description", "description"}, {"port", "port"}},
          {},
          {"lid"}};
}

Record port(const std::string& desc, int port, uint64_t sym, uint64_t rcv) {
  Record r;
  r.add("node_guid", "", "0002:c903:0000:0001");
  r.add("description", "", desc);
  r.add("port", "", port);
  r.add("lid", "", 7);
  r.add("symbol_errors", "", sym);
  r.add("rcv_errors", "", rcv);
  r.add("note", "", "not a number");
  return r;
}

TEST(OpenMetrics, OneFamilyPerCounterWithEverySampleAndEofAtTheEnd) {
  Captured out;
  auto p = make_openmetrics_printer(out.file(), spec());
  p->record(port("sw1", 1, 3, 0));
  p->record(port("sw2", 12, 18446744073709551615ull, 4));
  p->finish();
  p->finish();  // once only
  EXPECT_EQ(out.text(),
            "# HELP rdma_ib_port_symbol_errors InfiniBand PMA counter symbol_errors\n"
            "# TYPE rdma_ib_port_symbol_errors counter\n"
            "rdma_ib_port_symbol_errors_total{node_guid=\"0002:c903:0000:0001\","
            "description=\"sw1\",port=\"1\"} 3\n"
            "rdma_ib_port_symbol_errors_total{node_guid=\"0002:c903:0000:0001\","
            "description=\"sw2\",port=\"12\"} 18446744073709551615\n"
            "# HELP rdma_ib_port_rcv_errors InfiniBand PMA counter rcv_errors\n"
            "# TYPE rdma_ib_port_rcv_errors counter\n"
            "rdma_ib_port_rcv_errors_total{node_guid=\"0002:c903:0000:0001\","
            "description=\"sw1\",port=\"1\"} 0\n"
            "rdma_ib_port_rcv_errors_total{node_guid=\"0002:c903:0000:0001\","
            "description=\"sw2\",port=\"12\"} 4\n"
            "# EOF\n");
}

TEST(OpenMetrics, LabelValuesAreEscapedAndNamesSanitized) {
  EXPECT_EQ(escape_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(metric_name("rx-bytes.x"), "rx_bytes_x");
  EXPECT_EQ(metric_name("4x"), "_4x");
  Captured out;
  MetricsSpec s{"rdma_stat_",
                "RDMA port counter",
                {{"ifname", "device"}, {"port", "port"}},
                {{"host", "h\"1"}},
                {}};
  auto p = make_openmetrics_printer(out.file(), s);
  Record r;
  r.add("ifname", "", "mlx5_0");
  r.add("port", "", 1);
  r.add("rx-write.requests", "", 9);
  p->record(r);
  p->finish();
  EXPECT_EQ(out.text(),
            "# HELP rdma_stat_rx_write_requests RDMA port counter rx-write.requests\n"
            "# TYPE rdma_stat_rx_write_requests counter\n"
            "rdma_stat_rx_write_requests_total{host=\"h\\\"1\",device=\"mlx5_0\",port=\"1\"} 9\n"
            "# EOF\n");
}

TEST(OpenMetrics, AnErrorLeavesAWholeDocumentOfWhatWasRead) {
  Captured out;
  {
    auto p = make_openmetrics_printer(out.file(), spec());
    p->record(port("sw1", 1, 3, 0));
  }  // an error ended the command after one port: its samples, and # EOF
  std::string t = out.text();
  EXPECT_NE(t.find("rdma_ib_port_symbol_errors_total{"), std::string::npos) << t;
  EXPECT_EQ(t.substr(t.size() - 6), "# EOF\n") << t;
}

TEST(OpenMetrics, NothingIsWrittenWithoutSamplesUnlessFinished) {
  Captured out;
  { auto p = make_openmetrics_printer(out.file(), spec()); }  // failed before any port
  EXPECT_EQ(out.text(), "");
  auto p = make_openmetrics_printer(out.file(), spec());
  p->abandon();  // a bad command line: nothing at all
  EXPECT_EQ(out.text(), "");
  auto q = make_openmetrics_printer(out.file(), spec());
  q->finish();  // no counters: an empty exposition is still one
  EXPECT_EQ(out.text(), "# EOF\n");
}

TEST(OpenMetrics, ThePrometheusFormatNamesTheFamilyWithItsTotalAndHasNoEof) {
  Captured out;
  MetricsSpec s = spec();
  s.format = MetricsFormat::Prometheus;
  s.help = "PMA \"counter\"\\";
  auto p = make_openmetrics_printer(out.file(), s);
  p->record(port("sw1", 1, 3, 0));
  p->finish();
  std::string t = out.text();
  EXPECT_EQ(t.substr(0, t.find("rdma_ib_port_rcv")),
            "# HELP rdma_ib_port_symbol_errors_total PMA \"counter\"\\\\ symbol_errors\n"
            "# TYPE rdma_ib_port_symbol_errors_total counter\n"
            "rdma_ib_port_symbol_errors_total{node_guid=\"0002:c903:0000:0001\","
            "description=\"sw1\",port=\"1\"} 3\n"
            "# HELP ");
  EXPECT_EQ(t.find("# EOF"), std::string::npos);
}

TEST(OpenMetrics, GaugesHaveNoTotalAndTheRunsGaugesComeLast) {
  for (MetricsFormat fmt : {MetricsFormat::OpenMetrics, MetricsFormat::Prometheus}) {
    Captured out;
    MetricsSpec s = spec();
    s.format = fmt;
    auto p = make_openmetrics_printer(out.file(), s);
    p->set_gauges({"rcv_errors"});
    p->gauge("rdma_ib_x_up", "1 when \"it\" ran", 1);
    p->gauge("rdma_ib_x_duration_seconds", "Seconds", 0.25);
    p->record(port("sw1", 1, 3, 7));
    p->finish();
    std::string t = out.text();
    bool om = fmt == MetricsFormat::OpenMetrics;
    EXPECT_NE(t.find("# TYPE rdma_ib_port_rcv_errors gauge\n"
                     "rdma_ib_port_rcv_errors{node_guid=\"0002:c903:0000:0001\","
                     "description=\"sw1\",port=\"1\"} 7\n"),
              std::string::npos)
        << t;
    EXPECT_NE(t.find(om ? "# TYPE rdma_ib_port_symbol_errors counter\n"
                        : "# TYPE rdma_ib_port_symbol_errors_total counter\n"),
              std::string::npos)
        << t;
    std::string run = std::string("# HELP rdma_ib_x_up 1 when ") + (om ? "\\\"it\\\"" : "\"it\"") +
                      " ran\n# TYPE rdma_ib_x_up gauge\nrdma_ib_x_up 1\n"
                      "# HELP rdma_ib_x_duration_seconds Seconds\n"
                      "# TYPE rdma_ib_x_duration_seconds gauge\n"
                      "rdma_ib_x_duration_seconds 0.25\n";
    EXPECT_TRUE(t.ends_with(om ? run + "# EOF\n" : run)) << t;
  }
}

}  // namespace
}  // namespace rdma::view

namespace rdma::view {
namespace {

// Fields given already written as JSON (Field::json, as nldev's scalars
// are) label and count as those given as Json values.
TEST(OpenMetrics, FieldsWrittenAsJsonCountAsValues) {
  Record r;
  Field& guid = r.next();
  guid.key = "node_guid";
  guid.json = "\"0002:c903:0000:0001\"";
  Field& errors = r.next();
  errors.key = "symbol_errors";
  errors.json = "5";
  Captured out;
  auto p = make_openmetrics_printer(out.file(), spec());
  p->record(r);
  p->finish();
  EXPECT_NE(
      out.text().find("rdma_ib_port_symbol_errors_total{node_guid=\"0002:c903:0000:0001\"} 5\n"),
      std::string::npos)
      << out.text();
}

}  // namespace
}  // namespace rdma::view
