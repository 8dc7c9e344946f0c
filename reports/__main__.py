"""Command line: ``python -m reports build --results DIR --out DIR`` writes DIR/report.html and DIR/report.pdf.

The results directory holds run directories (``python -m simulations run ... --out``) and saved audits
(``python -m simulations audit ... --out``); ``reports`` only reads them. Bad arguments: one line on
stderr, exit status 2; a failed build leaves no half-written report.
"""

from __future__ import annotations

import argparse
import sys


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(f"{self.prog}: error: {message}")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m reports", description="HTML and PDF reports from result directories.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    b = sub.add_parser("build", help="build report.html and report.pdf")
    b.add_argument("--results", required=True, help="directory holding run directories and saved audits")
    b.add_argument("--out", required=True, help="output directory (created if missing)")
    b.add_argument("--title", default=None)
    return p


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        from reports import builder

        kw = {"title": args.title} if args.title else {}
        result = builder.build(args.results, args.out, **kw)
    except _UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"python -m reports: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except OSError as exc:  # any write the builder did not anticipate: still one line
        from simulations.store import os_error

        print(f"python -m reports: error: {os_error(exc)}", file=sys.stderr)
        return 2
    for err in result.errors + result.problems:
        print(f"python -m reports: warning: {' '.join(str(err).split())}", file=sys.stderr)
    print(f"wrote {result.html} and {result.pdf} ({len(result.sections)} sections)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
