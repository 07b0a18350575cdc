"""The progress World.run shows (docs/python.md, "Progress"): the fields of
`floe run`'s bar — percentage, step of the run's steps, simulated time,
steps/s, ETA, contacts, energy-balance error — as a bar redrawn in place
on a terminal, as a line updated in place in a Jupyter notebook, and not
at all elsewhere unless asked for (then as plain lines). run() (run.c)
starts it once a run has lasted half a second, so that short runs print
nothing, and updates it four times a second, as the command's bar."""
import math
import shutil
import sys
import time

LOG_EVERY = 2.0  # s between plain lines


def _where():
    """'notebook' in a Jupyter kernel, 'terminal' when stderr is one, else None."""
    ip = sys.modules.get("IPython")
    if ip is not None and "ipykernel" in sys.modules:
        try:
            shell = ip.get_ipython()
        except Exception:  # an IPython too old or too new to ask: no notebook line
            shell = None
        if shell is not None and getattr(shell, "kernel", None) is not None:
            return "notebook"
    try:
        if sys.stderr is not None and sys.stderr.isatty():
            return "terminal"
    except (AttributeError, ValueError):  # a replaced or closed stderr
        pass
    return None


def _duration(s):
    if not (s >= 0) or math.isinf(s):
        return "?"
    s = int(s + 0.5)
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60) if s >= 3600 else "%d:%02d" % (s // 60, s % 60)


class Progress:
    """One run's progress; run() calls update() and finish()."""

    def __init__(self, world, mode, step0, time0, end_step, end_time, started):
        self.w, self.mode = world, mode
        self.step0, self.time0 = step0, time0
        self.end_step = end_step if end_step < 2**62 else None
        self.end_time = end_time if math.isfinite(end_time) else None
        self.t0 = started
        self.last_log = -math.inf
        self.handle = None

    def fields(self):
        w = self.w
        step, t = w.step_count, w.time
        el = time.monotonic() - self.t0
        rate = (step - self.step0) / el if el > 0 else 0.0
        approx = ""
        if self.end_step is not None:
            total = self.end_step
            frac = (step - self.step0) / max(total - self.step0, 1)
            left = total - step
        elif self.end_time is not None:  # dt: auto, a run given in time: the count is an estimate
            approx = "~"
            frac = (t - self.time0) / max(self.end_time - self.time0, 1e-300)
            left = (self.end_time - t) / w.dt if w.dt > 0 else math.inf
            total = int(step + max(left, 0) + 0.5)
        else:  # until= alone: no end known
            total, frac, left = None, None, None
        frac = None if frac is None else min(max(frac, 0.0), 1.0)
        eta = _duration(left / rate) if left is not None and rate > 0 else "?"
        return {
            "pct": "%3d%%" % int(100 * frac) if frac is not None else "",
            "step": "step %d/%s%d" % (step, approx, total) if total is not None else "step %d" % step,
            "time": "t=%.4g s" % t,
            "rate": "%.0f steps/s" % rate,
            "eta": "ETA %s%s" % (approx, eta) if total is not None else "",
            "contacts": "contacts %d" % w.contact_count,
            "err": "E.err %+.1e" % w.energy["error"],
            "frac": frac,
        }

    def line(self, width=None):
        f = self.fields()
        order = ["pct", "step", "time", "rate", "eta", "contacts", "err"]
        keep = [k for k in order if f[k]]
        text = lambda ks: "  ".join(f[k] for k in ks)  # noqa: E731
        bar = ""
        if width is not None:  # the least useful fields go first, then the bar (as the command's bar)
            for k in ("err", "contacts", "rate", "time"):
                if len(text(keep)) + 12 <= width - 1:
                    break
                if k in keep:
                    keep.remove(k)
            room = min(24, width - 1 - len(text(keep)) - 4)
            if f["frac"] is not None and room >= 8:
                fill = int(room * f["frac"])
                bar = "[" + "#" * fill + "." * (room - fill) + "]  "
            return (bar + text(keep))[: max(width - 1, 0)]
        return text(keep)

    def update(self, final=False, note=""):
        if self.mode == "terminal":
            width = shutil.get_terminal_size((80, 24)).columns
            sys.stderr.write("\r" + self.line(width) + note + "\033[K" + ("\n" if final else ""))
            sys.stderr.flush()
        elif self.mode == "notebook":
            text = {"text/plain": self.line(None) + note}
            from IPython.display import display

            if self.handle is None:
                self.handle = display(text, raw=True, display_id=True)
            else:
                self.handle.update(text, raw=True)
        else:  # asked for where nothing is interactive: a plain line now and then
            now = time.monotonic()
            if final or now - self.last_log >= LOG_EVERY:
                self.last_log = now
                sys.stderr.write(self.line(None) + note + "\n")
                sys.stderr.flush()

    def finish(self, interrupted):
        self.update(final=True, note="  (interrupted)" if interrupted else "")


def start(world, progress, step0, time0, end_step, end_time, started):
    """The Progress of a run, or None: progress None (show where interactive), True or False."""
    if progress is False:
        return None
    mode = _where()
    if mode is None and progress is None:
        return None
    return Progress(world, mode or "lines", step0, time0, end_step, end_time, started)
