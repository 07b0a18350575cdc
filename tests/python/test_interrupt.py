"""Ctrl-C stops the engine inside long work, not only between steps
(docs/python.md#running, docs/supply.md#interrupting): a child
process whose one step inserts with eight inlets whose spheres (radius
1.2 mm) fit nowhere in a lattice of 12,000 spheres (radius 1 mm, spacing
2.5 mm: its largest hole takes 1.165 mm), each trying a million centres,
gets SIGINT once the step has begun. It must raise KeyboardInterrupt from
w.step() well within 10 s (a hang detector, not a timing measurement: the
engine's insertion polls Ctrl-C through its interrupt function, while a
search that looks at every body takes minutes, and a module reading
signals only between steps would not stop), with the step counted and no
body inserted.
The same for a dense packing (w.add_dense of 100,000 spheres: over 40 s)."""
import signal
import subprocess
import sys
import textwrap
import time

import pytest

BLOCKED = textwrap.dedent(
    """
    import sys, floe
    w = floe.World(gravity=(0, 0, 0), dt=1e-5, threads=1)
    w.add_material("m", "linear", density=2000, young=1e7)
    w.add_lattice(origin=(0, 0, 0), spacing=0.0025, counts=(20, 20, 30), radius=0.001)
    for k in range(8):
        z = 0.005 + 0.008 * k
        w.add_inlet(f"in{k}", box=((0.005, 0.005, z), (0.04, 0.04, z + 0.005)), rate=1e7, radius=0.0012,
                    max_tries=1000000, seed=k)
    print("stepping", flush=True)
    try:
        w.step()
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted at step", w.step_count, "inserted", sum(s["inserted"] for s in w.inlets()), flush=True)
        sys.exit(3)
    """
)

DENSE = textwrap.dedent(
    """
    import sys, floe
    w = floe.World(gravity=(0, 0, 0), dt=1e-5)
    w.add_material("m", "linear", density=2000, young=1e7)
    print("packing", flush=True)
    try:
        w.add_dense(box=((0, 0, 0), (0.3, 0.3, 0.3)), radius=0.002, count=100000, solid_fraction=0.6)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted with", len(w), "bodies", flush=True)
        sys.exit(3)
    """
)


def interrupt(script, ready):
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    assert line.strip() == ready, line + p.stderr.read()
    time.sleep(0.5)  # the step (or the packing) takes far longer
    p.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    try:
        out, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail("still running 10 s after SIGINT")
    return p.returncode, out, err, time.monotonic() - t0


def test_ctrl_c_stops_an_insertion_step():
    rc, out, err, took = interrupt(BLOCKED, "stepping")
    assert rc == 3, out + err
    assert out.startswith("interrupted at step 1 inserted 0"), out


def test_ctrl_c_stops_a_dense_packing():
    rc, out, err, took = interrupt(DENSE, "packing")
    assert rc == 3, out + err
    assert out.startswith("interrupted with 0 bodies"), out
