#include "rdma/batch.h"

#include "lib/error.h"

namespace rdma {

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char ch = line[i];
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
      if (in_word) words.push_back(std::move(cur));
      cur.clear();
      in_word = false;
      continue;
    }
    if (ch == '#' && !in_word) break;  // comment to the end of the line
    in_word = true;
    if (ch == '\\') {
      if (i + 1 < line.size()) cur += line[++i];
      continue;
    }
    if (ch == '"' || ch == '\'') {
      size_t j = i + 1;
      for (; j < line.size() && line[j] != ch; ++j) {
        if (ch == '"' && line[j] == '\\' && j + 1 < line.size()) ++j;
        cur += line[j];
      }
      if (j >= line.size()) throw Error(std::string("unterminated ") + ch + " quote");
      i = j;
      continue;
    }
    cur += ch;
  }
  if (in_word) words.push_back(std::move(cur));
  return words;
}

namespace {

bool read_physical_line(std::FILE* in, std::string& line) {
  line.clear();
  int ch;
  while ((ch = std::fgetc(in)) != EOF) {
    if (ch == '\n') return true;
    line += static_cast<char>(ch);
  }
  return !line.empty();
}

}  // namespace

bool read_batch_line(std::FILE* in, int& lineno, BatchLine& out) {
  std::string line, part;
  while (read_physical_line(in, part)) {
    ++lineno;
    if (line.empty()) out.lineno = lineno;
    // A trailing backslash continues the command on the next line.
    if (!part.empty() && part.back() == '\\') {
      part.pop_back();
      line += part + " ";
      continue;
    }
    line += part;
    out.words = split_words(line);
    line.clear();
    if (!out.words.empty()) return true;
  }
  if (!line.empty()) {  // continuation at end of file
    out.words = split_words(line);
    if (!out.words.empty()) return true;
  }
  return false;
}

}  // namespace rdma
