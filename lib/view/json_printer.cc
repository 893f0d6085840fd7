// The JSON printers of lib/view/printer.h: one array a run (-j), or one
// object a line (JSON lines), each record written as it arrives.
#include "lib/view/json_writer.h"
#include "lib/view/printer.h"

namespace rdma::view {

namespace {

// One JSON array for the whole run; each record is one object, written as
// soon as it arrives. finish() closes the array even after an error, so the
// output stays valid JSON. The array opens with the first record, so that
// a detached printer writes nothing at all.
class JsonPrinter : public Printer {
 public:
  JsonPrinter(std::FILE* out, bool pretty) : out_(out), w_(out, pretty) {}
  ~JsonPrinter() override { finish(); }

  void record(const Record& r) override {
    if (done_) return;
    open();
    w_.start_object();
    w_.members(r);
    w_.end_object();
    w_.flush();
  }

  void finish() override {
    if (done_) return;
    open();
    done_ = true;
    w_.end_array();
    w_.flush();
    std::fputc('\n', out_);
    std::fflush(out_);
  }
  void abandon() override {
    if (!started_) done_ = true;
    finish();
  }
  bool is_json() const override { return true; }
  void detach() override { done_ = true; }
  void flush() override {
    w_.flush();
    std::fflush(out_);
  }

 private:
  void open() {
    if (started_) return;
    started_ = true;
    w_.start_array();
  }

  std::FILE* out_;
  JsonWriter w_;
  bool started_ = false;
  bool done_ = false;
};

class JsonLinesPrinter : public Printer {
 public:
  JsonLinesPrinter(std::FILE* out, bool pretty) : out_(out), pretty_(pretty) {}

  void record(const Record& r) override {
    {
      JsonWriter w(out_, pretty_);  // a writer per document: no comma before it
      w.start_object();
      w.members(r);
      w.end_object();
    }
    std::fputc('\n', out_);
  }
  void finish() override { std::fflush(out_); }
  void flush() override { std::fflush(out_); }
  bool is_json() const override { return true; }

 private:
  std::FILE* out_;
  bool pretty_;
};

}  // namespace

std::unique_ptr<Printer> make_json_printer(std::FILE* out, bool pretty) {
  return std::make_unique<JsonPrinter>(out, pretty);
}

std::unique_ptr<Printer> make_json_lines_printer(std::FILE* out, bool pretty) {
  return std::make_unique<JsonLinesPrinter>(out, pretty);
}

}  // namespace rdma::view
