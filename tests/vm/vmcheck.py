"""What the host-side checks of the VM suites share (verbs-check.py,
bw-check.py): the directory the VM wrote (argv[1]) and the kernel
(argv[2]), one "ok: ..." / "FAIL: ..." line per check, and the exit status."""
import os
import sys

D = sys.argv[1]
KV = sys.argv[2] if len(sys.argv) > 2 else "?"
failed = 0


def ok(cond, what, detail=""):
    global failed
    if cond:
        print(f"ok: [{KV}] {what}")
    else:
        failed += 1
        print(f"FAIL: [{KV}] {what}" + (f": {detail}" if detail else ""))
    return cond


def read(name):
    with open(os.path.join(D, name)) as f:
        return f.read()


def status():
    """The exit status: 1 when a check failed."""
    return 1 if failed else 0
