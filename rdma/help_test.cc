#include "rdma/help.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "lib/error.h"
#include "lib/testing/test_data.h"
#include "rdma/command.h"
#include "rdma/test_util.h"

namespace rdma {
namespace {

const char kFabricUsage[] =
    "Usage: rdma fabric show [ switches | cas ] [ from FILE ]\n"
    "       rdma fabric links [ all | degraded ]\n"
    "                         [via DEV/PORT]\n"
    "       rdma fabric errors [ counters LIST ]\n"
    "       rdma fabric errors reset [ all ]\n"
    "Options --window N set how many MADs are in flight. fabric errors takes -w.\n"
    "LIST := NAME[,NAME]... error counters or as\n"
    "perf show prints them.\n"
    "A note.\n";

TEST(Help, UsageCommandsInOrder) {
  EXPECT_EQ(usage_commands(kFabricUsage, "fabric"),
            (std::vector<std::string>{"show", "links", "errors"}));
  EXPECT_EQ(usage_commands("Usage: rdma [ -w S ] statistic [ show | list ] [ link ]\n"
                           "       rdma statistic qp mode\n",
                           "statistic"),
            (std::vector<std::string>{"show", "list", "qp"}));
}

TEST(Help, ACommandsLinesWithTheirContinuationsAndDefinitions) {
  EXPECT_EQ(command_usage(kFabricUsage, "fabric", "links"),
            "Usage: rdma fabric links [ all | degraded ]\n"
            "                         [via DEV/PORT]\n");
  // A prefix, as dispatch takes it; the definitions its lines use, with
  // the line that goes on with the sentence.
  EXPECT_EQ(command_usage(kFabricUsage, "fabric", "err"),
            "Usage: rdma fabric errors [ counters LIST ]\n"
            "       rdma fabric errors reset [ all ]\n"
            "where  LIST := NAME[,NAME]... error counters or as\n"
            "perf show prints them.\n");
  // A word the usage does not spell (an alias): the whole usage.
  EXPECT_EQ(command_usage(kFabricUsage, "fabric", "list"), kFabricUsage);
}

test::Result run(std::vector<std::string> args) {
  return test::run_program(std::move(args), []() -> std::unique_ptr<nl::Transport> {
    throw Error("help sends nothing");
  });
}

TEST(Help, EveryLevelShowsItsUsage) {
  test::Result global = run({"help"});
  EXPECT_EQ(global.status, 0);
  EXPECT_TRUE(global.out.starts_with("Usage: rdma [ OPTIONS ] OBJECT")) << global.out;
  EXPECT_EQ(run({"-h"}).out, global.out);

  test::Result fabric = run({"fabric", "help"});
  EXPECT_EQ(fabric.status, 0) << fabric.err;
  EXPECT_NE(fabric.out.find("rdma fabric links"), std::string::npos) << fabric.out;
  EXPECT_NE(fabric.out.find("rdma fabric check"), std::string::npos) << fabric.out;
  for (std::vector<std::string> same : {std::vector<std::string>{"help", "fabric"},
                                        {"fabric", "--help"},
                                        {"fabric", "-h"},
                                        {"help", "fab"}}) {
    test::Result r = run(same);
    EXPECT_EQ(r.status, 0) << test::command_line(same);
    EXPECT_EQ(r.out, fabric.out) << test::command_line(same);
  }

  test::Result links = run({"fabric", "links", "help"});
  EXPECT_EQ(links.status, 0) << links.err;
  EXPECT_TRUE(links.out.starts_with("Usage: rdma fabric links ")) << links.out;
  EXPECT_EQ(links.out.find("fabric show"), std::string::npos) << links.out;
  EXPECT_EQ(links.err, "");
  for (std::vector<std::string> same : {std::vector<std::string>{"help", "fabric", "links"},
                                        {"fabric", "links", "-h"},
                                        {"-h", "fabric", "links", "degraded"},
                                        {"fabric", "li", "--help"}}) {
    test::Result r = run(same);
    EXPECT_EQ(r.status, 0) << test::command_line(same);
    EXPECT_EQ(r.out, links.out) << test::command_line(same);
  }
  // Every object has a usage of its own, by either spelling.
  for (const Cmd& o : objects()) {
    if (!o.name || std::string(o.name) == "help") continue;
    test::Result a = run({"help", o.name}), b = run({o.name, "help"});
    EXPECT_EQ(a.status, 0) << o.name << ": " << a.err;
    EXPECT_TRUE(a.out.starts_with("Usage: ")) << o.name << ": " << a.out;
    EXPECT_EQ(a.out, b.out) << o.name;
  }
}

TEST(Help, UnknownWordsListTheChoicesAndSuggestOne) {
  test::Result r = run({"help", "fabrik"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("unknown object \"fabrik\" (dev, link, "), std::string::npos) << r.err;
  EXPECT_TRUE(r.err.ends_with("; did you mean \"fabric\"?\n")) << r.err;
  test::Result shwo = run({"fabric", "shwo"});
  EXPECT_EQ(shwo.status, 1);
  EXPECT_EQ(shwo.err,
            "unknown fabric command \"shwo\" (show, list, links, top, topology, save, diff, "
            "errors, edit, check, counters, report, plan or help); did you mean \"show\"?\n");
  test::Result perf = run({"perf", "clear"});
  EXPECT_EQ(perf.err, "unknown perf command \"clear\" (show, list, reset, caps or help)\n");
}

// rdma(8) has one table of exit statuses: it names every command whose
// table entry reports findings.
TEST(Help, ManPageExitStatusNamesEveryFindingsCommand) {
  std::ifstream in(testdata::dir() + "/../../man/rdma.8");
  std::stringstream page;
  page << in.rdbuf();
  std::string text = page.str();
  size_t at = text.find(".SH EXIT STATUS");
  ASSERT_NE(at, std::string::npos);
  std::string section = text.substr(at, text.find(".SH ", at + 1) - at);
  std::vector<std::string> findings = commands_taking(Takes::Findings);
  EXPECT_GE(findings.size(), 3u);
  for (const std::string& c : findings)
    EXPECT_NE(section.find(".BR \"" + c + "\""), std::string::npos) << c;
}

}  // namespace
}  // namespace rdma
