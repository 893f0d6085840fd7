#!/bin/bash
# The unit tests and the test doubles (lib/testing) are compiled in batches
# (CMake unity build, RDMA_TEST_BATCH in CMakeLists.txt), and which files
# share a batch changes as files are added. This compiles each target's files
# as one (syntax only, about a minute) so that two files defining the same
# file-local name are found now, not when a later file moves them into one
# batch. Prints the first errors.
set -euo pipefail
cd "$(dirname "$0")/.."
all=$(mktemp --suffix=.cc)
trap 'rm -f "$all"' EXIT
check() {  # FILES...
  for f in "$@"; do echo "#include \"$PWD/$f\""; done >"$all"
  ${CXX:-g++} -std=c++20 -Wall -Wextra -fsyntax-only -fmax-errors=10 -I"$PWD" \
    -DRDMA_TEST_DATA="\"$PWD/tests/data\"" -DRDMA_VERSION='"0"' -DGTEST_HAS_PTHREAD=1 "$all"
}
check $(git ls-files '*_test.cc')
check $(git ls-files 'lib/testing/*.cc' | grep -v '_test\.cc$')
echo "test files and test doubles: no file-local name defined twice"
