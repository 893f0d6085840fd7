#include "lib/testing/test_data.h"

namespace rdma::testdata {

std::string dir() {
  return RDMA_TEST_DATA;
}

}  // namespace rdma::testdata
