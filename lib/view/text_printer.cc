#include "lib/view/printer.h"

namespace rdma::view {

namespace {

class TextPrinter : public Printer {
 public:
  explicit TextPrinter(std::FILE* out) : out_(out) {}
  void record(const Record& r) override {
    for (const Field& f : r.fields) std::fputs(f.text.c_str(), out_);
    std::fputc('\n', out_);
  }
  void finish() override { std::fflush(out_); }
  bool is_json() const override { return false; }

 private:
  std::FILE* out_;
};

}  // namespace

std::unique_ptr<Printer> make_text_printer(std::FILE* out) {
  return std::make_unique<TextPrinter>(out);
}

}  // namespace rdma::view
