"""inspect.signature and help() see every method's and function's
parameters (docs/python.md, "API reference"): the module writes its
docstrings as "name(args) -> result" and gives them CPython's text
signature at import (python/floe/signature.c)."""
import inspect
import math

import floe


def public_methods():
    for name in sorted(dir(floe.World)):
        a = getattr(floe.World, name)
        if not name.startswith("_") and callable(a):
            yield name, a


def test_every_method_and_function_has_a_signature():
    missing = []
    for name, a in list(public_methods()) + [(f, getattr(floe, f)) for f in ("load", "restore", "models")]:
        try:
            inspect.signature(a)
        except ValueError:
            missing.append(name)
    assert missing == []
    assert len(list(public_methods())) >= 70


def test_signatures_name_the_parameters_and_defaults():
    run = inspect.signature(floe.World.run).parameters
    assert list(run)[1:] == ["steps", "time", "until", "every", "callback", "on_event", "progress"]
    assert run["every"].default == 1 and run["time"].kind is inspect.Parameter.KEYWORD_ONLY
    motion = inspect.signature(floe.World.set_motion).parameters
    assert motion["end"].default == math.inf and motion["velocity"].default == (0, 0, 0)
    capsule = inspect.signature(floe.World.add_capsule).parameters
    assert list(capsule)[1:] == ["pos", "radius", "shaft", "axis", "material", "group", "vel", "angvel", "ori",
                                 "fixed", "block"]
    assert list(inspect.signature(floe.load).parameters) == ["path", "out", "threads"]
    assert "gravity" in inspect.signature(floe.World).parameters
    doc = floe.World.run.__doc__
    assert doc.startswith("Returns: int\n\nRuns and returns the number of steps taken")
