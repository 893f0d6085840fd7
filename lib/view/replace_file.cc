#include "lib/view/replace_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lib/error.h"

namespace rdma::view {

namespace {

std::string why(const std::string& path) {
  return path + ": " + std::strerror(errno);
}

}  // namespace

ReplaceFile::ReplaceFile(std::string path) : path_(std::move(path)) {
  size_t slash = path_.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path_.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? path_ : path_.substr(slash + 1);
  tmp_path_ = dir + "." + base + ".XXXXXX";
  int fd = mkstemp(tmp_path_.data());
  if (fd < 0) throw Error("cannot write " + why(path_));
  tmp_ = fdopen(fd, "w");
  if (!tmp_) {
    Error e("cannot write " + why(path_));
    close(fd);
    unlink(tmp_path_.c_str());
    throw e;
  }
}

ReplaceFile::~ReplaceFile() {
  if (tmp_) std::fclose(tmp_);
  if (!committed_) unlink(tmp_path_.c_str());
}

void ReplaceFile::commit() {
  mode_t mask = umask(0);
  umask(mask);
  bool ok = std::fflush(tmp_) == 0 && !std::ferror(tmp_) && fsync(fileno(tmp_)) == 0 &&
            fchmod(fileno(tmp_), 0666 & ~mask) == 0;
  int err = errno;
  ok = std::fclose(tmp_) == 0 && ok;
  if (!ok && !err) err = errno;
  tmp_ = nullptr;
  if (ok && std::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    errno = err;
    throw Error("cannot write " + why(path_));
  }
  committed_ = true;
}

}  // namespace rdma::view
