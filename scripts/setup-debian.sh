#!/bin/sh
# Installs everything the build and the unit tests need on a fresh Debian 12.
set -e
export DEBIAN_FRONTEND=noninteractive
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  g++ cmake ninja-build pkg-config make \
  libmnl-dev nlohmann-json3-dev libgtest-dev libgmock-dev libibumad-dev libibverbs-dev librdmacm-dev \
  linux-libc-dev iproute2 clang-format clang-14 libfuzzer-14-dev libclang-rt-14-dev \
  dpkg-dev file lintian strace ccache python3-prometheus-client prometheus graphviz >/dev/null
# dpkg-dev: dpkg-buildflags (CI's flags) and dpkg-shlibdeps (the package's
# Depends); file: CPack's test for ELF files; lintian: the package's check;
# strace: the package check that a MAD command execs nothing;
# libmnl-dev: netlink (as iproute2);
# clang-14, libfuzzer-14-dev and libclang-rt-14-dev (ASan, UBSan and
# libFuzzer's runtime archives, only a Recommends of clang-14): the
# sanitizer build and the fuzz targets (-DRDMA_FUZZ=ON);
# python3-prometheus-client and prometheus (promtool): the unit tests parse
# the metrics with the real parsers;
# ccache: rebuilds of the same sources (a second run of scripts/test.sh).
# graphviz: the test that draws `fabric topology dot`'s graph.
