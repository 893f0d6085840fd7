#!/bin/sh
# Installs everything the build and the unit tests need on a fresh Debian 12.
set -e
export DEBIAN_FRONTEND=noninteractive
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  g++ cmake ninja-build pkg-config make \
  libmnl-dev nlohmann-json3-dev libgtest-dev libgmock-dev libibumad-dev libibverbs-dev \
  linux-libc-dev iproute2 clang-format clang-14 libfuzzer-14-dev \
  dpkg-dev file lintian strace >/dev/null
# dpkg-dev: dpkg-buildflags (CI's flags) and dpkg-shlibdeps (the package's
# Depends); file: CPack's test for ELF files; lintian: the package's check;
# strace: the package check that the static rdma execs rdma-dynamic;
# libmnl-dev: the benchmarks' C floor programs only (bench/res_floor.c; the
# tool has its own netlink helpers, lib/nl/mnl.h);
# clang-14 and libfuzzer-14-dev: the fuzz targets (-DRDMA_FUZZ=ON).
