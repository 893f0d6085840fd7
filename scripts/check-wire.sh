#!/bin/bash
# The wire stays in lib/ (issue 35): the front end, rdma/, reads words,
# calls lib/ and prints records. This fails when a product file under rdma/
# builds or writes a MAD (make_smp, set_attr, store ...), names where a
# field lives (a record's offsets, the CC data offset, a header field),
# shifts bits, spells a protocol number in hex, or names a protocol
# constant of lib/mad (an attribute, a method, a class, a LID bound: lib/ib
# has a call named by what the front end wants). Comments and string
# literals are not code and are skipped; tests (*_test.cc, test_util.h)
# build MADs on purpose and are not checked.
# Prints each offending line, then "N passed, M failed" (a check a rule).
# Usage: scripts/check-wire.sh [FILE...]  (default: rdma/'s product files)
set -uo pipefail
cd "$(dirname "$0")/.."

# Files allowed to break a rule, each with why. Keep it short.
ALLOW=(
)

files=("$@")
[ $# -gt 0 ] || while IFS= read -r f; do
  skip=
  for a in "${ALLOW[@]}"; do [ "$f" = "$a" ] && skip=1; done
  [ -n "$skip" ] || files+=("$f")
done < <(git ls-files 'rdma/*.cc' 'rdma/*.h' | grep -Ev '_test\.cc$|test_util\.h$')

# The code of a file with comments, string and character literals blanked
# (line numbers kept), as "file:line:code".
code() {
  perl -0777 -ne '
    my $f = $ARGV;
    s{//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'"'"'(?:\\.|[^'"'"'\\\n])*'"'"'}{
      my $m = $&; $m =~ s/[^\n]//g; $m eq "" && substr($&,0,1) eq "\"" ? "\"\"" : $m
    }gse;
    my $n = 0;
    for my $l (split /\n/, $_, -1) { $n++; print "$f:$n:$l\n" }
  ' "$@"
}

passed=0
failed=0
rule() {  # NAME REGEX
  local hits
  hits=$(code "${files[@]}" | grep -P -- "^[^:]+:[0-9]+:.*$2")
  if [ -n "$hits" ]; then
    echo "check-wire: $1 under rdma/ (lib/ owns the wire):"
    echo "$hits"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}

rule "MAD encoding calls" '\b(make_smp|make_gmp|set_attr|set_field|put_bits|get_bits)\b|\bmad::store\b|\.set\(mad::'
rule "field offsets" '\bmad::hdr::|\bcc_data_offset\b|\bmad::k[A-Za-z0-9]+Record[A-Z][A-Za-z0-9]*\b'
# A shift by or of a number (streams' << and >> are not shifts).
rule "shifts" '(<<|>>)=|(<<|>>)\s*[0-9]|\b[0-9]+[uUlL]*\s*(<<|>>)'
rule "hex protocol literals" '\b0[xX][0-9a-fA-F]+'
rule "protocol constants" '\bmad::k[A-Z]\w*'

echo "check-wire: ${#files[@]} files"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
