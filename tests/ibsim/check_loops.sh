#!/bin/bash
# The credit-loop suite on ring.net (five switches in a ring, an HCA on
# each), opensm routing min-hop with its default options (no QoS: its
# SL2VL tables map SL n to VL n on every hop, so a route stays on the VL it
# starts on and each VL has the ring's dependencies; the path records give
# SL 0): rdma fabric check credit finds the cycle of channel dependencies
# round the ring and names its channels, exit 1; the unicast routes
# themselves are sound (fabric check routes: no error).
# The tree against it (no loop) is in check.sh, on fabric.net.
#   tests/ibsim/check_loops.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
NET=$(cd "$(dirname "$0")" && pwd)/ring.net
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"

start_opensm

expect "fabric check routes: the ring's routes are sound" 0 \
  '^summary: 10 nodes checked \(routes\), 0 errors' fabric check routes

# The loop: every hop r(i) -> r(i+1) on VL 0, in one direction or the other.
out=$(run "$RDMA" fabric check credit 2>&1)
rc=$?
loop=$(grep -E '^check credit severity error what "credit loop through 5 channels: ' <<<"$out" | head -n 1)
if [ "$rc" -eq 1 ] && [ -n "$loop" ]; then
  ok "fabric check credit: a credit loop, exit 1"
else
  bad "fabric check credit: exit $rc, output: $out"
fi
# Its channels, from -j: r1 .. r5 once each, all by port 2 (onward) or all
# by port 3 (back), each on VL 0, and the same five as places.
run "$RDMA" -j fabric check credit >credit.json 2>/dev/null
if out=$(python3 - <<'PY' 2>&1
import json, re, sys
j = json.load(open("credit.json"))
loops = [x for x in j if x.get("check") == "credit" and x["severity"] == "error"]
assert loops, "no loop"
assert all("summary" not in x for x in j), j  # findings only: one shape
ring = loops[0]["what"].split("channels: ")[1].split(" -> ")
hops = [re.fullmatch(r'"(r[1-5])" port ([23]) VL 0', h) for h in ring]
assert all(hops), ring
assert sorted(h.group(1) for h in hops) == ["r1", "r2", "r3", "r4", "r5"], ring
assert len({h.group(2) for h in hops}) == 1, ring
where = [(w["description"], w["port"]) for w in loops[0]["where"]]
assert where == [(h.group(1), int(h.group(2))) for h in hops], where
print(" -> ".join(ring))
PY
); then
  ok "the loop's channels: each switch once, one way round, VL 0 ($out)"
else
  bad "the loop's channels: $out"
fi

check_line_ends
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
