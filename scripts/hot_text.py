#!/usr/bin/env python3
"""The functions of the rdma binary a callgrind profile saw run: the list
the linker places ahead of the rest of the text (cmake/hot_text.ld), and
the check that the list still covers what `rdma fabric show` runs.

  hot_text.py list BINARY PROFILE...      # cmake/hot_text.ld on stdout
  hot_text.py check BINARY PROFILE LIST   # exit 1 if a run function is not listed

list wants a binary linked without the list (-DRDMA_HOT_TEXT=OFF): valgrind
(3.19) reads no symbols outside .text, so functions already placed in the
hot section are nobody's (???). check uses exactly that: in a binary
linked with the list, every function of the binary the profile names ran
outside the hot section (LIST is not needed to know it), so discovery
touches one more 64 KiB window of code (the kernel maps file pages around
each fault) until the list is made again (bench/fabric_hot_text.sh). A
listed name the binary no longer has costs nothing and is only counted.
"""
import os
import re
import subprocess
import sys

# The C runtime's start-up and exit code (crt files' .text, .init, .fini):
# not the program's to place. main and the static initializers are placed
# as .text.startup (write_list).
NOT_PLACED = re.compile(
    r"^(_start|_init|_fini|frame_dummy|register_tm_clones|deregister_tm_clones"
    r"|__do_global_dtors_aux)$")


def run_functions(binary, profile):
    """Names of BINARY's functions PROFILE (callgrind's, --demangle=no) has
    as run, in order of first appearance. Callgrind's file names each object
    (ob=) and function (fn=) once in full, then by number."""
    binary = os.path.realpath(binary)
    names = {"ob": {}, "fn": {}}

    def name(kind, text):
        m = re.match(r"\((\d+)\)(?: (.*))?$", text)
        if not m:
            return text
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind][m.group(1)]

    ob, hot = None, []
    with open(profile) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            if key in ("ob", "cob"):
                o = name("ob", value)
                if key == "ob":
                    ob = o
            elif key in ("fn", "cfn"):
                fn = re.sub(r"'\d+$", "", name("fn", value))  # a recursion's depth
                if key == "fn" and ob and os.path.realpath(ob) == binary \
                        and re.match(r"^[A-Za-z_][\w.$]*$", fn) and fn not in hot:
                    hot.append(fn)
    return hot


def aliases(binary):
    """Every name of each function's code in BINARY: GCC's identical code
    folding and a complete-object constructor or destructor (C1, D1) keep
    one body under several names, and callgrind may name it by one while
    -ffunction-sections named its section by another."""
    nm = subprocess.run(["nm", "--defined-only", binary], capture_output=True,
                        text=True, check=True).stdout
    at, names = {}, {}
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwWiI":
            at[parts[2]] = parts[0]
            names.setdefault(parts[0], []).append(parts[2])
    return lambda fn: names.get(at.get(fn), [fn])


def write_list(binary, profiles):
    print("/* Made by bench/fabric_hot_text.sh: the functions `rdma fabric show`")
    print("   runs, placed together ahead of the rest of the text (CMakeLists.txt);")
    print("   tests/ibsim/fabric.sh checks it covers them (scripts/check-hot-text.sh). */")
    print("SECTIONS\n{\n  .text.hot_path :\n  {")
    # main and the static initializers (run before it), in .text.startup:
    # the linker would put them first in .text, a window of their own.
    print("    *(.text.startup .text.startup.*)")
    # The C runtime's own code around main (_start, frame_dummy, ...), and
    # _fini (crti.o's and crtn.o's .fini, kept whole and in order), which
    # ld.so calls at exit: after .text it would fault in its last window.
    print("    *crt1.o(.text) *crti.o(.text) *crtbegin*.o(.text) *crtend*.o(.text) *crtn.o(.text)")
    print("    KEEP (*(SORT_NONE(.fini)))")
    names_of = aliases(binary)
    hot = set()
    for profile in profiles:
        for fn in run_functions(binary, profile):
            if not NOT_PLACED.match(fn):
                hot.update(names_of(fn))
    for fn in sorted(hot):
        # A function's cold part (GCC's fn.cold) is in .text.unlikely.fn.
        cold = re.match(r"(.*)\.cold$", fn)
        print(f"    *(.text.unlikely.{cold.group(1)})" if cold else f"    *(.text.{fn})")
    print("  }\n}\nINSERT BEFORE .text;")
    return 0


def check(binary, profile, listing):
    with open(listing) as f:
        listed = set(re.findall(r"\*\(\.text\.([^)\s]+)\)", f.read()))
    missing = [fn for fn in run_functions(binary, profile) if not NOT_PLACED.match(fn)]
    nm = subprocess.run(["nm", "--defined-only", binary], capture_output=True,
                        text=True, check=True).stdout
    defined = {line.split()[-1] for line in nm.splitlines() if line.strip()}
    gone = sorted(n for n in listed if n not in defined and not n.startswith("startup"))
    for fn in missing:
        print(f"runs outside the hot section: {fn}")
    print(f"{len(listed)} listed, {len(missing)} run outside the hot section, "
          f"{len(gone)} listed but not in the binary")
    if missing:
        print(f"make the list again: bench/fabric_hot_text.sh (writes {listing})")
    return 1 if missing else 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "list":
        return write_list(argv[2], argv[3:])
    if len(argv) == 5 and argv[1] == "check":
        return check(argv[2], argv[3], argv[4])
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
