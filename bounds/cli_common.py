"""Command-line conventions shared by the four command lines (``python -m bounds | simulations |
proofs_checks | reports``): one parser class, typed arguments with stated limits, ``--version``, the
``--json`` / ``--csv`` table switch, the ``--out`` guard, and the wrapper that turns every error into
one line on stderr and exit status 2.

It lives in ``bounds`` (the bottom layer) and imports nothing else of the project, so every command
line can use it and ``bounds`` stays free of the other packages. Imports are kept to the standard
library: ``list`` / ``--help`` commands must start fast.

Exit statuses: 0 done, 1 a finding the command reports (e.g. an audit flags a target), 2 bad input
(one line on stderr, nothing half-written), 3 an internal error (a bug: one line, the traceback with
``PUBPRIV_TRACEBACK=1``), 130 interrupted.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

#: integers typed on a command line with more decimal digits than this are refused (Python refuses to
#: print integers above 4,300 digits, and arithmetic on them runs for minutes); ``--max-digits`` raises it
#: where a command offers it
MAX_DIGITS = 1000
#: longest text argument accepted (paths, names); the file system refuses far shorter names anyway
MAX_TEXT = 4096
#: the project's source directories: ``--out`` inside one of them (or inside any ``.git``) is refused
_SOURCE_DIRS = (".git", ".ci", ".github", "algorithms", "bounds", "simulations", "proofs_checks", "reports",
                "tests", "docs", "benchmarks")
#: result directories inside a source directory that stay allowed (they are gitignored)
_RESULT_DIRS = (("benchmarks", "results"),)


class UsageError(ValueError):
    """Bad input on the command line (one line, exit status 2)."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (a :class:`UsageError`), not the usage dump, and that takes
    an option only by its full name: ``run thm10 --trial 2`` is an error, never ``--trials 2`` by prefix."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):
        raise UsageError(f"{self.prog}: error: {message}")


def version() -> str:
    """The installed distribution's version (``pubpriv-workbench X``), or ``unknown``."""
    try:
        from importlib.metadata import version as _version

        return f"pubpriv-workbench {_version('pubpriv-workbench')}"
    except Exception:  # not installed (a bare checkout on PYTHONPATH)
        return "pubpriv-workbench (not installed)"


class _Version(argparse.Action):
    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog} ({version()})")
        parser.exit(0)


def add_version(p: argparse.ArgumentParser) -> None:
    p.add_argument("--version", action=_Version, help="print the version and exit")


def add_output(p: argparse.ArgumentParser, *, json: bool = True, csv: bool = True) -> None:
    """``--json`` / ``--csv`` (one of them) for a command that prints a table."""
    g = p.add_mutually_exclusive_group()
    if json:
        g.add_argument("--json", action="store_true", help="print JSON instead of the table")
    if csv:
        g.add_argument("--csv", action="store_true",
                       help="print CSV (header line, one row per line) instead of the table")


def table(rows: list[list], header: list[str]) -> str:
    """Rows as aligned text columns under a header."""
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]

    def line(r):
        return "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def write_csv(rows: list[list], header: list[str], out=None) -> None:
    import csv

    w = csv.writer(out or sys.stdout, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)


def emit(ns, rows: list[list], header: list[str], *, text: str | None = None, json_obj=None) -> None:
    """Print a table as the namespace asks: ``--json`` (``json_obj``, else one object per row), ``--csv``,
    else ``text`` (default: the aligned table)."""
    if getattr(ns, "json", False):
        import json

        obj = json_obj if json_obj is not None else [dict(zip(header, r)) for r in rows]
        print(json.dumps(obj, indent=2, default=str))
    elif getattr(ns, "csv", False):
        write_csv(rows, header)
    else:
        print(text if text is not None else table(rows, header))


# ------------------------------------------------------------------ typed arguments


def _text(name: str, text: str) -> str:
    if len(text) > MAX_TEXT:
        raise UsageError(f"{name} is {len(text):,} characters long (at most {MAX_TEXT:,})")
    if "\x00" in text:
        raise UsageError(f"{name} contains a NUL character")
    return text


def check_text(text: str, name: str, hint: str = "") -> str:
    """``text`` if it is non-empty text of bounded length without NUL; UsageError otherwise."""
    _text(name, text)
    if not text.strip():
        raise UsageError(f"{name} is empty{hint}")
    return text


def parse_int(text: str, name: str, *, low: int | None = None, high: int | None = None,
              raise_with: str = "", max_digits: int = MAX_DIGITS) -> int:
    """``text`` as an integer in [low, high]: digits only (``1e9`` is refused as an integer: write it out),
    at most ``max_digits`` digits; ValueError naming ``name`` and the allowed range otherwise."""
    s = _text(name, str(text)).strip().replace("_", "")
    digits = s.lstrip("+-")
    if not digits.isdigit() or not digits.isascii() or s.count("-") + s.count("+") > 1:
        raise UsageError(f"{name}={text!r} must be an integer")
    if len(digits.lstrip("0")) > max_digits:
        raise UsageError(f"{name} has {len(digits):,} digits (at most {max_digits:,})")
    value = int(s)
    if low is not None and value < low:
        raise UsageError(f"{name}={value} must be an integer >= {low}")
    if high is not None and value > high:
        more = f"; raise the limit with {raise_with}" if raise_with else ""
        raise UsageError(f"{name}={value:,} is above the limit of {high:,}{more}")
    return value


def int_arg(name: str, low: int | None = None, high: int | None = None, raise_with: str = ""):
    """An argparse ``type`` for :func:`parse_int`."""
    def parse(text):
        try:
            return parse_int(text, name, low=low, high=high, raise_with=raise_with)
        except UsageError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def float_arg(name: str, low: float | None = None, high: float | None = None, *, open_low=False, open_high=False):
    """An argparse ``type``: a finite number in [low, high] (ends open when asked)."""
    def parse(text):
        try:
            s = _text(name, str(text))
        except UsageError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        try:
            value = float(s)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{name}={text!r} must be a finite number")
        if low is not None and (value < low or (open_low and value == low)):
            raise argparse.ArgumentTypeError(f"{name}={value!r} must be {'>' if open_low else '>='} {low}")
        if high is not None and (value > high or (open_high and value == high)):
            raise argparse.ArgumentTypeError(f"{name}={value!r} must be {'<' if open_high else '<='} {high}")
        return value

    return parse


def text_arg(name: str, hint: str = ""):
    """An argparse ``type``: non-empty text of bounded length (an empty path would silently mean the
    current directory)."""
    def parse(text):
        try:
            return check_text(text, name, hint)
        except UsageError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def repository_root() -> Path | None:
    """The checkout holding this package, if it is one (has ``.git``), else None (an installed copy)."""
    root = Path(__file__).resolve().parent.parent
    return root if (root / ".git").exists() else None


def check_out(path, name: str = "--out") -> str:
    """``path`` if a command may write there; UsageError when it is empty, too long, inside a ``.git``
    directory, the repository's root or one of its source directories (results go elsewhere, e.g.
    ``runs/``, which is gitignored)."""
    text = _text(name, str(path))
    if not text.strip():
        raise UsageError(f"{name} is empty: give a directory")
    shown = repr(text) if len(text) <= 80 else repr(text[:37] + "..." + text[-37:])
    real = Path(os.path.realpath(os.path.abspath(text)))
    if ".git" in real.parts:
        raise UsageError(f"{name} {shown} is inside a .git directory; choose a directory outside it")
    for part in real.parts:
        if len(part.encode(errors="replace")) > 255:
            raise UsageError(f"{name}: a name longer than 255 bytes ({len(part.encode(errors='replace'))}) in {shown}")
    root = repository_root()
    if root is not None:
        try:
            rel = real.relative_to(root)
        except ValueError:
            return text
        if not rel.parts:
            raise UsageError(f"{name} {shown} is the repository itself; write results to a subdirectory such "
                             "as runs/ (gitignored)")
        if rel.parts[0] in _SOURCE_DIRS and not any(rel.parts[:len(r)] == r for r in _RESULT_DIRS):
            raise UsageError(f"{name} {shown} is inside the repository's {rel.parts[0]}/ directory; write "
                             "results elsewhere, e.g. runs/ (gitignored)")
    return text


def out_arg(name: str = "--out"):
    """An argparse ``type`` for :func:`check_out`."""
    def parse(text):
        try:
            return check_out(text, name)
        except UsageError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


# ------------------------------------------------------------------ the exit-2 wrapper


def generated_file(argv, prog: str, path: Path, render) -> int:
    """``python -m PROG [--write]`` for a file generated from the code (docs/ERRATA.md, bounds/forms.json):
    print ``render()``, or with ``--write`` replace ``path`` by it (through a temporary file, so that a reader
    never sees half a file). Other arguments: one line on stderr, exit status 2."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args not in ([], ["--write"]):
        print(f"error: usage: python -m {prog} [--write]", file=sys.stderr)
        return 2
    text = render()
    if args == ["--write"]:
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    else:
        sys.stdout.write(text)
    return 0


def one_line(exc: BaseException) -> str:
    """The exception's message on one line, at most 400 characters."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 400 else text[:397] + "..."


def _os_error(exc: OSError) -> str:
    where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
    return f"{where}{exc.strerror or one_line(exc)}"


def run(prog: str, main, argv=None, prefix: str | None = None) -> int:
    """Call ``main(argv)`` and turn every failure into one line on stderr and an exit status (see the
    module docstring). ``main`` returns its exit status. Lines start with ``prefix`` (default
    ``"PROG: error: "``); a parser's usage error names its (sub)command itself."""
    if prefix is None:
        prefix = f"{prog}: error: "
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's --help / --version
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except BrokenPipeError:  # output piped into head & co.
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except (UsageError, argparse.ArgumentTypeError) as exc:
        msg = one_line(exc)
        print(msg if msg.startswith(prog) else f"{prefix}{msg}", file=sys.stderr)
        return 2
    except (ValueError, ArithmeticError) as exc:  # DomainError, StoreError, OverflowError, ...
        print(f"{prefix}{one_line(exc)}", file=sys.stderr)
        return 2
    except RecursionError:
        print(f"{prefix}input nested too deeply", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"{prefix}out of memory (lower the sizes asked for)", file=sys.stderr)
        return 2
    except OSError as exc:  # a read or write the command did not anticipate (read-only or full disk)
        print(f"{prefix}{_os_error(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: still one line, unless asked for the traceback
        if os.environ.get("PUBPRIV_TRACEBACK"):
            raise
        print(f"{prog}: internal error: {type(exc).__name__}: {one_line(exc)} (a bug; PUBPRIV_TRACEBACK=1 "
              "shows the traceback)", file=sys.stderr)
        return 3
