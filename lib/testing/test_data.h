// Paths of the files the unit tests read: tests/data and the ibsim topology
// most fabric tests run on (tests/ibsim/net). One definition for every test
// file, since the test files are compiled together in batches (CMakeLists.txt).
#pragma once

#include <string>

namespace rdma::testdata {

// tests/data of the source tree. Defined in test_data.cc, the one file that
// sees the absolute path: a path on every test file's command line would
// make each clone's compiles different to ccache.
std::string dir();

inline const std::string kNet = dir() + "/../ibsim/net";

}  // namespace rdma::testdata
