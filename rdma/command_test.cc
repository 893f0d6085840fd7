// Args: the words of a command line, some of which stand anywhere.
#include "rdma/command.h"

#include <gtest/gtest.h>

#include "lib/error.h"

namespace rdma {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Args, TakeKeywordValuesAnywhereInOnePass) {
  Args a({"show", "links", "via", "mlx5_0/1", "all", "from", "via", "x"});
  a.next();
  std::vector<std::string> taken;
  a.take_keyword_values(
      {"via", "from"},
      [&](const std::string& k, const std::string& v) { taken.push_back(k + "=" + v); },
      [](const std::string& k) { return "no value for " + k; });
  // "from via": the value is the next word, even a keyword.
  EXPECT_EQ(taken, (std::vector<std::string>{"via=mlx5_0/1", "from=via"}));
  EXPECT_EQ(a.take_rest(), (std::vector<std::string>{"links", "all", "x"}));
  EXPECT_TRUE(a.empty());
  Args b({"all", "via"});
  EXPECT_EQ(error_of([&] {
              b.take_keyword_values(
                  {"via"}, [](const std::string&, const std::string&) {},
                  [](const std::string& k) { return "no value for " + k; });
            }),
            "no value for via");
}

TEST(Args, TakeViaLastWinsAndIsChecked) {
  Args a({"port", "3", "via", "mlx5_0", "via", "mlx5_1/2"});
  EXPECT_EQ(a.take_via(), "mlx5_1/2");
  EXPECT_EQ(a.next(), "port");
  EXPECT_EQ(a.next(), "3");
  a.done();
  Args none({"port", "3"});
  EXPECT_EQ(none.take_via(), "");
  Args bad({"via", "mlx5_0/x"});
  EXPECT_EQ(error_of([&] { bad.take_via(); }),
            "invalid port \"x\" in \"via mlx5_0/x\" (expected DEV/PORT)");
  Args missing({"port", "via"});
  EXPECT_EQ(error_of([&] { missing.take_via(); }), "missing DEV/PORT after \"via\"");
  // An empty value is the check's to name.
  Args empty({"via", ""});
  EXPECT_EQ(error_of([&] { empty.take_via(); }),
            "missing device name in \"via \" (expected DEV or DEV/PORT)");
}

TEST(Args, NeedValueNamesTheKeyword) {
  Args a({"counters", ""});
  a.next();
  EXPECT_EQ(a.need_value("counters", "LIST"), "");  // empty is the parser's to name
  EXPECT_EQ(error_of([&] { a.need_value("counters", "LIST"); }), "missing LIST after \"counters\"");
}

TEST(Args, TakeSourceInOnePass) {
  Args a({"all", "from", "via", "via", "mlx5_0/1", "down"});
  FabricSource src = a.take_source();
  EXPECT_EQ(src.from, "via");  // a value is the next word, whatever it is
  EXPECT_EQ(src.via, "mlx5_0/1");
  EXPECT_EQ(a.next(), "all");
  EXPECT_EQ(a.next(), "down");
  a.done();
  Args missing({"from"});
  EXPECT_EQ(error_of([&] { missing.take_source(); }), "missing FILE after \"from\"");
  Args empty({"from", ""});
  EXPECT_EQ(error_of([&] { empty.take_source(); }), "empty FILE after \"from\"");
  Args none({"all"});
  src = none.take_source();
  EXPECT_EQ(src.from, "");
  EXPECT_EQ(src.via, "");
}

TEST(Args, TargetsUpToMax) {
  Args a({"lid", "4", "5", "6", "port", "1"});
  std::vector<mad::Target> t = a.targets(2);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].lid, 4);
  EXPECT_EQ(t[1].lid, 5);
  EXPECT_EQ(a.next(), "6");
  Args none({"port", "1"});
  EXPECT_TRUE(none.targets(2).empty());
  EXPECT_EQ(none.next(), "port");
}

TEST(Args, TargetAtTheNextWords) {
  Args a({"lid", "4", "port", "1"});
  std::optional<mad::Target> t = a.target();
  ASSERT_TRUE(t);
  EXPECT_EQ(t->lid, 4);
  EXPECT_EQ(a.next(), "port");
  Args bare({"7"});
  EXPECT_EQ(bare.target()->lid, 7);
  EXPECT_TRUE(bare.empty());
  Args none({"port", "1"});
  EXPECT_FALSE(none.target());
  EXPECT_EQ(none.peek(), "port");
  Args dr({"dr", "0,1,2"});
  EXPECT_EQ(dr.target()->kind, mad::Target::Kind::Dr);
}

TEST(Args, ABareWordIsANameWhereNothingElseCanStand) {
  Args a({"gpu-node-02", "gpu-node-07", "mcast", "0xc001"});
  std::vector<mad::Target> t = a.targets_or_names(2, {"mcast"});
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].kind, mad::Target::Kind::Name);
  EXPECT_EQ(t[0].name, "gpu-node-02");
  EXPECT_EQ(t[1].name, "gpu-node-07");
  EXPECT_EQ(a.next(), "mcast");
  // The command's keywords (and their prefixes), via, from and options
  // are not names.
  for (const char* w : {"po", "port", "via", "from", "help", "-j"}) {
    Args k({w, "3"});
    EXPECT_FALSE(k.target_or_name({"port"})) << w;
    EXPECT_EQ(k.peek(), w);
  }
  Args lid({"lid", "4"});
  EXPECT_EQ(lid.target_or_name({})->lid, 4);
  Args named({"name", "port"});  // `name` takes any word
  EXPECT_EQ(named.target_or_name({"port"})->name, "port");
}

TEST(Args, NeedWordTakesAnEmptyWordNeedDoesNot) {
  Args a({"", ""});
  EXPECT_EQ(a.need_word("port number"), "");
  EXPECT_EQ(error_of([&] { a.need("port number"); }), "empty port number");
  a.next();
  EXPECT_EQ(error_of([&] { a.need_word("port number"); }), "missing port number");
}

}  // namespace
}  // namespace rdma
