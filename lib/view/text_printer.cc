// The text printer of lib/view/printer.h: records as iproute2 rdma prints
// them, a line each (or one line a record with -oneline).
#include <string>

#include "lib/view/printer.h"

namespace rdma::view {

namespace {

class TextPrinter : public Printer {
 public:
  TextPrinter(std::FILE* out, bool oneline) : out_(out), oneline_(oneline) {
    scratch_text_only();  // record() reads only the fields' text
  }
  // One write per line: stdio's per-call locking showed in profiles.
  void record(const Record& r) override {
    line_.clear();
    for (const Field& f : r) line_ += f.text;
    if (ends_ == LineEnds::Trimmed) trim_line_ends();
    if (oneline_)
      for (char& ch : line_)
        if (ch == '\n') ch = '\\';
    line_ += '\n';
    std::fwrite(line_.data(), 1, line_.size(), out_);
  }
  void finish() override { std::fflush(out_); }
  void flush() override { std::fflush(out_); }
  bool is_json() const override { return false; }
  void set_line_ends(LineEnds e) override { ends_ = e; }

 private:
  // Drops the blanks before each line break of line_ and at its end, in
  // place (one pass: long listings go through here line by line).
  void trim_line_ends() {
    size_t kept = 0;
    size_t blanks = 0;  // blanks read since the last other character
    for (char ch : line_) {
      if (ch == ' ') {
        ++blanks;
        continue;
      }
      if (ch != '\n')
        for (; blanks; --blanks) line_[kept++] = ' ';
      blanks = 0;
      line_[kept++] = ch;
    }
    line_.resize(kept);
  }

  std::FILE* out_;
  bool oneline_;
  LineEnds ends_ = LineEnds::AsIproute2;
  std::string line_;
};

}  // namespace

std::unique_ptr<Printer> make_text_printer(std::FILE* out, bool oneline) {
  return std::make_unique<TextPrinter>(out, oneline);
}

}  // namespace rdma::view
