#!/bin/bash
# Sets up a fresh Debian 12 machine, builds rdma and shows it working:
# `rdma dev` and `rdma link` on this kernel if it has RDMA netlink, else in a
# QEMU VM running Debian's kernel with soft-RoCE devices (tests/vm); then
# the InfiniBand side on the OpenFabrics simulator (tests/ibsim): a small
# fabric's nodes and links, and one node.
set -euo pipefail
cd "$(dirname "$0")/.."
START=$SECONDS
step() { printf '\n[%3d s] %s\n' "$((SECONDS - START))" "$*" >&2; }

cat >&2 <<'EOF'
This demo installs Debian packages, builds rdma and runs it. On a fresh
2-core machine it takes about 10 minutes and fetches about 600 MB from the
Debian mirror: the build tools (~150 MB), and where this kernel has no RDMA,
QEMU and Debian's 6.12 kernel for a VM (~400 MB); then the InfiniBand
simulator (~10 MB). Progress is printed as it goes.
EOF

step "installing the build dependencies (scripts/setup-debian.sh)"
scripts/setup-debian.sh
step "building rdma (build/rdma only, not the tests: a few minutes)"
cmake -S . -B build -G Ninja >/dev/null
# ninja's own progress line ([n/N] ...), one per file
ninja -C build rdma

if build/rdma dev 2>/tmp/rdma-demo.err; then
  build/rdma link
else
  step "this machine's kernel has no RDMA devices or RDMA netlink ($(cat /tmp/rdma-demo.err)),"
  echo "as is usual for a container or a build host. So rdma runs in a VM instead:" >&2
  echo "Debian's Linux 6.12 under QEMU with two soft-RoCE devices (rxe0, rxe1)." >&2
  step "preparing the VM (tests/vm/setup.sh: QEMU, the kernel, the siw module)"
  tests/vm/setup.sh --kernels 6.12
  step "in the VM: 'rdma-new' is the rdma just built, copied into the VM beside iproute2's rdma"
  tests/vm/run --kernel 6.12 --fixture basic --rdma build/rdma -- \
    sh -c 'for c in "dev" "link" "-j -p dev"; do echo "\$ rdma $c"; rdma-new $c; echo; done'
fi

step "InfiniBand on the OpenFabrics simulator (two switches, four HCAs: tests/ibsim/net)"
tests/ibsim/setup.sh >/dev/null
tests/ibsim/sim.sh 'for c in "fabric show" "fabric links" "node show lid 2"; do echo "\$ rdma $c"; rdma $c; echo; done'
step "done"
