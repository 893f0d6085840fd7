// ReplaceFile: the file replaced whole on commit, left as it was otherwise,
// no temporary file left behind, readable by others.
#include "lib/view/replace_file.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "lib/error.h"

namespace rdma::view {
namespace {

class ReplaceFileTest : public ::testing::Test {
 protected:
  ReplaceFileTest() {
    dir_ = ::testing::TempDir() + "rdma-replace-XXXXXX";
    if (!mkdtemp(dir_.data())) ADD_FAILURE() << "mkdtemp";
    path_ = dir_ + "/m.prom";
  }
  ~ReplaceFileTest() override {
    for (const std::string& f : names()) unlink((dir_ + "/" + f).c_str());
    rmdir(dir_.c_str());
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    if (DIR* d = opendir(dir_.c_str())) {
      while (dirent* e = readdir(d))
        if (e->d_name[0] != '.' || (e->d_name[1] && e->d_name[1] != '.')) out.push_back(e->d_name);
      closedir(d);
    }
    return out;
  }
  std::string text() const {
    std::ifstream in(path_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string dir_, path_;
};

TEST_F(ReplaceFileTest, CommitReplacesTheFileWhole) {
  std::ofstream(path_) << "old\n";
  {
    ReplaceFile f(path_);
    std::fputs("new\n", f.file());
    // Not yet: the reader still sees the old file, and the new one is a
    // hidden name beside it.
    EXPECT_EQ(text(), "old\n");
    EXPECT_EQ(names().size(), 2u);
    f.commit();
  }
  EXPECT_EQ(text(), "new\n");
  EXPECT_EQ(names(), std::vector<std::string>{"m.prom"});
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  mode_t mask = umask(0);
  umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

TEST_F(ReplaceFileTest, WithoutCommitTheFileStaysAsItWas) {
  std::ofstream(path_) << "old\n";
  {
    ReplaceFile f(path_);
    std::fputs("half a docu", f.file());
  }
  EXPECT_EQ(text(), "old\n");
  EXPECT_EQ(names(), std::vector<std::string>{"m.prom"});
}

TEST_F(ReplaceFileTest, ADirectoryThatIsNotThereIsAnError) {
  try {
    ReplaceFile f(dir_ + "/none/m.prom");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot write " + dir_ + "/none/m.prom: No such file or directory");
  }
}

}  // namespace
}  // namespace rdma::view
