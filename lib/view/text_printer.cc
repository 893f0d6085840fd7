#include <string>

#include "lib/view/printer.h"

namespace rdma::view {

namespace {

class TextPrinter : public Printer {
 public:
  explicit TextPrinter(std::FILE* out) : out_(out) {}
  // One write per line: stdio's per-call locking showed in profiles.
  void record(const Record& r) override {
    line_.clear();
    for (const Field& f : r) line_ += f.text;
    line_ += '\n';
    std::fwrite(line_.data(), 1, line_.size(), out_);
  }
  void finish() override { std::fflush(out_); }
  bool is_json() const override { return false; }

 private:
  std::FILE* out_;
  std::string line_;
};

}  // namespace

std::unique_ptr<Printer> make_text_printer(std::FILE* out) {
  return std::make_unique<TextPrinter>(out);
}

}  // namespace rdma::view
