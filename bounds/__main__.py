"""python -m bounds  list | show | compute | sweep | compare | crossover | coverage | plot

Parses, validates, calls :mod:`bounds.api` and prints. Bad input: one line on stderr, exit 2
(:mod:`bounds.cli_common`). Limits a user can raise: ``--max-digits`` (integers typed as values),
``--max-points`` (points of a sweep).
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from . import cli_common as cli
from .errors import DomainError
from .params import PARAMS

PROG = "python -m bounds"
#: the most points one sweep evaluates unless --max-points raises it (each point costs a few hundred bytes
#: per quantity in memory and a CSV line)
MAX_POINTS = 1_000_000
#: other spellings accepted for a parameter's flag (the canonical one is Param.flag)
ALIASES = {"epsilon": ("--eps",)}


class _Parser(cli.Parser):
    def error(self, message):  # one line, exit status 2: "error: python -m bounds compute: ..."
        raise DomainError(f"{self.prog}: {message}")


def _add_params(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("parameters (a value; sweep also takes a:b:k, a:b:k:log or x,y,z)")
    for param in PARAMS.values():
        alias = ALIASES.get(param.key, ())
        g.add_argument(param.flag, *alias, dest=f"param_{param.key}", metavar="V",
                       help=f"{param.description} ({param.arg})"
                       + (f"; {', '.join(alias)} is an alias" if alias else ""))
    p.add_argument("--max-digits", type=cli.int_arg("--max-digits", 1, 300_000), default=cli.MAX_DIGITS,
                   help=f"the most decimal digits an integer value may have (default {cli.MAX_DIGITS})")
    p.add_argument("--const", action="append", default=[], metavar="NAME=VALUE",
                   help="value of a hidden constant where no explicit form exists (default 1)")
    p.add_argument("--form", choices=("explicit", "asymptotic"), default="explicit",
                   help="explicit where the proof pins constants down (default), or the paper's "
                        "asymptotic form with its hidden constants")


def _check_text(text: str, flag: str, ns, ranges: bool) -> int:
    """Refuse what parse_value / parse_range would read silently or slowly; returns the points ``text``
    asks for (1 for a value)."""
    s = cli.check_text(text, flag).strip()
    if not ranges:
        return 1
    if "," in s:
        items = s.split(",")
        if any(not t.strip() for t in items):
            raise DomainError(f"{flag} = {s!r}: an empty item in a list (write x,y,z)")
        return len(items)
    if ":" in s:
        parts = s.split(":")
        if len(parts) in (3, 4):
            return cli.parse_int(parts[2], f"{flag} count", low=1, high=getattr(ns, "max_points", MAX_POINTS),
                                 raise_with="--max-points")
    return 1


def _check_magnitude(value, flag: str, ns) -> None:
    if isinstance(value, int) and abs(value) >= 10 ** ns.max_digits:
        raise DomainError(f"{flag}: an integer of more than {ns.max_digits} digits; raise the limit with "
                          "--max-digits if you mean it")


def _check_joint(out: dict) -> None:
    """BCMNUW20 Fact 4 (Assouad 1983): a class of VC dimension d has dual VC dimension p < 2^(d+1), and
    (the dual of the dual) d < 2^(p+1); a pair breaking either describes no class."""
    d, p = out.get("vc"), out.get("dual_vc")
    for dv in (d if isinstance(d, list) else [d]):
        for pv in (p if isinstance(p, list) else [p]):
            if not (isinstance(dv, int) and isinstance(pv, int) and dv >= 1 and pv >= 1):
                continue  # not dimensions at all: the domain check names the bad one
            if dv < 60 and pv >= 2 ** (dv + 1):
                raise DomainError(f"--vc {dv} --dual-vc {pv}: no class has them; the dual VC dimension is below "
                                  f"2^(vc+1) = {2 ** (dv + 1)} (Assouad 1983, BCMNUW20 Fact 4)")
            if pv < 60 and dv >= 2 ** (pv + 1):
                raise DomainError(f"--vc {dv} --dual-vc {pv}: no class has them; the VC dimension is below "
                                  f"2^(dual_vc+1) = {2 ** (pv + 1)} (the dual of the dual; Assouad 1983)")


def _params(ns, *, ranges: bool) -> dict:
    from .api import parse_range, parse_value

    out = {}
    points, limit = 1, getattr(ns, "max_points", MAX_POINTS)
    for key, param in PARAMS.items():
        text = getattr(ns, f"param_{key}", None)
        if text is None:
            continue
        points *= _check_text(text, param.flag, ns, ranges)
        if points > limit:
            raise DomainError(f"the sweep asks for {points:,} points or more, above the limit of {limit:,}; "
                              "raise it with --max-points if you mean it")
        if ranges:
            vals = parse_range(text, param.flag)
            for v in vals:
                _check_magnitude(v, param.flag, ns)
            out[key] = vals if len(vals) > 1 else vals[0]
        else:
            out[key] = parse_value(text, param.flag)
            _check_magnitude(out[key], param.flag, ns)
    _check_joint(out)
    return out


def _consts(ns) -> dict:
    from .api import parse_value

    out = {}
    for item in ns.const:
        if "=" not in item:
            raise DomainError(f"--const {item}: expected NAME=VALUE")
        k, v = item.split("=", 1)
        out[k.strip()] = float(parse_value(v, f"--const {k.strip()}"))
    return out


def fmt_number(value: float, log10: float, integer: bool) -> str:
    if not math.isfinite(log10):
        return "0" if log10 < 0 else "inf"
    if value == 0:  # underflowed float64 but known through its log10
        return f"10^{log10:.4f}" if abs(log10) < 1e6 else f"10^({log10:.6g})"
    if math.isfinite(value) and abs(value) < 1e15:
        if integer:
            return f"{int(value):,}"
        return f"{value:.6g}"
    if math.isfinite(value):
        return f"{value:.4e}"
    return f"10^{log10:.4f}"


def _log10_text(log10: float) -> str:
    """log10 column; values that underflow float64 are recomputed in mpmath (``Quantity.tiny``), so
    only an exact 0 has none."""
    if not math.isfinite(log10):
        return "-" if log10 < 0 else "inf"  # an exact 0 has no log10
    return f"{log10:.4f}" if abs(log10) < 1e6 else f"{log10:.6g}"


def _log10_value(log10: float) -> str:
    """A value known by its log10, as an integer with separators below 10^15, else as a power of ten."""
    return f"{10 ** log10:,.0f}" if log10 < 15 else f"10^{log10:.4f}"


def _ratio_text(log10_ratio: float) -> str:
    if abs(log10_ratio) < 6:
        return f"{10 ** log10_ratio:.4g}"
    return f"10^{log10_ratio:.3f}"


_table = cli.table  # aligned columns under a header


# --- commands --------------------------------------------------------------------------------


def cmd_list(ns) -> int:
    from .registry import all_results

    rows = []
    for r in all_results():
        qs = ", ".join(q.name for q in r.quantities if not q.intermediate)
        rows.append([r.short_id, r.paper, r.label, r.kind, qs, r.explicit_status])
    if ns.json:
        print(json.dumps([dict(zip(["id", "paper", "label", "kind", "quantities", "explicit"], r))
                          for r in rows], indent=2))
    elif ns.csv:
        cli.write_csv(rows, ["id", "paper", "result", "kind", "quantities", "explicit"])
    else:
        print(_table(rows, ["id", "paper", "result", "kind", "quantities", "explicit"]))
        print(f"\n{len(rows)} results; `python -m bounds show ID` for one in full.")
    return 0


def cmd_show(ns) -> int:
    from . import coverage
    from .registry import get
    from .show import render_show

    if coverage.ITEM_ID.match(ns.id):  # a numbered result by its papers-index id (B24, A16, ...)
        try:
            print(coverage.render_item(ns.id))
        except ValueError as exc:
            raise DomainError(str(exc)) from None
        return 0
    result = get(ns.id)
    print("\n".join([render_show(result, latex=not ns.no_latex)] + coverage.decider_lines(rid=result.id)))
    return 0


def _print_computation(c, as_json: bool, steps: bool = True, as_csv: bool = False) -> None:
    """The computation as text: the result's quantities, printed-vs-corrected, the regime; with ``steps``
    also the intermediate quantities, each one's derivation and the notes. JSON is always complete."""
    from .api import dumps

    if as_json:
        print(dumps(c.to_dict(), indent=2))
        return
    r = c.result
    rows = []
    for q in c.quantities.values():
        if q.intermediate and not steps:
            continue
        name = q.name + (" (step)" if q.intermediate else "")
        rows.append([name, q.symbol, fmt_number(q.value, q.log10, q.integer), _log10_text(q.log10),
                     "explicit" if q.explicit else f"{q.order}, constants set"])
    if as_csv:
        cli.write_csv(rows, ["quantity", "sym", "value", "log10", "form"])
        return
    print(f"{r.paper} {r.label} ({r.id}), {r.kind}")
    print("parameters: " + ", ".join(f"{r.param(k).key}={v}" for k, v in c.params.items()))
    print(_table(rows, ["quantity", "sym", "value", "log10", "form"]))
    deps = c.departures
    if deps:
        print("printed vs corrected:")
        drows = []
        for d in deps:
            q, ref = c.quantities[d["quantity"]], c.quantities[d["reference"]]
            drows.append([d["label"], fmt_number(q.value, q.log10, q.integer),
                          fmt_number(ref.value, ref.log10, ref.integer), f"{d['quantity']} / {d['reference']}",
                          _ratio_text(q.log10 - ref.log10)])
        print(_table(drows, ["", "value", "reference", "quantities", "ratio"]))
    for line in c.regime:
        print(f"OUTSIDE THE REGIME: {line}")
    for line in c.regime_notes:
        print(f"regime: {line}")
    notes = [x for x in c.caveats if x not in c.regime] + list(r.notes)
    if steps:
        for q in c.quantities.values():
            if q.explicit and q.derivation:
                print(f"  {q.name}: {q.derivation}")
        for line in notes:
            print(f"note: {line}")
    else:
        hidden = sum(q.intermediate for q in c.quantities.values())
        more = [f"{hidden} intermediate steps"] if hidden else []
        more += ["each value's derivation"] + ([f"{len(notes)} notes (errata, caveats)"] if notes else [])
        print(f"--steps adds {', '.join(more)}")
    print(f"source: {r.source}" + (f"; errata: {', '.join(c.errata)} (docs/ERRATA.md)" if c.errata else ""))
    print(f"formulas: python -m bounds show {r.short_id}")


def cmd_compute(ns) -> int:
    from .api import compute

    c = compute(ns.id, form=ns.form, constants=_consts(ns), **_params(ns, ranges=False))
    _print_computation(c, ns.json, steps=ns.steps, as_csv=ns.csv)
    return 0


def _sweep_csv(ns) -> int:
    """The sweep as CSV on stdout, block by block (``sweep_chunks``), each block written by polars' columnar
    CSV writer (shortest round-trip text for floats): memory stays flat in the number of points. Parameters
    come dictionary-encoded and each distinct value is formatted once; integer quantities are written as
    integers (exact: they are integer-valued doubles) wherever they fit in int64; parameters beyond int64
    as their decimal text. The parameters of a row go to the writer as at most two pre-joined cells
    (``_parameter_cells``): the writer's cost is per cell, whatever its text."""
    import polars as pl

    from .api import sweep_chunks

    _reuse_freed_blocks()
    out, first, text = sys.stdout.buffer, True, {}
    sys.stdout.flush()
    for _, cols, evs in sweep_chunks(ns.id, form=ns.form, constants=_consts(ns), levels=True,
                                     **_params(ns, ranges=True)):
        if first:
            text = {k: _format_levels(pl, levels) for k, (levels, _) in cols.items()}
            cells = _parameter_cells(pl, text, cols)
            out.write((",".join([*cols, *(f"{n}{'' if ev.explicit else '*'}" for n, ev in evs.items()),
                                 *(f"{n}_log10" for n in evs)]) + "\n").encode())
            first = False
        pl.DataFrame(cells(cols) + quantity_series(pl, evs)).write_csv(out, include_header=False,
                                                                       quote_style="never")
    out.flush()
    return 0


def quantity_series(pl, evs) -> list:
    """A block's quantity columns as ``sweep --csv`` writes them: each quantity (integer quantities as int64
    wherever they are finite and fit: exact, they are integer-valued doubles), then each one's log10 rounded
    to 6 decimals. Returns polars Series in the CSV's column order."""
    import numpy as np

    out = []
    for name, ev in evs.items():
        v = ev.value.ravel()
        if ev.quantity.integer and np.all(np.isfinite(v)) and np.all(np.abs(v) < 2.0**63):
            v = v.astype(np.int64)
        out.append(pl.Series(name, v))
    return out + [pl.Series(f"{n}_log10", ev.log10.ravel().round(6)) for n, ev in evs.items()]


def _parameter_cells(pl, text: dict, cols: dict):
    """The parameter columns of a block as at most two text columns, each cell the comma-joined text of
    several parameters (written unquoted, so the row's bytes are those of one cell per parameter). The
    tail, from the last parameter with several values to the end, depends on that parameter's value alone:
    its texts are joined once. The head before it is constant along runs of rows (the grid's C order; the
    runs are found from the codes, not assumed): joined once per run. Returns block columns -> list of
    polars Series."""
    import numpy as np

    keys = list(cols)
    if not keys:
        return lambda cols: []
    j = max((i for i, k in enumerate(keys) if len(text[k]) > 1), default=len(keys) - 1)
    tail = pl.Series("tail", [",".join([t, *(text[k][0] for k in keys[j + 1:])]) for t in text[keys[j]]])

    def cells(cols):
        out = [tail.gather(cols[keys[j]][1])]
        if j:
            codes = np.stack([cols[k][1] for k in keys[:j]])
            change = np.ones(codes.shape[1], dtype=bool)
            change[1:] = (codes[:, 1:] != codes[:, :-1]).any(axis=0)
            starts = np.flatnonzero(change)
            head = pl.Series("head", [",".join(text[k][c] for k, c in zip(keys[:j], codes[:, s]))
                                      for s in starts])
            out.insert(0, head.gather(np.cumsum(change) - 1))
        return out

    return cells


def _reuse_freed_blocks() -> None:
    """glibc's malloc (``mallopt``): arrays up to 4 MB come from the heap and up to 64 MB of freed heap is kept,
    so each block's arrays reuse the previous block's pages. By default glibc maps each such array afresh and
    trims the heap after it, and the kernel faults in zeroed pages for every block (about 80,000 faults, 0.2 s
    of CPU for 10^6 points). Memory stays flat: the heap holds one block's working set. Process-wide; a no-op
    where there is no glibc ``mallopt``."""
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # both set: glibc's dynamic thresholds are off
    mallopt(M_MMAP_THRESHOLD, 4 << 20)
    mallopt(M_TRIM_THRESHOLD, 64 << 20)


def _format_levels(pl, levels) -> list[str]:
    """Each distinct value of a parameter as the CSV writer prints it (parameters beyond int64: str)."""
    if levels.dtype == object:
        return [str(v) for v in levels]
    return pl.DataFrame({"v": levels}).write_csv(include_header=False, quote_style="never").splitlines()


#: rows of ``sweep``'s table or JSON formatted at a time (each row's texts weigh a few KB)
_SWEEP_ROWS = 4096


def _sweep_rows(ns, as_json: bool):
    """The sweep block by block (``sweep_chunks``): yields (result, header, rows of one block), each row a list of
    JSON values (``as_json``) or of the table's cell texts; at most _SWEEP_ROWS rows are held at a time."""
    import numpy as np

    from .api import sweep_chunks

    for result, cols, evs in sweep_chunks(ns.id, form=ns.form, constants=_consts(ns), **_params(ns, ranges=True)):
        header = list(cols) + [f"{n}{'' if ev.explicit else '*'}" for n, ev in evs.items()] \
            + [f"{n}_log10" for n in evs]
        n = len(next(iter(evs.values())).value.ravel()) if evs else 0
        pcols = [np.broadcast_to(np.asarray(v, dtype=object), (n,)) for v in cols.values()]
        vcols = [ev.value.ravel() for ev in evs.values()]
        lcols = [ev.log10.ravel() for ev in evs.values()]
        ints = [ev.quantity.integer for ev in evs.values()]
        for start in range(0, n, _SWEEP_ROWS):  # rows of text weigh ~50x their numbers: a few thousand at a time
            span = range(start, min(n, start + _SWEEP_ROWS))
            if as_json:
                rows = [[c[i].item() if hasattr(c[i], "item") else c[i] for c in pcols]
                        + [None if not math.isfinite(v[i]) else (int(v[i]) if it and abs(v[i]) < 2**53 else float(v[i]))
                           for v, it in zip(vcols, ints)]
                        + [None if not math.isfinite(l[i]) else round(float(l[i]), 6) for l in lcols] for i in span]
            else:
                rows = [[str(c[i]) for c in pcols]
                        + [fmt_number(v[i], l[i], it) for v, l, it in zip(vcols, lcols, ints)]
                        + [f"{l[i]:.4f}" for l in lcols] for i in span]
            yield result, header, rows
        if not n:
            yield result, header, []


def cmd_sweep(ns) -> int:
    """The sweep as a table, JSON or CSV, evaluated and formatted in blocks so memory stays flat in the number
    of points: CSV is written as it goes (``_sweep_csv``); table and JSON rows go to a temporary file (a table's
    column widths are known only after its last row) and are copied to stdout once every block is done, so an
    error part-way prints nothing. The output is the same text as formatting all rows at once."""
    import shutil
    import tempfile

    if ns.csv:
        return _sweep_csv(ns)
    result, header = None, []
    with tempfile.TemporaryFile("w+b") as spool:
        widths: list[int] = []
        count = 0
        for result, header, rows in _sweep_rows(ns, ns.json):
            if ns.json:
                spool.write("".join((", " if count + k else "") + json.dumps(r) for k, r in enumerate(rows)).encode())
            else:
                widths = widths or [len(h) for h in header]
                for r in rows:
                    widths = [max(w, len(c)) for w, c in zip(widths, r)]
                spool.write("".join("\x1f".join(r) + "\n" for r in rows).encode())
            count += len(rows)
        spool.seek(0)
        sys.stdout.flush()
        out = sys.stdout.buffer
        if ns.json:
            out.write(f'{{"result": {json.dumps(result.id)}, "columns": {json.dumps(header)}, "rows": ['.encode())
            shutil.copyfileobj(spool, out)
            out.write(b"]}\n")
            out.flush()
            return 0
        widths = widths or [len(h) for h in header]

        def line(r):
            return "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()

        out.write(f"{result.paper} {result.label} ({result.id})\n".encode())
        out.write((line(header) + "\n" + line(["-" * w for w in widths]) + "\n").encode())
        while block := spool.readlines(1 << 22):
            out.write("".join(line(b.decode().rstrip("\n").split("\x1f")) + "\n" for b in block).encode())
        out.flush()
    if any(h.endswith("*") for h in header):
        print("* asymptotic form with hidden constants set (default 1): holds up to them")
    return 0


def cmd_compare(ns) -> int:
    from .api import compare

    from .api import dumps

    comps = compare(ns.ids, form=ns.form, constants=_consts(ns), **_params(ns, ranges=False))
    if ns.json:
        print(dumps([c.to_dict() for c in comps], indent=2))
        return 0
    base = comps[0]
    rows = []
    for c in comps:
        for q in c.quantities.values():
            if q.intermediate:
                continue
            ref = base.quantities.get(q.name)
            ratio = f"{10 ** (q.log10 - ref.log10):.4g}" if ref is not None else ""
            rows.append([c.result.short_id, q.name, fmt_number(q.value, q.log10, q.integer),
                         f"{q.log10:.4f}", "explicit" if q.explicit else f"{q.order}, C=1",
                         ratio])
    header = ["result", "quantity", "value", "log10", "form", f"ratio to {base.result.short_id}"]
    if ns.csv:
        cli.write_csv(rows, header)
    else:
        print(_table(rows, header))
        for c in comps:  # what each id is: a baseline (uc, pmw) says what it stands for
            r = c.result
            what = r.statement.split(" once ")[0].split(": ")[0] if r.kind == "baseline" else r.kind
            print(f"{r.short_id}: {r.paper} {r.label} ({what})")
    return 0


def cmd_crossover(ns) -> int:
    from .api import crossover, parse_value

    if ns.first == ns.second and (ns.quantity2 or ns.quantity) == ns.quantity:
        raise DomainError(f"crossover {ns.first} {ns.second}: a result against itself never crosses; name two "
                          "results, or two quantities with --quantity2")
    params = _params(ns, ranges=False)
    params.pop(ns.vary, None)
    low = parse_value(cli.check_text(ns.low, "--low"), "--low") if ns.low is not None else None
    high = parse_value(cli.check_text(ns.high, "--high"), "--high") if ns.high is not None else None
    for value, flag in ((low, "--low"), (high, "--high")):
        _check_magnitude(value, flag, ns)
    out = crossover(ns.first, ns.second, vary=ns.vary, quantity=ns.quantity,
                    quantity2=ns.quantity2, low=low, high=high, form=ns.form,
                    constants=_consts(ns), **params)
    if ns.json:
        print(json.dumps({k: v for k, v in out.items() if k not in ("grid", "first_log10",
                                                                     "second_log10")}, indent=2))
        return 0
    if ns.csv:
        cli.write_csv([[ns.vary, c["at"], out["first"] if c["before"] == "first" else out["second"],
                        round(c["first_log10"], 6)]
                       for c in out["crossings"]], ["vary", "at", "larger below", f"{out['quantity']}_log10"])
        return 0
    q = out["quantity"] + ("" if out["quantity2"] == out["quantity"] else f" vs {out['quantity2']}")
    print(f"{out['first']} vs {out['second']}: {q} as {ns.vary} varies")
    if not out["crossings"]:
        g = out["grid"]
        who = out["first"] if out["first_log10"][0] > out["second_log10"][0] else out["second"]
        print(f"no crossover on [{g[0]:.6g}, {g[-1]:.6g}]: {who} is larger throughout")
    for c in out["crossings"]:
        larger = out["first"] if c["before"] == "first" else out["second"]
        there = f"{out['quantity']} = {_log10_value(c['first_log10'])}"
        if out["quantity2"] != out["quantity"] or abs(c["first_log10"] - c["second_log10"]) > 1e-3:
            there += f" ({out['quantity2']} = {_log10_value(c['second_log10'])})"
        print(f"crossover at {ns.vary} = {c['at']:.6g}, where {there}: below it {larger} is larger")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from .registry import all_results

    all_results()  # paper modules add the parameters they need (params.add_param) on import
    p = _Parser(prog=PROG, description=__doc__.splitlines()[0])
    cli.add_version(p)
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    rid = "result id (python -m bounds list), e.g. thm10"
    s = sub.add_parser("list", help="all results")
    cli.add_output(s)
    s.set_defaults(fn=cmd_list)
    s = sub.add_parser("show", help="one result in full, with what decides it")
    s.add_argument("id", help=rid + ", or a numbered result's papers-index id (B24; python -m bounds coverage)")
    s.add_argument("--no-latex", action="store_true", help="plain-text formulas instead of LaTeX")
    s.set_defaults(fn=cmd_show)
    s = sub.add_parser("compute", help="concrete values at one parameter point")
    s.add_argument("id", help=rid)
    cli.add_output(s)
    s.add_argument("--steps", action="store_true",
                   help="also the intermediate quantities, each value's derivation and the notes")
    _add_params(s)
    s.set_defaults(fn=cmd_compute)
    s = sub.add_parser("sweep", help="values over a grid of parameters")
    s.add_argument("id", help=rid)
    cli.add_output(s)
    s.add_argument("--max-points", type=cli.int_arg("--max-points", 1, 10**9), default=MAX_POINTS,
                   help=f"raise the limit on the points of one sweep (default {MAX_POINTS:,})")
    _add_params(s)
    s.set_defaults(fn=cmd_sweep)
    s = sub.add_parser("compare", help="several results at the same parameters, with ratios")
    s.add_argument("ids", nargs="+", help="result ids; ratios are to the first")
    cli.add_output(s)
    _add_params(s)
    s.set_defaults(fn=cmd_compare)
    s = sub.add_parser("crossover", help="where one bound overtakes another")
    s.add_argument("first", help=rid)
    s.add_argument("second", help="the result to compare it with")
    s.add_argument("--vary", required=True, type=lambda t: t.replace("-", "_"),
                   help="the parameter that varies (e.g. num-queries)")
    s.add_argument("--quantity", help="quantity of the first result (default: its main one)")
    s.add_argument("--quantity2", help="quantity of the second result (default: --quantity)")
    s.add_argument("--low", help="lower end of the searched range (default: the parameter's domain)")
    s.add_argument("--high", help="upper end of the searched range (default: the parameter's domain)")
    cli.add_output(s)
    _add_params(s)
    s.set_defaults(fn=cmd_crossover)
    s = sub.add_parser("coverage", help="every numbered result of the four papers and what decides it "
                                        "(the saved runs that answer each: python -m reports coverage)")
    cli.add_output(s)
    s.set_defaults(fn=_coverage)
    s = sub.add_parser("plot", help="n and m of several results on one log-log figure as one parameter varies")
    s.add_argument("ids", nargs="+", help="result ids (e.g. thm10 uc pmw)")
    s.add_argument("--vary", required=True, type=lambda t: t.replace("-", "_"), help="the parameter on the x axis")
    s.add_argument("--out", required=True, type=cli.out_arg("--out"),
                   help="the figure's file; its suffix gives the format: .png, .svg or .pdf")
    s.add_argument("--low", type=cli.float_arg("--low", 0.0, open_low=True), default=None,
                   help="lower end of the x axis (default: 0.001 for a parameter in (0, 1), else 1)")
    s.add_argument("--high", type=cli.float_arg("--high", 0.0, open_low=True), default=None,
                   help="upper end of the x axis (default: 0.5 for a parameter in (0, 1), else 10^6)")
    s.add_argument("--points", type=cli.int_arg("--points", 2, 10_000), default=200,
                   help="points along the x axis (default 200)")
    s.add_argument("--quantity", type=cli.text_arg("--quantity"), default=None,
                   help="comma-separated quantities to draw (default: private_samples,public_samples)")
    _add_params(s)
    s.set_defaults(fn=_plot)
    return p


def _plot(ns) -> int:
    from .plot import cmd

    return cmd(ns, _params(ns, ranges=False), _consts(ns))


def _coverage(ns) -> int:
    from .coverage import cmd

    return cmd(ns)


def _main(argv=None) -> int:
    ns = build_parser().parse_args(argv)
    return ns.fn(ns)


def main(argv=None) -> int:
    return cli.run(PROG, _main, argv, prefix="error: ")


if __name__ == "__main__":
    sys.exit(main())
