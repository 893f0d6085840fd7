#!/bin/bash
# The house is tidy (developers' guide: small files, purpose lines, no global
# state, seams with fakes); this keeps the rules that a script can check.
#   purpose     every header under lib/ and rdma/, and every .cc there without
#               a header of its name, starts with a // comment saying what
#               the file is for;
#   size        no non-test source file under lib/ or rdma/ is over 700
#               lines, so the next growth splits a file instead;
#   state       no writable data of our own at namespace, class-static or
#               function-static scope, read from the compiled objects of lib/
#               and rdma/ (build/'s, skipped when there are none), not by
#               grepping: a static that is needed is on STATE_ALLOW with why;
#   test        every lib/ and rdma/ .cc has a foo_test.cc beside it or is on
#               TEST_ALLOW with why;
#   word        any view is found in one step from the words typed: each
#               OBJECT of rdma/rdma.cc's kObjects runs cmd_OBJECT, in the
#               file of the object's command table, named after the word
#               (rdma/W.cc or rdma/ib/W.cc, W the word or a prefix that
#               selects it: res, stat); each handler a command table names is
#               in the table's file, in a file named for it, or its entry
#               says which file (a // comment naming it).
# Each failure is one line, "FILE: RULE: what", then "N passed, M failed"
# (a check a rule). Tests (*_test.cc) are not checked but for test_util.h's
# purpose line; the doubles (lib/testing) are held to the purpose and size
# rules only (their objects are not read, they need no test of their own).
# Usage: scripts/check-house.sh [--root DIR] [--build DIR]
#        scripts/check-house.sh --self-test   (plants one violation a rule in
#        a copy of the tree and fails unless each is caught)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=
self_test=
while [ $# -gt 0 ]; do
  case $1 in
    --root) root=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --self-test) self_test=1; shift ;;
    *) echo "check-house: unknown argument '$1' (--root DIR, --build DIR, --self-test)" >&2; exit 2 ;;
  esac
done
[ -n "$build" ] || build=$root/build
MAX_LINES=700

# The check checked: a copy of lib/ and rdma/ (and of build/'s objects, as
# links) must pass as the tree does; then one violation a rule is planted,
# and each must be caught, naming its file, and nothing else.
if [ -n "$self_test" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  tar -C "$root" -cf - lib rdma | tar -C "$tmp" -xf -
  mkdir -p "$tmp/build/CMakeFiles"
  for d in rdmalib rdmafront rdma; do
    [ -d "$build/CMakeFiles/$d.dir" ] && cp -rs "$build/CMakeFiles/$d.dir" "$tmp/build/CMakeFiles/"
  done
  bad=0
  expect() {  # WHAT STATUS OUT PATTERN...
    local what=$1 want=$2 out=$3
    shift 3
    [ "$status" -eq "$want" ] || { echo "self-test: $what: status $status, not $want"; bad=1; }
    for p in "$@"; do
      grep -qE -- "$p" <<<"$out" || { echo "self-test: $what: no line matching '$p'"; bad=1; }
    done
  }
  out=$("$0" --root "$tmp" --build "$tmp/build" 2>&1)
  status=$?
  expect "the copy as it is" 0 "$out" '^5 passed, 0 failed$'
  [ "$status" -eq 0 ] || echo "$out"

  printf '#pragma once\nint planted();\n' >"$tmp/lib/planted.h"
  { echo "// A file grown too big."; for i in $(seq $((MAX_LINES))); do echo "int v$i();"; done; } \
    >"$tmp/lib/planted_big.cc"
  echo "// Its test." >"$tmp/lib/planted_big_test.cc"
  echo "// Logic with no test." >"$tmp/lib/planted_untested.cc"
  rm "$tmp/lib/dl/dl.cc"  # on TEST_ALLOW: the entry is now stale
  mkdir -p "$tmp/build/CMakeFiles/rdmalib.dir/lib"
  printf '%s\n' '// Global state, twice.' 'namespace rdma { int planted_count;' \
    'int planted_bump() { static int calls; return ++calls + planted_count; } }' >"$tmp/lib/planted_state.cc"
  ${CXX:-g++} -c -O2 -fPIE -o "$tmp/build/CMakeFiles/rdmalib.dir/lib/planted_state.cc.o" \
    -x c++ "$tmp/lib/planted_state.cc" || bad=1
  # An object's table in a file not named after its word; a handler in a
  # file named for neither it nor the table, the entry silent (said ones,
  # at the end of the line or above it, pass).
  mv "$tmp/rdma/bw.cc" "$tmp/rdma/bandwidth.cc"
  mv "$tmp/rdma/bw_test.cc" "$tmp/rdma/bandwidth_test.cc"
  printf '%s\n' '// A table of handlers from elsewhere.' 'namespace rdma {' \
    'void planted_here(Ctx& c) {}' 'constexpr Cmd kPlanted[] = {{"here", planted_here},' \
    '    {"unsaid", other_unsaid},' '    {"said", other_said},  // planted_other.cc' \
    '    // In planted_other.cc:' '    {"grouped", other_grouped},' '};' '}' >"$tmp/rdma/planted_table.cc"
  printf '%s\n' '// Handlers.' 'void other_unsaid(Ctx& c) {}' 'void other_said(Ctx& c) {}' \
    'void other_grouped(Ctx& c) {}' >"$tmp/rdma/planted_other.cc"
  for f in planted_table planted_other; do echo "// Its test." >"$tmp/rdma/${f}_test.cc"; done
  # An object whose source is gone (renamed since the build) is not read.
  cp "$tmp/build/CMakeFiles/rdmalib.dir/lib/planted_state.cc.o" "$tmp/build/CMakeFiles/rdmalib.dir/lib/gone.cc.o"
  out=$("$0" --root "$tmp" --build "$tmp/build" 2>&1)
  status=$?
  expect "planted violations" 1 "$out" \
    '^lib/planted\.h: purpose: ' \
    '^lib/planted_big\.cc: size: 701 lines, over 700' \
    "^lib/planted_state\.cc: state: .*'rdma::planted_count'" \
    "^lib/planted_state\.cc: state: .*'rdma::planted_bump\(\)::calls'" \
    '^lib/planted_untested\.cc: test: no lib/planted_untested_test\.cc' \
    '^lib/dl/dl\.cc: test: TEST_ALLOW names a file that is gone' \
    "^rdma/bandwidth\.cc: word: object 'bw' has its table here: name the file after the word" \
    "^rdma/planted_table\.cc: word: line 5: 'unsaid' runs other_unsaid from rdma/planted_other\.cc" \
    '^0 passed, 5 failed$'
  # Nothing but the planted files is named.
  others=$(grep -E '^[^ ]+: (purpose|size|state|test|word): ' <<<"$out" |
    grep -Ev '^(check-house|lib/planted|lib/dl/dl\.cc)' |
    grep -Ev "^rdma/bandwidth\.cc: word: object 'bw'|^rdma/planted_table\.cc: word: line 5: ")
  [ -z "$others" ] || { echo "self-test: also flagged:"; echo "$others"; bad=1; }
  [ "$bad" -eq 0 ] || { echo "$out"; echo "0 passed, 1 failed"; exit 1; }
  echo "self-test: each rule caught its planted violation"
  echo "1 passed, 0 failed"
  exit 0
fi


# Statics that are needed, as "SOURCE NAME  why". NAME is the variable's own
# name (the last part of what nm -C prints). Keep it short: a new entry needs
# a reason a reviewer accepts.
STATE_ALLOW=(
  # The dlopen()ed libraries: opened once a process, as libibumad/libibverbs
  # themselves are; the handle lives as long as the process.
  "lib/mad/umad_lib.cc lib  libibumad, dlopen()ed once a process"
  "lib/verbs/libibverbs.cc l  libibverbs, dlopen()ed once a process"
  "lib/verbs/librdmacm.cc api  librdmacm, dlopen()ed once a process"
  # const, but built at run time: std::regex has no constexpr constructor,
  # and compiling one per line read would be the cost these avoid.
  "lib/ib/topology_lines.cc kNode  const std::regex, compiled once"
  "lib/ib/topology_lines.cc kPort  const std::regex, compiled once"
  "lib/ib/topology_read.cc kNode  const std::regex, compiled once"
  "lib/ib/topology_read.cc kRate  const std::regex, compiled once"
  "lib/ib/topology_read.cc kValue  const std::regex, compiled once"
  "lib/ib/topology_read.cc kGrouping  const std::regex, compiled once"
  "lib/ib/topology_read.cc kInitiated  const std::regex, compiled once"
  "lib/ib/topology_read.cc kSwitchRest  const std::regex, compiled once"
  "lib/ib/topology_read.cc kCaRest  const std::regex, compiled once"
  "lib/ib/topology_read.cc kIdGuid  const std::regex, compiled once"
  "lib/ib/topology_read.cc kCaPortRest  const std::regex, compiled once"
  "lib/ib/topology_read.cc kSwitchPortRest  const std::regex, compiled once"
  "lib/ib/cable_plan_read.cc kGuid  const std::regex, compiled once"
  "lib/ib/cable_plan_read.cc kIdGuid  const std::regex, compiled once"
  "lib/ib/cable_plan_read.cc kDesc  const std::regex, compiled once"
  "lib/ib/cable_plan_read.cc kRate  const std::regex, compiled once"
  "lib/ib/check_nodes.cc kModel  const std::regex, compiled once"
  # const, but built at run time: MaybePortInfo's constructor is not
  # constexpr (it marks "none" in the PortInfo it holds).
  "lib/ib/node_ports.cc kNone  const empty Port, a CA's port 0 as read"
  # const tables derived once from lib/mad's field tables (names looked up
  # at run time, so not constexpr); never written after.
  "lib/ib/errors.cc v  const list of PortCounters fields, looked up once"
  "lib/ib/smp.cc defs  const NodeInfo/PortInfo/SwitchInfo field list, looked up once"
  "lib/ib/top.cc wait  const reference to a lib/mad field, looked up once"
  "lib/ib/top.cc downed  const reference to a lib/mad field, looked up once"
  "lib/ib/port_labels.cc keys  const table built once from lib/mad's names"
)

# .cc files with no foo_test.cc beside them, as "FILE  why".
TEST_ALLOW=(
  # Glue: no logic of its own.
  "rdma/main.cc  glue: argv to rdma::run(), run by every suite"
  "lib/dl/dl.cc  glue: dlopen/dlsym wrapper, run by the ibsim and vm suites"
  # The real side of a seam (kernel, sysfs, a dlopen()ed library, a tty):
  # its fake is in lib/testing, the real one runs in tests/ibsim or tests/vm.
  "lib/mad/umad_devices.cc  real seam (sysfs umad devices): tests/ibsim"
  "lib/mad/umad_transport.cc  real seam (libibumad): tests/ibsim"
  "lib/nl/socket.cc  real seam (netlink socket): tests/vm"
  "lib/nldev/chardev.cc  real seam (kernel netlink): tests/vm"
  "lib/verbs/libibverbs.cc  real seam (libibverbs): tests/vm"
  "lib/ib/port_labels_probe.cc  real seam (sysfs): tests/ibsim"
  "rdma/terminal.cc  real seam (tty): fabric top under tmux in tests/ibsim"
  "rdma/verbs_devices.cc  real seam (libibverbs): tests/vm"
  # Tested by a test named for the header it implements or for its user.
  "lib/ib/check_balance.cc  one check of lib/ib/check.h: check_test.cc"
  "lib/ib/check_credit.cc  one check of lib/ib/check.h: check_test.cc"
  "lib/ib/check_errors.cc  one check of lib/ib/check.h: check_test.cc"
  "lib/ib/check_group.cc  one check of lib/ib/check.h: check_test.cc"
  "lib/ib/check_ids.cc  one check of lib/ib/check.h: check_test.cc"
  "lib/ib/check_links.cc  one check of lib/ib/check.h: check_test.cc"
  "lib/ib/check_routes.cc  one check of lib/ib/check.h: check_test.cc"
  "lib/ib/check_since.cc  one check of lib/ib/check.h: check_test.cc"
  "lib/ib/check_sm.cc  one check of lib/ib/check.h: check_test.cc"
  "lib/ib/check_run.cc  lib/ib/check_mfts_test.cc"
  "lib/ib/mfts.cc  lib/ib/check_mfts_test.cc"
  "lib/ib/lfts.cc  lib/ib/check_test.cc, check_fattree_test.cc"
  "lib/ib/graphviz.cc  lib/ib/report_test.cc"
  "lib/ib/report_html.cc  part of lib/ib/report.h: report_test.cc"
  "lib/ib/cable_plan_read.cc  part of lib/ib/cable_plan.h: cable_plan_test.cc"
  "lib/ib/saved_sa.cc  lib/ib/saved_node_test.cc"
  "lib/mad/attrs_cc.cc  table of lib/mad/attrs.h: attrs_test.cc"
  "lib/mad/attrs_perf.cc  table of lib/mad/attrs.h: attrs_test.cc"
  "lib/mad/attrs_pma_speeds.cc  table of lib/mad/attrs.h: attrs_test.cc"
  "lib/mad/attrs_sa.cc  table of lib/mad/attrs.h: attrs_test.cc"
  "lib/mad/attrs_smp.cc  table of lib/mad/attrs.h: attrs_test.cc"
  "lib/mad/combined_route.cc  lib/mad/mad_test.cc"
  "lib/res/types.cc  lib/res/filter_test.cc, qplist_test.cc"
  "lib/verbs/gid.cc  lib/verbs/verbs_test.cc"
  "lib/verbs/limits.cc  lib/verbs/verbs_test.cc"
  "lib/verbs/names.cc  lib/verbs/verbs_test.cc"
  "lib/verbs/port.cc  lib/verbs/verbs_test.cc"
  "lib/view/json_printer.cc  part of lib/view/printer.h: its users' tests"
  "lib/view/text_printer.cc  part of lib/view/printer.h: its users' tests"
  "rdma/ib/progress.cc  rdma/ib/fabric_deadline_test.cc"
  # Front-end commands: words in, records out, run end to end against the
  # simulator (tests/ibsim, infiniband-diags beside) or the kernel (tests/vm,
  # iproute2 beside).
  "rdma/gid.cc  command: tests/vm"
  "rdma/link.cc  command: tests/vm against iproute2"
  "rdma/res_query.cc  command: tests/vm against iproute2"
  "rdma/stat_mode.cc  command: tests/vm against iproute2"
  "rdma/stat_mr.cc  command: tests/vm against iproute2"
  "rdma/stat_ports.cc  command: tests/vm against iproute2"
  "rdma/stat_qp.cc  command: tests/vm against iproute2"
  "rdma/stat_show.cc  command: tests/vm against iproute2"
  "rdma/system.cc  command: tests/vm against iproute2"
  "rdma/metrics_run.cc  command: tests/vm"
  "rdma/ib/fabric_errors.cc  command: tests/ibsim"
  "rdma/ib/fabric_report.cc  command: tests/ibsim"
  "rdma/ib/fabric_source.cc  command: tests/ibsim"
  "rdma/ib/node.cc  command: tests/ibsim"
  "rdma/ib/port.cc  command: tests/ibsim"
  "rdma/ib/saved_target.cc  command: tests/ibsim"
  "rdma/ib/sm.cc  command: tests/ibsim"
  "rdma/ib/topology_grouped.cc  command: tests/ibsim"
  "rdma/ib/topology_slurm.cc  command: tests/ibsim"
)

cd "$root" || exit 2
failed=0
passed=0
fail() { echo "$1: $2: $3"; }
# The product's sources: lib/ and rdma/, sorted, tests apart.
sources() { find lib rdma \( -name '*.cc' -o -name '*.h' \) -type f | LC_ALL=C sort; }
product() { sources | grep -Ev '_test\.cc$|test_util\.h$'; }

# 1. Purpose line.
n=0
while IFS= read -r f; do
  case $f in *.cc) [ -e "${f%.cc}.h" ] && continue ;; esac
  head -n 1 "$f" | grep -q '^// *[^ ]' && continue
  fail "$f" purpose "does not start with a // line saying what the file is for"
  n=$((n + 1))
done < <(sources | grep -v '_test\.cc$')
[ $n -eq 0 ] && passed=$((passed + 1)) || failed=$((failed + 1))

# 2. Small files.
n=0
while IFS= read -r f; do
  lines=$(wc -l <"$f")
  [ "$lines" -le $MAX_LINES ] && continue
  fail "$f" size "$lines lines, over $MAX_LINES: split it by job"
  n=$((n + 1))
done < <(product)
[ $n -eq 0 ] && passed=$((passed + 1)) || failed=$((failed + 1))

# 3. No global state, from the objects. nm's d/b types also cover
# .data.rel.ro (const tables holding pointers, read-only once relocated) and
# the weak DW.ref personality words, so the sections are read with objdump:
# writable is .data*, .bss*, .tdata*, .tbss* but .data.rel.ro*. What the
# compiler and the standard library make (guard variables, DW.ref, std::
# template statics, __dso_handle, std::ios_base::Init) is not ours.
objects=()
for d in rdmalib rdmafront rdma; do
  [ -d "$build/CMakeFiles/$d.dir" ] || continue
  while IFS= read -r o; do objects+=("$o"); done < <(find "$build/CMakeFiles/$d.dir" -name '*.o' | LC_ALL=C sort)
done
if [ ${#objects[@]} -eq 0 ]; then
  echo "check-house: state: no objects under $build/CMakeFiles (build first); not checked"
  passed=$((passed + 1))
else
  n=0
  allowed_state=0
  declare -A used=() seen=()
  for o in "${objects[@]}"; do
    src=${o#"$build"/CMakeFiles/*.dir/}
    src=${src%.o}
    # An object left by a file since renamed or removed is not the product.
    [ -e "$src" ] || continue
    seen[$src]=1
    while IFS=$'\t' read -r sym; do
      name=${sym%%(*}                      # drop a function's parameters ...
      [ "$name" = "$sym" ] || name=${sym##*)::}   # ... keep the static's name
      name=${name##*::}
      allowed=
      for a in "${STATE_ALLOW[@]}"; do
        read -r af an _ <<<"$a"
        [ "$af" = "$src" ] && [ "$an" = "$name" ] && allowed=1 && used[$af $an]=1 && break
      done
      if [ -n "$allowed" ]; then
        allowed_state=$((allowed_state + 1))
        continue
      fi
      fail "$src" state "writable static '$sym': make it const/constexpr or pass it in"
      n=$((n + 1))
    done < <(objdump -tC "$o" | awk -F'\t' '
      { split($1, a, " "); sec = a[length(a)]; flag = a[length(a) - 1] }
      flag == "O" && sec ~ /^\.(data|bss|tdata|tbss)/ && sec !~ /^\.data\.rel\.ro/ {
        s = $2; sub(/^[0-9a-f]+ +/, "", s); sub(/^\.hidden +/, "", s); print s }' |
      grep -Ev '^(guard variable for |DW\.ref\.|std::|__gnu_cxx::|__dso_handle$|_GLOBAL__)')
  done
  # An entry whose object was read but holds no such static is stale.
  for a in "${STATE_ALLOW[@]}"; do
    read -r af an _ <<<"$a"
    if [ -n "${seen[$af]:-}" ] && [ -z "${used[$af $an]:-}" ]; then
      fail "$af" state "STATE_ALLOW names '$an', which its object no longer has: drop the entry"
      n=$((n + 1))
    fi
  done
  echo "check-house: state: ${#seen[@]} objects, $allowed_state statics allowed"
  [ $n -eq 0 ] && passed=$((passed + 1)) || failed=$((failed + 1))
fi

# 4. A test beside the code.
n=0
allowed_test=0
while IFS= read -r f; do
  [ -e "${f%.cc}_test.cc" ] && continue
  allowed=
  for a in "${TEST_ALLOW[@]}"; do
    [ "${a%% *}" = "$f" ] && allowed=1 && break
  done
  if [ -n "$allowed" ]; then
    allowed_test=$((allowed_test + 1))
    continue
  fi
  fail "$f" test "no ${f%.cc}_test.cc beside it (add one, or TEST_ALLOW with why)"
  n=$((n + 1))
done < <(product | grep -v '^lib/testing/' | grep '\.cc$')
for a in "${TEST_ALLOW[@]}"; do
  f=${a%% *}
  if [ ! -e "$f" ]; then
    fail "$f" test "TEST_ALLOW names a file that is gone: drop the entry"
    n=$((n + 1))
  elif [ -e "${f%.cc}_test.cc" ]; then
    fail "$f" test "TEST_ALLOW names a file that now has its test: drop the entry"
    n=$((n + 1))
  fi
done
debt=$(printf '%s\n' "${TEST_ALLOW[@]}" | grep -c '  debt:')
echo "check-house: test: $allowed_test files allowed without a test beside them ($debt of them debt)"
[ $n -eq 0 ] && passed=$((passed + 1)) || failed=$((failed + 1))

# 5. Any view in one step from the word typed. Each object of rdma.cc's
# kObjects runs cmd_WORD, defined beside the object's command table in
# rdma/W.cc or rdma/ib/W.cc, W the word or a prefix that selects it (res,
# stat); each handler a command table names is defined in the table's file,
# in a file named for it (fabric_edit in fabric_edit.cc, stat_qp in
# stat_qp.cc, stat_help in stat.cc), or its entry says where: a comment
# naming FILE.cc at its end, or on a line of its own above (which holds
# for the entries below it, up to the next such line).
n=0
# The front end's handlers, "NAME FILE" (a file-local name may be twice).
handlers=$(product | grep '^rdma/.*\.cc$' | xargs grep -HE '^(void|int) [A-Za-z_0-9]+\(Ctx& ?c?\) \{' |
  sed -E 's/^([^:]+):[a-z]+ ([A-Za-z_0-9]+)\(.*/\2 \1/')
defined_in() { awk -v f="$1" '$1 == f { print $2 }' <<<"$handlers"; }
# The entries of a file's command tables but kObjects, one a line:
# "LINE WORD HANDLER COMMENT" (WORD - for the table's default, nullptr).
table_entries() {
  awk '
    /constexpr Cmd k[A-Za-z_0-9]*\[\] = \{/ {
      if ($0 ~ /kObjects/) { skip = 1 } else { on = 1; sub(/.*\[\] = \{/, "") } }
    skip { if ($0 ~ /^};/) skip = 0; next }
    on {
      comment = above
      if (match($0, /\/\/.*/)) {
        comment = substr($0, RSTART); $0 = substr($0, 1, RSTART - 1)
        if ($0 ~ /^ *$/) above = comment
      }
      line = $0
      while (match(line, /\{ *(nullptr|"[^"]*") *, *[A-Za-z_0-9:]+/)) {
        e = substr(line, RSTART + 1, RLENGTH - 1); line = substr(line, RSTART + RLENGTH)
        split(e, part, /, */); w = part[1]; gsub(/[" ]/, "", w); if (w == "nullptr") w = "-"
        if (part[2] != "nullptr") print FNR, w, part[2], comment
      }
      if ($0 ~ /\};/) { on = 0; above = "" }
    }' "$1"
}
objects_of=$(awk '/constexpr Cmd kObjects\[\] = \{/ { on = 1; next } on && /^};/ { exit } on' rdma/rdma.cc |
  grep -oE '\{"[a-z]+", *[A-Za-z_0-9]+' | sed -E 's/\{"([a-z]+)", *(.*)/\1 \2/')
[ -n "$objects_of" ] || { fail rdma/rdma.cc word "no kObjects table read"; n=$((n + 1)); }
while read -r word fn; do
  [ "$word" = help ] && continue
  if [ "$fn" != "cmd_$word" ]; then
    fail rdma/rdma.cc word "object '$word' runs $fn: name it cmd_$word"
    n=$((n + 1))
    continue
  fi
  files=$(defined_in "$fn")
  if [ "$(wc -w <<<"$files")" -ne 1 ]; then
    fail rdma/rdma.cc word "object '$word': $fn defined in '${files//$'\n'/ }', not once in rdma/"
    n=$((n + 1))
    continue
  fi
  base=$(basename "$files" .cc)
  # The object a word typed as the file's name selects (the first match).
  selects=$(awk -v p="$base" 'index($1, p) == 1 { print $1; exit }' <<<"$objects_of")
  case $(dirname "$files") in rdma | rdma/ib) ;; *) selects= ;; esac
  if [ "$selects" != "$word" ]; then
    fail "$files" word "object '$word' has its table here: name the file after the word (rdma/$word.cc or rdma/ib/$word.cc)"
    n=$((n + 1))
  elif ! grep -q 'constexpr Cmd k[A-Za-z_0-9]*\[\] = {' "$files"; then
    fail "$files" word "object '$word' runs $fn here, but its command table is elsewhere"
    n=$((n + 1))
  fi
done <<<"$objects_of"
tables=0
while IFS= read -r f; do
  grep -q 'constexpr Cmd k[A-Za-z_0-9]*\[\] = {' "$f" || continue
  tables=$((tables + 1))
  while read -r line word fn comment; do
    found=
    where=$(defined_in "$fn")
    for d in $where; do
      b=$(basename "$d" .cc)
      if [ "$d" = "$f" ] || [ "$fn" = "$b" ] || [ "${fn#"$b"_}" != "$fn" ] ||
        grep -qE "(^|[ /])$b\.cc\b" <<<"$comment"; then
        found=1
        break
      fi
    done
    [ -n "$found" ] && continue
    if [ -z "$where" ]; then
      fail "$f" word "line $line: '$word' runs $fn, defined nowhere in rdma/ as 'void $fn(Ctx& c) {'"
    else
      fail "$f" word "line $line: '$word' runs $fn from ${where//$'\n'/ }: define it here or in a file named for it, or say where (// $(basename "${where%%$'\n'*}"))"
    fi
    n=$((n + 1))
  done < <(table_entries "$f")
done < <(product | grep '^rdma/.*\.cc$')
echo "check-house: word: $(grep -cv '^help ' <<<"$objects_of") objects, $tables files of command tables"
[ $n -eq 0 ] && passed=$((passed + 1)) || failed=$((failed + 1))

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
