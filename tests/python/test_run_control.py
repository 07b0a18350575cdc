"""Control of a running World: Ctrl-C (KeyboardInterrupt) stops a long run
cleanly between two steps; the engine runs with the GIL released, so other
Python threads go on, and they cannot touch the World while it steps."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import floe
from conftest import glass_world


def pile(n=8):
    w = glass_world(dt=1e-5, gravity=(0, 0, -9.81))
    w.add_wall("z")
    w.add_lattice(0.0101, (n, n, n), 0.005, origin=(0, 0, 0.006), jitter=(5e-4, 5e-4, 0))
    return w


def test_keyboard_interrupt_stops_between_steps():
    w = pile()
    ref = pile()
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        w.run(10**9)
    timer.join()
    assert time.monotonic() - t0 < 5  # stopped within a few signal checks (50 ms each)
    n = w.step_count
    assert n > 0
    # the World is whole: it goes on, and exactly as one that was never stopped
    w.run(10)
    ref.run(n + 10)
    assert np.array_equal(w.positions, ref.positions) and np.array_equal(w.velocities, ref.velocities)


def test_the_gil_is_released_while_the_engine_steps():
    w = pile(10)
    done = threading.Event()
    errors = []

    def runner():
        try:
            w.run(3000)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
        done.set()

    t = threading.Thread(target=runner)
    t.start()
    refused = 0
    spins = 0
    while not done.is_set():
        spins += 1
        try:
            w.step_count  # only reachable while the other thread is inside the engine
        except floe.FloeError as e:
            assert "running in another thread" in str(e)
            refused += 1
        time.sleep(0)
    t.join()
    assert not errors
    assert refused > 0  # this thread ran while the other one was inside the engine
    assert w.step_count == 3000
    with pytest.raises(floe.FloeError, match="callback of run"):
        w.run(1, callback=lambda w: w.step())
