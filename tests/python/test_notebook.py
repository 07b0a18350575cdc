"""The notebook case in a real Jupyter kernel (Debian's python3-ipykernel,
run headless by python3-nbclient): a cell displays w.positions[:3], so
IPython's output cache keeps that view alive; the next cell runs a world
whose sink removes bodies. The run goes on, the cached view raises
floe.StaleViewError when used, and a new read shows the bodies now
(docs/python.md, "Views"). A longer run shows its progress as one line
updated in place (docs/python.md, "Progress")."""
import os

try:
    import ipykernel  # noqa: F401
    import nbclient
    import nbformat
except ImportError as e:  # make test installs them (tools/ensure-deps.sh): a failure, not a skip
    raise ImportError("%s: apt-get install python3-ipykernel python3-jupyter-client python3-nbclient "
                      "python3-nbformat (tools/ensure-deps.sh)" % e) from e

CELLS = [
    """import floe
w = floe.World(gravity=(0, 0, -9.81), dt=1e-4)
w.add_material("glass", "linear", density=2500, young=1e8)
w.add_inlet("feed", box=((0, 0, 0.05), (0.1, 0.1, 0.1)), rate=2000, radius=1e-3, seed=1)
w.add_sink("floor", plane=((0, 0, 0.045), (0, 0, -1)))
w.run(20)""",
    "w.positions[:3]",  # displayed: Out[2] keeps the view
    "w.run(1500)",  # a body falls 0.05 m in 0.1 s: the sink removes bodies
    """removed = w.sinks()[0]["removed"]
try:
    Out[2].max()
    print("not stale")
except floe.StaleViewError as e:
    print("stale:", e)
print("removed", removed, "now", w.positions[:, 2].min() >= 0.045)""",
    # a run of about 0.8 s (a callback sleeps 10 ms at each of 80 steps) shows its progress as one line
    # updated in place (test_progress.py checks the terminal's bar)
    """import time
v = floe.World(dt=1e-5)
v.add_material("g")
v.add_sphere((0, 0, 0), 0.01)
v.run(80, callback=lambda v: time.sleep(0.01))""",
]


def test_notebook_runs_on_with_a_displayed_view():
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # the kernel's debugger's note on frozen modules
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in CELLS]
    # the kernel inherits this process's environment (PYTHONPATH: the build's module)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": os.getcwd()}}).execute()
    shown = nb.cells[1].outputs[0]
    assert shown["output_type"] == "execute_result" and shown["execution_count"] == 2
    assert "View([[" in shown["data"]["text/plain"]
    ran = [o for o in nb.cells[2].outputs if o["output_type"] == "execute_result"]
    assert ran[0]["data"]["text/plain"] == "1500"  # the run took every step
    text = "".join(o.get("text", "") for o in nb.cells[3].outputs)
    assert "stale: this numpy view of the World's particle arrays was taken at step 20" in text, text
    removed = int(text.split("\nremoved ")[1].split()[0])
    assert removed > 0 and text.rstrip().endswith("now True"), text
    shown = [o for o in nb.cells[4].outputs if o["output_type"] == "display_data"]
    assert len(shown) == 1, nb.cells[4].outputs  # one line, updated in place (update_display_data)
    line = shown[0]["data"]["text/plain"]
    assert line.startswith("100%  step 80/80  t=0.0008 s  ") and line.endswith("ETA 0:00  contacts 0  E.err +0.0e+00")
