# Sourced by verbs-guest.sh in the VM when verbs-test.sh adds it
# (/opt/add/bw-guest.sh): `rdma bw` between rxe1 (client) and rxe0 (server)
# beside perftest's ib_write_bw and ib_send_lat (-R: rdma_cm, as ours) on
# the same pair, and its errors; bw-check.py reads the files on the host.
# Both netdevs are in one namespace, where the kernel would route traffic
# between their addresses through lo (and rxe drops what comes in on lo):
# policy rules send locally generated packets for the other side's address
# out of the veth, so that rxe1's packets reach rxe0 over veth1 -> veth0.
ip rule add pref 100 lookup local
ip rule del pref 0
ip rule add pref 10 iif lo to 192.0.2.2 lookup 100
ip rule add pref 10 iif lo to 192.0.2.1 lookup 101
ip route add 192.0.2.2 dev veth0 src 192.0.2.1 table 100
ip route add 192.0.2.1 dev veth1 src 192.0.2.2 table 101
for i in veth0 veth1 all; do
    sysctl -qw net.ipv4.conf.$i.accept_local=1 net.ipv4.conf.$i.rp_filter=0
done

BW_N=200       # TCG's rxe moves some 30 Mb/s: 200 x 64 KiB is a few seconds
BW_SIZE=65536
# busybox's date has no %N: the uptime's hundredths
now() { local up rest; read -r up rest < /proc/uptime; echo "$up"; }
# Waits until a cm_id listens (our server, or perftest's), at most 10 s.
wait_listen() {
    local i
    for i in $(seq 1 50); do
        "$N" res show cm_id 2>/dev/null | grep -q 'state LISTEN' && return 0
        sleep 0.2
    done
}
# pair NAME 'SERVER' 'CLIENT': the server started, the client run when it
# listens; NAME.{srv,cli}.{out,err,rc} and NAME.cli.time (start and end).
pair() {
    local name=$1 srv=$2 cli=$3 sp t0
    timeout 120 $srv > "$name.srv.out" 2> "$name.srv.err" &
    sp=$!
    wait_listen
    t0=$(now)
    timeout 120 $cli > "$name.cli.out" 2> "$name.cli.err"; echo $? > "$name.cli.rc"
    echo "$t0 $(now)" > "$name.cli.time"
    wait $sp; echo $? > "$name.srv.rc"
}
for round in 1 2; do
    pair "perf-bw-$round" "ib_write_bw -d rxe0 -R -n $BW_N -s $BW_SIZE --report_gbits" \
        "ib_write_bw -d rxe1 -R -n $BW_N -s $BW_SIZE --report_gbits 192.0.2.1"
    pair "bw-$round" "$N -j bw server rxe0" \
        "$N -j bw client 192.0.2.1 size $BW_SIZE iterations $BW_N rxe1"
done
pair perf-lat "ib_send_lat -d rxe0 -R -n $BW_N" "ib_send_lat -d rxe1 -R -n $BW_N 192.0.2.1"
pair bw-text "$N bw server" "$N bw client 192.0.2.1 size 4096 iterations 50"
# iWARP: siw0's own address, through the TCP loopback siw runs over
if [ -d /sys/class/infiniband/siw0 ]; then
    pair bw-siw "$N -j bw server siw0" "$N -j bw client 198.51.100.1 iterations 50 siw0"
fi

# Errors: one line, exit 1, bounded in time
err() { # NAME ARGS...
    local name=$1 t0; shift
    t0=$(now)
    timeout 60 "$N" "$@" > "$name.out" 2> "$name.err"; echo $? > "$name.rc"
    echo "$t0 $(now)" > "$name.time"
}
err err-refused bw client 192.0.2.1               # nothing listens
err err-noroute bw client 198.51.100.77           # no route at all
err err-noarp bw client 192.0.2.77                # on the subnet, nobody there
err err-wrongdev bw client 192.0.2.1 rxe0         # the route goes through rxe1
err err-wait bw server wait 2                     # no client comes
err err-ibtarget bw client lid 4                  # rxe and siw: no InfiniBand port, no SA
err err-ibtarget-dev bw client name h4 rxe1       # the same through a RoCE device
# A server bound to rxe1 refuses a client that arrives on rxe0
pair err-srvdev "$N bw server rxe1 wait 8" "$N bw client 192.0.2.1"
true
