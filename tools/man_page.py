#!/usr/bin/env python3
"""Writes floe's man page, floe.1, from `floe --help` (so the two never
disagree): usage: man_page.py FLOE OUT. CMake runs it after building the
command; `make install` installs the page into share/man/man1 and the docs
into share/doc/floe, where `floe --help` points."""
import re
import subprocess
import sys


def roff(text):
    """Plain text as roff lines: backslashes escaped, no line starting with a control character."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        line = line.replace("\\", "\\e").replace("-", "\\-")
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def main():
    floe, out = sys.argv[1], sys.argv[2]
    text = subprocess.run([floe, "--help"], capture_output=True, text=True, check=True).stdout
    version = subprocess.run([floe, "--version"], capture_output=True, text=True, check=True).stdout.split()[-1]
    # the docs' directory --help names is this build's; the page names where make install puts them
    text = re.sub(r"(Python: python\.md, (pictures: render\.md, )?in ).*", r"\1the documentation directory (FILES).", text)
    first, _, rest = text.partition("\n")
    page = """.TH FLOE 1 "" "floe %(v)s" "User Commands"
.SH NAME
floe \\- discrete element method engine for bonded and granular matter
.SH DESCRIPTION
%(first)s
.PP
.nf
%(rest)s
.fi
.SH FILES
.TP
.I PREFIX/share/doc/floe/
the documentation installed with the command PREFIX/bin/floe (make install PREFIX=DIR,
/usr/local by default), as Markdown files:
README.md, scene-format.md (every scene key), outputs.md (every output file),
restart.md, python.md (the Python module), render.md (pictures of a run), models/ (the contact models).
.SH SEE ALSO
The documentation above; the Python module: python3 \\-c "import floe; help(floe)".
""" % {"v": version, "first": roff(first), "rest": roff(rest.lstrip("\n"))}
    with open(out, "w") as f:
        f.write(page)


if __name__ == "__main__":
    main()
