"""Error messages that print numbers show the numbers: PyErr_Format has no
%g, so the module formats them with floe_py_arg_error (python/floe/supply.c);
each message below once read a literal '%g'."""
import pytest

import floe
from conftest import glass_world


def test_messages_show_the_values():
    w = glass_world()
    cases = [
        (lambda: w.add_random(((0, 0, 0), (1, 1, 1)), 3, radius=(2, 1)), r"range \(2, 1\) must have min <= max"),
        (lambda: w.add_lattice(-1, (1, 1, 1), 0.1), r"\(got -1, 0\)"),
        (lambda: w.run(time=-1), r"time = -1 s must be finite"),
        (lambda: floe.World(dt=-1), r"dt = -1 s is out of range \(0, inf\)"),
        (lambda: w.set_phases("g", [dict(kind="rotate", axis=(0, 0, 1), rate=1e300)]), r"rate = 1e\+300 is out of range \[-1e\+100, 1e\+100\]"),
        (lambda: w.add_dense(box=((0, 0, 0), (1, 1, 1)), radius=0.1, solid_fraction=1.5),
         r"solid_fraction = 1\.5 is out of range \(0, 0\.9\]"),
    ]
    for call, pattern in cases:
        with pytest.raises(floe.ArgumentError, match=pattern) as e:
            call()
        assert "%g" not in str(e.value)
