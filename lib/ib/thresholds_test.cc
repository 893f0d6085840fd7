// Which thresholds file a sweep reads: ibqueryerrors' choice.
#include "lib/ib/thresholds.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "lib/ib/errors.h"

namespace rdma::ib {
namespace {

TEST(ThresholdsFile, TheNamedOneElseTheSitesWhereItExists) {
  std::string site = ::testing::TempDir() + "thresholds_site";
  std::remove(site.c_str());
  EXPECT_EQ(thresholds_file(std::nullopt, site), std::nullopt);
  EXPECT_EQ(thresholds_file(std::string("mine"), site), "mine");
  std::FILE* f = std::fopen(site.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("# the site's\nSymbolErrorCounter=10\n", f);
  std::fclose(f);
  EXPECT_EQ(thresholds_file(std::nullopt, site), site);
  EXPECT_EQ(thresholds_file(std::string("mine"), site), "mine");  // named wins, not merged
  Thresholds t;
  EXPECT_TRUE(t.load(site).empty());
  EXPECT_EQ(t.of(*error_counter("symbol_errors")), 10u);
  t.set("symbol_errors", 3);  // a word after the file wins
  EXPECT_EQ(t.of(*error_counter("SymbolErrorCounter")), 3u);
  std::remove(site.c_str());
}

}  // namespace
}  // namespace rdma::ib
