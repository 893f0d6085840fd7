#include "lib/ib/node_desc.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "lib/error.h"

namespace rdma::ib {
namespace {

namespace fs = std::filesystem;

// A sysfs class directory in a temporary one: two devices with node_desc,
// one entry without (an iWARP device in the real one has it too; a stray
// entry need not).
class NodeDescDir : public ::testing::Test {
 protected:
  NodeDescDir() : root_(::testing::TempDir() + "rdma-node-desc-sysfs") {
    fs::remove_all(root_);
    for (const char* dev : {"rxe1", "mlx5_0", "other"}) fs::create_directories(root_ + "/" + dev);
    std::ofstream(root_ + "/rxe1/node_desc") << "old name\n";  // as sysfs shows it
    std::ofstream(root_ + "/mlx5_0/node_desc") << "host mlx5_0\n";
  }
  ~NodeDescDir() override { fs::remove_all(root_); }
  std::string error_of(const std::string& dev, const std::string& text) {
    try {
      write_node_desc(root_, dev, text);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  }
  std::string root_;
};

TEST_F(NodeDescDir, DevicesAreThoseWithTheFileSorted) {
  EXPECT_EQ(node_desc_devices(root_), (std::vector<std::string>{"mlx5_0", "rxe1"}));
  EXPECT_TRUE(node_desc_devices(root_ + "/none").empty());  // no such class: no device
  EXPECT_EQ(read_node_desc(root_, "rxe1"), "old name");
}

TEST_F(NodeDescDir, WritesTheBytesWithoutANewlineAndReadsThemBack) {
  write_node_desc(root_, "rxe1", "gpu-node-03 HCA-1");
  std::ifstream in(root_ + "/rxe1/node_desc");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(all, "gpu-node-03 HCA-1");                        // set_nodedesc.sh's echo -n
  EXPECT_EQ(read_node_desc(root_, "mlx5_0"), "host mlx5_0");  // the other untouched
}

TEST_F(NodeDescDir, AWriteThatFailsOrDoesNotReadBackIsAnError) {
  std::string file = root_ + "/rxe1/node_desc";
  fs::remove(file);
  fs::create_symlink("/dev/full", file);  // every write fails, even root's
  EXPECT_EQ(error_of("rxe1", "x"),
            "cannot set the node description of rxe1: " + file + ": No space left on device");
  fs::remove(file);
  fs::create_symlink("/dev/null", file);  // takes it, gives nothing back
  EXPECT_EQ(error_of("rxe1", "x"),
            "the node description of rxe1 reads back as \"\", not as written");
  EXPECT_EQ(error_of("other", "x"), "cannot set the node description of other: " + root_ +
                                        "/other/node_desc: No such file or directory");
  if (::geteuid() != 0) {  // root may write a read-only file
    fs::permissions(root_ + "/mlx5_0/node_desc", fs::perms::owner_read);
    EXPECT_EQ(error_of("mlx5_0", "x"), "cannot set the node description of mlx5_0: " + root_ +
                                           "/mlx5_0/node_desc: Permission denied (only root may "
                                           "change it)");
  }
}

TEST(NodeDescText, EmptyLongAndControlCharactersAreRefused) {
  EXPECT_FALSE(node_desc_problem("a"));
  EXPECT_FALSE(node_desc_problem(std::string(64, 'x')));
  EXPECT_EQ(node_desc_problem(std::string(65, 'x')), "a node description of 65 bytes (at most 64)");
  EXPECT_EQ(node_desc_problem(""), "an empty node description");
  EXPECT_EQ(node_desc_problem("a\nb"), "a control character in the node description");
  EXPECT_EQ(node_desc_problem(std::string("a\0b", 3)),
            "a control character in the node description");
}

}  // namespace
}  // namespace rdma::ib
