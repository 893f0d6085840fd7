#!/bin/bash
# Run inside the test VM by verbs-test.sh (fixture basic: rxe0/rxe1 over
# veth0/veth1): adds siw0 when the image has siw, then writes to $OUT what
# verbs-check.py compares on the host: our -j views beside ibv_devinfo -v
# and the GID tables of sysfs, before, with and after an extra address on
# veth0; whether commands load libibverbs (LD_DEBUG); and the errors of a
# device that cannot be opened (no permission, no provider); the character
# devices (`dev chardev`) beside /dev/infiniband and sysfs; and `stat show`
# as OpenMetrics and Prometheus text beside its -j.
N=${RDMA_NEW:-/bin/rdma-new}
cd "$OUT" || exit 1

if modinfo siw > /dev/null 2>&1 && [ ! -d /sys/class/infiniband/siw0 ]; then
    modprobe siw
    ip link add veth4 type veth peer name veth5
    ip addr add 198.51.100.1/24 dev veth4
    ip link set veth4 up; ip link set veth5 up
    rdma link add siw0 type siw netdev veth4
fi
ls /sys/class/infiniband > devices

run() { # NAME ARGS...: our rdma, stdout/stderr/status to NAME.{out,err,rc}
    local name=$1; shift
    "$N" "$@" > "$name.out" 2> "$name.err"; echo $? > "$name.rc"
}

# Every non-zero GID of sysfs: dev port index gid type ndev link_layer node_type
# Read with the shell's own `read`: a table has hundreds of entries, and a
# process per entry (cat) costs minutes under TCG.
sysfs_gids() {
    local d p g i v t n l nt
    for d in /sys/class/infiniband/*; do
        read -r nt < "$d/node_type"
        for p in "$d"/ports/*; do
            read -r l < "$p/link_layer"
            for g in "$p"/gids/*; do
                i=${g##*/}
                read -r v 2>/dev/null < "$g" || continue
                [ "$v" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
                t= n=
                read -r t 2>/dev/null < "$p/gid_attrs/types/$i"
                read -r n 2>/dev/null < "$p/gid_attrs/ndevs/$i"
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${d##*/}" "${p##*/}" "$i" "$v" \
                    "$t" "$n" "$l" "$nt"
            done
        done
    done
}
# The GID table settles a moment after an address change (a work item).
wait_gids() { # 1: want the address's GID present, 0: gone
    local i
    for i in $(seq 1 50); do
        if grep -q ':ffff:cb00:7107' /sys/class/infiniband/rxe0/ports/1/gids/* 2>/dev/null; then
            [ "$1" = 1 ] && return 0
        else
            [ "$1" = 0 ] && return 0
        fi
        sleep 0.2
    done
}
gids() { # PHASE
    sysfs_gids > "sysfs-$1.tsv"
    run "gid-$1" -j gid show
}

# The port counters for Prometheus, beside -j (metrics_compare.py on the host)
run stat-j -j stat show
run stat-om --openmetrics stat show
run stat-prom --prometheus stat show

ibv_devinfo -v > devinfo.txt 2> devinfo.err
run limits -j dev limits
run limits-text dev limits
run status -j -d link status
ibstat > ibstat.txt 2> ibstat.err
run status-text link status
gids 0
ip addr add 203.0.113.7/24 dev veth0
ip addr add 2001:db8:7::7/64 dev veth0 nodad
wait_gids 1
gids 1
ip addr del 203.0.113.7/24 dev veth0
ip addr del 2001:db8:7::7/64 dev veth0
wait_gids 0
gids 2
run gid-filter -j gid show rxe0/1 type roce-v2 netdev veth0
run gid-filter-none -j gid show type roce-v1 netdev veth1
run gid-siw -j gid show siw0

# The character devices (GET_CHARDEV) beside what udev made of them in
# /dev/infiniband (name, major and minor in hex) and the sysfs classes that
# tie each node to its device and port; the same as nobody (no
# CAP_NET_ADMIN: GET_CHARDEV needs none).
run chardev -j dev chardev
run chardev-text dev chardev
/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups -- "$N" -j dev chardev \
    > chardev-nobody.out 2> chardev-nobody.err; echo $? > chardev-nobody.rc
for f in /dev/infiniband/*; do
    printf '%s\t%s\n' "${f##*/}" "$(stat -c '%t %T' "$f")"
done > devnodes.tsv
for f in /sys/class/infiniband_verbs/uverbs* /sys/class/infiniband_mad/umad* \
         /sys/class/infiniband_mad/issm*; do
    [ -e "$f/ibdev" ] || continue
    read -r ib < "$f/ibdev"; read -r dv < "$f/dev"; port=0
    [ -e "$f/port" ] && read -r port < "$f/port"
    printf '%s\t%s\t%s\t%s\n' "${f##*/}" "$ib" "$port" "$dv"
done > chardev-sysfs.tsv

# Which commands load libibverbs: those that do not use verbs never should.
for c in "dev" "link" "link show rxe0/1" "res" "system" "statistic show link rxe0/1" \
         "dev limits rxe0" "gid show" "link status"; do
    n=$(LD_DEBUG=libs "$N" $c 2>&1 >/dev/null | grep -c 'libibverbs')
    printf '%s\t%s\n' "$c" "$n"
done > ld-libs.tsv

# rdma bw between rxe1 and rxe0 beside perftest (bw-guest.sh, when added)
if [ -f /opt/add/bw-guest.sh ]; then
    . /opt/add/bw-guest.sh
fi

# A device whose verbs cannot be opened: no permission (nobody, uverbs 0600)
chmod 600 /dev/infiniband/uverbs*
/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups -- "$N" dev limits rxe0 \
    > noperm.out 2> noperm.err; echo $? > noperm.rc
/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups -- "$N" -j gid show \
    > noperm-gid.out 2> noperm-gid.err; echo $? > noperm-gid.rc
# ... and no provider for its driver (rxe's driver file hidden)
mkdir -p /tmp/hidden
mv /etc/libibverbs.d/rxe.driver /tmp/hidden/
run noprov dev limits rxe1
run noprov-all -j link status
mv /tmp/hidden/rxe.driver /etc/libibverbs.d/
exit 0
