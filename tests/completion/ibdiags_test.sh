#!/bin/bash
# Checks that man/rdma-ibdiags.7 maps the infiniband-diags installed here:
#   commands  every program of the package (dpkg -L infiniband-diags, bin/)
#             has a section (.SS NAME), and every section is such a program
#   options   every option of each program (from its --help and -h: the
#             "--long, -x" pairs of getopt_long, the letters of Getopt::Std
#             and of the shell wrappers' usage lines) is named in its
#             section, or in COMMON OPTIONS: a pair by its long name there
#             (-s is --sm_port there, not ibqueryerrors' --suppress), a bare
#             letter by the letter. A section that says "see OTHER" (dump_lfts:
#             see dump_fts) counts OTHER's section too.
# The other side, that each "rdma ..." the page prints runs, is the unit test
# rdma/ibdiags_man_test.cc.
#
# Usage: tests/completion/ibdiags_test.sh [-v]
# Ends with "N passed, M failed"; exits non-zero if anything failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PAGE=$ROOT/man/rdma-ibdiags.7
VERBOSE=0
[ "${1:-}" = -v ] && VERBOSE=1

if ! dpkg-query -W -f='${Status}' infiniband-diags 2>/dev/null | grep -q "ok installed"; then
  echo "FAIL infiniband-diags is not installed (tests/ibsim/setup.sh installs it)"
  echo "0 passed, 1 failed"
  exit 1
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Each program's help, both ways: getopt_long's programs answer --help,
# the shell wrappers (ibhosts, ibstatus) -h, the Perl ones print
# Getopt::Std's list and their usage for either. Without a fabric some try
# to open a port first and say they cannot: the usage still comes.
dpkg -L infiniband-diags | grep -E '/s?bin/[^/]+$' | sort >"$TMP/programs"
while read -r path; do
  name=$(basename "$path")
  {
    timeout 10 "$path" --help </dev/null 2>&1
    timeout 10 "$path" -h </dev/null 2>&1
  } >"$TMP/help.$name"
done <"$TMP/programs"

VERBOSE=$VERBOSE python3 - "$PAGE" "$TMP" <<'EOF'
import os, re, sys

page_path, tmp = sys.argv[1], sys.argv[2]
verbose = os.environ.get("VERBOSE") == "1"
src = open(page_path).read().replace("\\-", "-")
programs = [os.path.basename(p.strip()) for p in open(os.path.join(tmp, "programs")) if p.strip()]

# Sections: .SS NAME up to the next .SS or .SH; COMMON OPTIONS likewise.
sections, common, cur, name = {}, "", None, None
for line in src.splitlines():
    if line.startswith(".SS "):
        name = line[4:].strip()
        sections[name] = ""
        cur = "ss"
    elif line.startswith(".SH "):
        cur = "common" if line[4:].strip().strip('"') == "COMMON OPTIONS" else None
    elif cur == "ss":
        sections[name] += line + "\n"
    elif cur == "common":
        common += line + "\n"

passed = failed = 0
def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        if verbose:
            print("PASS", what)
    else:
        failed += 1
        print("FAIL", what)

def names(text, opt):
    return re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", text) is not None

pair_re = re.compile(r"^\s+--([A-Za-z][\w-]*)?,?\s*(?:-([A-Za-z]))?(?=[\s<]|$)")
letter_re = re.compile(r"(?<![\w/.<-])-([A-Za-z])(?![\w-])")

for prog in programs:
    check(prog in sections, f"{prog}: a section (.SS {prog})")
    if prog not in sections:
        continue
    text = sections[prog]
    for other in re.findall(r"see (\w+)", text):
        text += sections.get(other, "")
    help_text = open(os.path.join(tmp, "help." + prog), errors="replace").read()
    pairs, letters = set(), set()
    for line in help_text.splitlines():
        m = pair_re.match(line)
        if m and (m.group(1) or m.group(2)):
            pairs.add((m.group(1), m.group(2)))
            continue
        # Getopt::Std's "With arguments: -l -i", usage lines, examples.
        letters.update(letter_re.findall(line))
    paired_letters = {s for _, s in pairs if s}
    missing = []
    for long, short in sorted(pairs, key=str):
        ok = (short and names(text, "-" + short)) or (long and names(text, "--" + long)) \
            or (long and names(common, "--" + long))
        if not ok:
            missing.append("--%s%s" % (long or "", ", -" + short if short else ""))
    for short in sorted(letters - paired_letters):
        if not (names(text, "-" + short) or names(common, "-" + short)):
            missing.append("-" + short)
    check(not missing and (pairs or letters),
          f"{prog}: every option of its help in the page"
          + (f" (missing: {' '.join(missing)})" if missing else "")
          + ("" if pairs or letters else " (no option read from its help)"))

for s in sections:
    check(s in programs, f"section {s}: an infiniband-diags program")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
EOF
