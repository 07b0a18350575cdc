#!/usr/bin/python3
"""Runs docs/tutorial.md as written (CTest `tutorial`; docs/decisions.md,
"The tutorial runs as a test").

Its fenced blocks are taken in order into one bash script (`set -e`): a
block whose first line is `# file: NAME` becomes a here-document writing
NAME where the text shows it, every `sh` block runs as it is. The script
starts in the checkout (ROOT) with HOME a new temporary folder, so the
tutorial's `mkdir -p ~/first-scene && cd ~/first-scene` makes an empty
folder there. What the test changes, and why:

- `make` is a shell function that only says so: `make test` has built
  floe before the tests run (and a second build inside the tests would
  race the first);
- `$PWD/build` reads the build tree the tests were built in (BUILD), which
  is ROOT/build for `make test` but not for other build directories;
- /usr/bin comes first on PATH: the tutorial is for Debian, whose python3
  has matplotlib, while a machine's own PATH may put another python3 first.

Then it checks that every file a step makes is there: the run's series,
the pictures (PNG and GIF headers, sizes), the plot and the steered run,
and what the scripts print.

usage: tools/tutorial_test.py ROOT BUILD
"""
import glob
import os
import re
import struct
import subprocess
import sys
import tempfile


def blocks(text):
    """[(language, body)] of the fenced blocks, in order."""
    return re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)


def script(text, build):
    out = ["set -e", 'make() { echo "make $*: built before the tests ran"; }']
    for lang, body in blocks(text):
        first = body.split("\n", 1)[0]
        m = re.match(r"#\s*file:\s*(\S+)", first)
        if m:
            out.append("cat > %s <<'FLOE_TUTORIAL_EOF'\n%sFLOE_TUTORIAL_EOF" % (m.group(1), body))
        elif lang == "sh":
            out.append(body.replace('"$PWD/build', '"%s' % build))
    return "\n".join(out) + "\n"


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def main(root, build):
    with open(os.path.join(root, "docs", "tutorial.md")) as f:
        text = f.read()
    problems = []
    with tempfile.TemporaryDirectory(prefix="floe_tutorial_") as home:
        env = dict(os.environ, HOME=home, PATH="/usr/bin:" + os.environ.get("PATH", ""),
                   OMP_WAIT_POLICY="passive")
        env.pop("PYTHONPATH", None)  # the tutorial sets it
        r = subprocess.run(["bash", "-c", script(text, build)], cwd=root, env=env, capture_output=True, text=True,
                           timeout=600)
        sys.stdout.write(r.stdout[-4000:])
        if r.returncode != 0:
            sys.stderr.write(r.stderr[-4000:])
            print("tutorial_test: a command of docs/tutorial.md failed (exit %d)" % r.returncode)
            return 1
        d = os.path.join(home, "first-scene")
        for name in ("pour.yaml", "out/particles.pvd", "out/boundaries.pvd", "out/history.csv", "plot.py",
                     "steer.py", "steered/particles.pvd"):
            if not os.path.exists(os.path.join(d, name)):
                problems.append("%s: not made" % name)
        pictures = glob.glob(os.path.join(d, "out", "render_*.png"))
        if len(pictures) != 1:
            problems.append("out/render_*.png: %d pictures, want the last frame's" % len(pictures))
        want = {"start.png": (1200, 800), "plot.png": (700, 500), "steered.png": (1200, 800)}
        for name, size in list(want.items()) + [(os.path.relpath(p, d), (1200, 800)) for p in pictures]:
            path = os.path.join(d, name)
            got = png_size(path) if os.path.exists(path) else None
            if got != size:
                problems.append("%s: a PNG of %s pixels wanted, got %s" % (name, size, got))
        gif = os.path.join(d, "pour.gif")
        if not os.path.exists(gif):
            problems.append("pour.gif: not made")
        else:
            with open(gif, "rb") as f:
                head = f.read(10)
            if head[:6] not in (b"GIF87a", b"GIF89a") or struct.unpack("<HH", head[6:10]) != (640, 400):
                problems.append("pour.gif: not a GIF of 640x400 pixels")
        for said in ("largest force on the box:", "tilt 20 deg: fastest bead", "floe render: wrote"):
            if said not in r.stdout:
                problems.append("the output does not say %r" % said)
    for p in problems:
        print("tutorial_test: " + p)
    if not problems:
        print("tutorial_test: every step of docs/tutorial.md ran and made its files")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])))
