"""Command line of the Monte-Carlo engine: ``python -m simulations list | run | resume | status | upgrade | audit``.

    list [EXPERIMENT] [--json | --csv]     experiments, the results they validate, and the audit targets;
                                           with EXPERIMENT: its parameters, defaults and their meaning
    run EXPERIMENT --trials N [--seed S] [--workers W | --scheduler ADDR] --out DIR [--param key=value ...]
                                           a staged experiment (an adaptive search, e.g. thm10_looseness) runs
                                           one run directory per stage, DIR/stage-KK (simulations.stages)
    resume DIR [--workers W | --scheduler ADDR] [--experiment MODULE]
    status DIR [--json]                    exit 2 (one line) when the directory is corrupt; the verdict is
                                           recomputed from the records every time (never read back)
    upgrade DIR                            a run directory of an older format, rewritten as the current one
                                           once every record is checked to carry the run's digest
    audit TARGET [--samples N] [--seed S] [--epsilon E] [--delta D] [--confidence C] [--json] [--out DIR]
                                           (--eps is an alias of --epsilon; --delta only for targets declaring one)
    audit --all [TARGET ...] [--workers W] [--samples N] [--seed S] [--confidence C] [--json] [--out DIR]
                                           --out saves each result as DIR/audit-TARGET.json (AUDIT_FORMAT;
                                           the reports read it); an existing file of that name is an error.
                                           --all audits every target (or those named) at its defaults with one
                                           family-wise confidence (Bonferroni) and prints one statement for all.
                                           Exit status 1 when a target declared private is flagged or a
                                           deliberately broken one is not caught; 0 when all are as expected.

Bad arguments: one line on stderr, exit status 2, nothing written (bounds.cli_common). An existing non-empty
--out is an error, and so is an --out inside the repository's sources or a .git directory. Limits on what a user
sizes, each raised by the option its message names: --max-trials, --max-workers, --max-param-magnitude,
--max-samples. Run directories are untrusted input (simulations.store, simulations.runner).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from bounds import cli_common as cli
from simulations import contract, experiments, runner

DEFAULT_CONFIDENCE = 0.95  # simulations.audit.DEFAULT_CONFIDENCE; audit (and scipy.stats) is imported only when used
PROG = "python -m simulations"
#: default limits on what a user sizes (each raised by the option named in its message)
MAX_SAMPLES = 10_000_000          # audit outputs per neighbour (--max-samples)
MAX_AUDIT_EPS = 50.0              # a declared eps above this certifies nothing (e^eps overflows soon after)
MAX_PARAM_MAGNITUDE = 10_000_000  # |value| of a numeric --param (--max-param-magnitude)
WORKERS_PER_CORE = 4              # --workers above this many per core (--max-workers)

_UsageError = cli.UsageError  # the name older callers import


def _positive_int(name, high=None, raise_with=""):
    return cli.int_arg(name, 1, high, raise_with)


_seed = cli.int_arg("seed", 0, 2**128 - 1)
_path = lambda name: cli.text_arg(name, ": give a directory")  # noqa: E731
_nonempty = cli.text_arg


def _add_backend(p) -> None:
    p.add_argument("--workers", type=_positive_int("workers"), default=None,
                   help=f"local processes (default: CPU count; at most {WORKERS_PER_CORE} per core unless "
                        f"--max-workers)")
    p.add_argument("--max-workers", type=_positive_int("max-workers", 100_000), default=None,
                   help="raise the limit on --workers")
    p.add_argument("--scheduler", type=cli.text_arg("--scheduler"), default=None,
                   help="Dask scheduler address, e.g. tcp://host:8786 (instead of --workers)")
    p.add_argument("--chunk-size", type=_positive_int("chunk-size", runner.MAX_TRIALS), default=None,
                   help="trials per task sent to a worker (default: about 16 tasks per worker, at most 256 trials)")


def build_parser() -> argparse.ArgumentParser:
    p = cli.Parser(prog=PROG, description="Monte-Carlo validation of the results, and privacy audits.")
    cli.add_version(p)
    sub = p.add_subparsers(dest="command", required=True, parser_class=cli.Parser)

    ls = sub.add_parser("list", help="experiments, the results they validate, and the audit targets")
    ls.add_argument("experiment", nargs="?", default=None, type=cli.text_arg("experiment"),
                    help="show this experiment's parameters and defaults")
    cli.add_output(ls)

    r = sub.add_parser("run", help="run an experiment into a new run directory")
    r.add_argument("experiment", type=_nonempty("experiment"),
                   help="experiment name, result id (thm10) or dotted module path")
    r.add_argument("--trials", type=_positive_int("trials"), required=True,
                   help=f"number of trials (at most --max-trials, default {runner.MAX_TRIALS:,})")
    r.add_argument("--max-trials", type=_positive_int("max-trials"), default=None,
                   help="raise the limit on --trials (memory and one record line per trial)")
    r.add_argument("--seed", type=_seed, default=None, help="root seed (default: fresh entropy, recorded)")
    _add_backend(r)
    r.add_argument("--out", type=cli.out_arg("--out"), required=True,
                   help="new run directory (must not exist or be empty; not inside the repository's sources)")
    r.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="override a parameter (`list EXPERIMENT` shows them); repeat for several")
    r.add_argument("--max-param-magnitude", type=cli.float_arg("max-param-magnitude", 1), default=None,
                   help=f"raise the limit on numeric --param values (default {MAX_PARAM_MAGNITUDE:,} in magnitude)")

    s = sub.add_parser("resume", help="run the missing trials of a run directory")
    s.add_argument("dir", type=_path("the run directory"), help="the run directory (or staged search directory)")
    _add_backend(s)
    s.add_argument("--max-trials", type=_positive_int("max-trials"), default=None,
                   help=f"accept a manifest asking for more than {runner.MAX_TRIALS:,} trials")
    s.add_argument("--experiment", type=cli.text_arg("--experiment"), default=None,
                   help="module of an experiment outside the registry, if you trust it (the manifest's module "
                        "path is never imported)")

    st = sub.add_parser("status", help="progress and summary of a run directory, judged by its records")
    st.add_argument("dir", type=_path("the run directory"), help="the run directory (or staged search directory)")
    st.add_argument("--json", action="store_true", help="print JSON instead of text")
    st.add_argument("--max-trials", type=_positive_int("max-trials"), default=None,
                    help=f"accept a manifest asking for more than {runner.MAX_TRIALS:,} trials")
    st.add_argument("--experiment", type=cli.text_arg("--experiment"), default=None,
                    help="module of an experiment outside the registry, if you trust it (for a partial summary)")

    u = sub.add_parser("upgrade", help="rewrite a run directory of an older format as the current one, after "
                                       "checking every record carries the run's digest")
    u.add_argument("dir", type=_path("the run directory"), help="the run directory")

    a = sub.add_parser("audit", help="empirical privacy audit of a registered target (or --all)")
    a.add_argument("target", nargs="*", type=cli.text_arg("target"),
                   help="target name (with --all: optional subset, each at most once)")
    a.add_argument("--all", action="store_true", help="audit every target with one family-wise confidence")
    a.add_argument("--workers", type=_positive_int("workers"), default=1,
                   help=f"with --all: processes auditing targets side by side (default 1; the same results for any "
                        f"number; at most {WORKERS_PER_CORE} per core)")
    a.add_argument("--samples", type=_positive_int("samples"), default=None,
                   help=f"outputs per neighbour (target default if omitted; at most {MAX_SAMPLES:,} unless "
                        f"--max-samples)")
    a.add_argument("--max-samples", type=_positive_int("max-samples"), default=None,
                   help="raise the limit on --samples")
    a.add_argument("--seed", type=_seed, default=0, help="seed of the audit's draws (default 0)")
    a.add_argument("--epsilon", "--eps", dest="eps", default=None,
                   type=cli.float_arg("epsilon", 0.0, MAX_AUDIT_EPS, open_low=True),
                   help=f"declared epsilon (target default if omitted; in (0, {MAX_AUDIT_EPS:g}]); --eps is an alias")
    a.add_argument("--delta", type=cli.float_arg("delta", 0.0, 1.0, open_high=True), default=None,
                   help="declared delta in [0, 1) (target default if omitted; only for targets that declare a delta)")
    a.add_argument("--confidence", type=cli.float_arg("confidence", 0.0, 1.0, open_low=True, open_high=True),
                   default=DEFAULT_CONFIDENCE, help=f"confidence of the lower bounds (default {DEFAULT_CONFIDENCE})")
    cli.add_output(a)
    a.add_argument("--out", type=cli.out_arg("--out"), default=None,
                   help="directory to save the result in, as audit-TARGET.json")
    return p


def _check_workers(args) -> None:
    """--workers within WORKERS_PER_CORE per core unless --max-workers raises it; not with --scheduler.
    With --scheduler, Dask's own log lines (tracebacks when the scheduler goes away) are silenced: the
    command line says what happened in one line."""
    if args.scheduler is not None and args.workers is not None:
        raise ValueError("give --workers or --scheduler, not both")
    if args.scheduler is not None:
        _quiet_dask_logs()
    limit = args.max_workers or WORKERS_PER_CORE * (os.cpu_count() or 1)
    if args.workers is not None and args.workers > limit:
        raise ValueError(f"--workers {args.workers} is above the limit of {limit} ({WORKERS_PER_CORE} per core on "
                         f"{os.cpu_count()} cores); raise it with --max-workers {args.workers}")


def _quiet_dask_logs() -> None:
    """Route Dask's, tornado's and asyncio's log records nowhere (after importing distributed, whose
    import installs its handlers and levels)."""
    import logging

    try:
        import distributed  # noqa: F401
    except ImportError:
        return  # runner.connect says what to install
    prefixes = ("distributed", "tornado", "asyncio")
    names = [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in prefixes]
    for name in set(names) | set(prefixes):
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.addHandler(logging.NullHandler())
        logger.propagate = False


def _check_overrides(overrides: dict, limit: float | None) -> None:
    """Numeric --param values (and each item of a list) at most ``limit`` in magnitude: experiment sizes such
    as k or n are allocated, so a typo like k=1e9 is refused before anything runs."""
    limit = MAX_PARAM_MAGNITUDE if limit is None else limit
    for key, text in overrides.items():
        for item in str(text).split(","):
            item = item.strip()
            digits = item.lstrip("+-").replace("_", "")
            if digits.isdigit() and len(digits) > 30:
                raise ValueError(f"--param {key}={item[:20]}...: {len(digits)} digits; at most {limit:g} in magnitude "
                                 f"(raise with --max-param-magnitude)")
            try:
                value = float(item)
            except ValueError:
                continue
            if value != value or abs(value) > limit:
                raise ValueError(f"--param {key}={item}: above the limit of {limit:g} in magnitude for a parameter "
                                 f"value; raise it with --max-param-magnitude if you mean it")


def _show_experiment(args) -> int:
    import dataclasses

    exp = experiments.get(args.experiment)
    defaults = experiments.default_params(exp)  # not Params(): its checks may compute bounds
    helps = experiments.param_help(exp.params)
    rows = [[f.name, json.dumps(defaults[f.name]), helps.get(f.name, "")] for f in dataclasses.fields(exp.params)]
    o = exp.opponents
    if isinstance(o, contract.NoOpponents):
        opp = f"opponents: none ({o.why})"
    elif isinstance(o, contract.LowerBoundRegime):
        opp = f"opponents: a lower bound's regime flag (tested by {o.tested_by})"
    else:
        opp = "opponents (run on the same draws; informative where all fail): " + "; ".join(
            x.name + (f" ({x.what})" if x.what else "") for x in o)
    text = "\n".join([f"{exp.name} ({', '.join(exp.results)}): {exp.description}",
                      "parameters (--param key=value):"]
                     + [f"  {n:<14} default {d:<24} {h}".rstrip() for n, d, h in rows] + [opp])
    cli.emit(args, rows, ["parameter", "default", "meaning"], text=text)
    return 0


_TARGET_FIELDS = ("name", "source", "description")


def _target_row(name, source, description, private) -> list:
    return ["audit target", name, source, "real" if private else "broken", description]


def _literal_targets(module_name: str) -> list[list] | None:
    """The list rows of one module of simulations.audit_targets read from its source (ast, no import): its
    ``AuditTarget(name, source, description, ..., expect_private=...)`` calls, each with literal values or
    f-strings over the module's literal constants. None if a call is not of that form (e.g. made in a loop);
    the module is then imported. A test keeps the listing equal to the imported registry."""
    import ast
    from pathlib import Path

    import simulations.audit_targets as pkg

    def value(node, consts):
        try:
            return ast.literal_eval(node)
        except ValueError:
            if not isinstance(node, ast.JoinedStr):
                raise
            # an f-string of this package's own source over its literal constants; no builtins
            return eval(compile(ast.Expression(node), "<audit target>", "eval"), {"__builtins__": {}}, dict(consts))

    try:
        tree = ast.parse((Path(pkg.__path__[0]) / f"{module_name}.py").read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return None
    consts = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                consts[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    top = {id(n) for stmt in tree.body if isinstance(stmt, ast.Assign) for n in ast.walk(stmt)}
    rows = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "AuditTarget"):
            continue
        if id(node) not in top:  # inside a loop or a function: only an import can tell
            return None
        try:
            values = [value(a, consts) for a in node.args[:3]]
            kw = {k.arg: k.value for k in node.keywords}
            values += [value(kw[f], consts) for f in _TARGET_FIELDS[len(values):]]
            private = value(kw["expect_private"], consts) if "expect_private" in kw else True
        except (ValueError, KeyError, TypeError, SyntaxError, NameError):
            return None
        rows.append(_target_row(*values, private))
    return rows


def _target_rows(lazy: bool = True) -> list[list]:
    """Every audit target's list row, sorted by name: read from the sources where they are literal (``lazy``),
    else by importing the module (and its algorithms)."""
    import importlib
    import pkgutil

    import simulations.audit_targets as pkg

    rows = []
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("_"):
            continue
        found = _literal_targets(info.name) if lazy else None
        if found is None:
            try:
                module = importlib.import_module(f"{pkg.__name__}.{info.name}")
            except Exception as exc:  # a target whose algorithm is not written yet must not hide the others
                rows.append(["audit target", f"{pkg.__name__}.{info.name}", "", "",
                             f"(unavailable: {type(exc).__name__}: {exc})"])
                continue
            found = [_target_row(t.name, t.source, t.description, t.expect_private)
                     for t in getattr(module, "TARGETS", ())]
        rows += found
    return sorted(rows, key=lambda r: r[1])


def _opponent_rows() -> list:
    """The validation contract's opponents, from ``algorithms.opponents.CATALOGUE``."""
    from algorithms.opponents import CATALOGUE

    return [["opponent", o.name, o.bound or "(sampling error only)", o.guarantee,
             f"without {', '.join(o.lacks)}: {o.description} [{o.classes}]"] for o in CATALOGUE]


def _cmd_list(args) -> int:
    if args.experiment is not None:
        return _show_experiment(args)
    rows = []
    for row in experiments.catalogue(lazy=True):  # names only: no experiment is imported
        rows.append(["experiment", row["name"], ", ".join(row["result_ids"]), "",
                     row["description"] if not row["error"] else f"(unavailable: {row['error']})"])
    rows += _target_rows()
    rows += _opponent_rows()
    text = ["experiments:"]
    text += [f"  {r[1]:<20} {r[2]:<24} {r[4]}" for r in rows if r[0] == "experiment"]
    text += ["audit targets:"]
    text += [f"  {r[1]:<28} {r[3]:<7} {r[2]:<24} {r[4]}" for r in rows if r[0] == "audit target"]
    text += ["opponents (algorithms.opponents: what each does without; its guarantee; its bound):"]
    text += [f"  {r[1]:<17} {r[3]:<8} {r[2]:<26} {r[4]}" for r in rows if r[0] == "opponent"]
    cli.emit(args, rows, ["kind", "name", "results or source", "declared", "description"], text="\n".join(text))
    return 0


def _say(text) -> None:
    """Print a line holding text read from a file: control characters escaped (simulations.store.printable)."""
    from simulations import store

    print(store.printable(text))


def _print_summary(result) -> None:
    _say(f"{result.completed}/{result.trials} trials in {result.path}")
    if result.summary is not None:
        text = result.summary.get("verdict_text") or result.summary.get("verdict")
        _say(f"verdict: {text}")
        from simulations.claims import claim_lines  # the claim list, one line per claim
        for line in claim_lines(result.summary): _say(line)  # noqa: E701


def _print_stages(results) -> None:
    for k, result in enumerate(results):
        _say(f"stage {k}: {result.completed}/{result.trials} trials in {result.path}")
    if results and results[-1].summary is not None:
        s = results[-1].summary
        _say(f"verdict: {s.get('verdict_text') or s.get('verdict')}")


def _cmd_run(args) -> int:
    from simulations import stages

    overrides = experiments.parse_overrides(args.param)
    _check_overrides(overrides, args.max_param_magnitude)
    _check_workers(args)
    module = experiments.get(args.experiment)
    if stages.is_staged_module(module):  # an adaptive search: one run directory per stage
        _print_stages(stages.run(args.experiment, args.trials, args.out, seed=args.seed, overrides=overrides,
                                 workers=args.workers, scheduler=args.scheduler, chunk_size=args.chunk_size,
                                 max_trials=args.max_trials))
        return 0
    result = runner.run(args.experiment, args.trials, args.out, seed=args.seed, overrides=overrides,
                        workers=args.workers, scheduler=args.scheduler, chunk_size=args.chunk_size,
                        max_trials=args.max_trials)
    _print_summary(result)
    return 0


def _cmd_resume(args) -> int:
    from simulations import stages

    _check_workers(args)
    if stages.is_staged(args.dir):
        _print_stages(stages.resume(args.dir, workers=args.workers, scheduler=args.scheduler,
                                    chunk_size=args.chunk_size, max_trials=args.max_trials,
                                    experiment=args.experiment))
        return 0
    result = runner.resume(args.dir, workers=args.workers, scheduler=args.scheduler, chunk_size=args.chunk_size,
                           max_trials=args.max_trials, experiment=args.experiment)
    _print_summary(result)
    return 0


def _cmd_status(args) -> int:
    from simulations import stages

    if stages.is_staged(args.dir):
        info = stages.status(args.dir, max_trials=args.max_trials, experiment=args.experiment)
        if args.json:
            print(json.dumps(info, indent=2, sort_keys=True))
            return _corrupt(args.dir, [p for st in info["stages"] for p in st["problems"]])
        live = any(st["status"] == "running" for st in info["stages"])
        _say(f"staged search {info['experiment']} ({_ids(info['result_ids'])}), seed {info['root_seed']}, "
             f"{info['trials']} trials per stage, {len(info['stages'])} stage(s), "
             f"{'finished' if info['finished'] else 'running now' if live else 'not finished (resume it)'}")
        for k, st in enumerate(info["stages"]):
            text = (st["summary"] or {}).get("verdict_text") or st["state_text"]
            _say(f"stage {k}: {st['completed']}/{st['trials']} trials, {st['elapsed_text']}, {st['state_text']}; "
                 f"{text}")
        return _corrupt(args.dir, [p for st in info["stages"] for p in st["problems"]])
    info = runner.status(args.dir, max_trials=args.max_trials, experiment=args.experiment)
    if args.json:
        print(json.dumps(info, indent=2, sort_keys=True))
        return _corrupt(args.dir, info["problems"])
    _say(f"experiment {info['experiment']} ({_ids(info['result_ids'])}), seed {info['root_seed']}, "
         f"code {info['code_version']}")
    _say(f"params: {json.dumps(info['params'], sort_keys=True)}")
    _say(f"{info['completed']}/{info['trials']} trials done, {info['missing']} missing, "
         f"{info['elapsed_text']} of computing")
    _say(f"status: {info['state_text']}")
    summary = info["summary"]
    if summary is not None:  # recomputed from the records (simulations.store.recompute_summary)
        partial = " (partial: only the finished trials)" if info["summary_partial"] else ""
        _say(f"verdict{partial}: {summary.get('verdict_text') or summary.get('verdict')}")
        from simulations.claims import claim_lines  # the claim list, one line per claim
        for line in claim_lines(summary): _say(line)  # noqa: E701
    elif info["note"]:
        _say(f"verdict: none ({info['note']})")
    return _corrupt(args.dir, info["problems"])


def _cmd_upgrade(args) -> int:
    from simulations import store

    _say(store.upgrade(args.dir))
    return 0


def _ids(ids) -> str:
    """Result ids as read from a (possibly hand-edited) manifest."""
    if isinstance(ids, list) and all(isinstance(i, str) for i in ids):
        return ", ".join(ids)
    return "result ids unreadable"


def _corrupt(path, problems) -> int:
    """status of a directory whose records disagree: what was printed, then one line on stderr, exit 2."""
    if not problems:
        return 0
    more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
    from simulations import store

    print(store.printable(f"{PROG}: error: {path} is corrupt: {problems[0]}{more}"), file=sys.stderr)
    return 2


AUDIT_FORMAT = "simulations-audit/1"


def audit_path(out, target: str):
    """Where ``audit TARGET --out DIR`` saves its result."""
    from pathlib import Path

    return Path(out) / f"audit-{target}.json"


def _audit_record(name, target, result, seed) -> dict:
    from simulations import store

    return {"format": AUDIT_FORMAT, "target": name, "source": target.source, "description": target.description,
            "expect_private": target.expect_private, "seed": seed, "created_at": store.now(),
            "code_version": runner.code_version(), **result.as_dict()}


def _audit_paths(out, names) -> dict:
    """Where each audit is saved; ValueError before anything runs if one exists already."""
    if out is None:
        return {}
    paths = {n: audit_path(out, n) for n in names}
    for path in paths.values():
        if os.path.lexists(path):
            raise ValueError(f"--out {out!r} already holds {path.name}; choose a new directory or remove it")
        if path.parent.exists() and not path.parent.is_dir():
            raise ValueError(f"--out {out!r} exists and is not a directory")
    return paths


def _save_audits(paths, records) -> None:
    from simulations import store

    for name, record in records.items():
        if name in paths:
            store.check_writable(paths[name].parent, "--out")
            store.write_json_atomic(paths[name], record)


def _check_samples(args, targets) -> None:
    limit = args.max_samples or MAX_SAMPLES
    asked = {n: args.samples or t.default_samples for n, t in targets.items()}
    for n, samples in asked.items():
        if samples > limit:
            raise ValueError(f"--samples {samples:,} for {n} is above the limit of {limit:,} outputs per neighbour; "
                             f"raise it with --max-samples {samples}")


_AUDIT_COLUMNS = ["target", "declared", "source", "eps_lower_bound", "declared_eps", "declared_delta",
                  "delta_lower_bound", "minimal_detectable_eps", "violated", "no_power", "as_expected", "samples",
                  "confidence"]


def _audit_csv(records: dict, expected: dict) -> None:
    """One CSV row per audit (the table that --all prints as lines)."""
    rows = [[r["target"], "real" if r["expect_private"] else "broken", r["source"], r["eps_lower_bound"],
             r["declared_eps"], r["declared_delta"], r["delta_lower_bound"], r["minimal_detectable_eps"],
             r["violated"], r["no_power"], expected[n], r["samples"], r["confidence"]] for n, r in records.items()]
    cli.write_csv(rows, _AUDIT_COLUMNS)


def _cmd_audit(args) -> int:
    from simulations import audit as _audit

    if args.all:
        if args.eps is not None or args.delta is not None:
            raise ValueError("--epsilon and --delta apply to one target; --all audits each at its own declared "
                             "guarantee")
        twice = sorted({n for n in args.target if args.target.count(n) > 1})
        if twice:
            raise ValueError(
                f"audit --all names {', '.join(twice)} more than once (each target enters the family once)")
        known = _audit.targets()
        for n in args.target:
            _audit.get_target(n)
        names = list(args.target) or sorted(known)
        _check_samples(args, {n: known[n] for n in names})
        paths = _audit_paths(args.out, names)
        limit = WORKERS_PER_CORE * (os.cpu_count() or 1)
        if args.workers > limit:
            raise ValueError(f"--workers {args.workers} is above the limit of {limit} ({WORKERS_PER_CORE} per core on "
                             f"{os.cpu_count()} cores)")
        family = _audit.audit_all(names, seed=args.seed, confidence=args.confidence, samples=args.samples,
                                  progress=sys.stderr.isatty(), workers=args.workers)
        records = {n: _audit_record(n, t, r, args.seed) for n, t, r in family.results}
        if args.json:
            print(json.dumps({"statement": family.statement(), "confidence": family.confidence,
                              "per_audit_confidence": family.per_audit_confidence,
                              "unexpected": family.unexpected, "audits": list(records.values())},
                             indent=2, sort_keys=True))
        elif args.csv:
            _audit_csv(records, {n: _audit.as_expected(t, r) for n, t, r in family.results})
        else:
            for n, t, r in family.results:
                tag = "ok " if _audit.as_expected(t, r) else "BAD"
                print(f"{tag} {n} [{'real' if t.expect_private else 'broken'}] ({t.source}): {r}")
            print(family.statement())
        _save_audits(paths, records)
        return 1 if family.unexpected else 0
    if len(args.target) != 1:
        raise ValueError(f"audit takes one TARGET (or --all [TARGET ...]), got {len(args.target)}")
    name = args.target[0]
    target = _audit.get_target(name)
    if args.delta not in (None, 0.0) and not target.default_delta:
        raise ValueError(f"--delta {args.delta:g}: target {name} declares pure epsilon-DP (delta 0) and its "
                         "mechanism takes no delta; omit --delta")
    _check_samples(args, {name: target})
    paths = _audit_paths(args.out, [name])
    result = _audit.run_target(name, samples=args.samples, seed=args.seed, eps=args.eps, delta=args.delta,
                               confidence=args.confidence)
    record = _audit_record(name, target, result, args.seed)
    if args.json:
        print(json.dumps({k: v for k, v in record.items() if k not in ("format", "created_at", "code_version")},
                         indent=2, sort_keys=True))
    elif args.csv:
        _audit_csv({name: record}, {name: _audit.as_expected(target, result)})
    else:
        print(f"{name} ({target.source}): {result}")
    _save_audits(paths, {name: record})
    return 0 if _audit.as_expected(target, result) else 1


COMMANDS = {"list": _cmd_list, "run": _cmd_run, "resume": _cmd_resume, "status": _cmd_status, "audit": _cmd_audit,
            "upgrade": _cmd_upgrade}


def _main(argv) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted (finished trials are saved; use resume)", file=sys.stderr)
        return 130
    except ValueError as exc:  # its message may quote a file's content (a lock's host, a key): escaped
        from simulations import store

        raise ValueError(store.printable(cli.one_line(exc))) from None


def main(argv=None) -> int:
    return cli.run(PROG, _main, argv)


if __name__ == "__main__":
    sys.exit(main())
