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
import json
import os

PY_EX = "examples/python/"


class Source:
    def __init__(self, fn, inputs, probes=(), pictures=(), quick=None, after=(), about=""):
        self.fn, self.inputs, self.probes, self.pictures = fn, list(inputs), list(probes), list(pictures)
        self.quick, self.after, self.about = quick, list(after), about


def read(path):
    with open(path) as f:
        return json.load(f)


# ---- the sources -------------------------------------------------------------------------------


def demo(ctx):
    """make demo: examples/ice-on-water.yaml, its pictures, the load against Croasdale's
    2D load computed from the study's lattice (docs/numbers/croasdale.json)."""
    study = read(os.path.join(ctx.root, "docs", "numbers", "croasdale.json"))["numbers"]
    ctx.run([ctx.py, "tools/croasdale_study.py", "--demo-line", "--e", repr(study["E_2"]["value"]),
             "--sigma", repr(study["sigma_2"]["value"]), "--json", ctx.json("line")])
    line = read(ctx.json("line"))
    ctx.numbers(line)
    ctx.run([ctx.floe, "run", "examples/ice-on-water.yaml", "--out", ctx.path("run")])
    ctx.run([ctx.py, "tools/render_floes.py", ctx.path("run"), ctx.img("ice-on-water.png"), "--level", "0.2356576",
             "--load", ctx.img("ice-on-water-load.png"), "--croasdale", repr(line["line_N"]), "--past", "10.6",
             "--json", ctx.json("render")])
    ctx.numbers(read(ctx.json("render")))


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


def python_example(name, png, extract):
    """An example of examples/python in its full form and its --quick form."""
    def fn(ctx):
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
    return fn


def ex_triaxial(d):
    out = dict(spheres=d["specimen"]["spheres"], bonds=d["specimen"]["bonds"], fill=d["specimen"]["fill"],
               bonds_per_sphere=d["specimen"]["bonds_per_sphere"], dt=d["tests"][0]["dt"],
               phi=d["envelope"]["phi_deg"], c_MPa=d["envelope"]["cohesion"] / 1e6,
               ucs_MPa=d["envelope"]["sigma_ucs"] / 1e6, N=d["envelope"]["N"])
    out.update({"box_%s_mm" % "xyz"[i]: 1e3 * v for i, v in enumerate(d["specimen"]["box"])})
    for k, t in enumerate(d["tests"]):
        p = t["peak"]
        i_stop = len(t["axial_strain"]) - 1
        i_pk = min(range(len(t["axial_strain"])), key=lambda i: abs(t["axial_strain"][i] - p["axial_strain"]))
        out.update({"t%d_s3_MPa" % k: p["sigma3"] / 1e6, "t%d_q_MPa" % k: p["q"] / 1e6,
                    "t%d_s1_MPa" % k: p["sigma1"] / 1e6, "t%d_strain_pct" % k: 100 * p["axial_strain"],
                    "t%d_stop_pct" % k: 100 * t["axial_strain"][i_stop],
                    "t%d_vol_peak_pct" % k: 100 * t["vol_strain"][i_pk],
                    "t%d_vol_stop_pct" % k: 100 * t["vol_strain"][i_stop]})
    return out


def ex_ice_floe(d):
    first = next(t for t, f in zip(d["t"], d["fx"]) if f != 0)
    return dict(particles=d["particles"], first_force_s=first, peak_kN=d["peak_mean_force"] / 1e3,
                peak_s=d["peak_time"], max_kN=d["max_force"] / 1e3, max_s=d["max_force_time"],
                stop_s=d["stop_time"], stop_step=d["stop_step"], breaks=d["breaks"])


def ex_ice_law(d):
    out = {k: v for k, v in d["constants"].items() if isinstance(v, (int, float))}
    for test, r in d["tests"].items():
        for k in ("max_rel_error", "max_off_axis"):
            if k in r:
                out["%s_%s" % (test, k)] = r[k]
    return out


def ex_restitution(d):
    return {k: v for k, v in d.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


def ex_compaction(d):
    return {k: v for k, v in d.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


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


# The probes' step counts are chosen so that each runs in about a second
# and something happens in it (contacts, bonds, the water, an inlet).
SOURCES = {
    "croasdale": Source(croasdale, ["tools/croasdale_study.py"],
                        probes=[dict(scene=("tools/croasdale_study.py", "bending_scene", {"layers": 2}), steps=2000),
                                dict(scene=("tools/croasdale_study.py", "slope_scene",
                                            {"layers": 2, "alpha_deg": 60, "v": 0.4}), steps=1500)],
                        pictures=["croasdale.png"]),
    "demo": Source(demo, ["examples/ice-on-water.yaml", "tools/render_floes.py", "tools/croasdale_study.py",
                          "numbers:croasdale"],
                   probes=[dict(scene="examples/ice-on-water.yaml", steps=400)],
                   pictures=["ice-on-water.png", "ice-on-water-load.png"], after=["croasdale"]),
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
    "ex_restitution": Source(python_example("restitution", "python-restitution.png", ex_restitution),
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
                            probes=[dict(scene="examples/rock-specimen.yaml", steps=100)],
                            pictures=["rock-specimen.png"]),
    "impact": Source(impact, ["tools/impact_accuracy.py"],
                     probes=[dict(scene=("tools/impact_accuracy.py", "scene_text",
                                         {"config": "spheres", "safety": 0.9, "phase": 0.525}), steps=60)],
                     pictures=["impact-accuracy.png"]),
}
