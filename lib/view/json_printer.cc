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

}  // namespace

std::unique_ptr<Printer> make_json_printer(std::FILE* out, bool pretty) {
  return std::make_unique<JsonPrinter>(out, pretty);
}

}  // namespace rdma::view
