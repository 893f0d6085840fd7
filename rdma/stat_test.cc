// rdma statistic, run in-process against the test kernel: text and JSON of
// every view, binding and modes read back, optional counters, MR statistics,
// watch with rates (wrap, vanishing devices, SIGINT) and malformed replies.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "lib/error.h"
#include "lib/nl/nldev.h"
#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/testkernel.h"
#include "rdma/options.h"
#include "rdma/rdma.h"
#include "rdma/test_util.h"

namespace rdma {
namespace {

using testkernel::KernelVersion;
using testkernel::TestKernel;

using test::Result;
using test::run_on;

bool is_cmd(const nlmsghdr* nlh, int cmd) {
  return nlh->nlmsg_type == nldev::msg_type(cmd);
}

TEST(StatOptions, WatchCountTimestamp) {
  std::vector<std::string> w = {"-w", "2", "stat", "-c3", "--timestamp", "show"};
  Options o = parse_options(w);
  EXPECT_EQ(o.watch_s, 2);
  EXPECT_EQ(o.count, 3);
  EXPECT_TRUE(o.timestamp);
  EXPECT_EQ(w, (std::vector<std::string>{"stat", "show"}));
  std::vector<std::string> bad = {"-w", "0", "stat"};
  EXPECT_THROW(parse_options(bad), Error);
  bad = {"-c", "x", "stat"};
  EXPECT_THROW(parse_options(bad), Error);
}

// rxe0's sent_pkts, rcvd_pkts, ... become 1, 2, ...; rxe1's stay zero.
void number(TestKernel& k) {
  auto& c = *k.state.devices[0].ports[0].hw_counters;
  for (size_t i = 0; i < c.size(); ++i) c[i].value = i + 1;
}

const char kRxe0Text[] =
    "link rxe0/1 \n    sent_pkts 1 \n    rcvd_pkts 2 \n    duplicate_request 3 \n"
    "    out_of_seq_request 4 \n    rcvd_rnr_err 5 \n    send_rnr_err 6 \n    rcvd_seq_err 7 \n"
    "    ack_deferred 8 \n    retry_exceeded_err 9 \n    retry_rnr_exceeded_err 10 \n"
    "    completer_retry_err 11 \n    send_err 12 \n    link_downed 13 \n    rdma_sends 14 \n"
    "    rdma_recvs 15 \n";

const char kRxe0Json[] =
    "{\"ifname\":\"rxe0\",\"port\":1,\"sent_pkts\":1,\"rcvd_pkts\":2,\"duplicate_request\":3,"
    "\"out_of_seq_request\":4,\"rcvd_rnr_err\":5,\"send_rnr_err\":6,\"rcvd_seq_err\":7,"
    "\"ack_deferred\":8,\"retry_exceeded_err\":9,\"retry_rnr_exceeded_err\":10,"
    "\"completer_retry_err\":11,\"send_err\":12,\"link_downed\":13,\"rdma_sends\":14,"
    "\"rdma_recvs\":15}";

TEST(StatShow, OneCounterPerLineAndFlatJson) {
  for (KernelVersion v : {KernelVersion::k6_1, KernelVersion::k6_12}) {
    TestKernel k(v);
    number(k);
    Result r = run_on(k, {"stat", "show", "link", "rxe0/1"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, kRxe0Text);
    r = run_on(k, {"-j", "stat"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, sizeof kRxe0Json), std::string("[") + kRxe0Json);
    EXPECT_NE(r.out.find("{\"ifname\":\"rxe1\",\"port\":1,\"sent_pkts\":0,"), std::string::npos);
  }
}

TEST(StatShow, OnelineJoinsTheCounters) {
  TestKernel k(KernelVersion::k6_12);
  number(k);
  std::string joined = kRxe0Text;
  joined.pop_back();
  std::replace(joined.begin(), joined.end(), '\n', '\\');
  Result r = run_on(k, {"-o", "stat", "show", "link", "rxe0/1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, joined + "\n");
  EXPECT_EQ(run_on(k, {"-o", "-j", "stat", "show", "link", "rxe0/1"}).out,
            run_on(k, {"-j", "stat", "show", "link", "rxe0/1"}).out);
}

TEST(StatShow, DeviceWithoutPortAndAllPorts) {
  TestKernel k;
  number(k);
  EXPECT_EQ(run_on(k, {"stat", "list", "link", "rxe0"}).out, kRxe0Text);
  Result all = run_on(k, {"statistic"});
  EXPECT_EQ(all.out.substr(0, sizeof kRxe0Text - 1), kRxe0Text);
  EXPECT_NE(all.out.find("link rxe1/1 \n    sent_pkts 0 \n"), std::string::npos);
}

TEST(StatShow, BadArgumentsChangeNothingAndSayWhat) {
  TestKernel k;
  number(k);
  Result r = run_on(k, {"stat", "show", "link", "rxe9"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("rxe9"), std::string::npos);
  r = run_on(k, {"stat", "show", "link", "rxe0/2"});
  EXPECT_EQ(r.err, "device \"rxe0\" has no port 2 (ports: 1-1)\n");
  r = run_on(k, {"stat", "show", "link", "rxe0/x"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("invalid port \"x\""), std::string::npos);
  r = run_on(k, {"stat", "show", "link", "rxe0/1", "extra"});
  EXPECT_EQ(r.err, "unexpected argument \"extra\"\n");
  r = run_on(k, {"-j", "stat", "show", "link", "rxe9"});
  EXPECT_EQ(r.out, "[]\n");  // still one valid JSON document
  EXPECT_EQ(run_on(k, {"-c", "2", "stat"}).err, "-c COUNT needs -w SECONDS\n");
  EXPECT_EQ(run_on(k, {"-w", "1", "stat", "qp"}).err,
            "-w and -c apply to \"resource\", \"statistic show\", \"perf show\", \"fabric top\" and "
            "\"fabric errors\" only\n");
}

TEST(StatShow, OpenMetricsOneFamilyPerCounterLabelledByDeviceAndPort) {
  TestKernel k;
  number(k);
  Result r = run_on(k, {"--openmetrics", "stat", "show"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# HELP rdma_stat_sent_pkts RDMA port counter sent_pkts\n"
                        "# TYPE rdma_stat_sent_pkts counter\n"
                        "rdma_stat_sent_pkts_total{device=\"rxe0\",port=\"1\"} 1\n"
                        "rdma_stat_sent_pkts_total{device=\"rxe1\",port=\"1\"} 0\n"
                        "# HELP rdma_stat_rcvd_pkts ",
                        0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("rdma_stat_rdma_recvs_total{device=\"rxe0\",port=\"1\"} 15\n"),
            std::string::npos);
  EXPECT_EQ(r.out.substr(r.out.size() - 6), "# EOF\n");
  Result p = run_on(k, {"--prometheus", "stat", "show", "link", "rxe0/1"});
  EXPECT_EQ(p.out.rfind("# HELP rdma_stat_sent_pkts_total RDMA port counter sent_pkts\n"
                        "# TYPE rdma_stat_sent_pkts_total counter\n"
                        "rdma_stat_sent_pkts_total{device=\"rxe0\",port=\"1\"} 1\n",
                        0),
            0u)
      << p.out;
  EXPECT_EQ(p.out.find("# EOF"), std::string::npos);
  // Not with -j, -w, or commands without counters; an error writes nothing.
  for (std::vector<std::string> bad : {
           std::vector<std::string>{"--openmetrics", "-j", "stat", "show"},
           {"--openmetrics", "-w", "1", "stat", "show"},
           {"--openmetrics", "stat", "qp"},
           {"--prometheus", "dev"},
           {"--openmetrics", "res"},
           {"--openmetrics", "stat", "show", "link", "rxe9"},
       }) {
    Result b = run_on(k, bad);
    EXPECT_EQ(b.status, 1) << bad.back();
    EXPECT_EQ(b.out, "") << bad.back();
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  }
  // -op is still -o -p.
  EXPECT_EQ(run_on(k, {"-op", "stat", "show", "link", "rxe0/1"}).status, 0);
}

TEST(StatShow, EmptyCounterSet) {
  TestKernel k;
  k.state.devices[0].ports[0].hw_counters = std::vector<testkernel::HwCounter>{};
  EXPECT_EQ(run_on(k, {"stat", "show", "link", "rxe0/1"}).out, "link rxe0/1 \n");
  EXPECT_EQ(run_on(k, {"-j", "stat", "show", "link", "rxe0/1"}).out,
            "[{\"ifname\":\"rxe0\",\"port\":1}]\n");
}

TEST(StatShow, MetricsGoOnPastAPortWithoutCounters) {
  TestKernel k;
  k.state.devices[0].ports[0].hw_counters.reset();
  Result r = run_on(k, {"--prometheus", "stat", "show"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "cannot read the counters of rxe0/1: Invalid argument\n");
  EXPECT_EQ(r.out.find("rxe0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rdma_stat_sent_pkts_total{device=\"rxe1\",port=\"1\"} "), std::string::npos)
      << r.out;
  EXPECT_EQ(run_on(k, {"-j", "stat", "show"}).out, "[]\n");  // -j stops, as iproute2
}

TEST(StatShow, PortWithoutCountersIsAKernelErrorNamingIt) {
  TestKernel k;
  k.state.devices[1].ports[0].hw_counters.reset();  // the driver has no port stats
  Result r = run_on(k, {"stat"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out.rfind("link rxe0/1 \n", 0), 0u);  // the ports before it are shown
  EXPECT_EQ(r.err.rfind("cannot read the counters of rxe1/1: Invalid argument", 0), 0u) << r.err;
  // For an exporter, the metrics of the other ports, as a whole document;
  // the port is one line on stderr, and the exit status 1 (siw's ports have
  // no counters: found on the VM's siw0).
  Result om = run_on(k, {"--openmetrics", "stat", "show"});
  EXPECT_EQ(om.status, 1);
  EXPECT_NE(om.out.find("rdma_stat_sent_pkts_total{device=\"rxe0\",port=\"1\"} "),
            std::string::npos)
      << om.out;
  EXPECT_EQ(om.out.find("rxe1"), std::string::npos) << om.out;
  EXPECT_EQ(om.out.substr(om.out.size() - 6), "# EOF\n") << om.out;
  EXPECT_EQ(om.err, "cannot read the counters of rxe1/1: Invalid argument\n");
  Result prom = run_on(k, {"--prometheus", "stat", "show"});
  EXPECT_EQ(prom.status, 1);
  EXPECT_NE(prom.out.find("rdma_stat_sent_pkts_total{device=\"rxe0\",port=\"1\"} "),
            std::string::npos)
      << prom.out;
}

TEST(StatShow, LargeValuesAreNotTruncated) {
  TestKernel k;
  k.state.devices[0].ports[0].hw_counters->at(0).value = 18446744073709551615ull;
  Result r = run_on(k, {"-j", "stat", "show", "link", "rxe0/1"});
  EXPECT_NE(r.out.find("\"sent_pkts\":18446744073709551615,"), std::string::npos);
}

// The ack of a doit request (error 0).
std::vector<uint8_t> ack(const nlmsghdr* req) {
  std::vector<uint8_t> buf(256);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = NLMSG_ERROR;
  nlh->nlmsg_seq = req->nlmsg_seq;
  nlh->nlmsg_pid = 4242;  // the test kernel's port id, as the kernel sets it
  auto* e = static_cast<nlmsgerr*>(mnl_nlmsg_put_extra_header(nlh, sizeof(nlmsgerr)));
  e->error = 0;
  e->msg = *req;
  buf.resize(std::min<size_t>(nlh->nlmsg_len, buf.size()));  // (GCC 12 -O3 -Warray-bounds)
  return buf;
}

// A STAT_GET reply built by hand, with the request's sequence number.
std::vector<uint8_t> stat_reply(const nlmsghdr* req, const std::function<void(nlmsghdr*)>& fill) {
  std::vector<uint8_t> buf(4096);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = req->nlmsg_type;
  nlh->nlmsg_seq = req->nlmsg_seq;
  nlh->nlmsg_pid = 4242;
  mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
  mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
  mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
  fill(nlh);
  buf.resize(nlh->nlmsg_len);
  return buf;
}

TEST(StatShow, MalformedNestsAreErrors) {
  struct Case {
    const char* what;
    std::function<void(nlmsghdr*)> fill;
    const char* err;
  };
  std::vector<Case> cases = {
      {"entry without a name",
       [](nlmsghdr* n) {
         nlattr* t = mnl_attr_nest_start(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
         nlattr* e = mnl_attr_nest_start(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
         mnl_attr_put_u64(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 1);
         mnl_attr_nest_end(n, e);
         mnl_attr_nest_end(n, t);
       },
       "malformed kernel reply: hardware counter without a name\n"},
      {"entry without a value",
       [](nlmsghdr* n) {
         nlattr* t = mnl_attr_nest_start(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
         nlattr* e = mnl_attr_nest_start(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
         mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "x");
         mnl_attr_nest_end(n, e);
         mnl_attr_nest_end(n, t);
       },
       "malformed kernel reply: hardware counter \"x\" without a value\n"},
      {"value of 4 bytes",
       [](nlmsghdr* n) {
         nlattr* t = mnl_attr_nest_start(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
         nlattr* e = mnl_attr_nest_start(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
         mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "x");
         mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 1);
         mnl_attr_nest_end(n, e);
         mnl_attr_nest_end(n, t);
       },
       nullptr},
      {"nest cut short",
       [](nlmsghdr* n) {
         nlattr* t = mnl_attr_nest_start(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
         nlattr* e = mnl_attr_nest_start(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
         mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "x");
         mnl_attr_nest_end(n, e);
         e->nla_len += 40;  // claims more than the table holds
         mnl_attr_nest_end(n, t);
       },
       nullptr},
      {"no counter table", [](nlmsghdr*) {},
       "malformed kernel reply: port counters without device, port or counter table\n"},
  };
  for (const Case& c : cases) {
    TestKernel k;
    Result r = run_on(k, {"-j", "stat", "show", "link", "rxe0/1"}, [&](const nlmsghdr* req) {
      if (!is_cmd(req, RDMA_NLDEV_CMD_STAT_GET)) return false;
      k.inject(stat_reply(req, c.fill));
      return true;
    });
    EXPECT_EQ(r.status, 1) << c.what;
    EXPECT_EQ(r.out, "[]\n") << c.what;
    if (c.err)
      EXPECT_EQ(r.err, c.err) << c.what;
    else
      EXPECT_EQ(r.err.rfind("malformed kernel reply: ", 0), 0u) << c.what << ": " << r.err;
  }
}

// --- watch -------------------------------------------------------------------

TEST(StatWatch, RatesAcrossA32BitWrapAndJsonLines) {
  TestKernel k;
  auto& c = *k.state.devices[0].ports[0].hw_counters;
  int reads = 0;
  auto bump = [&](const nlmsghdr* req) {
    if (!is_cmd(req, RDMA_NLDEV_CMD_STAT_GET)) return false;
    if (reads++ == 1) {   // the second interval's reading
      c[0].value = 0x10;  // wrapped at 2^32: grew by 0x20
      c[1].value += 7;    // plain growth
      c[2].value = 5;     // 64-bit counter that wrapped
    }
    return false;
  };
  c[0].value = 0xfffffff0;
  c[2].value = 0xfffffffffffffffeull;
  Result r = run_on(k, {"-j", "-w", "1", "-c", "2", "stat", "show", "link", "rxe0/1"}, bump);
  ASSERT_EQ(r.status, 0) << r.err;
  size_t nl = r.out.find('\n');
  ASSERT_NE(nl, std::string::npos);
  std::string first = r.out.substr(0, nl), second = r.out.substr(nl + 1);
  EXPECT_EQ(first.find("rate"), std::string::npos);
  EXPECT_EQ(first.rfind("[{\"ifname\":\"rxe0\",\"port\":1,\"sent_pkts\":4294967280,", 0), 0u);
  EXPECT_NE(second.find("\"rate\":{\"sent_pkts\":32,\"rcvd_pkts\":7,\"duplicate_request\":7,"
                        "\"out_of_seq_request\":0,"),
            std::string::npos)
      << second;
  EXPECT_EQ(second.substr(second.size() - 3), "}]\n");
}

TEST(StatWatch, TextRatesAndAVanishingDevice) {
  TestKernel k;
  int reads = 0;
  Result r = run_on(k, {"-w", "1", "-c", "2", "stat"}, [&](const nlmsghdr* req) {
    // After the first interval (two ports), rxe1 goes away.
    if (is_cmd(req, RDMA_NLDEV_CMD_STAT_GET) && reads++ == 2) {
      k.state.devices[0].ports[0].hw_counters->at(0).value += 3;
      k.unregister_device(1);
    }
    return false;
  });
  ASSERT_EQ(r.status, 0) << r.err;
  // Interval 1: both ports, no rates; an empty line; interval 2: rxe0 only.
  size_t gap = r.out.find("\n\n");
  ASSERT_NE(gap, std::string::npos);
  std::string first = r.out.substr(0, gap + 1), second = r.out.substr(gap + 2);
  EXPECT_NE(first.find("link rxe1/1 "), std::string::npos);
  EXPECT_EQ(first.find("/s)"), std::string::npos);
  EXPECT_EQ(second.rfind("link rxe0/1 \n    sent_pkts 3 (3/s) \n    rcvd_pkts 0 (0/s) \n", 0), 0u)
      << second;
  EXPECT_EQ(second.find("link rxe1/1"), std::string::npos);
}

TEST(StatWatch, SigintEndsAfterACompleteInterval) {
  TestKernel k;
  number(k);
  int reads = 0;
  Result r =
      run_on(k, {"-j", "-w", "5", "stat", "show", "link", "rxe0/1"}, [&](const nlmsghdr* req) {
        if (is_cmd(req, RDMA_NLDEV_CMD_STAT_GET) && reads++ == 0) raise(SIGINT);
        return false;
      });
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, std::string("[") + kRxe0Json + "]\n");
  EXPECT_EQ(reads, 1);
}

TEST(StatWatch, NamedDeviceThatVanishesEndsWithAnErrorAndCompleteLines) {
  TestKernel k;
  number(k);
  int reads = 0;
  Result r = run_on(k, {"-j", "-w", "1", "-c", "3", "stat", "show", "link", "rxe0/1"},
                    [&](const nlmsghdr* req) {
                      // The second interval looks the device up: it is gone.
                      if (is_cmd(req, RDMA_NLDEV_CMD_GET) && reads++ == 1) k.unregister_device(0);
                      return false;
                    });
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, std::string("[") + kRxe0Json + "]\n");  // no empty document after it
  EXPECT_NE(r.err.find("rxe0"), std::string::npos);
}

TEST(ResWatch, SummaryRepeatsAsJsonLines) {
  TestKernel k;
  Result r = run_on(k, {"-j", "-w", "1", "-c", "2", "res"});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t nl = r.out.find('\n');
  ASSERT_NE(nl, std::string::npos);
  EXPECT_EQ(r.out.substr(0, nl + 1), r.out.substr(nl + 1));
  EXPECT_EQ(r.out.rfind("[{\"ifindex\":0,\"ifname\":\"rxe0\",", 0), 0u);
  EXPECT_EQ(run_on(k, {"-c", "2", "res"}).err, "-c COUNT needs -w SECONDS\n");
}

TEST(ResWatch, OneDeviceSummaryRepeatsToo) {
  TestKernel k;
  Result r = run_on(k, {"-w", "1", "-c", "2", "res", "show", "rxe0"});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t blank = r.out.find("\n\n");
  ASSERT_NE(blank, std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(0, blank + 1), r.out.substr(blank + 2));
  EXPECT_EQ(r.out.rfind("0: rxe0:", 0), 0u) << r.out;
}

// Commands that run once say so instead of ignoring -w/-c.
TEST(ResWatch, ListingsAndOtherObjectsRefuseWatch) {
  TestKernel k;
  const std::string msg =
      "-w and -c apply to \"resource\", \"statistic show\", \"perf show\", \"fabric top\" and "
      "\"fabric errors\" only\n";
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"-w", "1", "res", "show", "qp"},
                                             {"-c", "1", "res", "show", "cq", "dev", "rxe0"},
                                             {"-w", "1", "dev"},
                                             {"-w", "1", "link", "show"},
                                             {"-w", "1", "system"},
                                             {"-w", "1", "node", "show", "lid", "1"}}) {
    Result r = run_on(k, args);
    EXPECT_EQ(r.status, 1) << args[2];
    EXPECT_EQ(r.err, msg) << args[2];
    EXPECT_EQ(r.out, "") << args[2];
  }
}

// The Takes column of the command tables: a once entry refuses -w and
// --openmetrics before its words are read (-w first), help ignores them,
// and every rule of a command that takes -w is checked there too, once
// (the messages name the commands from the tables).
TEST(TakesColumn, DispatchRefusesWhatAnEntryDoesNotTake) {
  TestKernel k;
  const std::string watch =
      "-w and -c apply to \"resource\", \"statistic show\", \"perf show\", \"fabric top\" and "
      "\"fabric errors\" only\n";
  const std::string metrics =
      "--openmetrics and --prometheus apply to \"statistic show\", \"perf show\", "
      "\"fabric links\" and \"fabric errors\" only\n";
  EXPECT_EQ(run_on(k, {"-w", "1", "stat", "qp", "show", "frob"}).err, watch);
  EXPECT_EQ(run_on(k, {"-w", "1", "--openmetrics", "stat", "mr"}).err, watch);
  EXPECT_EQ(run_on(k, {"--openmetrics", "stat", "mode", "link", "rxe0/1"}).err, metrics);
  EXPECT_EQ(run_on(k, {"-w", "1", "stat", "set", "frob"}).err, watch);
  EXPECT_EQ(run_on(k, {"--prometheus", "link", "frob"}).err, metrics);
  // An unknown word is named before the options are checked.
  EXPECT_EQ(
      run_on(k, {"-w", "1", "stat", "qp", "frob"}).err,
      "unknown statistic qp command \"frob\" (show, list, mode, set, bind, unbind or help)\n");
  for (std::vector<std::string> help :
       std::vector<std::vector<std::string>>{{"-w", "1", "help"},
                                             {"-w", "1", "stat", "help"},
                                             {"--openmetrics", "stat", "qp", "help"},
                                             {"-c", "2", "res", "help"},
                                             {"--openmetrics", "monitor", "help"}}) {
    Result r = run_on(k, help);
    EXPECT_EQ(r.status, 0) << help.back();
    EXPECT_EQ(r.err, "") << help.back();
  }
  // stat show's rules are its table entry's, checked before its words.
  EXPECT_EQ(run_on(k, {"-w", "1", "--openmetrics", "stat", "show", "link", "rxe0/1", "x"}).err,
            "--openmetrics and --prometheus show the counters once (Prometheus computes rates): "
            "no -w\n");
  EXPECT_EQ(run_on(k, {"-c", "2", "stat", "show", "link", "rxe0/1", "x"}).err,
            "-c COUNT needs -w SECONDS\n");
}

// --- QP counters -------------------------------------------------------------

class QpCounters : public ::testing::Test {
 protected:
  void SetUp() override {
    testkernel::Device ib = testkernel::make_ib("mlx5_0", 1, 1);
    for (uint32_t n : {0x20u, 0x21u, 0x22u}) {
      testkernel::Qp qp;
      qp.id = qp.qp_num = n;
      qp.port = 1;
      qp.owner.pid = 4000000;  // no such process: no comm
      ib.qps.items.push_back(qp);
    }
    k.register_device(ib);
  }
  TestKernel k{KernelVersion::k6_12};
};

TEST_F(QpCounters, BindShowFilterUnbind) {
  EXPECT_EQ(run_on(k, {"stat", "qp", "bind", "link", "mlx5_0/1", "lqpn", "32"}).status, 0);
  EXPECT_EQ(run_on(k, {"stat", "qp", "bind", "link", "mlx5_0/1", "lqpn", "33", "cntn", "0"}).status,
            0);
  EXPECT_EQ(run_on(k, {"stat", "qp", "bind", "link", "mlx5_0/1", "lqpn", "34"}).status, 0);
  Result r = run_on(k, {"stat", "qp", "show", "link", "mlx5_0/1"});
  EXPECT_EQ(r.out,
            "link mlx5_0/1 cntn 0 \n    rx_write_requests 0 \n    rx_read_requests 0 \n"
            "    out_of_buffer 0 \n    LQPN: <32,33>\n"
            "link mlx5_0/1 cntn 1 \n    rx_write_requests 0 \n    rx_read_requests 0 \n"
            "    out_of_buffer 0 \n    LQPN: <34>\n");
  // -o: iproute2 HEAD writes its _SL_ before each counter and before LQPN.
  EXPECT_EQ(run_on(k, {"-o", "stat", "qp", "show", "link", "mlx5_0/1", "cntn", "0"}).out,
            "link mlx5_0/1 cntn 0 \\    rx_write_requests 0 \\    rx_read_requests 0 \\"
            "    out_of_buffer 0 \\    LQPN: <32,33>\n");
  r = run_on(k, {"-j", "stat", "qp", "show", "cntn", "1"});
  EXPECT_EQ(r.out,
            "[{\"ifindex\":2,\"ifname\":\"mlx5_0\",\"port\":1,\"cntn\":1,\"rx_write_requests\":0,"
            "\"rx_read_requests\":0,\"out_of_buffer\":0,\"lqpn\":[34]}]\n");
  // iproute2's lqpn rule: every QP of the counter must pass.
  EXPECT_EQ(run_on(k, {"stat", "qp", "show", "lqpn", "32"}).out, "");
  EXPECT_NE(run_on(k, {"stat", "qp", "show", "lqpn", "32-33"}).out.find("cntn 0 "),
            std::string::npos);
  EXPECT_EQ(run_on(k, {"stat", "qp", "show", "link", "rxe0/1"}).out, "");

  // Unbinding one QP, then a whole counter.
  EXPECT_EQ(
      run_on(k, {"stat", "qp", "unbind", "link", "mlx5_0/1", "cntn", "0", "lqpn", "32"}).status, 0);
  EXPECT_NE(run_on(k, {"stat", "qp"}).out.find("LQPN: <33>"), std::string::npos);
  EXPECT_EQ(run_on(k, {"stat", "qp", "unbind", "link", "mlx5_0/1", "cntn", "1"}).status, 0);
  r = run_on(k, {"-j", "stat", "qp", "show"});
  EXPECT_EQ(r.out.find("\"cntn\":1"), std::string::npos);
  EXPECT_NE(r.out.find("\"cntn\":0"), std::string::npos);
  r = run_on(k, {"stat", "qp", "unbind", "link", "mlx5_0/1", "cntn", "7"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("no counter 7 on mlx5_0/1 (", 0), 0u) << r.err;
}

TEST_F(QpCounters, BindNeedsAPortAndNumbers) {
  Result r = run_on(k, {"stat", "qp", "bind", "link", "mlx5_0", "lqpn", "32"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "\"link\" needs DEV/PORT, e.g. rxe0/1, not \"mlx5_0\"\n");
  r = run_on(k, {"stat", "qp", "bind", "link", "mlx5_0/1", "lqpn", "3-4"});
  EXPECT_EQ(r.err, "lqpn takes one number, not \"3-4\"\n");
  r = run_on(k, {"stat", "qp", "bind", "link", "mlx5_0/1"});
  EXPECT_EQ(r.err, "missing \"lqpn N\"\n");
  r = run_on(k, {"stat", "qp", "show", "lqpn", "x"});
  EXPECT_EQ(r.err, "invalid lqpn \"x\" (expected numbers or ranges, e.g. 3 or 1-4,7)\n");
  EXPECT_TRUE(k.device(2)->counters.items.empty());
}

TEST(StatQpMode, SetAndReadBack) {
  TestKernel k;
  EXPECT_EQ(run_on(k, {"stat", "qp", "mode"}).out,
            "link rxe0/1 mode qp auto off \nlink rxe1/1 mode qp auto off \n");
  EXPECT_EQ(run_on(k, {"stat", "qp", "set", "link", "rxe0/1", "auto", "type,pid", "on"}).status, 0);
  EXPECT_EQ(run_on(k, {"stat", "qp", "mode", "link", "rxe0"}).out,
            "link rxe0/1 mode qp auto type,pid on \n");
  EXPECT_EQ(run_on(k, {"-j", "stat", "qp", "mode", "link", "rxe0/1"}).out,
            "[{\"ifindex\":0,\"ifname\":\"rxe0\",\"port\":1,\"mode\":\"qp auto type,pid on\"}]\n");
  run_on(k, {"stat", "qp", "set", "link", "rxe0", "auto", "pid", "on"});
  EXPECT_EQ(run_on(k, {"stat", "qp", "mode", "link", "rxe0/1"}).out,
            "link rxe0/1 mode qp auto pid on \n");
  run_on(k, {"stat", "qp", "set", "link", "rxe0/1", "auto", "off"});
  EXPECT_EQ(run_on(k, {"stat", "qp", "mode", "link", "rxe0/1"}).out,
            "link rxe0/1 mode qp auto off \n");
  Result r = run_on(k, {"stat", "qp", "set", "link", "rxe0/1", "auto", "lqpn", "on"});
  EXPECT_EQ(r.err, "unknown auto mode criterion \"lqpn\" (criteria: type, pid)\n");
  r = run_on(k, {"stat", "qp", "set", "link", "rxe0/1", "auto", "type", "on", "bogus"});
  EXPECT_EQ(r.status, 1);
}

TEST(StatQpMode, OptionalCountersOfNewerKernels) {
  TestKernel k;
  Result r = run_on(k, {"stat", "qp", "mode", "link", "rxe0/1"}, [&](const nlmsghdr* req) {
    if (!is_cmd(req, RDMA_NLDEV_CMD_STAT_GET)) return false;
    k.inject(stat_reply(req, [](nlmsghdr* n) {
      mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
      mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, RDMA_COUNTER_MASK_QP_TYPE);
      mnl_attr_put_u8(n, 104, 1);  // STAT_OPCOUNTER_ENABLED (6.15)
    }));
    k.inject(ack(req));
    return true;
  });
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "link rxe0/1 mode qp auto type on optional-counters on \n");
}

// --- optional counters, MR statistics ------------------------------------------

TEST(StatOptionalCounters, ModeSetUnset) {
  TestKernel k;
  k.register_device(testkernel::make_ib("mlx5_0", 1, 1));
  EXPECT_EQ(run_on(k, {"stat", "mode"}).out, "");
  EXPECT_EQ(run_on(k, {"stat", "mode", "supported"}).out,
            "link mlx5_0/1 supported optional-counters \n    cc_rx_ce_pkts\n");
  EXPECT_EQ(run_on(k, {"-j", "stat", "mode", "supported", "link", "mlx5_0/1"}).out,
            "[{\"ifname\":\"mlx5_0\",\"port\":1,\"supported optional-counters\":"
            "[\"cc_rx_ce_pkts\"]}]\n");
  EXPECT_EQ(
      run_on(k, {"stat", "set", "link", "mlx5_0/1", "optional-counters", "cc_rx_ce_pkts"}).status,
      0);
  EXPECT_EQ(run_on(k, {"stat", "mode", "link", "mlx5_0/1"}).out,
            "link mlx5_0/1 optional-counters \n    cc_rx_ce_pkts\n");
  EXPECT_NE(run_on(k, {"stat", "show", "link", "mlx5_0/1"}).out.find("cc_rx_ce_pkts 0"),
            std::string::npos);
  Result r = run_on(k, {"stat", "set", "link", "mlx5_0/1", "optional-counters", "out_of_buffer"});
  EXPECT_EQ(r.err,
            "\"out_of_buffer\" is not an optional counter of mlx5_0/1 (optional counters: "
            "cc_rx_ce_pkts)\n");
  EXPECT_EQ(run_on(k, {"stat", "unset", "link", "mlx5_0/1", "optional-counters"}).status, 0);
  EXPECT_EQ(run_on(k, {"stat", "mode"}).out, "");
}

TEST(StatMr, BothWordOrdersAndFilters) {
  TestKernel k(testkernel::Options{}, testkernel::vm_resources_fixture(KernelVersion::k6_12));
  Result a = run_on(k, {"stat", "mr", "show"});
  Result b = run_on(k, {"stat", "show", "mr"});
  EXPECT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.out.rfind("dev rxe0 mrn ", 0), 0u);
  Result one = run_on(k, {"stat", "mr", "dev", "rxe1"});
  EXPECT_EQ(one.out.find("rxe0"), std::string::npos);
  EXPECT_NE(one.out.find("dev rxe1 mrn "), std::string::npos);
  Result j = run_on(k, {"-j", "stat", "mr", "mrn", "1", "dev", "rxe0"});
  EXPECT_EQ(j.out, "[{\"ifindex\":0,\"ifname\":\"rxe0\",\"mrn\":1}]\n");
  EXPECT_EQ(run_on(k, {"stat", "mr", "bogus", "1"}).status, 1);
}

// mlx5 reports an ODP MR's page-fault counters in a STAT_HWCOUNTERS nest.
TEST(StatMr, DriverCountersOfOdpMrs) {
  testkernel::State s = testkernel::vm_resources_fixture(KernelVersion::k6_12);
  s.devices[0].mrs.items[0].stat_counters = {{"page_faults", 3}, {"page_invalidations", 1}};
  uint32_t mrn = s.devices[0].mrs.items[0].id;
  TestKernel k(testkernel::Options{}, s);
  std::string n = std::to_string(mrn);
  Result t = run_on(k, {"stat", "mr", "dev", "rxe0", "mrn", n});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(t.out, "dev rxe0 mrn " + n + " \n    page_faults 3 \n    page_invalidations 1 \n");
  Result j = run_on(k, {"-j", "stat", "mr", "dev", "rxe0", "mrn", n});
  EXPECT_EQ(j.out, "[{\"ifindex\":0,\"ifname\":\"rxe0\",\"mrn\":" + n +
                       ",\"page_faults\":3,\"page_invalidations\":1}]\n");
}

}  // namespace
}  // namespace rdma
