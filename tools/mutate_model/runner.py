"""mutate-model: the schemata tree, its one build, and every mutant run against the checks.

Stages (each printed on stderr with its time):
  1. points    libclang over model/*.cpp and host/*.cpp (or --files): every mutation point
  2. schemata  a copy of the tree (WORK/tree) in which each point is guarded by ::dc_mutant(N)
  3. build     one build of the copy; a mutant that does not compile is taken out and the build
               redone (reported as not compiled, never counted)
  4. baseline  the commands on the unmutated copy: must pass; each rule set's campaign runs in
               slices of --cases up to --reach-cases, and each slice records which points it
               reaches (so a rarely reached point is run on the cases that reach it), with the time
  5. mutants   each reached mutant (or a --sample of them) runs the slices that reach it (the first
               --slices of each rule set) and the R0 campaign when that reaches it, stopping at the
               first kill: a property violated or given up (exit 1), a crash, or a run past its
               time budget. The golden trace hashes are not run. A survivor then runs the next
               slices that reach it, up to --survivor-slices of each rule set (killed there: round 2).
  6. survivors run again with --digests: identical on every case to the baseline's digests of the
               same slices (made when first needed) -> "equivalent?"
               (never counted killed); otherwise the first case whose trace differs, and whether
               any property judged that case.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import difflib
import fnmatch
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from typing import Dict, List, Optional, Tuple

from . import schemata as sc


@dataclasses.dataclass
class Result:
    mutant: sc.Mutant
    status: str = "not run"     # killed | survived | equivalent? | not reached | not compiled | explained
    killed_by: str = ""
    command: str = ""
    seconds: float = 0.0
    first_difference: Optional[dict] = None
    explained: Optional[dict] = None
    round: int = 1              # 2: killed only by the slices a survivor of round 1 runs (--survivor-slices)


def log(msg: str) -> None:
    sys.stderr.write(f"mutate-model: {msg}\n")
    sys.stderr.flush()


# ---- configuration -----------------------------------------------------------------------------------


def load_config(root: str) -> dict:
    path = os.path.join(root, "corpus", "mutate-model", "skip.json")
    if not os.path.exists(path):
        return {"functions": [], "calls": []}
    with open(path) as f:
        return json.load(f)


def load_explained(root: str) -> Dict[str, dict]:
    path = os.path.join(root, "corpus", "mutate-model", "explained.json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        data = json.load(f)
    out = {}
    for entry in data.get("mutants", []):
        out[entry["key"]] = entry
    return out


def compile_args(root: str, build_dir: str, rel: str) -> List[str]:
    db = os.path.join(build_dir, "compile_commands.json")
    target = os.path.realpath(os.path.join(root, rel))
    if os.path.exists(db):
        with open(db) as f:
            for entry in json.load(f):
                path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
                if path != target:
                    continue
                argv = entry.get("arguments") or shlex.split(entry["command"])
                out = []
                skip = False
                for a in argv[1:]:
                    if skip:
                        skip = False
                        continue
                    if a in ("-o", "-c", "-MF", "-MT", "-MQ"):
                        skip = True
                        continue
                    if a == entry["file"] or os.path.realpath(os.path.join(entry["directory"], a)) == target:
                        continue
                    if a.startswith("-W") or a.startswith("-f") or a in ("-MD", "-MMD"):
                        continue  # g++'s warnings and codegen flags mean nothing to libclang
                    out.append(a)
                return out + ["-Wno-everything"]
    return ["-std=c++20", f"-I{root}", "-Wno-everything"]


# ---- the tree ----------------------------------------------------------------------------------------


def tracked_files(root: str) -> List[str]:
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, capture_output=True).stdout
        return [p for p in out.decode().split("\0") if p]
    except (subprocess.CalledProcessError, FileNotFoundError):
        files = []
        for d, _, names in os.walk(root):
            if "/build" in d or "/.git" in d:
                continue
            files.extend(os.path.relpath(os.path.join(d, n), root) for n in names)
        return files


def write_bytes_if_changed(path: str, data: bytes) -> None:
    """Writes only what differs, so that the copy's build rebuilds only what changed."""
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def write_if_changed(path: str, text: str) -> None:
    write_bytes_if_changed(path, text.encode())


def copy_tree(root: str, tree: str, exclude: List[str]) -> None:
    for rel in tracked_files(root):
        if any(rel.startswith(e) for e in exclude):
            continue
        src = os.path.join(root, rel)
        if not os.path.isfile(src) or os.path.islink(src):
            continue
        with open(src, "rb") as f:
            write_bytes_if_changed(os.path.join(tree, rel), f.read())


# ---- the run ----------------------------------------------------------------------------------------


# The regression corpus, replayed by a model/ mutant before its campaign slices: the scenarios the
# suite keeps because a bug or a rare situation showed on them, judged by the properties (never by
# their trace hashes).
REGRESSIONS = "replay corpus/regressions"


def regression_files(root: str) -> List[str]:
    """The corpus/regressions/ scenarios whose recorded outcome is that every property holds on the
    tool as it is (no header mutation, outcome "holds"): a mutant that violates one is caught."""
    out = []
    folder = os.path.join(root, "corpus", "regressions")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        path = os.path.join(folder, name)
        if not name.endswith(".json") or not os.path.isfile(path) or os.path.islink(path):
            continue
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        header = data.get("counterexample") or {}
        if data.get("format") == "deskcheck-scenario/1" and not header.get("mutation") and header.get("outcome", "holds") == "holds":
            out.append(path)
    return out


class Commands:
    """What a mutant is run against: the nightly's campaigns (deskcheck) or a --test-cmd (a fixture)."""

    def __init__(self, args, binary: str, root: str, r0_fixtures: Optional[str] = None):
        self.args = args
        self.binary = binary
        self.root = root
        self.r0_fixtures = r0_fixtures
        self.regressions = regression_files(root)

    def for_file(self, rel: str, seed: int, digests_dir: Optional[str] = None,
                 runs: Optional[Dict[str, List[int]]] = None, r0: bool = True,
                 regressions: bool = True) -> List[Tuple[str, List[str]]]:
        """The commands a mutant of `rel` runs, in order. For model/ files, `runs` names the slices of
        each rule set's campaign (their first cases; default: the first slice of each) and `r0`
        whether the R0 campaign runs too."""
        a = self.args
        if a.test_cmd:
            return [("test", ["sh", "-c", a.test_cmd])]
        cmds = []
        if rel.startswith("host/"):
            # The real-folder port: cheapest first, so that most kills cost little.
            fixtures = ["--fixtures", self.r0_fixtures] if self.r0_fixtures else []
            for mode in ("--real", "--links", "--crash"):
                cmds.append((f"r0 {mode}", [self.binary, "r0", mode, "--json", "--generated", str(a.r0_generated)] +
                                           (["--seed", str(seed)] if a.r0_generated else []) + fixtures))
            # The port behind a process boundary: the mutated binary serves itself (process groups,
            # deadlines, the adapter protocol).
            cmds.append(("r0 --adapter-cmd serve", [self.binary, "r0", "--adapter-cmd", shlex.quote(self.binary) + " r0 serve",
                                                    "--json", "--generated", str(a.r0_generated)] +
                                                   (["--seed", str(seed)] if a.r0_generated else []) + fixtures))
            # The mode that exercises the file first, so that a kill costs one run: recovery reads the
            # journal (journal_read.cpp) only after a crash; process groups serve only an adapter;
            # the port itself, cheapest first and the crash run (a process per kill point) last.
            first = {"host/journal_read.cpp": "r0 --crash", "host/process_group.cpp": "r0 --adapter-cmd serve"}.get(rel)
            cmds.sort(key=lambda c: (c[0] != first, c[0] == "r0 --crash"))
            return cmds
        if runs is None:
            runs = {rules: [0] for rules in RULE_SETS}
        if regressions and self.regressions:  # a fraction of a second: first
            cmds.append((REGRESSIONS, [self.binary, "replay", "--json"] + self.regressions))
        for rules in RULE_SETS:
            for start in runs.get(rules, []):
                argv = [self.binary, "run", "--rules", rules, "--cases", str(a.cases), "--first-case", str(start),
                        "--seed", str(seed), "--no-shrink", "--json", "--out", "{tmp}"]
                if digests_dir:
                    argv += ["--digests", os.path.join(digests_dir, f"{rules}-{start}.txt")]
                else:
                    argv += ["--first-violation"]
                cmds.append((slice_name(rules, start), argv))
        if r0:
            argv = [self.binary, "r0", "campaign", "--cases", str(a.r0_cases), "--seed", str(seed), "--json"]
            if digests_dir:  # each case's digest (journal, world, operations, reports), as `run --digests`
                argv += ["--digests", os.path.join(digests_dir, "r0.txt")]
            cmds.append(("r0 campaign", argv))
        return cmds


RULE_SETS = ("current", "published")


def slice_name(rules: str, start: int) -> str:
    return f"run --rules {rules} --first-case {start}"


def time_key(kind: str, name: str) -> Tuple[str, str]:
    """The baseline time a command is budgeted by: every slice of a rule set's campaign shares one
    (the slowest slice's)."""
    return kind, re.sub(r" --first-case \d+$", "", name)


def killed_by(name: str, proc: subprocess.CompletedProcess) -> str:
    if proc.returncode < 0:
        return f"{name}: crashed (signal {-proc.returncode})"
    if name == REGRESSIONS and proc.returncode in (1, 4):
        # Each file's recorded outcome is "holds": a violated property names the file and the property.
        try:
            for f in json.loads(proc.stdout):
                bad = [p.get("property", "?") for p in f.get("properties", []) if p.get("status") == "violated"]
                if bad:
                    return f"{bad[0]} (on {os.path.basename(f.get('file', '?'))})"
        except (ValueError, TypeError, AttributeError):
            pass
        return f"{name}: exit {proc.returncode}"
    if proc.returncode == 1:
        try:
            data = json.loads(proc.stdout)
        except ValueError:
            return f"{name}: exit 1"
        if isinstance(data, dict) and "properties" in data:
            names = [p["name"] for p in data["properties"] if p.get("violated") or p.get("gave_up")]
            gave = [p["name"] for p in data["properties"] if p.get("gave_up") and not p.get("violated")]
            if names:
                return f"{names[0]}" + (" (gave up: cannot judge)" if names[0] in gave else "")
        if isinstance(data, dict) and data.get("property"):
            return str(data["property"])
        return f"{name}: exit 1"
    return f"{name}: exit {proc.returncode}"


# Every command runs in a PID namespace of its own when the machine allows it: a mutant of the
# process-group code can turn kill(-pgid) into kill(-1) or kill(0), which as root would signal every
# process of the machine; inside the namespace it reaches only the run's own processes, and
# --kill-child ends them all when the run ends.
SANDBOX: List[str] = []


def detect_sandbox() -> bool:
    global SANDBOX
    cmd = ["unshare", "--pid", "--fork", "--kill-child"]
    try:
        ok = subprocess.run(cmd + ["true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    SANDBOX = cmd if ok else []
    return ok


def run_one(argv: List[str], env: dict, timeout: float, cwd: str) -> Tuple[Optional[subprocess.CompletedProcess], float]:
    """One command in a folder of its own: `{tmp}` in argv names it, and TMPDIR points at its `t/`,
    where the command's own temporary folders go (host::make_temp_folder). Whatever the command left
    in `t/` is returned as `proc.left_behind` (a promise of the CLI: it leaves nothing running and
    nothing behind) and removed with the folder, so that no run, mutated or not, litters /tmp."""
    tmp = tempfile.mkdtemp(prefix="dc-mutant-")
    own_tmp = os.path.join(tmp, "t")
    os.mkdir(own_tmp)
    argv = SANDBOX + [a.replace("{tmp}", tmp) for a in argv]
    env = dict(env, TMPDIR=own_tmp)
    start = time.monotonic()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.communicate()
            return None, time.monotonic() - start
        done = subprocess.CompletedProcess(argv, proc.returncode, out.decode("utf-8", "replace"),
                                           err.decode("utf-8", "replace"))
        done.left_behind = sorted(os.listdir(own_tmp)) if os.path.isdir(own_tmp) else []
        return done, time.monotonic() - start
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def left_behind(name: str, proc: subprocess.CompletedProcess) -> Optional[str]:
    """The kill of a command that exited 0 but left its temporary folders behind."""
    names = getattr(proc, "left_behind", [])
    if not names:
        return None
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return f"{name}: left {len(names)} temporary folder{'s' if len(names) != 1 else ''} behind ({shown})"


def stable_output(text: str) -> str:
    """A run's JSON without its clock figures, for comparing two builds."""
    try:
        data = json.loads(text)
    except ValueError:
        return text
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("seconds", "cases_per_second", "ms", "elapsed_ms",
                                                                      "per_second", "wall_ms")}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return json.dumps(strip(data), sort_keys=True)


def read_digests(path: str) -> List[Tuple[int, str, str, int]]:
    out = []
    try:
        with open(path) as f:
            for line in f:
                i, seed, d, judged = line.split()
                out.append((int(i), seed, d, int(judged)))
    except FileNotFoundError:
        pass
    return out


# ---- main -------------------------------------------------------------------------------------------


def main(argv: List[str]) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="tools/mutate-model",
        description="Mutation testing of model/ and host/ by mutant schemata: every mutant builds once; each "
                    "runs the nightly's campaigns with a fresh seed until a property kills it.")
    p.add_argument("--files", nargs="+", metavar="FILE", help="mutate only these files (e.g. model/write.cpp); "
                   "default: model/*.cpp host/*.cpp")
    p.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    p.add_argument("--sample", type=int, default=0, metavar="N", help="run N mutants drawn with --seed (0: all)")
    p.add_argument("--seed", type=int, default=1, help="the campaigns' seed and the sample's (default 1)")
    p.add_argument("--cases", type=int, default=2000, help="cases of a slice of a rule set's campaign: what a mutant "
                   "runs per slice (default 2000)")
    p.add_argument("--reach-cases", type=int, default=50000, metavar="N", help="the baseline runs each rule set's "
                   "campaign up to N cases, slice by slice, to find which slices reach each point (default 50000)")
    p.add_argument("--survivor-slices", type=int, default=4, metavar="K",
                   help="a model/ mutant that survives its --slices runs the next slices that reach it, up to K "
                        "of each rule set, before it counts as a survivor (default 4; at most --slices: no second round)")
    p.add_argument("--slices", type=int, default=1, metavar="K", help="a mutant runs the first K slices of each rule "
                   "set that reach it (default 1)")
    p.add_argument("--r0-cases", type=int, default=20000,
                   help="cases of the R0 campaign (default 20000, about a second; the 2-minute nightly runs more)")
    p.add_argument("--r0-generated", type=int, default=0, help="generated R0 fixtures for host/ mutants (default 0)")
    p.add_argument("--r0-fixtures", default="01-write-into-new-folder.json,"
                   "03-overwrite-and-move.json,05-move-into-new-folder.json",
                   help="the corpus/r0 files host/ mutants run on, comma-separated ('' = all of corpus/r0)")
    p.add_argument("--json", action="store_true", help="the report as JSON on stdout")
    p.add_argument("--report", metavar="FILE", help="also write the JSON report to FILE (the nightly reads it)")
    p.add_argument("--list", action="store_true", help="list the mutants (id, key, diff) and stop; no build")
    p.add_argument("--operators", action="store_true", help="print the operators as a Markdown table and stop")
    p.add_argument("--work", default=None, help="work folder (default build/mutate-model)")
    p.add_argument("--root", default=None, help="the source tree (default: this checkout)")
    p.add_argument("--build-dir", default=None, help="a configured build of ROOT with compile_commands.json "
                   "(default ROOT/build/default)")
    p.add_argument("--target", default="deskcheck", help="the CMake target to build in the copy")
    p.add_argument("--binary", default="cli/deskcheck", help="the target's path in the copy's build")
    p.add_argument("--test-cmd", default=None, help="instead of the campaigns, one shell command per mutant "
                   "(run in ROOT with $DESKCHECK_BINARY set); exit 0 = survived")
    p.add_argument("--timeout-factor", type=float, default=3.0, help="a mutant's command may take this many "
                   "times the baseline's time (plus 2 s) before it counts as a hang (default 3)")
    p.add_argument("--no-equivalence", action="store_true", help="skip the digest rerun of survivors")
    p.add_argument("--build-only", action="store_true", help="write the schemata and build the copy, then stop")
    a = p.parse_args(argv)
    if a.operators:
        print("| operator | mutation |\n|---|---|")
        for name, what in sc.OPERATORS.items():
            cell = what.replace("|", "\\|")
            print(f"| `{name}` | {cell} |")
        return 0

    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    root = os.path.abspath(a.root or here)
    build_dir = os.path.abspath(a.build_dir or os.path.join(root, "build", "default"))
    work = os.path.abspath(a.work or os.path.join(here, "build", "mutate-model"))
    tree = os.path.join(work, "tree")
    cfg = load_config(root)
    skip_functions = [e["function"] for e in cfg.get("functions", [])]
    skip_calls = [e["call"] for e in cfg.get("calls", [])]
    if a.jobs < 1 or a.cases < 1 or a.sample < 0 or a.slices < 1 or a.reach_cases < 0 or a.survivor_slices < 0:
        p.error("--jobs, --cases and --slices must be at least 1, --sample and --reach-cases at least 0")

    # 1. points
    t0 = time.monotonic()
    if a.files:
        files = []
        for f in a.files:
            rel = os.path.relpath(os.path.abspath(f), root) if os.path.isabs(f) else f
            if not os.path.isfile(os.path.join(root, rel)):
                log(f"--files {f}: no such file under {root}")
                return 2
            files.append(rel)
    else:
        files = sorted(os.path.relpath(x, root) for d in ("model", "host")
                       for x in __import__("glob").glob(os.path.join(root, d, "*.cpp")))
    finders = []
    for rel in files:
        finder, errors = sc.find_mutants(os.path.join(root, rel), rel, compile_args(root, build_dir, rel),
                                         skip_functions, skip_calls)
        if errors:
            log(f"{rel}: libclang could not parse it ({len(errors)} errors; first: {errors[0]}); is {build_dir} "
                f"configured? (cmake --preset default)")
            return 2
        finders.append(finder)
    mutants = sc.assign_ids_and_keys(finders)
    t_points = time.monotonic() - t0
    overlaps = sum(f.overlaps for f in finders)
    skipped = [s for f in finders for s in f.skipped_functions]
    log(f"{len(mutants)} mutants in {len(files)} files ({t_points:.1f} s); {overlaps} points not made "
        f"(they would overlap another); {len(skipped)} functions skipped by corpus/mutate-model/skip.json")
    if a.list:
        for m in mutants:
            if a.json:
                continue
            print(f"{m.id:5d} {m.file}:{m.line} {m.operator:18s} {m.function}: "
                  f"{' '.join(m.original.split())[:70]}  =>  {' '.join(m.mutated.split())[:70]}")
        if a.json:
            print(json.dumps([dataclasses.asdict(m) for m in mutants], indent=1))
        return 0

    # 2. schemata + 3. build
    t0 = time.monotonic()
    os.makedirs(tree, exist_ok=True)
    copy_tree(root, tree, ["corpus/", "docs/"])
    for name, text in sc.runtime_files(len(mutants)).items():
        write_if_changed(os.path.join(tree, name), text)
    by_file = {f.rel: f for f in finders}
    disabled: Dict[str, set] = {f.rel: set() for f in finders}
    spans: Dict[str, list] = {}
    texts: Dict[str, str] = {}

    def write_file(rel):
        text, sp = sc.write_schemata(by_file[rel], disabled[rel])
        texts[rel], spans[rel] = text, sp
        write_if_changed(os.path.join(tree, rel), text)

    for rel in by_file:
        write_file(rel)
        lost = sc.mutants_not_written(by_file[rel], disabled[rel], spans[rel])
        if lost:
            # A mutant with no switch in the copy could only ever be "not reached": that is a bug of
            # the schemata, not a weakness of the checks.
            log(f"{rel}: {len(lost)} mutants have no switch in the written copy (first: #{lost[0].id} "
                f"{lost[0].operator} at line {lost[0].line}: {' '.join(lost[0].original.split())[:60]})")
            return 2
    # The runtime joins the model library of the copy (only the copy).
    cm = os.path.join(tree, "model", "CMakeLists.txt") if not a.test_cmd else None
    if cm and os.path.exists(cm):
        with open(os.path.join(root, "model", "CMakeLists.txt")) as f:
            base = f.read()
        write_if_changed(cm, base + "\ntarget_sources(deskcheck_model PRIVATE ${PROJECT_SOURCE_DIR}/deskcheck_mutant.cpp)\n")
    bdir = os.path.join(tree, "build")
    t_schemata = time.monotonic() - t0
    t0 = time.monotonic()
    if not os.path.exists(os.path.join(bdir, "build.ninja")):
        env = dict(os.environ)
        conf = ["cmake", "-S", tree, "-B", bdir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g0 -DNDEBUG", "-DDESKCHECK_WERROR=OFF", "-DDESKCHECK_BUILD_TESTS=OFF"]
        if shutil.which("ccache"):
            conf += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        r = subprocess.run(conf, capture_output=True, text=True)
        if r.returncode != 0:
            log("cmake could not configure the copy:\n" + r.stdout[-3000:] + r.stderr[-3000:])
            return 2
    not_compiled: set = set()
    for round_ in range(1, 30):
        r = subprocess.run(["cmake", "--build", bdir, "--target", a.target, "--", "-k", "0", f"-j{a.jobs}"],
                           capture_output=True, text=True)
        if r.returncode == 0:
            break
        out = r.stdout + r.stderr
        blamed = 0
        located = re.compile(r"([^\s:]+\.(?:cpp|cc|h|hpp)):(\d+):(\d+):")
        hits_by_file: Dict[str, set] = {}
        for line in out.splitlines():
            if "error" not in line and "required from" not in line:
                continue
            for mm in located.finditer(line):
                path = os.path.normpath(os.path.join(bdir, mm.group(1)))
                rel = os.path.relpath(path, tree)
                if rel in by_file:
                    hits_by_file.setdefault(rel, set()).add((int(mm.group(2)), int(mm.group(3))))
        for rel in by_file:
            hits = hits_by_file.get(rel, set())
            for line_no, col in sorted(hits):
                for mid in sc.culprits(texts[rel], spans[rel], by_file[rel], line_no, col):
                    if mid not in disabled[rel]:
                        disabled[rel].add(mid)
                        not_compiled.add(mid)
                        blamed += 1
            if hits:
                write_file(rel)
        log(f"build round {round_}: {blamed} mutants did not compile and were taken out")
        if blamed == 0:
            log("the copy does not build and no mutant is to blame:\n" + out[-4000:])
            return 2
    else:
        log("the copy still does not build after 30 rounds")
        return 2
    t_build = time.monotonic() - t0
    binary = os.path.join(bdir, a.binary)
    log(f"built {binary} ({t_build:.0f} s; {len(not_compiled)} mutants did not compile)")
    if a.build_only:
        return 0

    if not detect_sandbox():
        log("warning: no PID namespace (unshare --pid --fork); a host/ mutant that signals the wrong process "
            "group can reach other processes of this machine")
    # 4. baseline
    # host/ mutants run the real-folder modes on the file fixtures of corpus/r0 that exercise the port
    # (writes, nested folders, overwrite and move, moves into new folders): the UI fixtures add
    # nothing for host/ and the crash run costs a process per kill point.
    r0_fixtures = None
    if not a.test_cmd and a.r0_fixtures:
        r0_fixtures = os.path.join(work, "r0-fixtures")
        shutil.rmtree(r0_fixtures, ignore_errors=True)
        os.makedirs(r0_fixtures)
        for name in a.r0_fixtures.split(","):
            src = os.path.join(root, "corpus", "r0", name)
            if not os.path.isfile(src):
                log(f"--r0-fixtures: no corpus/r0/{name}")
                return 2
            shutil.copyfile(src, os.path.join(r0_fixtures, name))
    commands = Commands(a, binary, root, r0_fixtures)
    base_env = dict(os.environ, DESKCHECK_MUTANT="0", DESKCHECK_BINARY=binary)
    reached_dir = os.path.join(work, "reached")
    shutil.rmtree(reached_dir, ignore_errors=True)
    os.makedirs(reached_dir)
    baseline_time: Dict[Tuple[str, str], float] = {}
    baseline_out: Dict[Tuple[str, str], str] = {}
    base_dig = os.path.join(work, "baseline-digests")
    shutil.rmtree(base_dig, ignore_errors=True)
    os.makedirs(base_dig)
    kinds = sorted({"host" if m.file.startswith("host/") else "model" for m in mutants})
    # The reach: each rule set's campaign in slices of --cases up to --reach-cases, each slice a
    # process of its own with its own reached file, so that a mutant runs the slices that reach it
    # (a point that 1 case in 10,000 reaches is run on that case, not reported "not reached").
    reach = max(a.reach_cases, a.cases)
    starts = list(range(0, reach, a.cases))
    baseline_cmds: List[Tuple[str, str, List[str]]] = []
    for kind in kinds:
        rel = "host/x.cpp" if kind == "host" else "model/x.cpp"
        runs = {rules: starts for rules in RULE_SETS}
        for name, argv in commands.for_file(rel, a.seed, runs=runs):
            baseline_cmds.append((kind, name, argv))
    t0 = time.monotonic()
    failures: List[str] = []

    def run_baseline(item) -> Tuple[str, str, set]:
        kind, name, argv = item
        file = os.path.join(reached_dir, re.sub(r"[^A-Za-z0-9]+", "-", f"{kind} {name}").strip("-") + ".txt")
        proc, secs = run_one(argv, dict(base_env, DESKCHECK_MUTANT_REACHED=file), 3600, root)
        if proc is None or proc.returncode != 0:
            failures.append(f"{name}: exit {'timeout' if proc is None else proc.returncode}\n" +
                            ("" if proc is None else proc.stderr[-2000:]))
            return kind, name, set()
        key = time_key(kind, name)
        with lock:
            baseline_left[(kind, name)] = left_behind(name, proc)
            if baseline_left[(kind, name)]:  # the unmutated CLI breaks its own promise
                failures.append(str(baseline_left[(kind, name)]))
            baseline_time[key] = max(baseline_time.get(key, 0.0), secs)
            baseline_out[(kind, name)] = stable_output(proc.stdout)
        got = set()
        if os.path.exists(file):
            with open(file) as f:
                got = {int(x) for x in f.read().split()}
        return kind, name, got

    lock = threading.Lock()
    baseline_left: Dict[Tuple[str, str], Optional[str]] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        reached_by = list(pool.map(run_baseline, baseline_cmds))
    if failures:
        log("the unmutated copy fails its own command: " + failures[0])
        return 2
    # Per point: the slices of each rule set that reach it (first cases, in order), and whether the
    # R0 campaign or a host/ command does.
    slices_of: Dict[int, Dict[str, List[int]]] = {}
    other_reach: Dict[int, bool] = {}
    reach_of_command: Dict[Tuple[str, str], set] = {(kind, name): got for kind, name, got in reached_by}
    for kind, name, got in reached_by:
        mm = re.match(r"run --rules (\S+) --first-case (\d+)$", name)
        for mid in got:
            if mm:
                slices_of.setdefault(mid, {}).setdefault(mm.group(1), []).append(int(mm.group(2)))
            else:  # the R0 campaign or a host/ command; the regressions make a point reached only
                other_reach[mid] = other_reach.get(mid, False) or name != REGRESSIONS
    for per in slices_of.values():
        for rules in per:
            per[rules].sort()
    reached = set(slices_of) | set(other_reach)
    t_baseline = time.monotonic() - t0
    log(f"baseline: the commands pass on the unmutated copy ({t_baseline:.1f} s, {len(baseline_cmds)} commands; "
        f"each rule set's campaign in {len(starts)} slices of {a.cases} cases up to {reach}); "
        f"{len([m for m in mutants if m.id in reached])} of {len(mutants)} mutation points reached")

    def plan_of(m: sc.Mutant, first: int = 0, last: Optional[int] = None, r0: bool = True) -> Dict[str, object]:
        """The slices of each rule set that reach `m`, the `first`th to the `last`th (default --slices)."""
        per = slices_of.get(m.id, {})
        last = a.slices if last is None else last
        return {"runs": {rules: per.get(rules, [])[first:last] for rules in RULE_SETS},
                "r0": r0 and other_reach.get(m.id, False),
                "regressions": r0 and m.id in reach_of_command.get(("model", REGRESSIONS), set())}

    # The baseline's digests of a slice, made when a survivor first needs them (one at a time per slice).
    digest_locks: Dict[str, threading.Lock] = {}

    def baseline_digests(rules: str, start: int) -> List[Tuple[int, str, str, int]]:
        path = os.path.join(base_dig, f"{rules}-{start}.txt")
        with lock:
            dl = digest_locks.setdefault(path, threading.Lock())
        with dl:
            if not os.path.exists(path):
                for name, argv in commands.for_file("model/x.cpp", a.seed, base_dig, runs={rules: [start]}, r0=False, regressions=False):
                    run_one(argv, base_env, 3600, root)
            return read_digests(path)

    # 5. mutants
    explained = load_explained(root)
    results = {m.id: Result(m) for m in mutants}
    for mid in not_compiled:
        results[mid].status = "not compiled"
        results[mid].mutant.compiled = False
    todo = [m for m in mutants if m.id not in not_compiled]
    if a.sample and a.sample < len(todo):
        # The sample is drawn from every compiled mutant, so that "not reached" counts in its score too.
        rng = random.Random(a.seed)
        todo = sorted(rng.sample(todo, a.sample), key=lambda m: m.id)
        sampled = {m.id for m in todo}
        for m in mutants:
            if results[m.id].status == "not run" and m.id not in sampled:
                results[m.id].status = "not sampled"
    for m in todo:
        if m.id not in reached:
            results[m.id].status = "not reached"
    todo = [m for m in todo if m.id in reached]
    done = [0]
    started = time.monotonic()

    def mutant_commands(m: sc.Mutant, digests_dir: Optional[str] = None, round: int = 1) -> List[Tuple[str, List[str]]]:
        """Round 1: the first --slices slices and the R0 campaign; round 2: the next slices up to
        --survivor-slices; for the digests (round 0): every slice of both rounds that the mutant ran."""
        if a.test_cmd:  # the command runs again in round 2, with DESKCHECK_ROUND=2 in its environment
            return commands.for_file(m.file, a.seed, digests_dir) if round != 2 or a.survivor_slices > a.slices else []
        if m.file.startswith("host/"):
            # Only the commands that reach it (the crash run costs a process per kill point).
            if round == 2:
                return []
            return [c for c in commands.for_file(m.file, a.seed, digests_dir) if m.id in reach_of_command.get(("host", c[0]), set())]
        upto = max(a.slices, a.survivor_slices)
        p = {1: plan_of(m), 2: plan_of(m, a.slices, upto, r0=False), 0: plan_of(m, 0, upto if m.id in second_round else a.slices)}[round]
        return commands.for_file(m.file, a.seed, digests_dir, runs=p["runs"], r0=p["r0"], regressions=p["regressions"])

    second_round: set = set()

    def run_commands(m: sc.Mutant, res: Result, kind: str, env: dict, round: int) -> None:
        env = dict(env, DESKCHECK_ROUND=str(round))
        for name, argv in mutant_commands(m, round=round):
            budget = baseline_time[time_key(kind, name)] * a.timeout_factor + 2
            proc, _ = run_one(argv, env, budget, root)
            if proc is None:
                res.status, res.killed_by, res.command = "killed", f"{name}: past its time budget ({budget:.0f} s)", name
                break
            if proc.returncode != 0:
                res.status, res.killed_by, res.command = "killed", killed_by(name, proc), name
                break
            if left_behind(name, proc) and not baseline_left.get((kind, name)):
                res.status, res.killed_by, res.command = "killed", left_behind(name, proc), name
                break
            if not a.test_cmd and kind == "host" and stable_output(proc.stdout) != baseline_out[(kind, name)]:
                res.first_difference = res.first_difference or {"command": name, "what": "its JSON figures differ"}
        else:
            res.status = "survived"
        res.round = round

    def run_mutant(m: sc.Mutant) -> None:
        res = results[m.id]
        kind = "host" if m.file.startswith("host/") else "model"
        env = dict(base_env, DESKCHECK_MUTANT=str(m.id))
        t = time.monotonic()
        run_commands(m, res, kind, env, 1)
        if res.status == "survived" and mutant_commands(m, round=2):
            # A survivor of round 1 runs the next slices that reach it: most survivors of one slice only
            # lacked the rare case that shows them (what the nightly's rule mutations do with time left).
            with lock:
                second_round.add(m.id)
            run_commands(m, res, kind, env, 2)
        res.seconds = time.monotonic() - t
        if res.status == "survived" and not a.no_equivalence and not a.test_cmd:
            classify_survivor(m, res, kind, env)
        with lock:
            done[0] += 1
            n = done[0]
            if n % max(1, len(todo) // 50) == 0 or n == len(todo):
                el = time.monotonic() - started
                eta = el / n * (len(todo) - n)
                killed = sum(1 for r in results.values() if r.status == "killed")
                log(f"{n}/{len(todo)} mutants run, {killed} killed, {el:.0f} s elapsed, ETA {eta:.0f} s")

    def baseline_r0_digests() -> List[Tuple[int, str, str, int]]:
        path = os.path.join(base_dig, "r0.txt")
        with lock:
            dl = digest_locks.setdefault(path, threading.Lock())
        with dl:
            if not os.path.exists(path):
                for name, argv in commands.for_file("model/x.cpp", a.seed, base_dig, runs={}, r0=True, regressions=False):
                    run_one(argv, base_env, 3600, root)
            return read_digests(path)

    def classify_survivor(m: sc.Mutant, res: Result, kind: str, env: dict) -> None:
        if kind == "host":
            if res.first_difference is None:
                res.status = "equivalent?"
            return
        d = tempfile.mkdtemp(prefix="dc-digests-")
        try:
            for name, argv in mutant_commands(m, d, round=0):
                if not name.startswith("run"):
                    proc, _ = run_one(argv, env, 600, root)
                    if name == "r0 campaign":  # the R0 campaign's cases, digest by digest
                        mine = read_digests(os.path.join(d, "r0.txt"))
                        for x, y in zip(mine, baseline_r0_digests()):
                            if x[2] != y[2]:
                                if res.first_difference is None:
                                    res.first_difference = {
                                        "command": name, "case": x[0], "judged": True,
                                        "rerun": f"DESKCHECK_MUTANT={m.id} {os.path.relpath(binary, root)} r0 campaign "
                                                 f"--seed {a.seed} --cases {x[0] + 1}"}
                                break
                    if proc is not None and stable_output(proc.stdout) != baseline_out[(kind, name)] \
                            and res.first_difference is None:
                        res.first_difference = {"command": name, "what": "its JSON figures differ"}
                    continue
                rules = argv[argv.index("--rules") + 1]
                start = int(argv[argv.index("--first-case") + 1])
                proc, _ = run_one(argv, env, 600, root)
                mine = read_digests(os.path.join(d, f"{rules}-{start}.txt"))
                base = baseline_digests(rules, start)
                for x, y in zip(mine, base):
                    if x[2] != y[2]:
                        if res.first_difference is None:
                            res.first_difference = {
                                "command": name, "case": x[0], "case_seed": x[1], "judged": bool(x[3]),
                                "rerun": f"DESKCHECK_MUTANT={m.id} {os.path.relpath(binary, root)} run --rules {rules} "
                                         f"--seed {a.seed} --first-case {x[0]} --cases 1 --no-shrink",
                                "look": f"{os.path.relpath(binary, root)} case --seed {a.seed} --index {x[0]} --rules {rules} "
                                        f"--out case.json && diff <({os.path.relpath(binary, root)} replay case.json) "
                                        f"<(DESKCHECK_MUTANT={m.id} {os.path.relpath(binary, root)} replay case.json)"}
                        break
            if res.first_difference is None:
                res.status = "equivalent?"
        finally:
            shutil.rmtree(d, ignore_errors=True)

    log(f"running {len(todo)} mutants with --jobs {a.jobs}, seed {a.seed}, {a.cases} cases per rule set")
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        list(pool.map(run_mutant, todo))
    t_run = time.monotonic() - started

    # explained
    for r in results.values():
        if r.status in ("survived", "equivalent?", "not reached") and r.mutant.key in explained:
            r.explained = explained[r.mutant.key]
            r.status = "explained"
    keys = {m.key for m in mutants}
    stale = [k for k in explained if k not in keys and any(k.startswith(f + "::") for f in files)]

    report = make_report(a, root, mutants, results, files, dict(points=t_points, schemata=t_schemata, build=t_build,
                                                                 baseline=t_baseline, run=t_run), len(todo), stale,
                         overlaps, skipped)
    if a.report:
        tmp = a.report + ".tmp"
        with open(tmp, "w") as f:
            json.dump(report, f, indent=1)
        os.replace(tmp, a.report)
    if a.json:
        print(json.dumps(report, indent=1))
    else:
        print_report(report)
    return 0 if not report["unexplained_survivors"] else 1


def diff_of(root: str, m: sc.Mutant) -> str:
    with open(os.path.join(root, m.file), encoding="utf-8", errors="replace") as f:
        text = f.read()
    line = text.splitlines()[m.line - 1] if m.line - 1 < len(text.splitlines()) else ""
    orig = " ".join(m.original.split())
    mut = " ".join(m.mutated.split())
    return f"{m.file}:{m.line}\n- {line.strip()}\n+ [{orig}] -> [{mut}]"


def score(counts: Dict[str, int]) -> Optional[float]:
    denom = counts.get("killed", 0) + counts.get("survived", 0) + counts.get("equivalent?", 0) + \
        counts.get("not reached", 0)
    return None if denom == 0 else round(100.0 * counts.get("killed", 0) / denom, 1)


def make_report(a, root, mutants, results, files, times, runs, stale, overlaps, skipped) -> dict:
    def tally(group):
        out: Dict[str, Dict[str, int]] = {}
        for r in results.values():
            g = group(r.mutant)
            out.setdefault(g, {})
            out[g][r.status] = out[g].get(r.status, 0) + 1
        return {g: dict(sorted(c.items()), score=score(c)) for g, c in sorted(out.items())}

    total: Dict[str, int] = {}
    for r in results.values():
        total[r.status] = total.get(r.status, 0) + 1
    survivors = []
    for r in sorted(results.values(), key=lambda r: r.mutant.id):
        if r.status in ("survived", "equivalent?", "not reached"):
            survivors.append({"id": r.mutant.id, "key": r.mutant.key, "status": r.status, "file": r.mutant.file,
                              "line": r.mutant.line, "function": r.mutant.function, "operator": r.mutant.operator,
                              "diff": diff_of(root, r.mutant), "first_difference": r.first_difference})
    killed = [{"id": r.mutant.id, "key": r.mutant.key, "killed_by": r.killed_by, "seconds": round(r.seconds, 2),
               "round": r.round}
              for r in sorted(results.values(), key=lambda r: r.mutant.id) if r.status == "killed"]
    by_property: Dict[str, int] = {}
    for k in killed:
        by_property[k["killed_by"]] = by_property.get(k["killed_by"], 0) + 1
    return {
        "format": "deskcheck-mutate-model/1",
        "seed": a.seed, "cases": a.cases, "reach_cases": max(a.reach_cases, a.cases), "slices": a.slices,
        "survivor_slices": max(a.slices, a.survivor_slices),
        "killed_in_round_2": len([k for k in killed if k["round"] == 2]),
        "r0_cases": a.r0_cases, "jobs": a.jobs, "sample": a.sample,
        "files": files,
        "mutants": len(mutants),
        "counts": dict(sorted(total.items())),
        "score": score(total),
        "score_note": "killed / (killed + survived + equivalent? + not reached); explained, not compiled and not "
                      "sampled mutants are left out",
        "per_file": tally(lambda m: m.file),
        "per_operator": tally(lambda m: m.operator),
        "killed_by": dict(sorted(by_property.items(), key=lambda kv: -kv[1])),
        "seconds": {k: round(v, 1) for k, v in times.items()},
        "runs_per_second": round(runs / times["run"], 2) if times["run"] > 0 else None,
        "points_not_made_overlap": overlaps,
        "skipped_functions": skipped,
        "survivors": survivors,
        "unexplained_survivors": len([s for s in survivors]),
        "stale_explanations": stale,
        "killed": killed,
    }


def print_report(r: dict) -> None:
    c = r["counts"]
    print(f"mutate-model: {r['mutants']} mutants in {len(r['files'])} files, seed {r['seed']}; each runs the first "
          f"{r['slices']} slice(s) of {r['cases']} cases of each rule set's campaign that reach it, a survivor up to "
          f"{r['survivor_slices']} (reach measured over {r['reach_cases']} cases)")
    print("  " + ", ".join(f"{k} {v}" for k, v in c.items()))
    print(f"  score {r['score']} % ({r['score_note']}); {r['killed_in_round_2']} killed only by a survivor's "
          f"further slices")
    s = r["seconds"]
    print(f"  time: points {s['points']} s, build {s['build']} s, baseline {s['baseline']} s, mutants {s['run']} s "
          f"({r['runs_per_second']} mutants/s)")
    print("\nper file:")
    for f, t in r["per_file"].items():
        print(f"  {f:28s} score {str(t['score']):>5s}  " + ", ".join(f"{k} {v}" for k, v in t.items() if k != "score"))
    print("\nper operator:")
    for f, t in r["per_operator"].items():
        print(f"  {f:28s} score {str(t['score']):>5s}  " + ", ".join(f"{k} {v}" for k, v in t.items() if k != "score"))
    print("\nkilled by:")
    for k, v in list(r["killed_by"].items())[:15]:
        print(f"  {v:5d}  {k}")
    if r["survivors"]:
        print(f"\n{len(r['survivors'])} unexplained survivors (corpus/mutate-model/explained.json explains the others):")
        for sv in r["survivors"]:
            fd = sv["first_difference"]
            where = ""
            if fd and "case" in fd:
                seed = f" (case seed {fd['case_seed']})" if "case_seed" in fd else ""
                where = (f"    behaves differently first at {fd['command']} case {fd['case']}{seed};"
                         f" {'a property judged it' if fd['judged'] else 'no property judged it'}\n"
                         f"    rerun: {fd['rerun']}" + (f"\n    timelines: {fd['look']}" if "look" in fd else ""))
            elif fd:
                where = f"    {fd['command']}: {fd['what']}"
            print(f"  #{sv['id']} {sv['status']} {sv['operator']} in {sv['function']}\n    " +
                  sv["diff"].replace("\n", "\n    ") + ("\n" + where if where else ""))
    if r["stale_explanations"]:
        print(f"\n{len(r['stale_explanations'])} explanations name no mutant any more (stale):")
        for k in r["stale_explanations"]:
            print(f"  {k}")
