#!/bin/bash
# Run inside the test VM (tests/vm/run --add tests/vm/nlcorrupt.so --script
# THIS, fixture "resources": live QPs, CQs, MRs, PDs, SRQs and cm_ids): every
# view under the netlink corruption shim (tests/vm/nlcorrupt.c, LD_PRELOAD),
# SEEDS seeds each. Every run must end by itself (each is killed after 20 s:
# a hang), without a signal or a sanitizer report (a crash); a failing run
# prints one line on stderr. Prints "ok: ..." / "FAIL: ..." lines, one per
# view, and the distinct error lines seen.
N=${RDMA_NEW:-/bin/rdma-new}
SHIM=/opt/add/nlcorrupt.so
# A gcc ASan build (build-san) refuses a preload ahead of its runtime
# unless told not to; other builds ignore this.
export ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
SEEDS=20
# A lost "done" message costs the whole deadline: keep it short here.
OPTS="--kernel-timeout 1000"
VIEWS=(
    "dev" "-d link" "res" "res show qp" "res show cq" "res show mr" "res show pd"
    "res show cm_id" "stat show" "-d -j dev" "sys" "-dd res show qp" "-j -p link"
    "res show srq" "res show ctx" "stat qp show" "-j res show cm_id"
)
[ -f "$SHIM" ] || { echo "FAIL: no $SHIM (run with --add nlcorrupt.so)"; exit 1; }

total=0 hangs=0 crashes=0 errors=0 undamaged=0
: >/tmp/errors.all
for view in "${VIEWS[@]}"; do
    bad=""
    v_err=0
    for seed in $(seq 1 "$SEEDS"); do
        total=$((total + 1))
        : >/tmp/c.damage
        # shellcheck disable=SC2086
        NLCORRUPT_SEED=$seed NLCORRUPT_LOG=/tmp/c.damage LD_PRELOAD=$SHIM \
            timeout -s KILL 20 "$N" $OPTS $view >/tmp/c.out 2>/tmp/c.err
        rc=$?
        # Every run must have been damaged: a run the shim never reached
        # (a static binary; gcc's ASan refusing a preload before its
        # runtime) would pass without testing anything.
        if [ ! -s /tmp/c.damage ]; then
            undamaged=$((undamaged + 1)); bad="$bad seed $seed: no damage done ($(head -c 200 /tmp/c.err | tr '\n' ' '));"
            continue
        fi
        if [ "$rc" = 137 ]; then
            hangs=$((hangs + 1)); bad="$bad seed $seed: hang;"; continue
        fi
        if [ "$rc" -gt 128 ] || grep -qE 'Sanitizer|ASan|runtime error:' /tmp/c.err; then
            crashes=$((crashes + 1))
            bad="$bad seed $seed: crash (exit $rc) $(head -c 200 /tmp/c.err | tr '\n' ' ');"
            continue
        fi
        if [ "$rc" != 0 ]; then
            errors=$((errors + 1)); v_err=$((v_err + 1))
            lines=$(wc -l </tmp/c.err)
            if [ "$lines" != 1 ]; then
                bad="$bad seed $seed: exit $rc with $lines stderr lines: $(head -c 200 /tmp/c.err | tr '\n' ' ');"
            fi
            cat /tmp/c.err >>/tmp/errors.all
        fi
    done
    if [ -z "$bad" ]; then
        echo "ok: rdma $view: $SEEDS seeds, $v_err clean errors, no hang or crash"
    else
        echo "FAIL: rdma $view:$bad"
    fi
done
echo "runs: $total, hangs: $hangs, crashes: $crashes, error exits: $errors, undamaged: $undamaged"
echo "distinct error lines (numbers masked):"
sed -E 's/[0-9]+/N/g' /tmp/errors.all | sort | uniq -c | sort -rn | head -n 25
