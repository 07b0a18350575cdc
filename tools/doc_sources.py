"""The sources of the numbers the docs quote: each an example run, a study
script or a picture, what it runs, what it depends on, and how its runs
are fingerprinted. tools/doc_numbers.py runs them into
docs/numbers/SOURCE.json; tools/check_doc_numbers.py checks the docs and
the engine against those files (docs/decisions.md, "Numbers in the docs
come from one command").

A source is a function of a context (class Ctx in tools/doc_numbers.py):
ctx.run(args) runs a command in the repository (its output to the source's
log), ctx.work is the source's scratch directory, ctx.img(name) the path a
picture is drawn to (moved to docs/img/ when the source succeeds),
ctx.json(name) a path for a script's --json, and ctx.numbers(dict)
records numbers (a value, or {"value", "format", "unit"}).

Each source lists
  inputs    the files its numbers depend on besides the engine (scripts,
            example scenes, other sources' numbers as "numbers:SOURCE"):
            a changed input makes the source stale;
  probes    scenes run for a few hundred steps whose final state (every
            CSV file floe writes, to the last bit) fingerprints the engine
            for this source: an example as it stands, or
            (script, function, arguments) for the scene text a study
            script's function writes;
  pictures  the docs/img files it draws;
  quick     for an example of examples/python, the keys of its --quick
            JSON that vary from run to run (wall time, paths): the rest of
            that JSON is digested, and the example's pytest case
            (tests/python/test_example_*.py) recomputes the digest;
  after     sources whose numbers it reads.
"""
import inspect
import json
import math
import os
import re

PY_EX = "examples/python/"


class Source:
    def __init__(self, fn, inputs, probes=(), pictures=(), quick=None, after=(), data=None):
        self.fn, self.inputs, self.probes, self.pictures = fn, list(inputs), list(probes), list(pictures)
        self.quick, self.after = quick, list(after)
        # read now, with the file as it was imported: inspect reads the file again when asked
        # and would take the lines of an edited file at the old line numbers
        self._code = "".join(inspect.getsource(f) for f in getattr(fn, "parts", [fn]))
        if data is not None:  # a table the functions read, TEST_NUMBERS
            self._code += json.dumps(data, sort_keys=True)

    def code(self):
        """The text of the functions here that make this source's numbers, and of the table
        they read (an input too)."""
        return self._code


def read(path):
    with open(path) as f:
        return json.load(f)


# ---- the sources -------------------------------------------------------------------------------


def demo(ctx):
    """make demo: examples/ice-on-water.yaml, its pictures, the load against Croasdale's
    2D load computed from the study's lattice (docs/numbers/croasdale.json)."""
    line = demo_line(ctx)
    ctx.numbers(line)
    ctx.run([ctx.floe, "run", "examples/ice-on-water.yaml", "--out", ctx.path("run")])
    # render_floes.py measures the floes and draws the load; the picture of the floes is floe render's (make demo)
    ctx.run([ctx.py, "tools/render_floes.py", ctx.path("run"), ctx.path("floes.png"), "--level", "0.2356576",
             "--load", ctx.img("ice-on-water-load.png"), "--croasdale", repr(line["line_N"]), "--past", "10.6",
             "--json", ctx.json("render")])
    ctx.run([ctx.floe, "render", ctx.path("run"), "--color", "floe", "--view", "top,side", "--size", "1100x900",
             "--png", ctx.img("ice-on-water.png")])
    ctx.numbers(read(ctx.json("render")))


def demo_line(ctx):
    """Croasdale's load on the demo's ramp from the study's two-layer lattice."""
    study = read(os.path.join(ctx.root, "docs", "numbers", "croasdale.json"))["numbers"]
    ctx.run([ctx.py, "tools/croasdale_study.py", "--demo-line", "--e", repr(study["E_2"]["value"]),
             "--sigma", repr(study["sigma_2"]["value"]), "--json", ctx.json("line")])
    return read(ctx.json("line"))


def demo_variants(ctx):
    """tools/demo_variants.py: the demo with its toe, bonds or frictions changed, one at a time
    (seven 16 s runs)."""
    line = demo_line(ctx)
    ctx.run([ctx.py, "tools/demo_variants.py", "--floe", ctx.floe, "--out", ctx.path("runs"), "--croasdale",
             repr(line["line_N"]), "--json", ctx.json("variants")])
    ctx.numbers(read(ctx.json("variants")))


def water(ctx):
    """tools/water_plots.py: heave, drift in a current and in a wind, free drift of a
    floating sphere and of the flat floe in a wind with the default drag."""
    ctx.run([ctx.py, "tools/water_plots.py", "--floe", ctx.floe, "--out", ctx.path("runs"), "--img", ctx.img_dir,
             "--json", ctx.json("water")])
    ctx.numbers(read(ctx.json("water")))


def croasdale(ctx):
    """tools/croasdale_study.py: three-point bending and 16 slope runs (about 40 min)."""
    ctx.run([ctx.py, "tools/croasdale_study.py", "--floe", ctx.floe, "--out", ctx.path("runs"), "--img",
             ctx.img_dir, "--json", ctx.json("study")])
    ctx.numbers(read(ctx.json("study")))


def triaxial(ctx):
    """tools/triaxial_study.py: 12 triaxial and 3 Brazilian tests (5-10 min)."""
    ctx.run([ctx.py, "tools/triaxial_study.py", "--floe", ctx.floe, "--out", ctx.path("runs"), "--png",
             ctx.img("triaxial.png"), "--json", ctx.json("study")])
    ctx.numbers(read(ctx.json("study")))


def python_example(name, png, extract, extra=None):
    """An example of examples/python in its full form and its --quick form."""
    def fn(ctx):
        if extra:
            extra(ctx)
        nums = {}
        for form in ("full", "quick"):
            args = [ctx.py, PY_EX + name + ".py", "--png",
                    ctx.img(png) if form == "full" else ctx.path("quick.png"), "--json", ctx.json(form)]
            if name == "ice_floe":
                args += ["--out", ctx.path("out-" + form)]
            ctx.run(args + (["--quick"] if form == "quick" else []), env=ctx.module_env)
            data = read(ctx.json(form))
            nums.update({form + "_" + k: v for k, v in extract(data).items()})
            if form == "quick":
                ctx.quick_digest(data)
        ctx.numbers(nums)
    fn.__doc__ = "examples/python/%s.py in its full form and its --quick form." % name
    fn.parts = [python_example, extract] + ([extra] if extra else [])
    return fn


def ex_triaxial(d):
    sp, env = d["specimen"], d["envelope"]
    out = dict(spheres=sp["spheres"], bonds=sp["bonds"], fill=sp["fill"], bonds_per_sphere=sp["bonds_per_sphere"],
               dt=d["tests"][0]["dt"], phi=env["phi_deg"], c_MPa=env["cohesion"] / 1e6,
               ucs_MPa=env["sigma_ucs"] / 1e6, N=env["N"])
    out.update({"box_%s_mm" % "xyz"[i]: 1e3 * v for i, v in enumerate(sp["box"])})
    lines = ["| σ_3 target [MPa] | σ_3 at the peak | peak q [MPa] | σ_1 [MPa] | axial strain at peak | stopped at "
             "| volumetric strain peak → stop |", "|---|---|---|---|---|---|---|"]
    lag = []
    for k, t in enumerate(d["tests"]):
        p = t["peak"]
        i_pk = min(range(len(t["axial_strain"])), key=lambda i: abs(t["axial_strain"][i] - p["axial_strain"]))
        vol_pk, vol_stop = 100 * t["vol_strain"][i_pk], 100 * t["vol_strain"][-1]
        lines.append("| %.2f | %.3f | %.3f | %.3f | %.2f %% | %.2f %% | %+.2f %% → %+.2f %% |" % (
            t["sigma3_target"] / 1e6, p["sigma3"] / 1e6, p["q"] / 1e6, p["sigma1"] / 1e6, 100 * p["axial_strain"],
            100 * t["axial_strain"][-1], vol_pk, vol_stop))
        out["t%d_q_MPa" % k] = p["q"] / 1e6
        # the side walls' mean stress while the platen loads, against the target
        lag.append(100 * (sum(t["sigma3"]) / len(t["sigma3"]) / t["sigma3_target"] - 1))
        out["t%d_lateral_pct" % k] = lag[-1]
    out["table"] = re.sub(r"(?<= )-(?=\d)", "\u2212", "\n".join(lines))
    out["lateral_max_pct"] = max(abs(x) for x in lag)
    return out


def ex_ice_floe(d):
    first = next(t for t, f in zip(d["t"], d["fx"]) if f != 0)
    return dict(particles=d["particles"], first_force_s=first, peak_kN=d["peak_mean_force"] / 1e3,
                peak_s=d["peak_time"], max_kN=d["max_force"] / 1e3, max_s=d["max_force_time"],
                stop_s=d["stop_time"], stop_step=d["stop_step"], breaks=d["breaks"])


def ex_ice_law(d):
    out = {k: v for k, v in d["constants"].items() if isinstance(v, float)}
    err = {t["name"]: t["max_rel_error"] for t in d["tests"]}
    for group in ("normal", "shear", "twist", "bending"):
        out[group + "_error"] = max(v for k, v in err.items() if k.startswith(group))
    out["off_axis_max"] = max(t["off_axis"] for t in d["tests"])
    return out


def ex_restitution(d):
    rows = d["rows"]
    worst = max(rows, key=lambda r: abs(r["e"] - r["closed_form"]))
    last = rows[-1]
    at = {round(r["dp_nratio"], 3): r for r in rows}
    out = dict(steps_per_contact=d["steps_per_contact"], max_error=d["max_abs_error"],
               worst_zeta=worst["dp_nratio"], worst_e=worst["e"], worst_closed=worst["closed_form"],
               last_zeta=last["dp_nratio"], last_e=last["e"], last_closed=last["closed_form"])
    if 0.4 in at:
        out["error_04"] = abs(at[0.4]["e"] - at[0.4]["closed_form"])
    return out


def ex_compaction(d):
    c = d["checks"]
    return dict(count=d["count"], phi0=d["phi0"], steps_per_phase=d["steps_per_phase"],
                lid1_Pa=c[0]["measured"], lid2_Pa=c[1]["measured"], phi1=c[0]["phi"], phi2=c[1]["phi"],
                szz1_kPa=c[0]["szz"] / 1e3, szz2_kPa=c[1]["szz"] / 1e3, first_lid_kPa=d["rows"][0]["measured"] / 1e3,
                lid1_err=abs(c[0]["measured"] / c[0]["target"] - 1), lid2_err=abs(c[1]["measured"] / c[1]["target"] - 1),
                denser=c[1]["phi"] - c[0]["phi"])


def restitution_steps(ctx):
    """The restitution example at dp_nratio 0.4 with 100 and 4000 steps per contact: the
    first-order error of python-examples.md."""
    code = ("import json, sys; sys.path.insert(0, 'examples/python'); import restitution as r; "
            "json.dump({'e_%d' % n: r.bounce(0.4, n)[0] for n in (100, 4000)} | "
            "{'closed': float(r.closed_form(0.4))}, open(sys.argv[1], 'w'))")
    ctx.run([ctx.py, "-c", code, ctx.json("steps")], env=ctx.module_env)
    d = read(ctx.json("steps"))
    ctx.numbers({"error_04_100": abs(d["e_100"] - d["closed"]), "error_04_4000": abs(d["e_4000"] - d["closed"])})


def repose(ctx):
    """tools/repose_study.py: seven heaps (15-35 min)."""
    ctx.run([ctx.py, "tools/repose_study.py", "--floe", ctx.floe, "--out", ctx.path("runs"), "--img", ctx.img_dir,
             "-j", "2", "--json", ctx.json("study")])
    ctx.numbers(read(ctx.json("study")))


def hopper(ctx):
    """examples/hopper.yaml and tools/plot_hopper.py (about a minute)."""
    ctx.run([ctx.floe, "run", "examples/hopper.yaml", "--out", ctx.path("run"), "--threads", "1"])
    ctx.run([ctx.py, "tools/plot_hopper.py", ctx.path("run"), ctx.img("hopper_discharge.png"), "--json",
             ctx.json("plot")])
    ctx.numbers(read(ctx.json("plot")))


def beverloo(ctx):
    """tools/beverloo_study.py: three silos (15-25 min)."""
    ctx.run([ctx.py, "tools/beverloo_study.py", ctx.floe, ctx.path("runs"), "--png", ctx.img("beverloo.png"),
             "--json", ctx.json("study")])
    ctx.numbers(read(ctx.json("study")))


def mu_i(ctx):
    """tools/mu_i_study.py: periodic shear at nine solid fractions."""
    ctx.run([ctx.py, "tools/mu_i_study.py", "--floe", ctx.floe, "--out", ctx.path("runs"), "--png",
             ctx.img("mu-i.png"), "--json", ctx.json("study")])
    ctx.numbers(read(ctx.json("study")))


def softbond_ucs(ctx):
    """tools/softbond_ucs.py: the zeta study in tension and compression."""
    ctx.run([ctx.py, "tools/softbond_ucs.py", "--floe", ctx.floe, "--out", ctx.path("runs"), "--png",
             ctx.img("softbond-ucs.png"), "--json", ctx.json("study")])
    ctx.numbers(read(ctx.json("study")))


def rock_specimen(ctx):
    """tools/rock_specimen.py: the dense and the loose specimen in compression."""
    ctx.run([ctx.py, "tools/rock_specimen.py", "--floe", ctx.floe, "--out", ctx.path("runs"), "--png",
             ctx.img("rock-specimen.png"), "--json", ctx.json("study")])
    ctx.numbers(read(ctx.json("study")))


def impact(ctx):
    """tools/impact_accuracy.py: the energy error of one impact against dt."""
    ctx.run([ctx.py, "tools/impact_accuracy.py", "--floe", ctx.floe, "--out", ctx.path("runs"), "--png",
             ctx.img("impact-accuracy.png"), "--json", ctx.json("study")])
    ctx.numbers(read(ctx.json("study")))


FIRST_DT = {"chute": 0.6, "capsules": 0.35, "ice-floe": 4.0, "softbond-ucs": 0.016}  # example: its run time (s)


def first_dt(ctx):
    """The first time step of four examples (dt: auto) as `floe check` gives it (dt_safety times
    the critical step of the contacts the bodies could make, before the first contact pass), and
    the steps their run would take at it (two significant digits)."""
    nums = {}
    for ex, t_end in FIRST_DT.items():
        text = ctx.run([ctx.floe, "check", "examples/%s.yaml" % ex], capture=True)
        dt = float(re.search(r"steps of ~(\S+) s", text).group(1))
        steps = t_end / dt
        k = ex.replace("-", "_")
        nums.update({k + "_dt_us": dt * 1e6, k + "_steps": int(round(steps, 1 - int(math.floor(math.log10(steps)))))})
    ctx.numbers(nums)


def gas(ctx):
    """tools/gas_study.py: the elastic gas (800 spheres, 0.6 s) at seven dt_safety, 15 runs."""
    ctx.run([ctx.py, "tools/gas_study.py", "--floe", ctx.floe, "--out", ctx.path("runs"), "--jobs", "2", "--json",
             ctx.json("study")])
    ctx.numbers(read(ctx.json("study")))


# The measurements C tests print that the docs quote: key -> (test, pattern whose first
# group is the number, factor). Each of these tests runs in `make test` through
# tools/doc_test.py, which compares what it printed with docs/numbers/tests.json.
TEST_NUMBERS = {
    "water_slope_E1_pct": ("test_water_slope", r"1 layer\(s\), .*?\(rel (\S+)\)", 100),
    "water_slope_E2_pct": ("test_water_slope", r"2 layer\(s\), .*?\(rel (\S+)\)", 100),
    "water_slope_E1_MPa": ("test_water_slope", r"1 layer\(s\), .*?: E = (\S+) Pa", 1e-6),
    "water_slope_E2_MPa": ("test_water_slope", r"2 layer\(s\), .*?: E = (\S+) Pa", 1e-6),
    "water_slope_sigma1_kPa": ("test_water_slope", r"1 layer\(s\).*?sigma_f = 3 P L / \(2 b h\^2\) = (\S+) Pa", 1e-3),
    "water_slope_sigma2_kPa": ("test_water_slope", r"2 layer\(s\).*?sigma_f = 3 P L / \(2 b h\^2\) = (\S+) Pa", 1e-3),
    "water_slope_break1_pct": ("test_water_slope", r"1 layer\(s\).*?first bond broke at P = \S+ N \((\d+) %", 1),
    "water_slope_break2_pct": ("test_water_slope", r"2 layer\(s\).*?first bond broke at P = \S+ N \((\d+) %", 1),
    "water_slope_ratio30": ("test_water_slope", r"30 degrees mean load \S+ N/m, Croasdale H_B \S+ N/m \(ratio (\S+)\)", 1),
    "water_slope_ratio60": ("test_water_slope", r"60 degrees \S+ N/m, H_B \S+ N/m \(ratio (\S+)\)", 1),
    "water_slope_60_30": ("test_water_slope", r"60 / 30 = (\S+) ", 1),
    "water_float_draft": ("test_water_float", r"draft delta = (\S+) R", 1),
    "water_float_heave_T": ("test_water_float", r"heave period (\S+) s", 1),
    "water_float_heave_rel": ("test_water_float", r"heave period \S+ s, expected \S+ s \(rel (\S+)\)", 1),
    "water_float_heave_energy": ("test_water_float", r"energy error (\S+) of the heave energy", 1),
    "water_float_ellipsoid_z": ("test_water_float", r"ellipsoid: rests at z = (\S+) m", 1),
    "water_float_ellipsoid_tilt": ("test_water_float", r"shortest axis tilted (\S+) rad", 1),
    "water_float_capsule_z": ("test_water_float", r"capsule: rests at z = (\S+) m", 1),
    "water_float_capsule_tilt": ("test_water_float", r"capsule: rests.*?axis tilted (\S+) rad", 1),
    "water_float_capsule_h_J": ("test_water_float", r"horizontal (\S+) J < vertical", 1),
    "water_float_capsule_v_J": ("test_water_float", r"J < vertical (\S+) J", 1),
    "water_float_current_fit": ("test_water_float", r"u\(t\) = U t / \(t \+ tau\) to (\S+) of U", 1),
    "water_float_half_speed_s": ("test_water_float", r"half speed at (\S+) s", 1),
    "water_float_half_speed_rel": ("test_water_float", r"half speed at \S+ s \(rel (\S+)\)", 1),
    "water_float_drag_energy": ("test_water_float", r"energy balance (\S+) of the drag work", 1),
    "water_float_wind_fit": ("test_water_float", r"tanh profile to (\S+) of the excess", 1),
    "water_float_energy": ("test_water_float", r"worst \|total - total0\| (\S+) of the gravity released", 1),
    "water_beam_w0_mm": ("test_water_beam", r"floating chain.*?deflection under it (\S+) m", 1e3),
    "water_beam_rel": ("test_water_beam", r"floating chain.*?Hetenyi \S+ m \(rel (\S+)\)", 1),
    "water_beam_profile": ("test_water_beam", r"floating chain.*?profile within (\S+) of it", 1),
    "water_beam_EI": ("test_water_beam", r"EI = (\S+) N m\^2 \(k_r l = \S+, rel \S+\)\nfloating chain", 1),
    "water_beam_plate_w0_mm": ("test_water_beam", r"floating plate.*?deflection under it (\S+) m", 1e3),
    "water_beam_plate_rel": ("test_water_beam", r"floating plate.*?\(rel (\S+)\); profile", 1),
    "water_beam_plate_profile": ("test_water_beam", r"profile within 3 l_c within (\S+) of it", 1),
    "water_beam_plate_edges": ("test_water_beam", r"beyond \(free edges\) (\S+) \(", 1),
    "water_io_energy": ("test_water_io", r"energy error (\S+)\n", 1),
    "water_capsule_sphere": ("test_water", r"worst relative error (\S+)\n", 1),
    "water_ellipsoid_grid": ("test_water", r"ellipsoid tilted: volume vs grid rel (\S+),", 1),
    "water_ellipsoid_grid_centroid": ("test_water", r"ellipsoid tilted: volume vs grid rel \S+, centroid (\S+) m", 1),
    "water_capsule_grid": ("test_water", r"capsule tilted: volume vs grid rel (\S+),", 1),
    "water_frontal_grid": ("test_water", r"vs grid: rel (\S+)\n", 1),
    "water_grad": ("test_water", r"ellipsoid: buoyancy force and torque = -grad potential to (\S+) ", 1),
    "triaxial_short_servo_pct": ("test_triaxial_short", r"while 95 % of the bonds remain (\S+);", 100),
    "triaxial_short_lateral_MPa": ("test_triaxial_short", r"mean side-wall stress at the peak (\S+) MPa", 1),
    "triaxial_short_s1_MPa": ("test_triaxial_short", r"sigma_1\(sigma_3 = 1 MPa\) (\S+) MPa", 1),
    "triaxial_short_ucs_MPa": ("test_triaxial_short", r"\nUCS (\S+) MPa", 1),
    "triaxial_short_F_N": ("test_triaxial_short", r"peak jaw force (\S+) N", 1),
    "triaxial_short_bts_MPa": ("test_triaxial_short", r"BTS = 2F/\(pi D t\) = (\S+) MPa", 1),
    "triaxial_short_ucs_bts": ("test_triaxial_short", r"UCS/BTS (\S+)", 1),
    "repose_slope0": ("test_repose", r"mu_r 0: +\d+ beads, slope angle (\S+) deg", 1),
    "repose_area0": ("test_repose", r"mu_r 0: .*?area angle (\S+) deg", 1),
    "repose_beads0": ("test_repose", r"mu_r 0: +(\d+) beads", 1),
    "repose_slope2": ("test_repose", r"mu_r 0\.2: +\d+ beads, slope angle (\S+) deg", 1),
    "repose_area2": ("test_repose", r"mu_r 0\.2: .*?area angle (\S+) deg", 1),
    "repose_beads2": ("test_repose", r"mu_r 0\.2: +(\d+) beads", 1),
    "phases_servo_mean_Pa": ("test_phases", r"mean (\S+) Pa, worst", 1),
    "phases_servo_worst_Pa": ("test_phases", r"worst \|error\| (\S+) Pa", 1),
    "phases_servo_energy": ("test_phases", r"energy error <= (\S+) \(boundary", 1),
    "phases_rotation_m": ("test_phases", r"\|r - 0\.5\| <= (\S+) m", 1),
    "phases_ramp_rel": ("test_phases", r"\(rel (\S+)\); kinetic", 1),
    "impact_tc_us": ("test_impact", r"contact time = (\S+) us", 1),
    "impact_overlap_um": ("test_impact", r"peak overlap = (\S+) um", 1),
    "impact_e": ("test_impact", r"restitution = (\S+) \(expected 1\)", 1),
    "impact_e_damped": ("test_impact", r"restitution (\S+) \(expected 0\.50001\)", 1),
    "rolling_tstar_s": ("test_rolling", r"t\* = (\S+) s", 1),
    "rolling_v_final": ("test_rolling", r"final speed = (\S+) m/s", 1),
    "rolling_a": ("test_rolling", r"incline \(wall \+ tilted gravity\): a = (\S+) m/s", 1),
    "rolling_v_wr": ("test_rolling", r"incline \(wall \+ tilted gravity\).*?v/\(omega R\) = (\S+) ", 1),
    "energy_balance_pile": ("test_energy_balance", r"= (\S+) of released", 1),
    "ice_beam_tip_m": ("test_ice_beam", r"tip deflection (\S+) m", 1),
    "ice_beam_break_N": ("test_ice_beam", r"root break at P = (\S+) N", 1),
    "periodic_pair": ("test_periodic", r"largest force difference (\S+) relative", 1),
    "periodic_unwrap_m": ("test_periodic", r"unwrapped x error (\S+) m", 1),
    "periodic_collision_a": ("test_periodic", r"velocities after \((\S+), \S+\) m/s", 1),
    "periodic_collision_b": ("test_periodic", r"velocities after \(\S+, (\S+)\) m/s", 1),
    "periodic_shear_slope": ("test_periodic", r"profile slope (\S+) \(gamma_dot", 1),
    "periodic_bond": ("test_periodic", r"largest force difference (\S+) of the peak bond force", 1),
    "ice_punch": ("test_ice", r"punch-through: .*? = (\S+) of the initial", 1),
    "softbond_energy_bond": ("test_softbond", r"bond pulled apart.*? = (\S+) of th", 1),
    "softbond_energy_slide": ("test_softbond", r"sphere sliding, bouncing.*? = (\S+) of the initial", 1),
    "shapes_L": ("test_shapes", r"max \|L - L0\|/\|L0\| = (\S+);", 1),
    "shapes_flips": ("test_shapes", r"spin flipped (\d+) times", 1),
    "measure_ellipsoid_pct": ("test_measure", r"worst error over 200 random cuts: ellipsoid (\S+),", 100),
    "measure_capsule_pct": ("test_measure", r"worst error over 200 random cuts: ellipsoid \S+, capsule (\S+) of", 100),
    "phases_objectivity": ("test_phases", r"\|F - R F0\| / \|F0\| = (\S+)\n", 1),
    "periodic_h2_L": ("test_periodic", r"\(h2\) servo without a gain, first step: L_xx = (\S+) 1/s", 1),
    "periodic_phase_step": ("test_periodic", r"\(l\) cell phases: .*?shear from step (\d+)", 1),
    "periodic_phase_diff": ("test_periodic", r"\(l\) cell phases: .*?\(largest difference (\S+)\)", 1),
    "periodic_phase_exp": ("test_periodic", r"\(l\) cell phases: .*?exponentials \S+ \S+ \((\S+), e dt", 1),
    "periodic_pressure_at": ("test_periodic", r"\(l\) pressure trigger .*?pressure (\S+) Pa at the switch", 1),
    "periodic_pressure_before": ("test_periodic", r"\(l\) pressure trigger .*?at the switch, (\S+) Pa the state", 1),
    "periodic_affine_error": ("test_periodic", r"\(l\) affine start .*?balance error (\S+)\n", 1),
    "periodic_spin_worst": ("test_periodic", r"\(j\) largest force difference (\S+) relative", 1),
    "periodic_spin_ft1": ("test_periodic", r"\(k\) A wraps \(x [-+]\d+\) at step \d+: shear force ft\.y (\S+) N", 1),
    "periodic_spin_ft2": ("test_periodic", r"\(k\) A wraps .*?\(k\) A wraps \(x [-+]\d+\) at step \d+: shear force ft\.y (\S+) N",
                          1),
    "periodic_spin_rel": ("test_periodic", r"\(k\) \d+ wraps, largest shear force difference (\S+) of", 1),
    "energy_gas_end": ("test_energy_balance", r"elastic gas, .*?balance error at the end (\S+),", 1),
    "energy_gas_worst": ("test_energy_balance", r"elastic gas, .*?largest \|error\| (\S+)\n", 1),
    "energy_settle_40": ("test_energy_balance", r"damped frictional settle: \|total - total0\| (\S+) J at dt = 40", 1),
    "energy_settle_10": ("test_energy_balance", r"damped frictional settle: .*? J at dt = 40 us, (\S+) J at 10 us", 1),
    "energy_settle_released": ("test_energy_balance", r"damped frictional settle: .*?\(of (\S+) J released\)", 1),
    "energy_settle_ratio": ("test_energy_balance", r"damped frictional settle: .*?ratio (\S+), order", 1),
    "energy_settle_order": ("test_energy_balance", r"damped frictional settle: .*?, order (\S+)\n", 1),
    "timestep_impact_worst_pct": ("test_timestep", r"one impact: worst \|dE/E\| over 16 phases (\S+),", 100),
    "timestep_formula": ("test_timestep", r"one impact: .*?closed form matched to (\S+)\n", 1),
}


def test_numbers(test, text):
    """The numbers of TEST_NUMBERS that `test` printed in `text` ({key: value})."""
    out = {}
    for key, (t, pattern, factor) in TEST_NUMBERS.items():
        if t != test:
            continue
        m = re.search(pattern, text, re.S)
        if not m:
            raise RuntimeError("%s no longer prints what %s reads (pattern %r)" % (test, key, pattern))
        v = m.group(1)
        out[key] = int(v) if re.fullmatch(r"-?\d+", v) and factor == 1 else float(v) * factor
    return out


def tests(ctx):
    """The C tests whose printed measurements the docs quote (TEST_NUMBERS), run from the build."""
    nums = {}
    for test in sorted({t for t, _, _ in TEST_NUMBERS.values()}):
        text = ctx.run([os.path.join(ctx.build, test)], capture=True)
        nums.update(test_numbers(test, text))
    ctx.numbers(nums)


demo.parts = [demo, demo_line]
demo_variants.parts = [demo_variants, demo_line]
tests.parts = [tests, test_numbers]

# The probes' step counts are chosen so that each runs in about a second
# and something happens in it (contacts, bonds, the water, an inlet).
SOURCES = {
    "croasdale": Source(croasdale, ["tools/croasdale_study.py"],
                        probes=[dict(scene=("tools/croasdale_study.py", "bending_scene", {"layers": 2}), steps=2000),
                                dict(scene=("tools/croasdale_study.py", "slope_scene",
                                            {"layers": 2, "alpha_deg": 60, "v": 0.4}), steps=1500)],
                        pictures=["croasdale.png"]),
    "demo": Source(demo, ["examples/ice-on-water.yaml", "tools/render_floes.py", "tools/croasdale_study.py",
                          "python/floe/_render.py", "numbers:croasdale"],
                   probes=[dict(scene="examples/ice-on-water.yaml", steps=400)],
                   pictures=["ice-on-water.png", "ice-on-water-load.png"], after=["croasdale"]),
    "demo_variants": Source(demo_variants, ["tools/demo_variants.py", "examples/ice-on-water.yaml",
                                            "tools/render_floes.py", "tools/croasdale_study.py", "numbers:croasdale"],
                            probes=[dict(scene="examples/ice-on-water.yaml", steps=400)], after=["croasdale"]),
    "water": Source(water, ["tools/water_plots.py"],
                    probes=[dict(scene=("tools/water_plots.py", "drift_scene", {"case": "wind"}), steps=2000)],
                    pictures=["water-heave.png", "water-drift.png"]),
    "triaxial": Source(triaxial, ["tools/triaxial_study.py", "examples/triaxial.yaml", "examples/brazilian.yaml"],
                       probes=[dict(scene="examples/triaxial.yaml", steps=400),
                               dict(scene="examples/brazilian.yaml", steps=400)],
                       pictures=["triaxial.png"]),
    "ex_triaxial": Source(python_example("triaxial", "python-triaxial.png", ex_triaxial),
                          [PY_EX + "triaxial.py"], pictures=["python-triaxial.png"],
                          quick=["wall_time"]),
    "ex_ice_floe": Source(python_example("ice_floe", "python-ice-floe.png", ex_ice_floe),
                          [PY_EX + "ice_floe.py", "examples/ice-floe.yaml"],
                          probes=[dict(scene="examples/ice-floe.yaml", steps=200)],
                          pictures=["python-ice-floe.png"], quick=["scene"]),
    "ex_ice_law": Source(python_example("ice_law", "python-ice-law.png", ex_ice_law), [PY_EX + "ice_law.py"],
                         pictures=["python-ice-law.png"], quick=[]),
    "ex_restitution": Source(python_example("restitution", "python-restitution.png", ex_restitution,
                                            restitution_steps),
                             [PY_EX + "restitution.py"], pictures=["python-restitution.png"], quick=[]),
    "ex_compaction": Source(python_example("compaction", "python-compaction.png", ex_compaction),
                            [PY_EX + "compaction.py"], pictures=["python-compaction.png"], quick=[]),
    "repose": Source(repose, ["tools/repose_study.py", "examples/repose.yaml"],
                     probes=[dict(scene=("tools/repose_study.py", "scene_text", {"mu": 0.5, "mur": 0.1,
                                                                                 "half_base": 25}), steps=6000)],
                     pictures=["repose.png", "repose.csv"]),
    "hopper": Source(hopper, ["examples/hopper.yaml", "tools/plot_hopper.py"],
                     probes=[dict(scene="examples/hopper.yaml", steps=4000)], pictures=["hopper_discharge.png"]),
    "beverloo": Source(beverloo, ["tools/beverloo_study.py"],
                       probes=[dict(scene=("tools/beverloo_study.py", "scene", {"D": 0.03}), steps=300)],
                       pictures=["beverloo.png"]),
    "mu_i": Source(mu_i, ["tools/mu_i_study.py"],
                   probes=[dict(scene=("tools/mu_i_study.py", "compact_scene", {"phi": 0.8}), steps=1500),
                           dict(scene="examples/periodic-shear.yaml", steps=1500)],
                   pictures=["mu-i.png"]),
    "softbond_ucs": Source(softbond_ucs, ["tools/softbond_ucs.py", "examples/softbond-ucs.yaml"],
                           probes=[dict(scene="examples/softbond-ucs.yaml", steps=300)],
                           pictures=["softbond-ucs.png"]),
    "rock_specimen": Source(rock_specimen, ["tools/rock_specimen.py", "examples/rock-specimen.yaml",
                                            "examples/softbond-ucs.yaml"],
                            # the dense packing of examples/rock-specimen.yaml alone takes 10-30 s: the
                            # triaxial specimen, packed, bonded and loaded the same way, stands for it
                            probes=[dict(scene="examples/triaxial.yaml", steps=400)],
                            pictures=["rock-specimen.png"]),
    "first_dt": Source(first_dt, ["examples/%s.yaml" % ex for ex in FIRST_DT],
                       probes=[dict(scene="examples/%s.yaml" % ex, steps=1) for ex in FIRST_DT]),
    "tests": Source(tests, sorted({"tests/%s.c" % t for t, _, _ in TEST_NUMBERS.values()}), data=TEST_NUMBERS),
    "impact": Source(impact, ["tools/impact_accuracy.py"],
                     probes=[dict(scene=("tools/impact_accuracy.py", "scene_text",
                                         {"config": "spheres", "safety": 0.1, "phase": 0.525}), steps=40)],
                     pictures=["impact-accuracy.png"]),
    "gas": Source(gas, ["tools/gas_study.py"],
                  probes=[dict(scene=("tools/gas_study.py", "scene_text", {"safety": 0.1, "seed": 1}), steps=3000)]),
}
