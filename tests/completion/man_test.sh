#!/bin/bash
# Lints every man page in man/*.8 and man/*.7 with warnings treated as errors:
#   groff    groff -man -Tutf8 -ww prints nothing on stderr
#   man      man --warnings=w -l formats it without a message
#   name     the NAME section parses for whatis/apropos (lexgrog), and the
#            page's .TH names the file (rdma-dev.8 -> RDMA-DEV 8)
#   sections the page has NAME, SYNOPSIS, DESCRIPTION and SEE ALSO
#   words    no words run together in the rendered page (man_words.py)
# and that rdma.8 describes every object of rdma/rdma.cc and every option
# of rdma/options.cc.
# Also checks that the pages rdma.8 sends readers to exist or are expected
# from other parts of the project (reported, not failed, when missing).
#
# Usage: tests/completion/man_test.sh [-v] [PAGE...]
# Ends with "N passed, M failed"; exits non-zero if anything failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VERBOSE=0
if [ "${1:-}" = -v ]; then
  VERBOSE=1
  shift
fi
PASSED=0
FAILED=0

pass() {
  PASSED=$((PASSED + 1))
  [ $VERBOSE = 1 ] && echo "PASS $*"
  return 0
}
fail() {
  FAILED=$((FAILED + 1))
  echo "FAIL $*"
}

need() {
  if ! command -v "$1" >/dev/null 2>&1; then
    fail "$1 is not installed (apt-get install $2)"
    return 1
  fi
}

have_groff=0
have_man=0
need groff groff-base && have_groff=1
need man man-db && need lexgrog man-db && have_man=1

if [ $# -gt 0 ]; then
  PAGES=("$@")
else
  PAGES=("$ROOT"/man/*.[78])
fi
if [ ! -e "${PAGES[0]}" ]; then
  fail "no man pages in $ROOT/man"
  PAGES=()
fi

export LC_ALL=C.UTF-8 MANWIDTH=80
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for page in "${PAGES[@]}"; do
  name=$(basename "$page")
  if [ $have_groff = 1 ]; then
    if out=$(groff -man -Tutf8 -ww -z "$page" 2>&1 >/dev/null) && [ -z "$out" ]; then
      pass "$name: groff"
    else
      fail "$name: groff -ww:"
      printf '%s\n' "$out" | sed 's/^/    /'
    fi
  fi
  if [ $have_man = 1 ]; then
    if out=$(man --warnings=w -l "$page" 2>&1 >/dev/null) && [ -z "$out" ]; then
      pass "$name: man"
    else
      fail "$name: man --warnings:"
      printf '%s\n' "$out" | sed 's/^/    /'
    fi
    # whatis line: "rdma-dev - ..." naming the page itself.
    base=${name%.*}
    sect=${name##*.}
    whatis=$(lexgrog "$page" 2>&1)
    th=$(sed -n 's/^\.TH[[:space:]]\{1,\}\([^[:space:]]*\)[[:space:]]\{1,\}\([^[:space:]]*\).*/\1 \2/p' "$page" | head -n 1)
    th=${th//\\-/-}
    th=${th//\"/}
    if [[ $whatis == *": \"$base - "* ]] && [ "$th" = "${base^^} $sect" ]; then
      pass "$name: name"
    else
      fail "$name: NAME section or .TH does not name $base($sect): $whatis; .TH $th"
    fi
    joined=$(MANWIDTH=80 man -l "$page" 2>/dev/null >"$TMP/rendered" &&
      python3 "$HERE/man_words.py" "$page" "$TMP/rendered")
    if [ -z "$joined" ]; then
      pass "$name: words"
    else
      fail "$name: words run together:" $joined
    fi
  fi
  missing=""
  for section in NAME SYNOPSIS DESCRIPTION "SEE ALSO"; do
    grep -Eq "^\.SH +\"?$section\"?[[:space:]]*$" "$page" || missing="$missing $section"
  done
  if [ -z "$missing" ]; then
    pass "$name: sections"
  else
    fail "$name: missing sections:$missing"
  fi
done

# rdma.8 documents every object of rdma/rdma.cc (as a tag under OBJECTS)
# and every option of rdma/options.cc (its long name under OPTIONS).
if [ -e "$ROOT/man/rdma.8" ] && [ $# -eq 0 ]; then
  text=$(sed 's/\\-/-/g' "$ROOT/man/rdma.8")
  objects=$(awk '/kObjects\[\] = \{/ { on = 1 } on { print } on && /};/ { exit }' "$ROOT/rdma/rdma.cc" |
    grep -o '{"[^"]*"' | tr -d '{"')
  missing=""
  for o in $objects; do
    grep -qx "\.B $o" <<<"$text" || missing="$missing $o"
  done
  if [ -z "$missing" ]; then
    pass "rdma.8: every object of rdma/rdma.cc"
  else
    fail "rdma.8: objects of rdma/rdma.cc not described under OBJECTS:$missing"
  fi
  options=$(awk '/kOptions\[\] = \{/ { on = 1 } on { print } on && /};/ { exit }' "$ROOT/rdma/options.cc" |
    grep -oE "\"[a-z-]+\", *(true|false)" | grep -oE '^"[a-z-]+"' | tr -d '"')
  missing=""
  for o in $options; do
    grep -qE "^\.(B|BR|BI) .*--$o( |\"|$)" <<<"$text" || missing="$missing --$o"
  done
  if [ -z "$missing" ]; then
    pass "rdma.8: every option of rdma/options.cc"
  else
    fail "rdma.8: options of rdma/options.cc not described:$missing"
  fi
fi

# Pages rdma.8 refers to: list those not written yet (other engineers'
# objects), without failing.
if [ -e "$ROOT/man/rdma.8" ]; then
  refs=$(grep -o 'rdma\\-[a-z]*' "$ROOT/man/rdma.8" | sed 's/\\//' | sort -u)
  for ref in $refs; do
    [ -e "$ROOT/man/$ref.8" ] || [ -e "$ROOT/man/$ref.7" ] ||
      echo "note: rdma.8 refers to $ref, which man/ does not have yet"
  done
fi

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
