#!/bin/bash
# Prepare a Debian 12 host for the RDMA VM test suite:
#  - install the host packages the VM image is built from
#  - download and unpack the two guest kernels (6.1 and 6.12) into the cache
#  - build the iWARP driver siw (which Debian's kernels lack) out of tree for
#    each kernel, from linux-source-X.Y and linux-headers-KVER of exactly the
#    kernel package's version, and cache it as $CACHE/siw/KVER/siw.ko
# Idempotent: quick when everything is already present.
# usage: tests/vm/setup.sh [--refresh] [--kernels "6.1 6.12"]
#   --refresh: fetch newer kernels if any; --kernels: only these (the demo
#   needs 6.12 alone)
set -euo pipefail

CACHE=${RDMA_VM_CACHE:-$HOME/.cache/rdma-vm}
mkdir -p "$CACHE"

PKGS="qemu-system-x86 busybox-static kmod cpio rdma-core ibverbs-providers
ibverbs-utils infiniband-diags rdmacm-utils librdmacm1 libibverbs1 perftest iproute2 strace python3
xz-utils zstd gzip coreutils make gcc-12 binutils"

REFRESH=0
KERNELS="6.1 6.12"
while [ $# -gt 0 ]; do
    case "$1" in
        --refresh) REFRESH=1; shift ;;   # look for newer kernel packages again
        --kernels) KERNELS=$2; shift 2 ;;
        *) echo "usage: tests/vm/setup.sh [--refresh] [--kernels \"6.1 6.12\"]" >&2; exit 2 ;;
    esac
done

# dpkg-query exits 1 when any of them is not installed at all (a fresh machine).
installed=$({ dpkg-query -W -f='${Package} ${Status}\n' $PKGS 2>/dev/null || true; } | awk '/ install ok installed$/{print $1}')
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
    (cd "$CACHE/dl-$kv" && apt-get -o APT::Sandbox::User=root download -q "$pkg" >/dev/null)
    dpkg-deb -x "$CACHE/dl-$kv"/*.deb "$dir/root"
    dpkg-deb -f "$CACHE/dl-$kv"/*.deb Version > "$dir/.version"
    local kver
    kver=$(ls "$dir/root/lib/modules" | head -1)
    cp "$dir/root/boot/vmlinuz-$kver" "$dir/vmlinuz"
    echo "$kver" > "$dir/kver"
    rm -rf "$CACHE/dl-$kv"
    echo "$pkg" > "$dir/.pkg"
}

# A cached kernel is kept unless --refresh is given (picking is slow-ish).
for kv in $KERNELS; do
    if [ "$REFRESH" = 0 ] && [ -f "$CACHE/kernel-$kv/.pkg" ] && [ -f "$CACHE/kernel-$kv/vmlinuz" ]; then
        continue
    fi
    if [ "$kv" = 6.1 ]; then fetch_kernel 6.1 "$(pick_61)"; else fetch_kernel 6.12 "$(pick_612)"; fi
done

# ------------------------------------------------------------------ siw
# The Debian package version of a cached kernel (e.g. 6.1.192-2): recorded
# at download; for a kernel cached before that, read from the bzImage's
# version string ("... Debian 6.1.192-2 (date)").
kernel_deb_version() { # $1 = kernel dir
    local dir=$1
    if [ ! -s "$dir/.version" ]; then
        python3 - "$dir/vmlinuz" > "$dir/.version.tmp" <<'PYEOF' || return 1
import re, sys
b = open(sys.argv[1], 'rb').read(0x10000)
off = int.from_bytes(b[0x20e:0x210], 'little') + 0x200
m = re.search(rb' Debian (\S+) ', b[off:off + 256].split(b'\0')[0])
if not m:
    sys.exit(1)
print(m.group(1).decode())
PYEOF
        mv "$dir/.version.tmp" "$dir/.version"
    fi
    cat "$dir/.version"
}

# Build siw.ko for one cached kernel: headers (linux-headers-KVER, its
# -common and linux-kbuild packages) and linux-source-X.Y, all of exactly the
# kernel package's version, are unpacked in a scratch dir (not installed:
# linux-headers-6.12.* depends on the linux-image package, which a host
# does not need).  A module built for another version is never used.
build_siw() { # $1 = short version (6.1 / 6.12)
    local kv=$1 kdir="$CACHE/kernel-$1" kver ver out
    kver=$(cat "$kdir/kver")
    ver=$(kernel_deb_version "$kdir") || { echo "setup: cannot tell the package version of $kdir" >&2; return 1; }
    out="$CACHE/siw/$kver"
    if [ -f "$out/siw.ko" ] && [ "$(cat "$out/.version" 2>/dev/null)" = "$ver" ]; then
        return 0
    fi
    local hpkg="linux-headers-$kver" spkg="linux-source-$kv" p deps=""
    for p in "$hpkg" "$spkg"; do
        if ! apt-cache show "$p=$ver" > /dev/null 2>&1; then
            echo "setup: ERROR: $p version $ver (the version of the cached kernel $kver) is not in the" >&2
            echo "setup:   package archive, so siw cannot be built for it (a module built for another" >&2
            echo "setup:   version is not used); run apt-get update and tests/vm/setup.sh --refresh" >&2
            echo "setup:   to move to the current kernel.  Without siw the iWARP corpus lines fail." >&2
            return 1
        fi
    done
    # linux-headers-KVER-common (= ver) and linux-kbuild-* (>= ver), at ver
    deps=$(apt-cache show "$hpkg=$ver" | sed -n 's/^Depends: //p' | head -1 | tr ',' '\n' \
        | sed -n 's/^ *\(linux-headers-[^ ]*-common\|linux-kbuild-[^ ]*\)\( .*\)\{0,1\}$/\1/p')
    deps=$(echo $deps)
    echo "setup: building siw for $kver ($ver): $hpkg $deps $spkg" >&2
    local t0 b rc=0
    t0=$(date +%s)
    b=$(mktemp -d "$CACHE/siw-build.XXXXXX")
    compile_siw "$b" "$kver" "$ver" "$hpkg" "$spkg" "$deps" "$out" || rc=1
    rm -rf "$b"
    [ $rc = 0 ] && echo "setup: siw for $kver built in $(( $(date +%s) - t0 ))s" >&2
    return $rc
}

compile_siw() { # scratch dir, kver, version, headers pkg, source pkg, dependencies, output dir
    local b=$1 kver=$2 ver=$3 hpkg=$4 spkg=$5 deps=$6 out=$7 p
    local log="$b/build.log" src="$b/$spkg/drivers/infiniband/sw/siw" h="$b/root/usr/src/$hpkg"
    mkdir -p "$b/dl" "$b/root"
    # linux-kbuild-* is only ">= ver": take ver, or the candidate if ver is gone
    (cd "$b/dl" && apt-get -o APT::Sandbox::User=root download -q "$hpkg=$ver" "$spkg=$ver" $(for p in $deps; do echo "$p=$ver"; done)) >> "$log" 2>&1 \
        || (cd "$b/dl" && apt-get -o APT::Sandbox::User=root download -q "$hpkg=$ver" "$spkg=$ver" $deps) >> "$log" 2>&1 \
        || { echo "setup: downloading the siw build packages failed:" >&2; tail -n 5 "$log" >&2; return 1; }
    for p in "$b"/dl/linux-headers-*.deb "$b"/dl/linux-kbuild-*.deb; do
        dpkg-deb -x "$p" "$b/root" || return 1
    done
    dpkg-deb --fsys-tarfile "$b"/dl/"$spkg"_*.deb | tar -xO "./usr/src/$spkg.tar.xz" \
        | tar -xJ -C "$b" "$spkg/drivers/infiniband/sw/siw" \
        || { echo "setup: cannot unpack drivers/infiniband/sw/siw from $spkg" >&2; return 1; }
    rm -rf "$b/dl"
    # the flavour's Makefile includes /usr/src/linux-headers-*-common/Makefile
    sed -i "s|^include /usr/src/|include $b/root/usr/src/|" "$h/Makefile"
    # Debian's kernels have "# CONFIG_RDMA_SIW is not set"; no BTF (it needs pahole)
    make -C "$h" M="$src" CONFIG_RDMA_SIW=m CONFIG_DEBUG_INFO_BTF_MODULES= modules >> "$log" 2>&1 \
        || { echo "setup: building siw for $kver failed:" >&2; tail -n 30 "$log" >&2; return 1; }
    strip --strip-debug "$src/siw.ko" || return 1
    p=$(/sbin/modinfo -F vermagic "$src/siw.ko" | awk '{print $1}')
    [ "$p" = "$kver" ] || { echo "setup: siw.ko has vermagic $p, not $kver" >&2; return 1; }
    mkdir -p "$out"
    cp "$src/siw.ko" "$out/siw.ko.tmp" && mv "$out/siw.ko.tmp" "$out/siw.ko" && echo "$ver" > "$out/.version"
}

siw_failed=0
for kv in $KERNELS; do
    build_siw "$kv" || siw_failed=1
done
# drop modules of kernels no longer cached
for d in "$CACHE"/siw/*; do
    [ -d "$d" ] || continue
    [ "$(basename "$d")" = "$(cat "$CACHE/kernel-6.1/kver" 2>/dev/null)" ] || [ "$(basename "$d")" = "$(cat "$CACHE/kernel-6.12/kver" 2>/dev/null)" ] \
        || rm -rf "$d"
done
[ "$siw_failed" = 0 ] || { echo "setup: siw is missing for some kernel (see above)" >&2; exit 1; }
echo "setup: ok (cache $CACHE)" >&2
