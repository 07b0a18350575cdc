"""World.run's progress (docs/python.md, "Progress"): on a terminal the
bar of `floe run` redrawn in place (percentage, step of the run's steps,
simulated time, steps/s, ETA, contacts, energy error), nothing when stderr
is not interactive unless progress=True, nothing with progress=False, and
a last line marked "(interrupted)" on Ctrl-C, which still raises
KeyboardInterrupt. Each run lasts about 0.8 s of wall time (the interrupted one would last 10 s) (a callback
sleeps 10 ms at each of 80 steps): past the half second after which a run
shows progress. The notebook's updating line: test_notebook.py."""
import os
import pty
import select
import signal
import subprocess
import sys

PROGRAM = """
import sys, time, floe
w = floe.World(dt=1e-5)
w.add_material("g")
w.add_sphere((0, 0, 0), 0.01)
arg = {"auto": None, "on": True, "off": False}[sys.argv[1]]
print("ready", flush=True)
w.run(int(sys.argv[2]), callback=lambda w: time.sleep(0.01), progress=arg)
print("done", w.step_count, flush=True)
"""


def run(mode, tty, interrupt=False, steps=80):
    """(stdout, stderr, returncode) of PROGRAM, its stderr a terminal when tty; interrupt:
    SIGINT once the bar has been drawn."""
    env = dict(os.environ, COLUMNS="120")
    if not tty:
        r = subprocess.run([sys.executable, "-c", PROGRAM, mode, str(steps)], capture_output=True, text=True, env=env,
                           timeout=60)
        return r.stdout, r.stderr, r.returncode
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-c", PROGRAM, mode, str(steps)], stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    assert p.stdout.readline() == b"ready\n"
    err = b""
    while True:
        if interrupt and b"\r[" in err:
            p.send_signal(signal.SIGINT)
            interrupt = False
        ready, _, _ = select.select([master], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        err += chunk
    out = p.stdout.read()
    p.wait(timeout=30)
    os.close(master)
    return out.decode(), err.decode(), p.returncode


def test_a_terminal_shows_the_bar_in_place():
    out, err, rc = run("auto", tty=True)
    assert rc == 0 and "done 80" in out
    assert err.count("\r[") >= 2  # redrawn in place, at least twice (4 times a second)
    last = err.rstrip("\r\n").split("\r")[-1]
    assert last.startswith("[########################]  100%  step 80/80  t=0.0008 s  "), repr(last)
    assert "steps/s  ETA 0:00  contacts 0  E.err +0.0e+00\x1b[K" in last, repr(last)


def test_nothing_when_not_interactive_unless_asked():
    out, err, rc = run("auto", tty=False)
    assert rc == 0 and err == ""
    out, err, rc = run("on", tty=False)  # asked for: plain lines, the last at the end
    assert rc == 0 and err.splitlines()[-1].startswith("100%  step 80/80  t=0.0008 s  "), err
    out, err, rc = run("off", tty=True)
    assert rc == 0 and err == ""


def test_ctrl_c_ends_the_bar_and_raises_keyboard_interrupt():
    out, err, rc = run("auto", tty=True, interrupt=True, steps=1000)  # 10 s unless interrupted
    assert "done" not in out and rc != 0
    assert "(interrupted)\x1b[K" in err and "KeyboardInterrupt" in err, err


def test_ctrl_c_inside_an_update_is_the_run_s(monkeypatch, capsys):
    # Ctrl-C may land while the line is being drawn: the run stops with KeyboardInterrupt (not
    # swallowed as a failed update) and the line is ended. The update raises it here itself.
    import time

    import pytest

    import floe
    from floe import _progress

    def interrupted_update(self, final=False, note=""):
        if not final:
            raise KeyboardInterrupt
        return real(self, final, note)

    real = _progress.Progress.update
    monkeypatch.setattr(_progress.Progress, "update", interrupted_update)
    w = floe.World(dt=1e-5)
    w.add_material("g")
    w.add_sphere((0, 0, 0), 0.01)
    with pytest.raises(KeyboardInterrupt):
        w.run(1000, callback=lambda w: time.sleep(0.01), progress=True)
    assert 0 < w.step_count < 1000  # stopped at the first update, after half a second
    assert capsys.readouterr().err.endswith("  (interrupted)\n")
