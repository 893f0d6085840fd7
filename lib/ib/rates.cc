#include "lib/ib/rates.h"

#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
#include "lib/mad/format.h"
#include "lib/stat/rate.h"

namespace rdma::ib {

std::vector<CounterReading> readings(std::span<const mad::FieldDef* const> fields,
                                     std::span<const uint8_t> attr) {
  std::vector<CounterReading> out;
  out.reserve(fields.size());
  for (const mad::FieldDef* f : fields) out.push_back({f, mad::get_bits(attr, f->bit, f->width)});
  return out;
}

std::vector<CounterReading> sweep_readings(const PortCounters& c, const SweepOptions& o) {
  std::vector<const mad::FieldDef*> fields = o.counters;
  if (o.extended && c.ext.empty())
    fields.insert(fields.end(), data_counters().begin(), data_counters().end());
  std::vector<CounterReading> out = readings(fields, c.pc);
  if (o.extended && !c.ext.empty()) {
    std::vector<const mad::FieldDef*> ext;
    for (const mad::FieldDef& d : mad::kPortCountersExtended.fields)
      if (d.level == mad::kShow) ext.push_back(&d);
    for (const CounterReading& r : readings(ext, c.ext)) out.push_back(r);
  }
  return out;
}

bool saturated(const mad::FieldDef& f, uint64_t v) {
  return f.width >= 64 ? v == ~uint64_t{0} : v == (uint64_t{1} << f.width) - 1;
}

std::vector<CounterRate> CounterRates::update(const Key& key, std::span<const CounterReading> now,
                                              double seconds) {
  std::vector<CounterRate> out;
  out.reserve(now.size());
  auto old = prev_.find(key);
  Reading& reading = cur_[key];
  for (const CounterReading& r : now) {
    reading[r.field] = r.value;
    auto shown = [&](uint64_t v) { return mad::shown_value(r.field->fmt, v); };
    CounterRate c{r.field, shown(r.value), std::nullopt};
    c.saturated = saturated(*r.field, r.value);
    if (old != prev_.end()) {
      auto it = old->second.find(r.field);
      if (it != old->second.end()) {
        c.reset = r.value < it->second;
        if (!c.reset) c.increase = shown(r.value) - shown(it->second);
        if (!c.reset && !c.saturated && seconds > 0)
          c.per_second =
              stat::round_half_away(double(shown(r.value) - shown(it->second)) / seconds * 100) /
              100;
      }
    }
    out.push_back(c);
  }
  return out;
}

void CounterRates::end_interval() {
  prev_ = std::move(cur_);
  cur_.clear();
}

bool moved(std::span<const CounterRate> rates) {
  for (const CounterRate& r : rates)
    if (r.saturated || r.changed()) return true;
  return false;
}

std::vector<CounterRate> changed_only(std::span<const CounterRate> rates) {
  std::vector<CounterRate> out;
  for (const CounterRate& r : rates)
    if (r.changed()) out.push_back(r);
  return out;
}

void add_counter_rates(std::span<const CounterRate> rates, view::Record& rec) {
  view::Json rate = view::Json::object();
  view::Json reset = view::Json::array();
  view::Json sat = view::Json::array();
  for (const CounterRate& r : rates) {
    std::string text = std::string(r.field->label) + " " + std::to_string(r.value) + " ";
    if (r.reset) {
      text += "(reset) ";
      reset.push_back(r.field->label);
    } else if (r.saturated) {
      text += "(saturated) ";
      sat.push_back(r.field->label);
    } else if (r.per_second) {
      text += "(" + stat::rate_text(*r.per_second) + "/s) ";
      double v = *r.per_second;
      if (v == static_cast<double>(static_cast<uint64_t>(v)))
        rate[r.field->label] = static_cast<uint64_t>(v);
      else
        rate[r.field->label] = v;
    }
    rec.add(r.field->label, text, r.value);
  }
  if (!rate.empty()) rec.add("rate", "", std::move(rate));
  if (!reset.empty()) rec.add("reset", "", std::move(reset));
  if (!sat.empty()) rec.add("saturated", "", std::move(sat));
}

}  // namespace rdma::ib
