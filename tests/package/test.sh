#!/bin/bash
# The install and the Debian package, as a packager and an admin meet them:
#   install   cmake --install with DESTDIR and prefix /usr puts the binary,
#             the gzip'ed man pages, the bash completion and the copyright
#             where Debian's iproute2 puts its rdma; the metrics' systemd
#             service and timer in /usr/lib/systemd/system, not enabled (no
#             link under etc/), the service writing node_exporter's textfile
#             directory
#   package   `--target package` gives one .deb; its control names the
#             package, a description, the maintainer scripts, and Depends
#             computed from the binary (libc6, libstdc++6, libmnl0) plus
#             libibumad3 and libibverbs1 (loaded with dlopen); its files are
#             the install's files
#   run       the binary unpacked from the .deb (dpkg-deb -x) runs: rdma -V;
#             it is one dynamically linked program whose NEEDED libraries
#             are the ones Depends names, and nothing under libexec
#   lintian   no lintian errors
#   dpkg      installed with dpkg into a scratch root (--root, maintainer
#             scripts run chroot-less, so dpkg-divert acts on that root)
#             that has iproute2's rdma files: ours becomes /usr/bin/rdma,
#             iproute2's lives on as rdma.iproute2 and rdma*.iproute2.8.gz;
#             removed, iproute2's files are back and no diversion is left.
#             The host's own files and diversions are checked unchanged.
# Usage: tests/package/test.sh [--build DIR]   (DIR configured, default build)
# Ends with "N passed, M failed"; exits non-zero if anything failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$ROOT/build
[ "${1:-}" = --build ] && BUILD=$(cd "$2" && pwd)
PASSED=0
FAILED=0
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

check() {  # NAME COMMAND...: passes when COMMAND succeeds
  local name=$1; shift
  if "$@" >"$W/check.out" 2>&1; then
    PASSED=$((PASSED + 1)); echo "ok: $name"
  else
    FAILED=$((FAILED + 1)); echo "FAIL: $name"; sed 's/^/    /' "$W/check.out" | head -n 20
  fi
}
finish() { echo "$PASSED passed, $FAILED failed"; [ "$FAILED" -eq 0 ]; exit; }

# ---------------------------------------------------------------- install
DEST=$W/dest
DESTDIR=$DEST cmake --install "$BUILD" --prefix /usr >"$W/install.log" 2>&1 || cat "$W/install.log"
check "cmake --install DESTDIR=... --prefix /usr" test -x "$DEST/usr/bin/rdma"
expect_files() {
  local f
  local files="usr/bin/rdma usr/share/bash-completion/completions/rdma usr/share/doc/rdma/copyright
               usr/share/doc/rdma/changelog.gz usr/lib/systemd/system/rdma-fabric-metrics.service
               usr/lib/systemd/system/rdma-fabric-metrics.timer"
  for f in $files; do
    [ -f "$DEST/$f" ] || { echo "missing $f"; return 1; }
  done
  for f in "$ROOT"/man/*.[78]; do
    f=usr/share/man/man${f##*.}/$(basename "$f").gz
    [ -f "$DEST/$f" ] || { echo "missing $f"; return 1; }
    gzip -t "$DEST/$f" || return 1
  done
}
check "installed: binary, man pages (.gz), bash completion, copyright, changelog, systemd units" expect_files
metrics_units() {
  local unit=$DEST/usr/lib/systemd/system/rdma-fabric-metrics
  [ ! -e "$DEST/etc" ] || { echo "the install writes etc/ (an enabled unit?)"; find "$DEST/etc"; return 1; }
  grep -qx 'ExecStart=rdma --prometheus --output /var/lib/prometheus/node-exporter/rdma_ib.prom fabric errors' \
    "$unit.service" || { echo "service: no ExecStart writing the textfile directory"; return 1; }
  grep -qx 'WantedBy=timers.target' "$unit.timer" || { echo "timer: no WantedBy=timers.target"; return 1; }
  if command -v systemd-analyze >/dev/null; then
    # The man page and the binary are checked above; only the units' syntax here.
    systemd-analyze verify "$unit.service" "$unit.timer" 2>&1 |
      grep -v -e "man rdma-fabric" -e "Command rdma is not executable" |
      grep . && return 1
  fi
  return 0
}
check "systemd units: the service writes rdma_ib.prom, the timer is not enabled" metrics_units
# iproute2's own rdma is where ours goes, its pages beside ours
same_place_as_iproute2() {
  local f
  for f in $(dpkg -L iproute2 | grep -E '/rdma$|/rdma[-.][a-z.-]*8\.gz$'); do
    [ -e "$DEST$f" ] || { echo "iproute2 has $f, the install has not"; return 1; }
  done
}
if dpkg -s iproute2 >/dev/null 2>&1; then
  check "paths equal iproute2's rdma files" same_place_as_iproute2
fi

# ---------------------------------------------------------------- package
rm -f "$BUILD"/rdma_*.deb
if ! cmake --build "$BUILD" --target package >"$W/package.log" 2>&1; then
  echo "FAIL: cmake --build --target package"; tail -n 30 "$W/package.log"; FAILED=$((FAILED + 1)); finish
fi
DEB=$(ls "$BUILD"/rdma_*.deb 2>/dev/null | head -n 1)
check "package: one .deb ($(basename "${DEB:-none}"))" test -f "$DEB"
[ -f "$DEB" ] || finish
dpkg-deb -f "$DEB" >"$W/control"
control_ok() {
  cat "$W/control"
  grep -qx 'Package: rdma' "$W/control" &&
  grep -qE '^Description: .{10,}' "$W/control" && grep -qE '^ .*netlink' "$W/control" &&
  grep -qE '^Depends: .*libc6 \(>= ' "$W/control" &&
  grep -qE '^Depends: .*libstdc\+\+6 \(>= ' "$W/control" &&
  grep -qE '^Depends: .*libmnl0 \(>= ' "$W/control" &&
  grep -qE '^Depends: .*libibumad3' "$W/control" &&
  grep -qE '^Depends: .*libibverbs1' "$W/control"
}
check "control: name, description, Depends from the binary (libc6, libstdc++6, libmnl0), libibumad3, libibverbs1" control_ok
scripts_ok() {
  dpkg-deb -e "$DEB" "$W/ctl"
  [ -x "$W/ctl/preinst" ] && [ -x "$W/ctl/postrm" ] &&
  grep -q -- '--add /usr/bin/rdma$' "$W/ctl/preinst" && grep -q -- '--remove /usr/bin/rdma$' "$W/ctl/postrm"
}
check "maintainer scripts: preinst diverts /usr/bin/rdma, postrm gives it back" scripts_ok
same_files() {
  (cd "$DEST" && find . ! -type d | sort) >"$W/installed"
  dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ {print $6}' | sort >"$W/packaged"
  diff "$W/installed" "$W/packaged"
}
check "package files equal cmake --install's" same_files
dpkg-deb -x "$DEB" "$W/x"
check "unpacked: rdma -V" grep -qx "rdma utility, version [0-9.]*" <("$W/x/usr/bin/rdma" -V)
check "unpacked: binary stripped" sh -c "! file '$W/x/usr/bin/rdma' | grep -q 'not stripped'"
one_dynamic_binary() {
  file "$W/x/usr/bin/rdma" | tee /dev/stderr | grep -q 'dynamically linked' || return 1
  readelf -d "$W/x/usr/bin/rdma" | grep NEEDED | tee "$W/needed"
  # libmnl as iproute2 links it; libibumad/libibverbs are dlopen'ed, not NEEDED
  grep -q 'libmnl.so.0' "$W/needed" && grep -q 'libstdc++.so.6' "$W/needed" &&
    ! grep -qE 'libibumad|libibverbs' "$W/needed" || return 1
  # nothing beside the binary to exec, no lintian override
  ! find "$W/x" -path '*/libexec/*' -o -path '*/lintian/*' | grep .
}
check "unpacked: one dynamically linked rdma (libmnl, libstdc++ shared; umad/verbs not NEEDED)" one_dynamic_binary
# A MAD command loads libibumad with dlopen: on a host without umad devices
# it fails in one line (nothing on stdout), never exec'ing anything.
mad_no_exec() {
  strace -f -e trace=execve -o "$W/exec.trace" "$W/x/usr/bin/rdma" node show lid 1 >"$W/nd.out" 2>"$W/nd.err"
  local rc=$?
  cat "$W/nd.err"
  [ "$rc" != 0 ] && [ ! -s "$W/nd.out" ] && [ "$(wc -l <"$W/nd.err")" = 1 ] &&
    [ "$(grep -c execve "$W/exec.trace")" = 1 ]
}
check "unpacked: a MAD command without umad devices: one line, no exec" mad_no_exec

# ---------------------------------------------------------------- lintian
if command -v lintian >/dev/null; then
  lint() {
    # lintian runs as root only with --allow-root
    lintian --allow-root --tag-display-limit 0 "$DEB" | tee "$W/lintian.txt"
    ! grep -q '^E: ' "$W/lintian.txt"
  }
  check "lintian: no errors" lint
  grep -E '^[WI]: ' "$W/lintian.txt" | sed 's/^/    (not an error) /'
else
  echo "FAIL: lintian not installed (scripts/setup-debian.sh installs it)"; FAILED=$((FAILED + 1))
fi

# ---------------------------------------------------------------- dpkg
# A scratch root with a stand-in for iproute2: a package of that name owning
# the host's iproute2 rdma files (byte for byte), so dpkg sees the conflict
# the real machine has.
if [ "$(id -u)" = 0 ] && dpkg -s iproute2 >/dev/null 2>&1; then
  R=$W/root
  mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers" "$W/ip2/DEBIAN"
  : >"$R/var/lib/dpkg/status"; : >"$R/var/lib/dpkg/available"
  IP2_FILES=$(dpkg -L iproute2 | grep -E '/rdma$|/rdma[-.][a-z.-]*8\.gz$')
  for f in $IP2_FILES; do mkdir -p "$W/ip2$(dirname "$f")"; cp -a "$f" "$W/ip2$f"; done
  printf 'Package: iproute2\nVersion: %s\nArchitecture: %s\nMaintainer: stand-in <x@example.org>\nDescription: stand-in owning iproute2 rdma files\n' \
    "$(dpkg-query -W -f='${Version}' iproute2)" "$(dpkg --print-architecture)" >"$W/ip2/DEBIAN/control"
  dpkg-deb -b "$W/ip2" "$W/iproute2-standin.deb" >/dev/null
  HOST_RDMA=$(sha256sum /usr/bin/rdma); HOST_DIV=$(dpkg-divert --list | sort | sha256sum)
  D=(dpkg --root="$R" --force-script-chrootless --force-depends --force-not-root --log=/dev/null)
  check "dpkg: stand-in iproute2 installed" "${D[@]}" -i "$W/iproute2-standin.deb"
  check "dpkg -i rdma (beside iproute2)" "${D[@]}" -i "$DEB"
  installed_ok() {
    grep -qx "rdma utility, version [0-9.]*" <("$R/usr/bin/rdma" -V) || { echo "/usr/bin/rdma is not ours"; return 1; }
    cmp /usr/bin/rdma "$R/usr/bin/rdma.iproute2" || return 1
    cmp /usr/share/man/man8/rdma-dev.8.gz "$R/usr/share/man/man8/rdma-dev.iproute2.8.gz" || return 1
    cmp "$DEST/usr/share/man/man8/rdma-dev.8.gz" "$R/usr/share/man/man8/rdma-dev.8.gz" || return 1
    dpkg-divert --root="$R" --list rdma | grep -q '/usr/bin/rdma to /usr/bin/rdma.iproute2 by rdma'
  }
  check "installed: ours is rdma, iproute2's is rdma.iproute2 (binary and pages)" installed_ok
  check "dpkg -r rdma" "${D[@]}" -r rdma
  removed_ok() {
    local f
    for f in $IP2_FILES; do cmp "$f" "$R$f" || return 1; done
    [ -z "$(dpkg-divert --root="$R" --list rdma)" ] || { echo "diversions left"; return 1; }
    ! ls "$R"/usr/bin/rdma.iproute2 "$R"/usr/share/man/man8/*iproute2* 2>/dev/null | grep .
    "${D[@]}" --verify iproute2
  }
  check "removed: iproute2's rdma files are back, no diversion left" removed_ok
  check "host untouched: /usr/bin/rdma and the diversions" \
    test "$HOST_RDMA|$HOST_DIV" = "$(sha256sum /usr/bin/rdma)|$(dpkg-divert --list | sort | sha256sum)"
else
  echo "(dpkg install check skipped: needs root and iproute2)"
fi
finish
