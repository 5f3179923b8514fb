"""The part the oracles share: registering examples, collecting what an example prints and
which of its asserts fail, and comparing (or writing) examples/NAME.expected.

Only the bookkeeping is shared; each oracle computes and formats its values on its own, so
that a mistake in one cannot hide the same mistake in the other.
"""

import os

EXAMPLES = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))


class Examples:
    """A registry of ex_NAME functions, each called as f(out, check)."""

    def __init__(self, fmt):
        self.fmt = fmt
        self.funcs = {}

    def example(self, name):
        def register(f):
            self.funcs[name] = f
            return f

        return register

    def run(self, name):
        r = Run(self.fmt)
        self.funcs[name](r.out, r.check)
        return r


class Run:
    def __init__(self, fmt):
        self.fmt = fmt
        self.lines = []
        self.failed = []

    def out(self, v):
        self.lines.append(self.fmt(v))

    def check(self, cond, what=""):
        if cond is not True:
            self.failed.append(what or "assert #%d" % (len(self.failed) + 1))

    def text(self):
        return "".join(line + "\n" for line in self.lines)


def main(argv, examples, stats):
    """--show NAME prints one example's output; --write rewrites the .expected files;
    --stats reports `stats` (cleared before each example) after it; otherwise compare."""
    if "--show" in argv:
        r = examples.run(argv[argv.index("--show") + 1])
        print(r.text(), end="")
        for f in r.failed:
            print("ASSERT FAILS:", f, file=os.sys.stderr)
        return 1 if r.failed else 0
    write = "--write" in argv
    bad = 0
    for name in examples.funcs:
        stats.clear()
        r = examples.run(name)
        text = r.text()
        path = os.path.join(EXAMPLES, name + ".expected")
        status = "ok"
        if r.failed:
            status = "ASSERT FAILS: " + ", ".join(r.failed)
            bad += 1
        elif write:
            # No file for an example that prints nothing, as the golden runner reads it.
            if text:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
            elif os.path.exists(path):
                os.remove(path)
            status = "written"
        else:
            expected = ""
            if os.path.exists(path):
                with open(path, encoding="utf-8") as fh:
                    expected = fh.read()
            if expected != text:
                status = "DIFFERS from " + path
                bad += 1
        print("%-20s %s" % (name, status))
        if "--stats" in argv:
            print("    states:", dict(stats))
    return 1 if bad else 0
