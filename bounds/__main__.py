"""python -m bounds  list | show | compute | sweep | compare | crossover

Parses, validates, calls :mod:`bounds.api` and prints. Bad input: one line on stderr, exit 2.
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from .errors import DomainError
from .params import PARAMS


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit status 2
        raise DomainError(f"{self.prog}: {message}")


def _add_params(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("parameters (a value; sweep also takes a:b:k, a:b:k:log or x,y,z)")
    for param in PARAMS.values():
        g.add_argument(param.flag, dest=f"param_{param.key}", metavar="V",
                       help=f"{param.description} ({param.arg})")
    p.add_argument("--const", action="append", default=[], metavar="NAME=VALUE",
                   help="value of a hidden constant where no explicit form exists (default 1)")
    p.add_argument("--form", choices=("explicit", "asymptotic"), default="explicit",
                   help="explicit where the proof pins constants down (default), or the paper's "
                        "asymptotic form with its hidden constants")


def _params(ns, *, ranges: bool) -> dict:
    from .api import parse_range, parse_value

    out = {}
    for key, param in PARAMS.items():
        text = getattr(ns, f"param_{key}", None)
        if text is None:
            continue
        if ranges:
            vals = parse_range(text, param.flag)
            out[key] = vals if len(vals) > 1 else vals[0]
        else:
            out[key] = parse_value(text, param.flag)
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


def _ratio_text(log10_ratio: float) -> str:
    if abs(log10_ratio) < 6:
        return f"{10 ** log10_ratio:.4g}"
    return f"10^{log10_ratio:.3f}"


def _table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


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
    else:
        print(_table(rows, ["id", "paper", "result", "kind", "quantities", "explicit"]))
        print(f"\n{len(rows)} results; `python -m bounds show ID` for one in full.")
    return 0


def cmd_show(ns) -> int:
    from .registry import get
    from .show import render_show

    print(render_show(get(ns.id), latex=not ns.no_latex))
    return 0


def _print_computation(c, as_json: bool) -> None:
    from .api import dumps

    if as_json:
        print(dumps(c.to_dict(), indent=2))
        return
    r = c.result
    print(f"{r.paper} {r.label} ({r.id}), {r.kind}")
    print("parameters: " + ", ".join(f"{r.param(k).key}={v}" for k, v in c.params.items()))
    rows = []
    for q in c.quantities.values():
        name = q.name + (" (step)" if q.intermediate else "")
        rows.append([name, q.symbol, fmt_number(q.value, q.log10, q.integer), _log10_text(q.log10),
                     "explicit" if q.explicit else f"{q.order}, constants set"])
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
    for q in c.quantities.values():
        if q.explicit and q.derivation:
            print(f"  {q.name}: {q.derivation}")
    for line in [x for x in c.caveats if x not in c.regime] + list(r.notes):
        print(f"note: {line}")
    print(f"source: {r.source}" + (f"; errata: {', '.join(c.errata)} (docs/ERRATA.md)" if c.errata else ""))
    print(f"formulas: python -m bounds show {r.short_id}")


def cmd_compute(ns) -> int:
    from .api import compute

    c = compute(ns.id, form=ns.form, constants=_consts(ns), **_params(ns, ranges=False))
    _print_computation(c, ns.json)
    return 0


def _sweep_csv(ns) -> int:
    """The sweep as CSV on stdout, block by block (``sweep_chunks``), each block written by pyarrow's
    columnar CSV writer: memory stays flat in the number of points. Numbers are written in their shortest
    round-trip form; parameters beyond int64 as text."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pacsv

    from .api import sweep_chunks

    out, first = sys.stdout.buffer, True
    sys.stdout.flush()
    for _, cols, evs in sweep_chunks(ns.id, form=ns.form, constants=_consts(ns), **_params(ns, ranges=True)):
        data = {k: pa.array([str(x) for x in v]) if v.dtype == object else np.ascontiguousarray(v)
                for k, v in cols.items()}
        data.update({f"{n}{'' if ev.explicit else '*'}": ev.value.ravel() for n, ev in evs.items()})
        data.update({f"{n}_log10": ev.log10.ravel().round(6) for n, ev in evs.items()})
        if first:
            out.write((",".join(data) + "\n").encode())
            first = False
        pacsv.write_csv(pa.table(data), out, write_options=pacsv.WriteOptions(include_header=False,
                                                                           quoting_style="none"))
    out.flush()
    return 0


def cmd_sweep(ns) -> int:
    from .api import sweep_arrays

    if ns.csv:
        return _sweep_csv(ns)
    result, cols, evs = sweep_arrays(ns.id, form=ns.form, constants=_consts(ns),
                                     **_params(ns, ranges=True))
    import numpy as np

    header = list(cols) + [f"{n}{'' if ev.explicit else '*'}" for n, ev in evs.items()] \
        + [f"{n}_log10" for n in evs]
    n = len(next(iter(evs.values())).value.ravel()) if evs else 0
    pcols = [np.broadcast_to(np.asarray(v, dtype=object), (n,)) for v in cols.values()]
    vcols = [ev.value.ravel() for ev in evs.values()]
    lcols = [ev.log10.ravel() for ev in evs.values()]
    if ns.csv:
        out = sys.stdout
        out.write(",".join(header) + "\n")
        body = np.empty((n, len(header)), dtype=object)
        for j, c in enumerate(pcols):
            body[:, j] = c
        for j, c in enumerate(vcols):
            body[:, len(pcols) + j] = c
        for j, c in enumerate(lcols):
            body[:, len(pcols) + len(vcols) + j] = np.round(c, 6)
        import csv

        csv.writer(out, lineterminator="\n").writerows(body.tolist())
    else:
        rows = []
        ints = [ev.quantity.integer for ev in evs.values()]
        for i in range(n):
            rows.append([str(c[i]) for c in pcols]
                        + [fmt_number(v[i], l[i], it) for v, l, it in zip(vcols, lcols, ints)]
                        + [f"{l[i]:.4f}" for l in lcols])
        print(f"{result.paper} {result.label} ({result.id})")
        print(_table(rows, header))
        if any(not ev.explicit for ev in evs.values()):
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
    print(_table(rows, ["result", "quantity", "value", "log10", "form",
                        f"ratio to {base.result.short_id}"]))
    return 0


def cmd_crossover(ns) -> int:
    from .api import crossover, parse_value

    params = _params(ns, ranges=False)
    params.pop(ns.vary, None)
    low = parse_value(ns.low, "--low") if ns.low else None
    high = parse_value(ns.high, "--high") if ns.high else None
    out = crossover(ns.first, ns.second, vary=ns.vary, quantity=ns.quantity,
                    quantity2=ns.quantity2, low=low, high=high, form=ns.form,
                    constants=_consts(ns), **params)
    if ns.json:
        print(json.dumps({k: v for k, v in out.items() if k not in ("grid", "first_log10",
                                                                     "second_log10")}, indent=2))
        return 0
    q = out["quantity"] + ("" if out["quantity2"] == out["quantity"] else f" vs {out['quantity2']}")
    print(f"{out['first']} vs {out['second']}: {q} as {ns.vary} varies")
    if not out["crossings"]:
        g = out["grid"]
        who = out["first"] if out["first_log10"][0] > out["second_log10"][0] else out["second"]
        print(f"no crossover on [{g[0]:.6g}, {g[-1]:.6g}]: {who} is larger throughout")
    for c in out["crossings"]:
        larger = out["first"] if c["before"] == "first" else out["second"]
        print(f"crossover at {ns.vary} = {c['at']:.6g}: below it {larger} is larger")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from .registry import all_results

    all_results()  # paper modules add the parameters they need (params.add_param) on import
    p = _Parser(prog="python -m bounds", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    s = sub.add_parser("list", help="all results")
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_list)
    s = sub.add_parser("show", help="one result in full")
    s.add_argument("id")
    s.add_argument("--no-latex", action="store_true")
    s.set_defaults(fn=cmd_show)
    s = sub.add_parser("compute", help="concrete values at one parameter point")
    s.add_argument("id")
    s.add_argument("--json", action="store_true")
    _add_params(s)
    s.set_defaults(fn=cmd_compute)
    s = sub.add_parser("sweep", help="values over a grid of parameters")
    s.add_argument("id")
    s.add_argument("--csv", action="store_true")
    _add_params(s)
    s.set_defaults(fn=cmd_sweep)
    s = sub.add_parser("compare", help="several results at the same parameters, with ratios")
    s.add_argument("ids", nargs="+")
    s.add_argument("--json", action="store_true")
    _add_params(s)
    s.set_defaults(fn=cmd_compare)
    s = sub.add_parser("crossover", help="where one bound overtakes another")
    s.add_argument("first")
    s.add_argument("second")
    s.add_argument("--vary", required=True, type=lambda t: t.replace("-", "_"))
    s.add_argument("--quantity")
    s.add_argument("--quantity2")
    s.add_argument("--low")
    s.add_argument("--high")
    s.add_argument("--json", action="store_true")
    _add_params(s)
    s.set_defaults(fn=cmd_crossover)
    return p


def main(argv=None) -> int:
    try:
        ns = build_parser().parse_args(argv)
        return ns.fn(ns)
    except DomainError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
