// fabric errors' node and type selection and clearing, and the metrics of
// fabric errors and fabric links (labels of both ends, gauges, _up, and
// --output replacing its file only after a run that succeeded), against
// the fabric double.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lib/mad/attrs_pma.h"
#include "lib/testing/fabric/fabric.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using test::Result;

class FabricMetricsCmd : public madtest::MadCmd {
 protected:
  // A directory of its own, emptied at the end.
  std::string metrics_dir() {
    if (dir_.empty()) {
      dir_ = ::testing::TempDir() + "rdma-fabric-metrics-XXXXXX";
      if (!mkdtemp(dir_.data())) ADD_FAILURE() << "mkdtemp";
    }
    return dir_;
  }
  std::vector<std::string> dir_files() {
    std::vector<std::string> out;
    if (DIR* d = opendir(dir_.c_str())) {
      while (dirent* e = readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
          out.push_back(e->d_name);
      closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  ~FabricMetricsCmd() override {
    if (dir_.empty()) return;
    for (const std::string& f : dir_files()) std::remove((dir_ + "/" + f).c_str());
    rmdir(dir_.c_str());
  }
  std::string dir_;
};

std::string fabric_metrics_read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The lines of doc that start with prefix.
std::vector<std::string> fabric_metrics_lines(const std::string& doc, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(doc);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(prefix)) out.push_back(line);
  return out;
}

TEST_F(FabricMetricsCmd, ErrorsOfOneTypeOrOneNode) {
  int sw2 = fabric_.node("sw2"), hca3 = fabric_.node("hca3");
  fabric_.set_counter(sw2, 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(hca3, 1, "PortRcvErrors", 2);
  auto listed = [&](std::vector<std::string> words) {
    words.insert(words.begin(), {"-j", "fabric", "errors"});
    Result r = run(words);
    std::vector<std::string> out;
    nlohmann::json doc = nlohmann::json::parse(r.out);
    for (const auto& p : doc[0]["ports"])
      out.push_back(p["description"].get<std::string>() + "/" + p["port"].dump());
    return out;
  };
  EXPECT_EQ(listed({}), (std::vector<std::string>{"sw2/3", "hca3/1"}));
  EXPECT_EQ(listed({"switches"}), (std::vector<std::string>{"sw2/3"}));
  EXPECT_EQ(listed({"cas"}), (std::vector<std::string>{"hca3/1"}));
  EXPECT_EQ(listed({"routers"}), (std::vector<std::string>{}));
  EXPECT_EQ(listed({"lid", std::to_string(fabric_.lid(hca3, 1))}),
            (std::vector<std::string>{"hca3/1"}));
  EXPECT_EQ(listed({"guid", guid(fabric_.nodes()[sw2].node_guid)}),
            (std::vector<std::string>{"sw2/3"}));
  // The summary counts the nodes asked only.
  nlohmann::json j = nlohmann::json::parse(run({"-j", "fabric", "errors", "switches"}).out);
  EXPECT_EQ(j[0]["summary"]["nodes_checked"], 2);
  Result none = run({"fabric", "errors", "lid", "999"});
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err, "no node with LID 999 in the fabric\n");
  Result both = run({"fabric", "errors", "lid", "1", "guid", "0x1"});
  EXPECT_EQ(both.status, 2);
  EXPECT_EQ(both.out, "");
}

// details: PortRcvErrorDetails and PortXmitDiscardDetails of the ports
// listed, after their counters; a PMA without them (answering
// "unsupported") is no warning, and the ports and the exit status are those
// without the word.
TEST_F(FabricMetricsCmd, ErrorsDetailsOfThePortsListed) {
  int sw2 = fabric_.node("sw2"), hca3 = fabric_.node("hca3");
  fabric_.set_counter(sw2, 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(hca3, 1, "PortRcvErrors", 2);
  Result plain = run({"-j", "fabric", "errors"});
  Result details = run({"-j", "fabric", "errors", "details"});
  EXPECT_EQ(details.status, 1);
  EXPECT_EQ(details.err, "");
  EXPECT_NE(details.out.find("\"symbol_errors\":17,\"local_physical_errors\":0,"),
            std::string::npos)
      << details.out;
  EXPECT_NE(details.out.find("\"rcv_errors\":2,\"local_physical_errors\":0,"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(details.out).size(), nlohmann::json::parse(plain.out).size());
  for (ibtest::FabricNode& n : fabric_.nodes())
    n.pma_refused = {mad::kPortRcvErrorDetails.id, mad::kPortXmitDiscardDetails.id};
  Result refused = run({"-j", "fabric", "errors", "details"});
  EXPECT_EQ(refused.status, 1);
  EXPECT_EQ(refused.err, "");
  EXPECT_EQ(refused.out, plain.out);
  // Asked of the listed ports only, two queries each.
  size_t asked = 0;
  for (const mad::Mad& m : sent_) {
    uint64_t id = m.get(mad::hdr::kAttrId);
    asked += m.mgmt_class() == mad::kClassPerf &&
             (id == mad::kPortRcvErrorDetails.id || id == mad::kPortXmitDiscardDetails.id);
  }
  EXPECT_EQ(asked, 8u);  // two runs
  Result w = run({"-w", "1", "-c", "1", "fabric", "errors", "details"});
  EXPECT_EQ(w.status, 2);
  EXPECT_EQ(w.err, "\"details\" are read once: not with -w\n");
}

TEST_F(FabricMetricsCmd, ErrorsClearAfterReading) {
  int sw2 = fabric_.node("sw2"), hca3 = fabric_.node("hca3");
  fabric_.set_counter(sw2, 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(sw2, 3, "PortXmitData", 100);
  fabric_.set_counter(hca3, 1, "PortRcvErrors", 2);
  // Read first: the listing has the values cleared after it.
  Result r = run({"fabric", "errors", "switches", "clear"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("symbol_errors 17"), std::string::npos) << r.out;
  EXPECT_EQ(fabric_.counter(sw2, 3, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(fabric_.counter(sw2, 3, "PortXmitData"), 100u);  // an error clear only
  EXPECT_EQ(fabric_.counter(hca3, 1, "PortRcvErrors"), 2u);  // not a switch
  EXPECT_EQ(run({"fabric", "errors", "clear", "all"}).status, 1);
  EXPECT_EQ(fabric_.counter(hca3, 1, "PortRcvErrors"), 0u);
  EXPECT_EQ(fabric_.counter(sw2, 3, "PortXmitData"), 0u);
  EXPECT_EQ(run({"fabric", "errors"}).status, 0);
  Result w = run({"-w", "1", "-c", "1", "fabric", "errors", "clear"});
  EXPECT_EQ(w.status, 2);
  EXPECT_EQ(w.err, "\"clear\" reads the counters once: not with -w\n");
}

TEST_F(FabricMetricsCmd, ErrorsMetricsLabelBothEndsOfEveryPort) {
  fabric_.set_counter(fabric_.node("hca2"), 1, "PortRcvErrors", 4);
  Result r = run({"--prometheus", "fabric", "errors"});
  EXPECT_EQ(r.status, 1) << r.err;
  // Every link's two ends, each a sample with the other as its remote end.
  nlohmann::json links = json({"fabric", "links"});
  std::vector<std::string> samples = fabric_metrics_lines(r.out, "rdma_ib_port_rcv_errors_total{");
  for (const auto& l : links) {
    for (bool flip : {false, true}) {
      std::string a = flip ? "peer_" : "", b = flip ? "" : "peer_";
      std::string want = "local_guid=\"" + l[a + "node_guid"].get<std::string>() +
                         "\",local_name=\"" + l[a + "description"].get<std::string>() +
                         "\",local_port=\"" + l[a + "port"].dump() + "\"";
      std::string remote = "remote_guid=\"" + l[b + "node_guid"].get<std::string>() +
                           "\",remote_name=\"" + l[b + "description"].get<std::string>() +
                           "\",remote_port=\"" + l[b + "port"].dump() + "\"";
      size_t n = std::count_if(samples.begin(), samples.end(), [&](const std::string& s) {
        return s.find(want) != std::string::npos && s.find(remote) != std::string::npos;
      });
      EXPECT_EQ(n, 1u) << want << " " << remote << "\n" << r.out;
    }
  }
  // A CA's port GUID and a switch's type.
  EXPECT_NE(r.out.find("rdma_ib_port_rcv_errors_total{component=\"ca\",local_guid=\"" +
                       guid(fabric_.nodes()[fabric_.node("hca2")].node_guid) +
                       "\",local_name=\"hca2\",local_port=\"1\",local_port_guid=\"0x"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("remote_component=\"switch\",remote_guid=\"" +
                       guid(fabric_.nodes()[fabric_.node("sw1")].node_guid) +
                       "\",remote_name=\"sw1\",remote_port=\"2\"} 4\n"),
            std::string::npos)
      << r.out;
  // Prometheus' text format: the family named with _total, no # EOF.
  EXPECT_NE(r.out.find("# TYPE rdma_ib_port_rcv_errors_total counter\n"), std::string::npos);
  EXPECT_EQ(r.out.find("# EOF"), std::string::npos);
  EXPECT_NE(r.out.find("\nrdma_ib_fabric_errors_up 1\n"), std::string::npos);
}

TEST_F(FabricMetricsCmd, LinksMetricsAreGauges) {
  Result r = run({"--openmetrics", "fabric", "links"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* g : {"state", "physical_state", "width_lanes", "speed_bytes_per_second",
                        "rate_bytes_per_second"}) {
    std::string name = std::string("rdma_ib_link_") + g;
    EXPECT_NE(r.out.find("# TYPE " + name + " gauge\n"), std::string::npos) << name;
    EXPECT_EQ(fabric_metrics_lines(r.out, name + "{").size(), 6u) << name << "\n" << r.out;
  }
  // The double trains 4X SDR: 2.5 Gb/s a lane (312.5 MB/s), 10 Gb/s of
  // data as ibstat's rate (1.25 GB/s).
  std::vector<std::string> width = fabric_metrics_lines(r.out, "rdma_ib_link_width_lanes{");
  ASSERT_FALSE(width.empty());
  EXPECT_TRUE(width[0].ends_with("} 4")) << width[0];
  std::vector<std::string> state = fabric_metrics_lines(r.out, "rdma_ib_link_state{");
  EXPECT_TRUE(state[0].ends_with("} 4")) << state[0];
  std::vector<std::string> speed =
      fabric_metrics_lines(r.out, "rdma_ib_link_speed_bytes_per_second{");
  EXPECT_TRUE(speed[0].ends_with("} 312500000")) << speed[0];
  std::vector<std::string> rate =
      fabric_metrics_lines(r.out, "rdma_ib_link_rate_bytes_per_second{");
  EXPECT_TRUE(rate[0].ends_with("} 1250000000")) << rate[0];
  EXPECT_NE(r.out.find("\nrdma_ib_fabric_links_up 1\n"), std::string::npos);
  EXPECT_TRUE(r.out.ends_with("# EOF\n"));
  // down: the ports with no link, no remote end and no width.
  Result d = run({"--openmetrics", "fabric", "links", "down"});
  EXPECT_EQ(d.out.find("remote_guid"), std::string::npos) << d.out;
  EXPECT_EQ(fabric_metrics_lines(d.out, "rdma_ib_link_state{").size(), 8u) << d.out;
  EXPECT_EQ(d.out.find("rdma_ib_link_width_lanes{"), std::string::npos) << d.out;
}

TEST_F(FabricMetricsCmd, FailedRunSaysUpZeroAndLeavesTheOutputFileAlone) {
  // To stdout: up 0 after the error.
  Result r = run({"--prometheus", "fabric", "errors", "lid", "999"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "no node with LID 999 in the fabric\n");
  EXPECT_NE(r.out.find("# TYPE rdma_ib_fabric_errors_up gauge\nrdma_ib_fabric_errors_up 0\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("rdma_ib_fabric_errors_duration_seconds "), std::string::npos);
  // --output: written whole when the run succeeds, up 0 alone when it fails,
  // no temporary file left either way.
  std::string file = metrics_dir() + "/rdma_ib.prom";
  Result ok = run({"--prometheus", "--output", file, "fabric", "errors"});
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(ok.out, "");
  std::string written = fabric_metrics_read(file);
  EXPECT_NE(written.find("rdma_ib_fabric_errors_up 1\n"), std::string::npos) << written;
  EXPECT_NE(written.find("rdma_ib_port_symbol_errors_total{"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_NE(st.st_mode & S_IROTH, 0u);  // node_exporter reads it as another user
  // A failed sweep: FILE replaced by up 0 and the duration, no samples (the
  // last run's would pass for the fabric's state).
  Result bad = run({"--prometheus", "--output", file, "fabric", "errors", "lid", "999"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "");
  std::string failed = fabric_metrics_read(file);
  EXPECT_NE(failed.find("\nrdma_ib_fabric_errors_up 0\n"), std::string::npos) << failed;
  EXPECT_NE(failed.find("\nrdma_ib_fabric_errors_duration_seconds "), std::string::npos);
  EXPECT_EQ(failed.find("rdma_ib_port_"), std::string::npos) << failed;
  EXPECT_EQ(dir_files(), std::vector<std::string>{"rdma_ib.prom"});
  written = failed;
  // A directory that does not exist: an error, nothing written.
  Result nodir =
      run({"--openmetrics", "--output", metrics_dir() + "/no/x.prom", "fabric", "links"});
  EXPECT_EQ(nodir.status, 1);
  EXPECT_NE(nodir.err.find("cannot write"), std::string::npos) << nodir.err;
  // --output without a metrics format, or with a command that does not take it.
  Result plain = run({"--output", file, "fabric", "errors"});
  EXPECT_EQ(plain.status, 1);
  EXPECT_EQ(plain.err,
            "--output FILE writes the metrics: it needs --openmetrics or --prometheus\n");
  EXPECT_EQ(fabric_metrics_read(file), written);
}

// The documents read by the real parsers: prometheus_client's (each
// format's own) and promtool's lint, where Debian's python3-prometheus-client
// and prometheus are installed (scripts/setup-debian.sh).
TEST_F(FabricMetricsCmd, RealParsersReadEveryFormat) {
  if (std::system("/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null") != 0)
    GTEST_SKIP() << "python3-prometheus-client is not installed";
  fabric_.set_counter(fabric_.node("sw2"), 3, "SymbolErrorCounter", 17);
  fabric_.nodes()[fabric_.node("hca2")].description = "hca \"2\"\\x\u00e9";
  bool promtool = std::system("promtool --version >/dev/null 2>&1") == 0;
  for (const char* fmt : {"openmetrics", "prometheus"}) {
    for (std::vector<std::string> cmd : {std::vector<std::string>{"fabric", "errors", "data"},
                                         {"fabric", "links"},
                                         {"fabric", "errors", "window", "1"},
                                         {"fabric", "errors", "lid", "999"}}) {
      cmd.insert(cmd.begin(), std::string("--") + fmt);
      Result r = run(cmd);
      std::string file = metrics_dir() + "/doc";
      std::ofstream(file) << r.out;
      std::string parser = std::string(fmt) == "openmetrics"
                               ? "prometheus_client.openmetrics.parser"
                               : "prometheus_client.parser";
      // Every sample of a family named as it should be; the run's _up there.
      std::string py =
          "import sys, " + parser +
          " as p\n"
          "fams = list(p.text_string_to_metric_families(open(sys.argv[1]).read()))\n"
          "n = sum(len(f.samples) for f in fams)\n"
          "ups = [s.value for f in fams for s in f.samples if s.name.endswith('_up')]\n"
          "assert len(ups) == 1, ups\n"
          "print(n, int(ups[0]))\n";
      std::string script = metrics_dir() + "/parse.py";
      std::ofstream(script) << py;
      std::string cmdline = "/usr/bin/python3 " + script + " " + file + " 2>&1";
      std::FILE* p = popen(cmdline.c_str(), "r");
      ASSERT_NE(p, nullptr);
      char buf[4096];
      std::string got;
      while (size_t n = std::fread(buf, 1, sizeof buf, p)) got.append(buf, n);
      int rc = pclose(p);
      EXPECT_EQ(rc, 0) << fmt << " " << cmd[1] << " " << cmd[2] << ": " << got << "\n" << r.out;
      bool failed = cmd.back() == "999";
      EXPECT_TRUE(got.ends_with(failed ? " 0\n" : " 1\n")) << got;
      if (!failed) {
        EXPECT_GT(std::stoul(got), 20u) << got;
      }
      if (promtool && std::string(fmt) == "prometheus") {
        std::string lint = "promtool check metrics <" + file + " >/dev/null 2>&1";
        EXPECT_EQ(std::system(lint.c_str()), 0) << r.out;
      }
    }
  }
}

}  // namespace
}  // namespace rdma
