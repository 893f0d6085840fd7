// Printers render records as iproute2 does: text lines or one JSON array.
// A record is written as soon as it is given (output streams).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>

#include "lib/view/record.h"

namespace rdma::view {

class Printer {
 public:
  virtual ~Printer() = default;
  virtual void record(const Record& r) = 0;
  // Ends the output (closes the JSON array); safe to call more than once.
  virtual void finish() = 0;
  // Hands what was written to the stream now (output that follows events).
  virtual void flush() {}
  // Ends the output after a malformed command line: nothing at all when
  // nothing was written yet (not even an empty JSON array), else finish().
  virtual void abandon() { finish(); }
  // Text written as is (text mode) or ignored (JSON): e.g. help.
  virtual bool is_json() const = 0;
  // For commands that write JSON documents of their own (monitor, watch):
  // this printer writes nothing more, not even the enclosing array.
  virtual void detach() {}
  // How text lines end (JSON ignores it): as iproute2's, whose "key value "
  // pairs leave a blank before the newline (the views both tools have must
  // equal it byte for byte), or without trailing blanks (the views it lacks).
  enum class LineEnds : uint8_t { AsIproute2, Trimmed };
  virtual void set_line_ends(LineEnds) {}
  // A record for a view to fill and give to record(), kept for the
  // printer's life: its fields keep their storage from one command of a
  // batch to the next, so a line allocates nothing for them once warm.
  // For a view's own records only, one at a time (not one nested in another).
  Record& scratch() {
    scratch_.clear();
    return scratch_;
  }

 protected:
  // For a printer that reads only the fields' text: its scratch record
  // skips building the JSON forms (Record::set_text_only).
  void scratch_text_only() { scratch_.set_text_only(true); }

 private:
  Record scratch_;
};

// oneline (-o): the line breaks inside a record (multi-line views such as
// `-d dev` caps, statistic counters, -dd driver details) are written as '\\',
// as iproute2 writes its _SL_; each record still ends with a newline.
std::unique_ptr<Printer> make_text_printer(std::FILE* out, bool oneline = false);
std::unique_ptr<Printer> make_json_printer(std::FILE* out, bool pretty);
// JSON lines: each record a JSON document of its own on its own line, with
// no enclosing array (monitor, whose output is read while it runs).
std::unique_ptr<Printer> make_json_lines_printer(std::FILE* out, bool pretty);

}  // namespace rdma::view
