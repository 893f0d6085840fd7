#!/bin/bash
# Sets up a fresh Debian 12 machine, builds rdma and shows it working:
# `rdma dev` and `rdma link` on this kernel if it has RDMA netlink, else in a
# QEMU VM running Debian's kernel with soft-RoCE devices (tests/vm); then
# the InfiniBand side on the OpenFabrics simulator (tests/ibsim): a small
# fabric's nodes and links, and one node.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
cmake -S . -B build -G Ninja >/dev/null
ninja -C build rdma
if build/rdma dev 2>/tmp/rdma-demo.err; then
  build/rdma link
else
  echo "this kernel: $(cat /tmp/rdma-demo.err)" >&2
  echo "trying in a VM (Linux 6.12 with rxe soft-RoCE devices) instead:" >&2
  tests/vm/setup.sh >/dev/null
  tests/vm/run --kernel 6.12 --fixture basic --rdma build/rdma -- \
    sh -c 'set -x; rdma-new dev; rdma-new link; rdma-new -j -p dev'
fi
echo "InfiniBand on the simulator (two switches, four HCAs: tests/ibsim/net):" >&2
tests/ibsim/setup.sh >/dev/null
tests/ibsim/sim.sh 'set -x; rdma fabric show; rdma fabric links; rdma node show lid 2'
