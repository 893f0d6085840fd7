# Fixture for the test VM, sourced by /init:
#   fixture none|basic|resources|resources-rxe
# basic:     modules, veth0/veth1 (192.0.2.1/2, 2001:db8::1/2), rxe0/rxe1
# resources: basic + RC/SRQ pingpong and rping pairs holding QPs, CQs,
#            MRs, PDs, SRQs and CM IDs; an iWARP device siw0 over its own
#            veth pair (veth4 198.51.100.1, veth5 198.51.100.2) with an
#            rping pair on it; all frozen with SIGSTOP.
# resources-rxe: resources without siw0 (what tests/data was captured
#            with and lib/testing/kernel models).
# The VM has no network device: all traffic stays inside the guest.

gid_index() { # $1 = rdma device, $2 = gid (sysfs format); prints the index
    local f
    for f in /sys/class/infiniband/$1/ports/1/gids/*; do
        if [ "$(cat "$f" 2>/dev/null)" = "$2" ]; then
            basename "$f"; return 0
        fi
    done
    return 1
}

wait_for() { # $1 = tries (x0.2s), rest = command
    local n=$1; shift
    while [ "$n" -gt 0 ]; do
        "$@" >/dev/null 2>&1 && return 0
        n=$((n - 1)); sleep 0.2
    done
    echo "fixture: timeout waiting for: $*" >&2
    return 1
}

tcp_listening() { # $1 = port (decimal)
    local hex
    hex=$(printf '%04X' "$1")
    grep -Eq ":$hex [0-9A-F]+:0000 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

qp_count_state() { # $1 = state, $2 = minimal count
    [ "$(rdma res show qp 2>/dev/null | grep -c "state $1")" -ge "$2" ]
}

cm_count_state() { # $1 = state, $2 = minimal count[, $3 = link filter]
    [ "$(rdma res show cm_id ${3:+link "$3"} 2>/dev/null | grep -c "state $1")" -ge "$2" ]
}

siw_qp_count() { # $1 = minimal count of RC QPs on siw0 (6.1's siw does
    # not report a QP's state: they show RESET there)
    [ "$(rdma res show qp link siw0/1 2>/dev/null | grep -c "type RC")" -ge "$1" ]
}

fixture() {
    local mode=$1
    [ "$mode" = none ] && return 0
    modprobe -a rdma_rxe ib_uverbs ib_umad rdma_ucm veth || return 1
    ip link add veth0 type veth peer name veth1 || return 1
    ip addr add 192.0.2.1/24 dev veth0
    ip addr add 192.0.2.2/24 dev veth1
    ip -6 addr add 2001:db8::1/64 dev veth0 nodad
    ip -6 addr add 2001:db8::2/64 dev veth1 nodad
    ip link set veth0 up
    ip link set veth1 up
    rdma link add rxe0 type rxe netdev veth0 || return 1
    rdma link add rxe1 type rxe netdev veth1 || return 1
    [ "$mode" = basic ] && return 0

    local g0 g1
    wait_for 50 gid_index rxe0 0000:0000:0000:0000:0000:ffff:c000:0201 || return 1
    g0=$(gid_index rxe0 0000:0000:0000:0000:0000:ffff:c000:0201)
    g1=$(gid_index rxe1 0000:0000:0000:0000:0000:ffff:c000:0202)
    echo "gid index rxe0=$g0 rxe1=$g1"
    local pids=""
    # RC pingpong pair on rxe0 (loopback through rxe0 itself)
    ibv_rc_pingpong -d rxe0 -g "$g0" -p 18515 -n 1000000000 > /tmp/rc-srv.log 2>&1 &
    pids="$pids $!"
    wait_for 150 tcp_listening 18515 || return 1
    ibv_rc_pingpong -d rxe0 -g "$g0" -p 18515 -n 1000000000 127.0.0.1 > /tmp/rc-cli.log 2>&1 &
    pids="$pids $!"
    # SRQ pingpong server on rxe1, waiting for a peer (QPs in INIT, an SRQ)
    ibv_srq_pingpong -d rxe1 -g "$g1" -p 18516 -q 4 -n 1000000000 > /tmp/srq-srv.log 2>&1 &
    pids="$pids $!"
    # rping server and client over rxe0
    rping -s -a 192.0.2.1 -p 7174 -C 1000000000 > /dev/null 2> /tmp/rping-srv.log &
    pids="$pids $!"
    wait_for 150 cm_count_state LISTEN 1 || return 1
    rping -c -a 192.0.2.1 -p 7174 -C 1000000000 > /dev/null 2> /tmp/rping-cli.log &
    pids="$pids $!"
    wait_for 300 qp_count_state RTS 4 || { rdma res show qp >&2; return 1; }
    wait_for 150 cm_count_state CONNECT 2
    # iWARP: siw0 over a veth pair of its own, an rping server and client
    # on it (ibv_rc_pingpong would need rdma_cm there).  The image has siw
    # only when setup.sh could build it for this very kernel.
    if [ "$mode" = resources-rxe ]; then
        :
    elif modinfo siw > /dev/null 2>&1; then
        modprobe siw || return 1
        ip link add veth4 type veth peer name veth5 || return 1
        ip addr add 198.51.100.1/24 dev veth4
        ip addr add 198.51.100.2/24 dev veth5
        ip link set veth4 up
        ip link set veth5 up
        rdma link add siw0 type siw netdev veth4 || return 1
        rping -s -a 198.51.100.1 -p 7175 -C 1000000000 > /dev/null 2> /tmp/rping-siw-srv.log &
        pids="$pids $!"
        wait_for 150 cm_count_state LISTEN 1 siw0/1 || return 1
        rping -c -a 198.51.100.1 -p 7175 -C 1000000000 > /dev/null 2> /tmp/rping-siw-cli.log &
        pids="$pids $!"
        wait_for 300 cm_count_state CONNECT 2 siw0/1 \
            || { rdma res show cm_id link siw0/1 >&2; cat /tmp/rping-siw-*.log >&2; return 1; }
        wait_for 150 siw_qp_count 2 || return 1
    else
        echo "fixture: no siw module in this image: no iWARP device" >&2
    fi
    # freeze every program holding resources
    kill -STOP $pids
    # wait until the kernel side is quiet too (MAD retries of the CM under a
    # slow VM move the GSI QP's sq-psn and the counters for a while)
    local prev="" cur n=0 stable=0
    while [ $n -lt 40 ]; do
        sleep 1
        cur=$(rdma res show qp; rdma stat show)
        if [ "$cur" = "$prev" ]; then
            stable=$((stable + 1))
            [ "$stable" -ge 2 ] && break
        else
            stable=0
        fi
        prev=$cur
        n=$((n + 1))
    done
    echo "quiet after ${n}s"
    echo "pids$pids"
    echo "$pids" > /tmp/fixture.pids
    rdma res show qp
    rdma res show cm_id
    return 0
}
