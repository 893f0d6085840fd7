#include "lib/bw/report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "lib/view/printer.h"

namespace rdma::bw {
namespace {

std::string printed(bool json, const view::Record& r) {
  char* buf = nullptr;
  size_t n = 0;
  std::FILE* f = open_memstream(&buf, &n);
  auto p = json ? view::make_json_printer(f, false) : view::make_text_printer(f);
  p->set_line_ends(view::Printer::LineEnds::Trimmed);
  p->record(r);
  p->finish();
  std::fclose(f);
  std::string s(buf, n);
  std::free(buf);
  return s;
}

Session session() {
  return {"rxe1", 1, "192.0.2.1", 18515, {65536, 1000, 2}};
}

TEST(BwReport, ClientTextAndJson) {
  Bandwidth b{65536000, 52428800, 10.0};
  Latency l{5.1, 6.0, 6.3125, 12.0416, 20.5};
  view::Record r;
  client_record(session(), b, l, r);
  EXPECT_EQ(printed(false, r),
            "rxe1/1 to 192.0.2.1 port 18515\n"
            "  RDMA write 65536 bytes x 1000: 10.000 Gb/s (10000.0 Mb/s)\n"
            "  send/recv 2 bytes x 1000: latency min 5.10 median 6.00 avg 6.31 p99 12.04 max "
            "20.50 us\n");
  auto j = nlohmann::json::parse(printed(true, r));
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["dev"], "rxe1");
  EXPECT_EQ(j[0]["port"], 1);
  EXPECT_EQ(j[0]["peer"], "192.0.2.1");
  EXPECT_EQ(j[0]["cm_port"], 18515);
  EXPECT_EQ(j[0]["size"], 65536);
  EXPECT_EQ(j[0]["iterations"], 1000);
  EXPECT_EQ(j[0]["bytes"], 65536000);
  EXPECT_DOUBLE_EQ(j[0]["time_us"].get<double>(), 52428.8);
  EXPECT_DOUBLE_EQ(j[0]["bw_gbps"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(j[0]["bw_mbps"].get<double>(), 10000.0);
  EXPECT_EQ(j[0]["lat_size"], 2);
  EXPECT_DOUBLE_EQ(j[0]["lat_us_min"].get<double>(), 5.1);
  EXPECT_DOUBLE_EQ(j[0]["lat_us_median"].get<double>(), 6.0);
  EXPECT_DOUBLE_EQ(j[0]["lat_us_avg"].get<double>(), 6.3125);
  EXPECT_DOUBLE_EQ(j[0]["lat_us_p99"].get<double>(), 12.0416);
  EXPECT_DOUBLE_EQ(j[0]["lat_us_max"].get<double>(), 20.5);
  EXPECT_EQ(j[0].size(), 16u);
}

TEST(BwReport, ServerTextAndJson) {
  view::Record r;
  server_record(session(), r);
  EXPECT_EQ(printed(false, r),
            "rxe1/1 served 192.0.2.1 port 18515: 1000 RDMA writes of 65536 bytes, 1000 "
            "ping-pongs of 2 bytes\n");
  auto j = nlohmann::json::parse(printed(true, r));
  EXPECT_EQ(j[0], nlohmann::json::parse(R"({"dev":"rxe1","port":1,"peer":"192.0.2.1",
      "cm_port":18515,"size":65536,"iterations":1000,"lat_size":2})"));
}

}  // namespace
}  // namespace rdma::bw
