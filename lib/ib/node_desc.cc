#include "lib/ib/node_desc.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "lib/error.h"

namespace rdma::ib {

namespace {

std::string file_of(const std::string& root, const std::string& dev) {
  return root + "/" + dev + "/node_desc";
}

// Why a write failed, in the words a user acts on.
std::string write_failure(int err) {
  std::string why = std::strerror(err);
  switch (err) {
    case EROFS:
      return why + " (sysfs is mounted read-only here, as in most containers: run it on the host)";
    case EACCES:
    case EPERM:
      return why + " (only root may change it)";
    case EOPNOTSUPP:
      return why + " (the device's driver cannot change its node description)";
    default:
      return why;
  }
}

}  // namespace

std::optional<std::string> node_desc_problem(const std::string& text) {
  if (text.empty()) return "an empty node description";
  if (text.size() > kNodeDescBytes)
    return "a node description of " + std::to_string(text.size()) + " bytes (at most " +
           std::to_string(kNodeDescBytes) + ")";
  for (unsigned char ch : text)
    if (ch < 0x20 || ch == 0x7f) return "a control character in the node description";
  return std::nullopt;
}

std::vector<std::string> node_desc_devices(const std::string& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    std::string dev = entry.path().filename().string();
    if (std::filesystem::exists(file_of(root, dev), ec)) out.push_back(dev);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_node_desc(const std::string& root, const std::string& dev) {
  const std::string path = file_of(root, dev);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error("cannot read " + path + ": " + std::strerror(errno));
  char buf[256];
  ssize_t n = ::read(fd, buf, sizeof buf);
  int err = errno;
  ::close(fd);
  if (n < 0) throw Error("cannot read " + path + ": " + std::strerror(err));
  std::string text(buf, static_cast<size_t>(n));
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

void write_node_desc(const std::string& root, const std::string& dev, const std::string& text) {
  const std::string path = file_of(root, dev);
  // One write of the bytes, no newline (the kernel would keep it as part
  // of the description), no O_CREAT: sysfs has the file or the device has
  // none. O_TRUNC for the test's plain file; sysfs ignores it.
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0)
    throw Error("cannot set the node description of " + dev + ": " + path + ": " +
                write_failure(errno));
  ssize_t n = ::write(fd, text.data(), text.size());
  int err = errno;
  if (::close(fd) != 0 && n >= 0) {
    n = -1;
    err = errno;
  }
  if (n < 0)
    throw Error("cannot set the node description of " + dev + ": " + path + ": " +
                write_failure(err));
  std::string back = read_node_desc(root, dev);
  if (back != text)
    throw Error("the node description of " + dev + " reads back as \"" + back +
                "\", not as written");
}

}  // namespace rdma::ib
