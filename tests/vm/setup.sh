#!/bin/bash
# Prepare a Debian 12 host for the RDMA VM test suite:
#  - install the host packages the VM image is built from
#  - download and unpack the two guest kernels (6.1 and 6.12) into the cache
# Idempotent: quick when everything is already present.
# usage: tests/vm/setup.sh [--refresh]   (--refresh: fetch newer kernels if any)
set -euo pipefail

CACHE=${RDMA_VM_CACHE:-$HOME/.cache/rdma-vm}
mkdir -p "$CACHE"

PKGS="qemu-system-x86 busybox-static kmod cpio rdma-core ibverbs-providers
ibverbs-utils rdmacm-utils librdmacm1 libibverbs1 iproute2 strace python3
xz-utils zstd gzip coreutils"

REFRESH=0
[ "${1:-}" = --refresh ] && REFRESH=1   # look for newer kernel packages again

installed=$(dpkg-query -W -f='${Package} ${Status}\n' $PKGS 2>/dev/null | awk '/ install ok installed$/{print $1}')
missing=""
for p in $PKGS; do
    printf '%s\n' "$installed" | grep -qx "$p" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || true
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# Pick the kernel package names.
pick_61() {
    # the meta package linux-image-amd64 (bookworm) depends on the newest 6.1 ABI
    local p
    p=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-6\.1\.0-[0-9]*-amd64\)$/\1/p' | head -1)
    if [ -z "$p" ]; then
        p=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | awk '{print $1}' | sort -V | tail -1)
    fi
    echo "$p"
}
pick_612() {
    apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-amd64$' | awk '{print $1}' | sort -V | tail -1
}

fetch_kernel() { # $1 = short version (6.1 / 6.12), $2 = package name
    local kv=$1 pkg=$2 dir="$CACHE/kernel-$1"
    if [ -z "$pkg" ]; then
        echo "setup: cannot find a kernel package for $kv (run apt-get update?)" >&2
        return 1
    fi
    if [ -f "$dir/.pkg" ] && [ "$(cat "$dir/.pkg")" = "$pkg" ] && [ -f "$dir/vmlinuz" ]; then
        return 0
    fi
    echo "setup: fetching $pkg" >&2
    rm -rf "$dir" "$CACHE/dl-$kv"
    mkdir -p "$CACHE/dl-$kv" "$dir/root"
    (cd "$CACHE/dl-$kv" && apt-get download -q "$pkg" >/dev/null)
    dpkg-deb -x "$CACHE/dl-$kv"/*.deb "$dir/root"
    local kver
    kver=$(ls "$dir/root/lib/modules" | head -1)
    cp "$dir/root/boot/vmlinuz-$kver" "$dir/vmlinuz"
    echo "$kver" > "$dir/kver"
    rm -rf "$CACHE/dl-$kv"
    echo "$pkg" > "$dir/.pkg"
}

# A cached kernel is kept unless --refresh is given (picking is slow-ish).
for kv in 6.1 6.12; do
    if [ "$REFRESH" = 0 ] && [ -f "$CACHE/kernel-$kv/.pkg" ] && [ -f "$CACHE/kernel-$kv/vmlinuz" ]; then
        continue
    fi
    if [ "$kv" = 6.1 ]; then fetch_kernel 6.1 "$(pick_61)"; else fetch_kernel 6.12 "$(pick_612)"; fi
done
echo "setup: ok (cache $CACHE)" >&2
