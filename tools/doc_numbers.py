#!/usr/bin/python3
"""Runs the sources of the numbers the docs quote (tools/doc_sources.py)
into docs/numbers/SOURCE.json, redraws their pictures into docs/img/, and
writes the numbers into the docs' markers (docs/decisions.md, "Numbers in
the docs come from one command"). `make doc-numbers` runs it.

usage: /usr/bin/python3 tools/doc_numbers.py [--build build] [--only a,b] [--force] [-j N]
                                             [--list] [--fill-only]
  --only a,b   run these sources (whether stale or not), and no other
  --force      run every source, not only the stale ones
  -j N         sources run side by side (default 1; a study runs its own
               runs side by side too)
  --list       say which sources are stale and why, run nothing
  --fill-only  only write docs/numbers/*.json's values into the docs

Without --only or --force it runs the stale sources: those without a JSON,
or whose inputs (scripts, scenes, numbers of other sources) or fingerprint
(the final state of their probe scenes after a few hundred steps) differ
from what the JSON records; an interrupted run resumes where it stopped.
Each source works in BUILD/doc-numbers/SOURCE/ under a lock (two
invocations never run one source at once); its pictures and its JSON are
written to their places by a rename only when it has finished. The
engine, the Python module and matplotlib must be there: `make build`
first (make doc-numbers does it). Afterwards the docs' markers are
rewritten; every marker whose text changed is listed with its file and
line: read the sentence around it, the numbers may no longer say what the
prose says about them.
"""
import argparse
import concurrent.futures
import fcntl
import json
import os
import shutil
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_numbers_lib as lib  # noqa: E402
from doc_sources import SOURCES  # noqa: E402


def numbers_digest(root, name):
    """Digest of another source's numbers (an input "numbers:SOURCE")."""
    path = os.path.join(root, lib.NUMBERS_DIR, name + ".json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        nums = json.load(f)["numbers"]
    return lib.hashlib.sha256(json.dumps(nums, sort_keys=True).encode()).hexdigest()


def input_digests(root, src):
    out = {"tools/doc_sources.py (its functions)": lib.hashlib.sha256(src.code().encode()).hexdigest()}
    for p in src.inputs:
        if p.startswith("numbers:"):
            out[p] = numbers_digest(root, p[len("numbers:"):])
        else:
            path = os.path.join(root, p)
            out[p] = lib.sha256_file(path) if os.path.exists(path) else None
    return out


def probe_digests(root, src, floe, workdir):
    out = []
    for i, p in enumerate(src.probes):
        d = os.path.join(workdir, "probe%d" % i)
        shutil.rmtree(d, ignore_errors=True)
        out.append(dict(lib.probe_key(p), digest=lib.run_probe(p, floe, root, d)))
    return out


def stale_reasons(root, name, src, floe, workdir, probes=True):
    """Why docs/numbers/NAME.json no longer stands for the engine and inputs ([] if it does)."""
    path = os.path.join(root, lib.NUMBERS_DIR, name + ".json")
    if not os.path.exists(path):
        return ["no %s" % os.path.relpath(path, root)]
    with open(path) as f:
        rec = json.load(f)
    why = []
    now = input_digests(root, src)
    for k, v in now.items():
        if rec.get("inputs", {}).get(k) != v:
            why.append("%s changed" % k)
    if set(rec.get("inputs", {})) - set(now):
        why.append("its list of inputs changed")
    if probes:
        if [lib.probe_key(p) for p in src.probes] != [{k: p[k] for k in ("scene", "steps")}
                                                      for p in rec.get("probes", [])]:
            why.append("its probes changed")
        else:
            for p, r in zip(probe_digests(root, src, floe, workdir), rec["probes"]):
                if p["digest"] != r["digest"]:
                    why.append("the engine gives another state after %d steps of %s" % (p["steps"], p["scene"]))
    return why


class Ctx:
    """What a source function (tools/doc_sources.py) works with."""

    def __init__(self, root, build, name, work):
        self.root, self.name, self.work, self.build = root, name, work, build
        self.floe = os.path.join(build, "floe")
        self.py = sys.executable
        self.module_env = {"PYTHONPATH": os.path.join(build, "python")}
        self.img_dir = os.path.join(work, "img")
        os.makedirs(self.img_dir, exist_ok=True)
        self.log = os.path.join(work, "log.txt")
        self.commands, self.values, self.quick = [], {}, None

    def path(self, name):
        return os.path.join(self.work, name)

    def img(self, name):
        return os.path.join(self.img_dir, name)

    def json(self, name):
        return os.path.join(self.work, name + ".json")

    def short(self, arg):
        arg = str(arg)
        return arg.replace(self.work, "$WORK").replace(self.root + os.sep, "").replace(self.py, "python3")

    def run(self, args, env=None, capture=False):
        """Runs a command in the repository, its output into the log; returns its
        standard output when `capture`."""
        self.commands.append(" ".join(self.short(a) for a in args))
        e = dict(os.environ, OMP_WAIT_POLICY="passive", MPLBACKEND="Agg", **(env or {}))
        with open(self.log, "a") as log:
            log.write("$ %s\n" % self.commands[-1])
            log.flush()
            r = subprocess.run([str(a) for a in args], cwd=self.root, env=e, stderr=subprocess.STDOUT,
                               stdout=subprocess.PIPE if capture else log, text=capture or None)
            if capture:
                log.write(r.stdout)
        if r.returncode != 0:
            with open(self.log) as f:
                tail = f.read()[-3000:]
            raise RuntimeError("%s exited with %d:\n%s" % (self.commands[-1], r.returncode, tail))
        return r.stdout if capture else None

    def numbers(self, d):
        for k, v in d.items():
            entry = dict(v) if isinstance(v, dict) else {"value": v}
            if k in self.values:
                raise RuntimeError("%s: the number %s twice" % (self.name, k))
            self.values[k] = entry

    def quick_digest(self, data):
        drop = SOURCES[self.name].quick or []
        self.quick = {"drop": drop, "digest": lib.quick_digest(data, drop)}


def run_source(root, build, name, log):
    src = SOURCES[name]
    top = os.path.join(build, "doc-numbers")
    os.makedirs(top, exist_ok=True)
    with open(os.path.join(top, name + ".lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log("%s: another doc_numbers.py runs it; waiting" % name)
            fcntl.flock(lock, fcntl.LOCK_EX)
        work = os.path.join(top, name)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        inputs = input_digests(root, src)
        ctx = Ctx(root, build, name, work)
        log("%s: running (%s; log %s)" % (name, " ".join(src.fn.__doc__.split()), os.path.relpath(ctx.log, root)))
        src.fn(ctx)
        probes = probe_digests(root, src, ctx.floe, os.path.join(work, "probes"))
        pictures = {}
        for pic in src.pictures:
            p = ctx.img(pic)
            if not os.path.exists(p):
                raise RuntimeError("%s: the picture %s was not drawn" % (name, pic))
            pictures["docs/img/" + pic] = lib.sha256_file(p)
        rec = {"source": name, "regenerate": "make doc-numbers ONLY=%s" % name,
               "about": src.fn.__doc__.strip(), "commands": ctx.commands,
               "made_at": git_head(root), "inputs": inputs, "probes": probes, "pictures": pictures}
        if ctx.quick:
            rec["quick"] = ctx.quick
        rec["numbers"] = dict(sorted(ctx.values.items()))
        for pic in src.pictures:
            with open(ctx.img(pic), "rb") as f:
                lib.write_atomic(os.path.join(root, "docs", "img", pic), f.read())
        lib.write_atomic(os.path.join(root, lib.NUMBERS_DIR, name + ".json"),
                         json.dumps(rec, indent=1, ensure_ascii=False, allow_nan=True) + "\n")
        log("%s: done, %d numbers, %d pictures" % (name, len(ctx.values), len(pictures)))


def git_head(root):
    r = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=root, capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def schedule(names, jobs, run, log):
    """Runs run(name) for the names, `jobs` at a time, each after the sources it
    reads ("after") among the names have finished; returns the names that failed."""
    failed, done, running = [], set(), {}
    left = list(names)
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as ex:
        while left or running:
            for n in [n for n in left if all(a in done or a not in names for a in SOURCES[n].after)]:
                if len(running) >= max(1, jobs):
                    break
                left.remove(n)
                running[ex.submit(run, n)] = n
            finished, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for fu in finished:
                n = running.pop(fu)
                done.add(n)
                try:
                    fu.result()
                except Exception as e:  # one source failing leaves the others to finish
                    failed.append(n)
                    log("%s: FAILED: %s" % (n, e))
    return failed


def main():
    root = lib.ROOT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--only", default="")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--fill-only", action="store_true")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    floe = os.path.join(build, "floe")
    lock = threading.Lock()

    def log(msg):
        with lock:
            print("doc-numbers: " + msg, flush=True)

    failed = []
    if not a.fill_only:
        if not os.path.exists(floe):
            sys.exit("doc_numbers.py: no %s: build first (make build)" % floe)
        only = [n for n in a.only.replace(" ", ",").split(",") if n]
        unknown = [n for n in only if n not in SOURCES]
        if unknown:
            sys.exit("doc_numbers.py: no source %s; the sources: %s" % (", ".join(unknown), ", ".join(SOURCES)))
        names = only or list(SOURCES)
        if not only and not a.force:
            todo = []
            for n in names:
                why = stale_reasons(root, n, SOURCES[n], floe, os.path.join(build, "doc-numbers", "check", n))
                if why:
                    log("%s: stale: %s" % (n, "; ".join(why)))
                    todo.append(n)
                else:
                    log("%s: up to date" % n)
            names = todo
        if a.list:
            return 0
        failed = schedule(names, a.j, lambda n: run_source(root, build, n, log), log)
    os.makedirs(os.path.join(build, "doc-numbers"), exist_ok=True)
    with open(os.path.join(build, "doc-numbers", "fill.lock"), "w") as fill_lock:
        fcntl.flock(fill_lock, fcntl.LOCK_EX)  # one invocation writes the docs at a time, from the JSON as it is then
        changes, problems = lib.fill_docs(root)
    for rel, line, key, old, new in changes:
        if "\n" in old or "\n" in new:
            a, b = old.strip().split("\n"), new.strip().split("\n")
            diff = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
            log("%s:%d: %s: %d of its %d lines changed" % (rel, line, key, diff, len(b)))
        else:
            log("%s:%d: %s: %r -> %r" % (rel, line, key, old, new))
    log("%d marker(s) rewritten" % len(changes))
    for p in problems:
        log(p)
    if failed:
        log("failed: %s (their JSON and pictures are unchanged; see BUILD/doc-numbers/SOURCE/log.txt)"
            % ", ".join(failed))
    return 1 if failed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
