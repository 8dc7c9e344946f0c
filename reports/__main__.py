"""Command line: ``python -m reports build --results DIR --out DIR`` writes DIR/report.html and DIR/report.pdf;
``python -m reports coverage --results DIR [--json | --csv]`` prints every numbered result of the four papers
with the saved run, audits and proof checks below DIR that answer it.

The results directory holds run directories (``python -m simulations run ... --out``) and saved audits
(``python -m simulations audit ... --out``); ``reports`` only reads them. Bad arguments: one line on
stderr, exit status 2 (:mod:`bounds.cli_common`); a failed build leaves no half-written report.
"""

from __future__ import annotations

import argparse
import sys

from bounds import cli_common as cli

PROG = "python -m reports"
_UsageError = cli.UsageError  # the name older callers import


def build_parser() -> argparse.ArgumentParser:
    p = cli.Parser(prog=PROG, description="HTML and PDF reports from result directories.")
    cli.add_version(p)
    sub = p.add_subparsers(dest="command", required=True, parser_class=cli.Parser)
    b = sub.add_parser("build", help="build report.html and report.pdf")
    b.add_argument("--results", required=True, type=cli.text_arg("--results", ": give the results directory"),
                   help="directory holding run directories and saved audits")
    b.add_argument("--out", required=True, type=cli.out_arg("--out"),
                   help="output directory (created if missing; not inside the repository's sources)")
    b.add_argument("--title", default=None, type=cli.text_arg("--title"), help="the report's title")
    c = sub.add_parser("coverage", help="every numbered result and the saved runs, audits and proof checks "
                                        "that answer it (what decides each, without runs: python -m bounds coverage)")
    c.add_argument("--results", required=True, type=cli.text_arg("--results", ": give the results directory"),
                   metavar="DIR", help="directory holding run directories, saved audits and proof checks")
    cli.add_output(c)
    return p


def _main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "coverage":
        from reports.coverage import cmd

        return cmd(args)
    from reports import builder

    kw = {"title": args.title} if args.title else {}
    kw["progress"] = sys.stderr.isatty()  # a progress line for a person at a terminal, not in a log or a pipe
    result = builder.build(args.results, args.out, **kw)
    for err in result.errors + result.problems:  # every result file the report flags
        print(f"{PROG}: warning: {cli.one_line(err)}", file=sys.stderr)
    print(f"wrote {result.html} and {result.pdf} ({len(result.sections)} sections)")
    return 0


def main(argv=None) -> int:
    return cli.run(PROG, _main, argv)


if __name__ == "__main__":
    sys.exit(main())
