#include "rdma/options.h"

#include <gtest/gtest.h>

#include "lib/error.h"

namespace rdma {
namespace {

using Words = std::vector<std::string>;

TEST(Options, AnywhereOnTheLine) {
  Words w = {"dev", "-j", "show", "-d", "rxe0", "-p"};
  Options o = parse_options(w);
  EXPECT_TRUE(o.json);
  EXPECT_TRUE(o.pretty);
  EXPECT_EQ(o.details, 1);
  EXPECT_EQ(w, (Words{"dev", "show", "rxe0"}));
}

TEST(Options, ClustersAndRepeats) {
  Words w = {"-dd", "-jp", "link"};
  Options o = parse_options(w);
  EXPECT_EQ(o.details, 2);
  EXPECT_TRUE(o.json && o.pretty);
  EXPECT_EQ(w, (Words{"link"}));
}

TEST(Options, SingleDashLongFormsOfIproute2) {
  Words w = {"-json", "-details", "-pretty", "-force", "-batch", "f.txt", "-Version"};
  Options o = parse_options(w);
  EXPECT_TRUE(o.json && o.pretty && o.force && o.version);
  EXPECT_EQ(o.details, 1);
  EXPECT_EQ(o.batch, "f.txt");
  EXPECT_TRUE(w.empty());
}

TEST(Options, OnelineShortSingleAndDoubleDash) {
  for (const char* form : {"-o", "-oneline", "--oneline", "-onel", "--one"}) {
    Words w = {"dev", form};
    Options o = parse_options(w);
    EXPECT_TRUE(o.oneline) << form;
    EXPECT_EQ(w, (Words{"dev"}));
  }
  Words w = {"-oj", "dev"};
  Options o = parse_options(w);
  EXPECT_TRUE(o.json && o.oneline);
  Words none = {"dev"};
  EXPECT_FALSE(parse_options(none).oneline);
}

TEST(Options, NodeNameMapLongFormOnly) {
  Words w = {"--node-name-map", "/etc/names", "fabric", "--node-name=x.map"};
  Options o = parse_options(w);
  EXPECT_EQ(o.node_name_map, "x.map");  // the last one given
  EXPECT_EQ(w, (Words{"fabric"}));
  Words none = {"fabric"};
  EXPECT_FALSE(parse_options(none).node_name_map);
  // -no is -n o, as it was before the option.
  Words netns = {"-no", "fabric"};
  o = parse_options(netns);
  EXPECT_EQ(o.netns, "o");
  EXPECT_FALSE(o.node_name_map);
  Words empty = {"--node-name-map="};
  EXPECT_THROW(parse_options(empty), UsageError);
}

TEST(Options, DoubleDashLongFormsAndArguments) {
  Words w = {"--json", "--batch=-", "--netns", "blue", "--raw", "--det"};
  Options o = parse_options(w);
  EXPECT_TRUE(o.json && o.raw);
  EXPECT_EQ(o.details, 1);
  EXPECT_EQ(o.batch, "-");
  EXPECT_EQ(o.netns, "blue");
}

TEST(Options, AttachedShortArgument) {
  Words w = {"-bcmds.txt", "-n", "red"};
  Options o = parse_options(w);
  EXPECT_EQ(o.batch, "cmds.txt");
  EXPECT_EQ(o.netns, "red");
}

TEST(Options, UnknownAndMissingArgumentAreErrors) {
  Words a = {"-x"};
  EXPECT_THROW(parse_options(a), Error);
  Words b = {"--bogus"};
  EXPECT_THROW(parse_options(b), Error);
  Words c = {"dev", "-b"};
  EXPECT_THROW(parse_options(c), Error);
  Words d = {"-jz"};
  EXPECT_THROW(parse_options(d), Error);
}

// "--OPT=" ends at '=': its empty value is an error naming the option,
// never the next word taken as the value; a flag given a value is one too.
TEST(Options, EmptyValueAfterEqualsNamesTheOption) {
  for (const char* opt : {"--timeout=", "--netns=", "--batch=", "--config=", "--output=",
                          "--pkey-idx=", "--deadline=", "--retries=", "--mkey-file="}) {
    Words w = {opt, "5", "dev"};
    std::string name = std::string(opt).substr(0, std::string(opt).size() - 1);
    try {
      parse_options(w);
      ADD_FAILURE() << opt << " took the next word";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()),
                "option \"" + name + "\" has an empty value (\"" + name + "=\")");
    }
  }
  // An abbreviation is named in full.
  Words abbrev = {"--kernel-t=", "9"};
  EXPECT_THROW(
      {
        try {
          parse_options(abbrev);
        } catch (const UsageError& e) {
          EXPECT_NE(std::string(e.what()).find("\"--kernel-timeout\""), std::string::npos);
          throw;
        }
      },
      UsageError);
  Words flag = {"--json=yes", "dev"};
  EXPECT_THROW(parse_options(flag), UsageError);
  // A value after '=' still counts, and the next word stays a word.
  Words given = {"--kernel-timeout=7", "dev"};
  EXPECT_EQ(parse_options(given).kernel_timeout_ms, 7);
  EXPECT_EQ(given, (Words{"dev"}));
}

TEST(Options, WordsWithoutOptionsStayAsTheyAre) {
  Words w = {"res", "show", "qp", "-", "lqpn", "5"};
  Options o = parse_options(w);
  EXPECT_FALSE(o.json || o.pretty || o.force || o.batch || o.netns);
  EXPECT_EQ(o.details, 0);
  EXPECT_EQ(w, (Words{"res", "show", "qp", "-", "lqpn", "5"}));
  Words after = {"dev", "--", "-j", "x"};
  EXPECT_FALSE(parse_options(after).json);
  EXPECT_EQ(after, (Words{"dev", "-j", "x"}));
}

TEST(Options, DoubleDashEndsOptions) {
  Words w = {"-j", "--", "-d"};
  Options o = parse_options(w);
  EXPECT_EQ(o.details, 0);
  EXPECT_EQ(w, (Words{"-d"}));
}

}  // namespace
}  // namespace rdma

namespace rdma {
namespace {

// -t is the timestamp (as `ip -t monitor`); the MAD timeout is long form only.
TEST(Options, TimestampIsDashTAndTimeoutIsLongOnly) {
  std::vector<std::string> w = {"-t", "monitor", "--timeout", "250", "--retries", "0"};
  Options o = parse_options(w);
  EXPECT_TRUE(o.timestamp);
  EXPECT_EQ(o.mad_timeout_ms, 250);
  EXPECT_EQ(o.mad_retries, 0);
  EXPECT_EQ(w, (std::vector<std::string>{"monitor"}));
  std::vector<std::string> bad = {"--time", "5"};  // timeout or timestamp?
  EXPECT_THROW(parse_options(bad), Error);
}

TEST(Options, MkeyAndYesLongFormsOnly) {
  Words w = {"--mkey", "0x1234", "port", "--yes", "set", "--mkey=18446744073709551615"};
  Options o = parse_options(w);
  EXPECT_EQ(o.mkey, UINT64_MAX);  // the last one given
  EXPECT_TRUE(o.yes);
  EXPECT_EQ(w, (Words{"port", "set"}));
  Words none = {"port"};
  o = parse_options(none);
  EXPECT_FALSE(o.mkey);
  EXPECT_FALSE(o.yes);
  for (const char* bad : {"--mkey=", "--mkey=key", "--mkey=18446744073709551616"}) {
    Words b = {bad};
    EXPECT_THROW(parse_options(b), UsageError) << bad;
  }
}

// -Y / --pkey-idx as infiniband-diags spell it; --mkey-file beside --mkey.
TEST(Options, PkeyIdxAndMkeyFile) {
  Words w = {"-Y", "3", "perf", "--mkey-file", "keys", "--mkey", "5"};
  Options o = parse_options(w);
  EXPECT_EQ(o.pkey_index, 3);
  EXPECT_EQ(o.mkey_file, "keys");
  EXPECT_EQ(o.mkey, 5u);
  EXPECT_EQ(w, (Words{"perf"}));
  Words more = {"--pkey-idx=0xffff", "-Y0x10", "--pke", "7"};
  EXPECT_EQ(parse_options(more).pkey_index, 7);  // the last one given
  Words none = {"perf"};
  EXPECT_FALSE(parse_options(none).pkey_index);
  Words pk = {"-pk"};  // -p -k, as before the option: not --pkey-idx
  EXPECT_THROW(parse_options(pk), UsageError);
  for (const char* bad : {"65536", "-1", "1x", ""}) {
    Words b = {"-Y", bad};
    try {
      parse_options(b);
      ADD_FAILURE() << bad;
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("invalid --pkey-idx \"") + bad +
                                           "\" (expected a P_Key table index, 0-65535)");
    }
  }
}

TEST(Options, DiscoveryModesAndTheSaAlias) {
  Words w = {"--discovery", "lid", "fabric", "show"};
  Options o = parse_options(w);
  EXPECT_TRUE(o.lid_discovery);
  EXPECT_FALSE(o.sa);
  EXPECT_EQ(w, (Words{"fabric", "show"}));
  Words sa = {"--dis=sa"};
  o = parse_options(sa);
  EXPECT_TRUE(o.sa && !o.lid_discovery);
  // The last of --sa and --discovery given wins.
  Words both = {"--discovery", "lid", "--sa"};
  o = parse_options(both);
  EXPECT_TRUE(o.sa && !o.lid_discovery);
  Words dr = {"--sa", "--discovery", "dr"};
  o = parse_options(dr);
  EXPECT_FALSE(o.sa || o.lid_discovery);
  Words di = {"-di"};  // -d -i: not --discovery
  EXPECT_THROW(parse_options(di), UsageError);
  for (const char* bad : {"LID", "", "smp"}) {
    Words b = {"--discovery", bad};
    try {
      parse_options(b);
      ADD_FAILURE() << bad;
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("invalid --discovery \"") + bad + "\" (expected lid, dr or sa)");
    }
  }
}

}  // namespace
}  // namespace rdma
