#include "lib/view/openmetrics.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace rdma::view {

namespace {

// A field's value, also where it was given already written as JSON
// (Field::json: nldev's scalar fields are).
Json value_of(const Field& f) {
  if (!f.value.is_null() || f.json.empty() || f.member) return f.value;
  return Json::parse(f.json);
}

class OpenMetricsPrinter : public MetricsPrinter {
 public:
  OpenMetricsPrinter(std::FILE* out, MetricsSpec spec) : out_(out), spec_(std::move(spec)) {}
  // A command that fails part way (a port whose counters cannot be read,
  // as siw's) still leaves a whole document of the samples it got, as -j
  // leaves valid JSON: a textfile collector rejects a file without # EOF.
  ~OpenMetricsPrinter() override { abandon(); }

  void record(const Record& r) override {
    std::string labels;
    auto label = [&](std::string_view name, std::string_view value) {
      labels += labels.empty() ? "{" : ",";
      labels += metric_name(name);
      labels += "=\"";
      labels += escape_label_value(value);
      labels += '"';
    };
    for (const auto& [name, value] : spec_.constant_labels) label(name, value);
    for (const auto& [key, name] : spec_.labels)
      for (const Field& f : r)
        if (f.key == key) {
          Json v = value_of(f);
          label(name, v.is_string() ? v.get<std::string>() : v.dump());
        }
    if (!labels.empty()) labels += '}';
    bool kept = false;  // labels_ has this record's labels
    for (const Field& f : r) {
      Json v = f.key.empty() ? Json() : value_of(f);
      // A fraction only where the command named the key a gauge (a share):
      // other records' rates and seconds are no metrics.
      bool number = v.is_number_integer() || (v.is_number() && is_gauge(f.key));
      if (f.key.empty() || !number || is_label(f.key) ||
          std::find(spec_.ignore.begin(), spec_.ignore.end(), f.key) != spec_.ignore.end())
        continue;
      auto [it, fresh] = index_.try_emplace(f.key, families_.size());
      if (fresh)
        families_.push_back({spec_.prefix + metric_name(f.key),
                             spec_.help + " " + f.key,
                             is_gauge(f.key),
                             {},
                             {},
                             {}});
      Family& fam = families_[it->second];
      if (!kept) labels_.push_back(std::move(labels));
      kept = true;
      fam.records.push_back(static_cast<uint32_t>(labels_.size() - 1));
      fam.values += v.dump();
      fam.values += '\n';
    }
  }

  void set_gauges(std::vector<std::string> keys) override { gauges_ = std::move(keys); }

  void gauge(std::string_view name, std::string_view help, double value) override {
    char v[32];
    if (value == std::floor(value) && std::fabs(value) < 1e15)
      std::snprintf(v, sizeof v, "%.0f", value);
    else
      std::snprintf(v, sizeof v, "%.9g", value);
    std::string n = metric_name(name);
    trailer_.push_back({n, std::string(help), true, {}, {}, n + " " + v + "\n"});
  }

  void finish() override {
    if (done_) return;
    done_ = true;
    const bool om = spec_.format == MetricsFormat::OpenMetrics;
    for (const auto* list : {&families_, &trailer_}) write(*list, om);
    if (om) std::fputs("# EOF\n", out_);
    std::fflush(out_);
  }
  // A command line refused before any output: no document at all.
  void abandon() override {
    if (families_.empty() && trailer_.empty()) done_ = true;
    finish();
  }
  void detach() override { done_ = true; }
  bool is_json() const override { return false; }

 private:
  // A family's samples as the records' labels (an index into labels_) and
  // values, not as lines: a report's every port (29,000 ports times 16
  // counters at 4,768 nodes) held as text took 90 MB, its labels repeated
  // in each family.
  struct Family {
    std::string name;
    std::string help;
    bool gauge = false;
    std::vector<uint32_t> records;  // by sample: its labels in labels_
    std::string values;             // by sample: its value and a newline
    std::string samples;            // gauge()'s one line
  };
  void write(const std::vector<Family>& families, bool om) {
    for (const Family& f : families) {
      // OpenMetrics names a counter family without the _total of its samples.
      std::string name = om || f.gauge ? f.name : f.name + "_total";
      std::string head = "# HELP " + name + " " +
                         (om ? escape_label_value(f.help) : escape_prometheus_help(f.help)) +
                         "\n# TYPE " + name + (f.gauge ? " gauge\n" : " counter\n");
      std::fwrite(head.data(), 1, head.size(), out_);
      std::fwrite(f.samples.data(), 1, f.samples.size(), out_);
      std::string sample = f.name + (f.gauge ? "" : "_total");
      size_t at = 0;
      for (uint32_t rec : f.records) {
        size_t end = f.values.find('\n', at);
        std::fwrite(sample.data(), 1, sample.size(), out_);
        std::fwrite(labels_[rec].data(), 1, labels_[rec].size(), out_);
        std::fputc(' ', out_);
        std::fwrite(f.values.data() + at, 1, end + 1 - at, out_);
        at = end + 1;
      }
    }
  }
  bool is_gauge(const std::string& key) const {
    return std::find(gauges_.begin(), gauges_.end(), key) != gauges_.end();
  }
  bool is_label(const std::string& key) const {
    for (const auto& l : spec_.labels)
      if (l.first == key) return true;
    return false;
  }

  std::FILE* out_;
  MetricsSpec spec_;
  std::vector<Family> families_;     // in the order first seen
  std::vector<Family> trailer_;      // gauge()'s
  std::vector<std::string> labels_;  // by record with a sample: its labels
  std::vector<std::string> gauges_;
  std::map<std::string, size_t, std::less<>> index_;
  bool done_ = false;
};

}  // namespace

std::string metric_name(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      c = '_';
  if (!out.empty() && out[0] >= '0' && out[0] <= '9') out.insert(0, 1, '_');
  return out;
}

std::string escape_label_value(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string escape_prometheus_help(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::unique_ptr<MetricsPrinter> make_openmetrics_printer(std::FILE* out, MetricsSpec spec) {
  return std::make_unique<OpenMetricsPrinter>(out, std::move(spec));
}

}  // namespace rdma::view
