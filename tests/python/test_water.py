"""Water from Python (World.set_water, World.water; docs/python.md): the
settings round-trip, bad settings raise with the key and range, and a
sphere floats at its exact draft with the energy balance closed."""
import math

import pytest

import floe


def cap_height(R, fraction):
    """Draft h of a sphere whose submerged cap pi h^2 (3R - h)/3 is `fraction`
    of its volume (bisection: the cap grows monotonically with h)."""
    target = fraction * 4.0 / 3.0 * math.pi * R**3
    lo, hi = 0.0, 2 * R
    for _ in range(200):
        h = 0.5 * (lo + hi)
        if math.pi * h * h * (3 * R - h) / 3 < target:
            lo = h
        else:
            hi = h
    return 0.5 * (lo + hi)


def test_water_settings_round_trip():
    w = floe.World()
    assert w.water() is None
    w.set_water(level=1.5, current=(0.2, -0.1, 0), wind=(5, 0, 0), skin_drag=4e-3)
    d = w.water()
    assert d["level"] == 1.5 and d["density"] == 1025 and d["skin_drag"] == 4e-3
    assert list(d["current"]) == [0.2, -0.1, 0] and list(d["wind"]) == [5, 0, 0]
    assert d["wind_drag"] == 1.2e-3 and d["form_drag"] == 1 and d["air_density"] == 1.3
    w.set_water(None)
    assert w.water() is None


@pytest.mark.parametrize(
    "kw, words",
    [
        (dict(density=-1), ["density"]),
        (dict(current=(0, 0, 1)), ["current", "horizontal"]),
        (dict(skin_drag=2), ["skin_drag"]),
        (dict(salinity=35), ["unknown key", "salinity", "level"]),
    ],
)
def test_water_bad_settings(kw, words):
    w = floe.World()
    with pytest.raises(floe.ArgumentError) as e:
        w.set_water(**kw)
    for word in words:
        assert word in str(e.value)
    assert w.water() is None


def test_water_positional_refused():
    with pytest.raises(TypeError):
        floe.World().set_water(1.0)


def test_sphere_floats_at_its_draft():
    """A sphere of density 900 in water of 1025 (R = 0.5 m) settles where its
    submerged cap is 900/1025 of its volume: draft h from the cap formula,
    centre at level - h + R. Heave is damped by the form drag (C_d = 1) and
    Cundall damping 0.2; after 20 s of 3e-3 s steps the centre is within
    0.5 mm of the closed form (the oscillation has decayed by > 1e4). Energy:
    buoyancy potential plus drag work keep the balance within 1e-6."""
    R, rho, rho_w = 0.5, 900.0, 1025.0
    w = floe.World(gravity=(0, 0, -9.81), dt=3e-3, damping=0.6)
    w.add_material("ice", "linear", density=rho, young=1e7)
    w.set_water(level=0.0, density=rho_w)
    i = w.add_sphere((0, 0, 0.3), R, material="ice")
    w.run(steps=8000)
    h = cap_height(R, rho / rho_w)
    z_expected = 0.0 - h + R
    z = w.positions[i][2]
    assert abs(z - z_expected) < 1e-6, (z, z_expected)
    e = w.energy
    assert abs(e["error"]) < 1e-5, e
