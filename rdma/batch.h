// Batch files (-b FILE, - for stdin): one command a line, as iproute2 reads
// them: '#' comments, "double" and 'single' quotes, backslash escapes and a
// trailing backslash that continues the line.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "lib/nl/connection.h"
#include "rdma/options.h"
#include "rdma/rdma.h"

namespace rdma {

// getline(3)'s buffer, freed however the reading ends.
struct LineBuffer {
  char* p = nullptr;
  size_t cap = 0;
  LineBuffer() = default;
  LineBuffer(const LineBuffer&) = delete;
  LineBuffer& operator=(const LineBuffer&) = delete;
  ~LineBuffer() { std::free(p); }
};

struct BatchLine {
  int lineno;  // first physical line of the command
  std::vector<std::string> words;
  // read_batch_line's storage, kept from one line to the next (a malloc and
  // a free a line otherwise).
  LineBuffer buf;
  std::string text;
};

// Splits one logical line into words. Throws Error on an unterminated quote.
std::vector<std::string> split_words(const std::string& line);

// Reads the next non-empty command; false at end of input. Throws Error
// (without the line number; the caller adds it) for a malformed line.
bool read_batch_line(std::FILE* in, int& lineno, BatchLine& out);

// A command's exit status, and whether it reports findings (Takes::Findings:
// then 1 is "found something", not "failed").
struct LineStatus {
  int status = 0;
  bool findings = false;
};

// Runs one command of a batch with its options. Throws Error.
using RunLine = std::function<LineStatus(std::vector<std::string> words, const Options& opt)>;

// Runs the batch file opt.batch line by line with run_line. A line that
// failed is reported as "FILE:LINE: message" (or "FILE:LINE: failed (exit
// status N)" after its own messages) and ends the batch unless -force; a
// line that found something ("FILE:LINE: found something (exit status 1)")
// does not. The lines share conn, and with it one socket and the device
// list (kept until a line writes). Returns the exit status: the highest of
// the lines that failed, else 1 when a line found something, else 0.
int run_batch(const Options& opt, nl::Connection& conn, Env& env, const RunLine& run_line);

}  // namespace rdma
