#!/bin/bash
# Every "rdma ..." command man/rdma-ibdiags.7 prints, run against the
# simulator (tests/ibsim/net, opensm), must exit 0: the page's rows are
# true on a real umad stack, not only on the fabric double
# (rdma/ibdiags_man_test.cc runs them all there). The forms the simulator
# cannot answer are skipped with the reason; they run on the double.
#   tests/ibsim/ibdiags_man.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
NET=$(cd "$(dirname "$0")" && pwd)/net
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"
PAGE=$HERE/../../man/rdma-ibdiags.7

# What ibsim 0.10 and umad2sim do not do (a regex of the form, the reason).
SKIPS=(
  '^rdma (dev|gid show|link|link status.*)$|	no RDMA netlink or verbs device under the simulator (the VM suites)'
  ' cc set |	ibsim answers no congestion control Set'
  ' cc show .* CP$|	ibsim answers no CC ClassPortInfo (ibccquery CP fails alike: madset.sh)'
  ' sm set |	ibsim refuses SMInfo Sets'
  ' perf show .* (sl|speeds|congestion|samples)$|	ibsim'"'"'s PMA lacks those attributes'
  'PortInfoExtended|	ibsim does not answer PortInfoExtended'
  'sa show (nodes$|nodes (name|guid) |paths name |sl2vl|vlarb|guids)|--sa fabric show|	no RMPP: a table longer than a MAD comes cut short (a warning, exit 1)'
  ' mcast 0xc000$|	no HCA joined the broadcast group here (check.sh joins them)'
  ' dr lid |	ibsim discards combined-route SMPs ("dr[ds]lids are used (not supported)"; smpquery -c alike)'
  ' node (ping|sysstat|vendor) |	ibsim carries no vendor-class MADs (run.sh checks the error; the double answers them)'
)

# Writes ibsim's SMA answers without taking (it keeps no such field): rdma
# must say so, a "did not take" warning and exit 1 (the double takes them:
# rdma/ibdiags_man_test.cc).
NOT_TAKEN=(
  'M_KeyLeasePeriod=|	ibsim keeps no M_KeyLeasePeriod'
  ' mkeylease |	ibsim keeps no M_KeyLeasePeriod'
  ' mkeyprot [1-3]|	ibsim keeps no M_KeyProtectBits'
)

skip_reason() {  # FORM [LIST]: the reason LIST (default SKIPS) gives FORM, or nothing
  local -n list=${2:-SKIPS}
  local s
  for s in "${list[@]}"; do
    if [[ $1 =~ ${s%%|	*} ]]; then
      echo "${s#*|	}"
      return
    fi
  done
}

start_opensm
printf '0x0000000000100006 "hca3-site-name"\n' >nodes.map
printf 'SymbolErrorCounter=10\n' >error_thresholds
run "$RDMA" fabric save fabric.json || bad "fabric save fabric.json (the file the forms read)"
run ibnetdiscover >topo.txt 2>/dev/null || bad "ibnetdiscover >topo.txt (the topology file the forms read)"

# The bold "rdma ..." spans of the page, as rdma/ibdiags_man_test.cc reads
# them: .B lines, the bold arguments of .BR and .RB, \fB...\fR.
python3 - "$PAGE" >forms.txt <<'EOF'
import re, sys
def args(rest):
    out, cur, quoted, any_ = [], "", False, False
    for ch in rest:
        if ch == '"':
            quoted, any_ = not quoted, True
        elif ch == " " and not quoted:
            if any_:
                out.append(cur)
            cur, any_ = "", False
        else:
            cur, any_ = cur + ch, True
    if any_:
        out.append(cur)
    return out
bold = []
for line in open(sys.argv[1]).read().splitlines():
    if line.startswith(".B "):
        rest = line[3:]
        if len(rest) > 1 and rest[0] == '"' and rest[-1] == '"':
            rest = rest[1:-1]
        bold.append(rest)
    elif line.startswith((".BR ", ".RB ")):
        bold += args(line[4:])[0 if line[1] == "B" else 1::2]
    bold += re.findall(r"\\fB(.*?)\\f[RP]", line)
seen = set()
for b in bold:
    b = b.replace("\\-", "-")
    if b.startswith("rdma ") and b not in seen:
        seen.add(b)
        print(b)
EOF

n=0
while IFS= read -r form; do
  n=$((n + 1))
  reason=$(skip_reason "$form")
  if [ -n "$reason" ]; then
    echo "skip $form: $reason"
    continue
  fi
  read -ra w <<<"${form#rdma }"
  for i in "${!w[@]}"; do
    case ${w[$i]} in
      /etc/infiniband-diags/error_thresholds) w[i]=error_thresholds ;;
      mlx5_0/1) w[i]=ibsim0/1 ;;
    esac
  done
  extra=(--timeout 500)
  [[ " ${w[*]} " == *" --timeout "* ]] && extra=()
  [[ " ${w[*]} " == *" -w "* ]] && extra+=(-c 1)
  # A command that reports findings exits 1 when it found some (ibsim's
  # links run below what they support), with them on stdout and nothing on
  # stderr: it ran. A failure says why on stderr.
  err=$(run "$RDMA" "${extra[@]}" "${w[@]}" 2>&1 >out.txt)
  rc=$?
  kept=$(skip_reason "$form" NOT_TAKEN)
  if [ -n "$kept" ]; then
    if [ "$rc" -eq 1 ] && [[ $err =~ ^warning:\ [A-Za-z].*\ did\ not\ take\  ]]; then
      ok "$form ($kept: said so, exit 1)"
    else
      bad "$form: $kept, yet exit $rc: $err"
    fi
  elif [ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] && [ -s out.txt ] && [ -z "$err" ]; }; then
    ok "$form"
  else
    bad "$form: exit $rc: $err"
  fi
done <forms.txt
if [ "$n" -gt 100 ]; then
  ok "the page has $n forms"
else
  bad "only $n forms read from the page"
fi

check_line_ends
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
