// A file replaced whole or not at all: written to a temporary file beside
// it and renamed over it on commit(), so a reader (node_exporter's textfile
// collector) sees the old file or the new one, never half of one.
#pragma once

#include <cstdio>
#include <string>

namespace rdma::view {

class ReplaceFile {
 public:
  // Creates the temporary file (".NAME.XXXXXX" in the file's directory: a
  // name the textfile collector's *.prom does not match). Throws Error
  // naming the file when it cannot.
  explicit ReplaceFile(std::string path);
  // Removes the temporary file unless committed: the file stays as it was.
  ~ReplaceFile();
  ReplaceFile(const ReplaceFile&) = delete;
  ReplaceFile& operator=(const ReplaceFile&) = delete;

  std::FILE* file() { return tmp_; }
  // Flushes and syncs what was written, gives it the mode a new file gets
  // (0666 less the umask) and renames it over the file. Throws Error naming
  // the file when any step fails (the file then stays as it was).
  void commit();

 private:
  std::string path_;
  std::string tmp_path_;
  std::FILE* tmp_ = nullptr;
  bool committed_ = false;
};

}  // namespace rdma::view
