"""Command line of the Monte-Carlo engine: ``python -m simulations list | run | resume | status | audit``.

    list [EXPERIMENT]                      experiments, the results they validate, and the audit targets;
                                           with EXPERIMENT: its parameters, defaults and their meaning
    run EXPERIMENT --trials N [--seed S] [--workers W | --scheduler ADDR] --out DIR [--param key=value ...]
                                           a staged experiment (an adaptive search, e.g. thm10_looseness) runs
                                           one run directory per stage, DIR/stage-KK (simulations.stages)
    resume DIR [--workers W | --scheduler ADDR]
    status DIR [--json]
    audit TARGET [--samples N] [--seed S] [--eps E] [--delta D] [--confidence C] [--json] [--out DIR]
    audit --all [TARGET ...] [--samples N] [--seed S] [--confidence C] [--json] [--out DIR]
                                           --out saves each result as DIR/audit-TARGET.json (AUDIT_FORMAT;
                                           the reports read it); an existing file of that name is an error.
                                           --all audits every target (or those named) at its defaults with one
                                           family-wise confidence (Bonferroni) and prints one statement for all.
                                           Exit status 1 when a target declared private is flagged or a
                                           deliberately broken one is not caught; 0 when all are as expected.

Bad arguments: one line on stderr, exit status 2, nothing written. An existing non-empty --out is an error.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from simulations import experiments, runner

DEFAULT_CONFIDENCE = 0.95  # simulations.audit.DEFAULT_CONFIDENCE; audit (and scipy.stats) is imported only when used


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit status 2 (argparse's default prints the usage too)
        raise _UsageError(f"{self.prog}: error: {message}")


class _UsageError(Exception):
    pass


def _int_at_least(name, low):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low:
            raise argparse.ArgumentTypeError(f"{name}={text!r} must be an integer >= {low}")
        return value

    return parse


def _positive_int(name):
    return _int_at_least(name, 1)


_seed = _int_at_least("seed", 0)


def _float(name):
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value):  # nan and inf are no parameter values
            raise argparse.ArgumentTypeError(f"{name}={text!r} must be a finite number")
        return value

    return parse


def _nonempty(name, hint=""):
    """A path or name argument: an empty path would silently mean the current directory."""
    def parse(text):
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{name} is empty{hint}")
        return text

    return parse


def _path(name):
    return _nonempty(name, ": give a directory")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m simulations", description="Monte-Carlo validation of the results, and privacy audits.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    ls = sub.add_parser("list", help="experiments, the results they validate, and the audit targets")
    ls.add_argument("experiment", nargs="?", default=None, help="show this experiment's parameters and defaults")

    r = sub.add_parser("run", help="run an experiment into a new run directory")
    r.add_argument("experiment", type=_nonempty("experiment"),
                   help="experiment name, result id (thm10) or dotted module path")
    r.add_argument("--trials", type=_positive_int("trials"), required=True,
                   help=f"number of trials (at most --max-trials, default {runner.MAX_TRIALS:,})")
    r.add_argument("--max-trials", type=_positive_int("max-trials"), default=None,
                   help="raise the limit on --trials (memory and one record line per trial)")
    r.add_argument("--seed", type=_seed, default=None, help="root seed (default: fresh entropy, recorded)")
    r.add_argument("--workers", type=_positive_int("workers"), default=None, help="local processes (default: CPU count)")
    r.add_argument("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786")
    r.add_argument("--out", type=_path("--out"), required=True,
                   help="new run directory (must not exist or be empty)")
    r.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="override a parameter")
    r.add_argument("--chunk-size", type=_positive_int("chunk-size"), default=None)

    s = sub.add_parser("resume", help="run the missing trials of a run directory")
    s.add_argument("dir", type=_path("the run directory"))
    s.add_argument("--workers", type=_positive_int("workers"), default=None)
    s.add_argument("--scheduler", default=None)
    s.add_argument("--chunk-size", type=_positive_int("chunk-size"), default=None)

    st = sub.add_parser("status", help="progress and summary of a run directory, judged by its records")
    st.add_argument("dir", type=_path("the run directory"))
    st.add_argument("--json", action="store_true")

    a = sub.add_parser("audit", help="empirical privacy audit of a registered target (or --all)")
    a.add_argument("target", nargs="*", help="target name (with --all: optional subset)")
    a.add_argument("--all", action="store_true", help="audit every target with one family-wise confidence")
    a.add_argument("--samples", type=_positive_int("samples"), default=None, help="outputs per neighbour")
    a.add_argument("--seed", type=_seed, default=0)
    a.add_argument("--eps", type=_float("eps"), default=None, help="declared eps (target default if omitted)")
    a.add_argument("--delta", type=_float("delta"), default=None, help="declared delta (target default if omitted)")
    a.add_argument("--confidence", type=_float("confidence"), default=DEFAULT_CONFIDENCE)
    a.add_argument("--json", action="store_true")
    a.add_argument("--out", default=None, help="directory to save the result in, as audit-TARGET.json")
    return p


def _show_experiment(name: str) -> int:
    import dataclasses

    module = experiments.get(name)
    defaults = module.Params()
    helps = getattr(module, "PARAM_HELP", {})
    print(f"{module.NAME} ({', '.join(module.RESULT_IDS)}): {module.DESCRIPTION}")
    print("parameters (--param key=value):")
    for f in dataclasses.fields(module.Params):
        value = experiments.params_to_dict(defaults)[f.name]
        print(f"  {f.name:<14} default {json.dumps(value):<24} {helps.get(f.name, '')}")
    return 0


def _cmd_list(args) -> int:
    from simulations import audit as _audit

    if args.experiment is not None:
        return _show_experiment(args.experiment)
    print("experiments:")
    for row in experiments.catalogue(lazy=True):  # names only: no experiment is imported
        if row["error"]:
            print(f"  {row['name']:<20} (unavailable: {row['error']})")
        else:
            print(f"  {row['name']:<20} {', '.join(row['result_ids']):<24} {row['description']}")
    print("audit targets:")
    for name, t in _audit.targets().items():
        kind = "real" if t.expect_private else "broken"
        print(f"  {name:<28} {kind:<7} {t.source:<24} {t.description}")
    for module, err in _audit.target_errors().items():
        print(f"  ({module} unavailable: {err})")
    return 0


def _print_summary(result) -> None:
    print(f"{result.completed}/{result.trials} trials in {result.path}")
    if result.summary is not None:
        text = result.summary.get("verdict_text") or result.summary.get("verdict")
        print(f"verdict: {text}")
        from reports.claims import claim_lines  # the claim list, one line per claim
        for line in claim_lines(result.summary): print(line)  # noqa: E701


def _print_stages(results) -> None:
    for k, result in enumerate(results):
        print(f"stage {k}: {result.completed}/{result.trials} trials in {result.path}")
    if results and results[-1].summary is not None:
        s = results[-1].summary
        print(f"verdict: {s.get('verdict_text') or s.get('verdict')}")


def _cmd_run(args) -> int:
    from simulations import stages

    overrides = experiments.parse_overrides(args.param)
    if args.scheduler is not None and args.workers is not None:
        raise ValueError("give --workers or --scheduler, not both")
    if stages.is_staged_module(experiments.get(args.experiment)):  # an adaptive search: one run directory per stage
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

    if args.scheduler is not None and args.workers is not None:
        raise ValueError("give --workers or --scheduler, not both")
    if stages.is_staged(args.dir):
        _print_stages(stages.resume(args.dir, workers=args.workers, scheduler=args.scheduler,
                                    chunk_size=args.chunk_size))
        return 0
    result = runner.resume(args.dir, workers=args.workers, scheduler=args.scheduler, chunk_size=args.chunk_size)
    _print_summary(result)
    return 0


def _cmd_status(args) -> int:
    from simulations import stages

    if stages.is_staged(args.dir):
        info = stages.status(args.dir)
        if args.json:
            print(json.dumps(info, indent=2, sort_keys=True))
            return 0
        print(f"staged search {info['experiment']} ({', '.join(info['result_ids'])}), seed {info['root_seed']}, "
              f"{info['trials']} trials per stage, {len(info['stages'])} stage(s), "
              f"{'finished' if info['finished'] else 'not finished (resume it)'}")
        for k, st in enumerate(info["stages"]):
            text = (st["summary"] or {}).get("verdict_text") or st["state_text"]
            print(f"stage {k}: {st['completed']}/{st['trials']} trials, {st['state_text']}; {text}")
        return 0
    info = runner.status(args.dir)
    if args.json:
        print(json.dumps(info, indent=2, sort_keys=True))
        return 0
    print(f"experiment {info['experiment']} ({', '.join(info['result_ids'])}), seed {info['root_seed']}, "
          f"code {info['code_version']}")
    print(f"params: {json.dumps(info['params'], sort_keys=True)}")
    print(f"{info['completed']}/{info['trials']} trials done, {info['missing']} missing, "
          f"{info['elapsed_seconds']:.2f}s of running")
    print(f"status: {info['state_text']}")
    summary = info["summary"]
    if summary is not None:
        partial = " (partial: only the finished trials)" if info["summary_partial"] else ""
        print(f"verdict{partial}: {summary.get('verdict_text') or summary.get('verdict')}")
        from reports.claims import claim_lines  # the claim list, one line per claim
        for line in claim_lines(summary): print(line)  # noqa: E701
    return 0


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
        if path.exists():
            raise ValueError(f"--out {out!r} already holds {path.name}; choose a new directory or remove it")
        if path.parent.exists() and not path.parent.is_dir():
            raise ValueError(f"--out {out!r} exists and is not a directory")
    return paths


def _save_audits(paths, records) -> None:
    from simulations import store

    for name, record in records.items():
        if name in paths:
            paths[name].parent.mkdir(parents=True, exist_ok=True)
            store.write_json_atomic(paths[name], record)


def _cmd_audit(args) -> int:
    from simulations import audit as _audit

    if not (0 < args.confidence < 1):
        raise ValueError(f"confidence={args.confidence!r} must lie in (0, 1)")
    if args.all:
        if args.eps is not None or args.delta is not None:
            raise ValueError("--eps and --delta apply to one target; --all audits each at its own declared guarantee")
        known = _audit.targets()
        for n in args.target:
            _audit.get_target(n)
        names = list(args.target) or sorted(known)
        paths = _audit_paths(args.out, names)
        family = _audit.audit_all(names, seed=args.seed, confidence=args.confidence, samples=args.samples,
                                  progress=sys.stderr.isatty())
        records = {n: _audit_record(n, t, r, args.seed) for n, t, r in family.results}
        if args.json:
            print(json.dumps({"statement": family.statement(), "confidence": family.confidence,
                              "per_audit_confidence": family.per_audit_confidence,
                              "unexpected": family.unexpected, "audits": list(records.values())},
                             indent=2, sort_keys=True))
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
    paths = _audit_paths(args.out, [name])
    result = _audit.run_target(name, samples=args.samples, seed=args.seed, eps=args.eps, delta=args.delta,
                               confidence=args.confidence)
    record = _audit_record(name, target, result, args.seed)
    if args.json:
        print(json.dumps({k: v for k, v in record.items() if k not in ("format", "created_at", "code_version")},
                         indent=2, sort_keys=True))
    else:
        print(f"{name} ({target.source}): {result}")
    _save_audits(paths, {name: record})
    return 0 if _audit.as_expected(target, result) else 1


COMMANDS = {"list": _cmd_list, "run": _cmd_run, "resume": _cmd_resume, "status": _cmd_status, "audit": _cmd_audit}


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except _UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"python -m simulations: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
        return 0
    except OSError as exc:  # a write the command did not anticipate (read-only or full disk)
        from simulations.store import os_error

        print(f"python -m simulations: error: {os_error(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("python -m simulations: interrupted (finished trials are saved; use resume)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
