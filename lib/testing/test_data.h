// Paths of the files the unit tests read: the ibsim topology most fabric
// tests run on (tests/ibsim/net). One definition for every test file, since
// the test files are compiled together in batches (CMakeLists.txt).
#pragma once

#include <string>

namespace rdma::testdata {

// RDMA_TEST_DATA (tests/data) is defined for the unit tests only.
inline const std::string kNet = std::string(RDMA_TEST_DATA) + "/../ibsim/net";

}  // namespace rdma::testdata
