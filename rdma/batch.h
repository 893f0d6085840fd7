// Batch files (-b FILE, - for stdin): one command a line, as iproute2 reads
// them: '#' comments, "double" and 'single' quotes, backslash escapes and a
// trailing backslash that continues the line.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace rdma {

struct BatchLine {
  int lineno;  // first physical line of the command
  std::vector<std::string> words;
};

// Splits one logical line into words. Throws Error on an unterminated quote.
std::vector<std::string> split_words(const std::string& line);

// Reads the next non-empty command; false at end of input. Throws Error
// (without the line number; the caller adds it) for a malformed line.
bool read_batch_line(std::FILE* in, int& lineno, BatchLine& out);

}  // namespace rdma
