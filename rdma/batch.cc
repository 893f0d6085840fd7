#include "rdma/batch.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "lib/error.h"
#include "rdma/command.h"

namespace rdma {

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  words.reserve(8);  // a usual command's words in one allocation
  std::string cur;
  bool in_word = false;
  auto plain = [](char ch) {
    return ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n' && ch != '\\' && ch != '"' &&
           ch != '\'';
  };
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
    // The run of plain characters from here in one append, not one at a
    // time ('#' inside a word is plain).
    size_t j = i + 1;
    while (j < line.size() && plain(line[j])) ++j;
    cur.append(line, i, j - i);
    i = j - 1;
  }
  if (in_word) words.push_back(std::move(cur));
  return words;
}

bool read_batch_line(std::FILE* in, int& lineno, BatchLine& out) {
  std::string& line = out.text;
  line.clear();
  // getline(3), not a character at a time: reading the line was a tenth of
  // a batch line's own work. It reads NUL bytes as any other.
  LineBuffer& buf = out.buf;
  ssize_t n;
  while ((n = getline(&buf.p, &buf.cap, in)) >= 0) {
    std::string_view part(buf.p, static_cast<size_t>(n));
    if (!part.empty() && part.back() == '\n') part.remove_suffix(1);
    ++lineno;
    if (line.empty()) out.lineno = lineno;
    // A trailing backslash continues the command on the next line.
    if (!part.empty() && part.back() == '\\') {
      part.remove_suffix(1);
      line.append(part).append(" ");
      continue;
    }
    line.append(part);
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

int run_batch(const Options& opt, nl::Connection& conn, Env& env, const RunLine& run_line) {
  const std::string& name = *opt.batch;
  std::FILE* in = name == "-" ? env.in : std::fopen(name.c_str(), "r");
  if (!in) {
    std::fprintf(env.err, "cannot open batch file \"%s\"\n", name.c_str());
    return 1;
  }
  conn.keep_dumps(true);
  int failed = 0;  // the highest status of a line that failed
  bool found = false;
  int lineno = 0;
  BatchLine line;
  for (;;) {
    try {
      if (!read_batch_line(in, lineno, line)) break;
      // Options on a line apply to that line only; output mode stays global.
      Options line_opt = parse_options(line.words);
      if (line_opt.batch || line_opt.netns || line_opt.kernel_timeout_ms ||
          line_opt.exposition != Options::Exposition::None)
        throw Error(
            "-batch, -netns, --kernel-timeout, --openmetrics and --prometheus are not allowed "
            "inside a batch file");
      line_opt.json = opt.json;
      line_opt.pretty = opt.pretty;
      line_opt.details = std::max(line_opt.details, opt.details);
      line_opt.raw |= opt.raw;
      line_opt.force = opt.force;
      // The MAD settings of the whole run (ibdiag.conf's, or the options
      // before -b) unless the line gives its own.
      line_opt.default_via = opt.default_via;
      if (!line_opt.mad_timeout_given) line_opt.mad_timeout_ms = opt.mad_timeout_ms;
      if (!line_opt.mkey) line_opt.mkey = opt.mkey;
      if (!line_opt.mkey_file) line_opt.mkey_file = opt.mkey_file;
      if (!line_opt.pkey_index) line_opt.pkey_index = opt.pkey_index;
      LineStatus r = run_line(std::move(line.words), line_opt);
      if (r.status == 0) continue;
      std::fflush(env.out);
      if (r.findings && r.status == 1) {
        std::fprintf(env.err, "%s:%d: found something (exit status 1)\n", name.c_str(),
                     line.lineno);
        found = true;
        continue;
      }
      // The command said why on its own lines (warnings): which line it was.
      std::fprintf(env.err, "%s:%d: failed (exit status %d)\n", name.c_str(), line.lineno,
                   r.status);
      failed = std::max(failed, r.status);
      if (!opt.force) break;
    } catch (const Error& e) {
      std::fflush(env.out);
      std::fprintf(env.err, "%s:%d: %s\n", name.c_str(), line.lineno, e.what());
      failed = std::max(failed, exit_status(e));
      if (!opt.force) break;
    }
  }
  conn.keep_dumps(false);
  if (in != env.in) std::fclose(in);
  return failed ? failed : found ? 1 : 0;
}

}  // namespace rdma
