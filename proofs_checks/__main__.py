"""python -m proofs_checks [--paper KEY] [--json | --csv] [--strict] [--errata] [--list] [--thorough] [--out DIR]

Runs every machine check of the papers' proof steps and prints a table of checks and verdicts.
Exit status: 0 when every check produced a verdict (a failing step of a paper is a finding, not an
error of the tool); with --strict, 1 when any step fails (or holds only on part of its domain); 2 on
bad arguments (one line on stderr); 3 when a check itself crashed (named on stderr).
"""
from __future__ import annotations

import argparse
import json
import sys

from bounds import cli_common as cli
from bounds.references import cite


PAPERS = {"bcmnuw20": "BCMNUW20", "abm19": "ABM19", "lvsuw21": "LVSUW21", "nb20": "NB20"}  # proofs_checks.core.PAPERS

#: the file ``--out DIR`` writes and ``python -m reports build`` reads (reports/sections/proof_checks.py)
SAVED = "proofs_checks.json"


PROG = "python -m proofs_checks"


def _parser() -> argparse.ArgumentParser:
    p = cli.Parser(prog=PROG, description=__doc__.splitlines()[2])
    cli.add_version(p)
    p.add_argument("--paper", type=cli.text_arg("--paper"), help=f"one paper: {', '.join(PAPERS)}")
    cli.add_output(p)
    p.add_argument("--strict", action="store_true", help="exit 1 if any step fails or holds only on part")
    p.add_argument("--errata", action="store_true", help="the errata report instead of the checks table")
    p.add_argument("--list", action="store_true", help="list the checks without running them")
    p.add_argument("--out", type=cli.out_arg("--out"), default=None, metavar="DIR",
                   help="also save the verdicts as DIR/proofs_checks.json (what `python -m reports build` reads; "
                        "DIR is usually the results directory)")
    p.add_argument("--thorough", action="store_true",
                   help="3x denser grids per variable (at most 5x the points), 5x more hypothesis examples and 5x the "
                        "interval prover's budget of boxes and seconds (slower; the default is sized for CI)")
    return p


def _cell(s: str, width: int) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= width else s[: width - 1] + "…"


def _detail(r) -> str:
    v = r.verdict
    detail = v.summary
    if v.region:
        detail += f"; region: {v.region}"
    if v.counterexample:
        cx = ", ".join(f"{k}={_fmt(x)}" for k, x in list(v.counterexample.items())[:6])
        detail += f"; counterexample: {cx}"
    if r.check.errata:
        detail += f"; errata: {', '.join(r.check.errata)}"
    return detail


def _table(results) -> str:
    from .core import STATUSES

    rows = [f"{'check':42} {'verdict':23} {'method':26} {'s':>5}  detail"]
    for r in results:
        v = r.verdict
        rows.append(
            f"{r.check.id:42} {v.status:23} {_cell(v.method, 26):26} {r.seconds:5.2f}  {_cell(_detail(r), 160)}")
    counts = {s: sum(r.verdict.status == s for r in results) for s in STATUSES}
    counts = {s: n for s, n in counts.items() if n}
    rows.append("")
    rows.append(f"{len(results)} checks: " + ", ".join(f"{n} {s}" for s, n in counts.items()))
    return "\n".join(rows)


def _fmt(x) -> str:
    if isinstance(x, float):
        return f"{x:.4g}"
    return str(x)


def _errata_text(entries) -> str:
    from .errata import ERRATA

    out = []
    paper = None
    for e in entries:
        if e["paper"] != paper:
            paper = e["paper"]
            out.append(f"\n== {paper} ==")
        verified = ", ".join(f"{c}: {s or 'not run'}" for c, s in e["checks"].items())
        out.append(f"- {e['heading']}" + (f"\n    errata: {', '.join(e['errata'])}" if e["errata"] else "")
                   + (f"\n    checks: {verified}" if verified else "\n    checks: none (decided by the argument or "
                                                                   "tests in docs/ERRATA.md)"))
    out.append("\n== errata found or verified by the checks ==")
    for e in (e for e in ERRATA if e.checks):
        out.append(f"- [{e.id}] {e.paper}, {e.location} ({e.severity})\n    printed: {e.printed}\n"
                   f"    right:   {e.corrected}\n    verified: {e.verified}")
    return "\n".join(out).lstrip("\n")


def _print(text: str) -> None:
    """Output names papers by key, never by the hashed file names of their texts."""
    print(cite(text))


def _csv(rows, header) -> None:
    import io

    buf = io.StringIO()
    cli.write_csv(rows, header, buf)
    _print(buf.getvalue().rstrip("\n"))


def run_all(paper=None):
    """proofs_checks.core.run_all, imported on first use (``--list`` and ``--help`` import no check)."""
    from .core import run_all as run

    return run(paper)


def main(argv=None) -> int:
    return cli.run(PROG, _main, argv, prefix="proofs_checks: ")


def _main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.errata and args.csv:
        raise cli.UsageError(f"{PROG}: error: --csv prints a table of checks; --errata prints text or --json")
    try:
        if args.paper is not None and args.paper.strip().lower() not in PAPERS:
            raise ValueError(f"paper={args.paper!r}: allowed {', '.join(PAPERS)}")
        if args.list:  # by declaration (proofs_checks/checks.json): no paper module is imported
            from .declared import declarations

            label = PAPERS[args.paper.strip().lower()] if args.paper is not None else None
            checks = [r for r in declarations() if label is None or r["paper"] == label]
            if args.json:
                _print(json.dumps([{k: r[k] for k in ("id", "paper", "result", "claim", "source", "method")}
                                   for r in checks], indent=1))
            elif args.csv:
                _csv([[r["id"], r["paper"], r["result"], r["method"], r["claim"]] for r in checks],
                     ["id", "paper", "result", "method", "claim"])
            else:
                for r in checks:
                    _print(f"{r['id']:42} {r['method']:26} {r['claim']}")
            return 0
        from .core import SETTINGS
        from .errata import report

        if args.thorough:
            from .certify import BUDGET

            BUDGET["boxes"] *= 5
            BUDGET["seconds"] *= 5
            SETTINGS["max_points"] *= 5
            SETTINGS["examples"] *= 5
            SETTINGS["grid_scale"] = 3

        target = None
        if args.out is not None:
            from bounds.files import check_writable

            target = check_writable(args.out, "--out") / SAVED  # before running any check
        results = run_all(args.paper)
        if target is not None:
            from bounds.files import os_error, write_json_atomic

            try:
                write_json_atomic(target, json.loads(cite(json.dumps([r.to_dict() for r in results]))))
            except OSError as exc:
                raise os_error(exc, target) from None
    except ValueError as exc:
        sys.stderr.write(f"proofs_checks: {cli.one_line(exc)}\n")
        return 2
    if args.errata:
        from .errata import ERRATA, as_dict

        entries = report(results)
        if args.paper is not None:
            entries = [e for e in entries if e["paper"] == PAPERS[args.paper.strip().lower()]]
        if args.json:
            _print(json.dumps({"entries": entries, "errata": [as_dict(e) for e in ERRATA
                                                              if args.paper is None
                                                              or e.paper == PAPERS[args.paper.strip().lower()]]},
                             indent=1))
        else:
            _print(_errata_text(entries))
    elif args.json:
        _print(json.dumps([r.to_dict() for r in results], indent=1))
    elif args.csv:
        _csv([[r.check.id, r.verdict.status, r.verdict.method, f"{r.seconds:.2f}", _detail(r)] for r in results],
             ["check", "verdict", "method", "seconds", "detail"])
    else:
        _print(_table(results))
    crashed = [r for r in results if r.error]
    if crashed:
        sys.stderr.write("proofs_checks: " + "; ".join(f"{r.check.id} crashed ({r.error})" for r in crashed) + "\n")
        return 3
    if args.strict and any(r.verdict.failing for r in results):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
