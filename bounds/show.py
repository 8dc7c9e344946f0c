"""Text for ``python -m bounds show ID``: statement, domain, forms (plain text and LaTeX),
derivation notes, source. The only place besides proof checks where sympy is imported."""
from __future__ import annotations

import textwrap

from .core import Implicit, Infimum, Result, call, latex_names, symbolic, symbols_for
from .ops import SYMPY

_ORDER_TEXT = {"O": "O", "Otilde": "O~", "Omega": "Omega", "Omegatilde": "Omega~", "Theta": "Theta",
               "exact": ""}
_ORDER_TEX = {"O": r"O", "Otilde": r"\tilde O", "Omega": r"\Omega", "Omegatilde": r"\tilde\Omega",
              "Theta": r"\Theta", "exact": ""}


def _wrap(text: str, indent: str = "  ") -> str:
    return textwrap.fill(text, 96, initial_indent=indent, subsequent_indent=indent)


def forms(result: Result, quantity) -> dict:
    """Plain-text and LaTeX renderings of a quantity's asymptotic and explicit forms."""
    import sympy as sp

    names = latex_names(result)
    out = {}
    for form in ("asymptotic", "explicit"):
        expr = symbolic(result, quantity, form)
        if expr is None:
            continue
        text, tex = sp.sstr(expr), sp.latex(expr, symbol_names=names)
        if form == "asymptotic":
            o, ot = _ORDER_TEXT[quantity.order], _ORDER_TEX[quantity.order]
            text = f"{o}({text})" if o else text
            tex = rf"{ot}\left({tex}\right)" if ot else tex
        elif isinstance(quantity.explicit, Implicit):
            var = quantity.explicit.var
            # the solver starts at the declared lower end (where the inequality begins to apply);
            # below it the inequality may hold spuriously (e.g. Sauer's bound for 2m < d)
            lower = (call(quantity.explicit.lower, SYMPY, symbols_for(result))
                     if quantity.explicit.lower is not None else sp.Integer(1))
            text = f"least integer {var} >= {sp.sstr(lower)} with {text}"
            tex = (rf"\min\{{{var} \in \mathbb{{N}},\ {var} \ge "
                   rf"{sp.latex(lower, symbol_names=names)} : {tex}\}}")
        out[form] = (text, tex)
    return out


def render_show(result: Result, latex: bool = True) -> str:
    lines = [f"{result.paper} {result.label}  ({result.id}, short id {result.short_id})",
             f"kind: {result.kind}", "", "statement:", _wrap(result.statement), "",
             "domain:"]
    for k in result.params:
        p = result.param(k)
        lines.append(f"  {p.flag:<20} {p.domain.describe(p.arg)}   ({p.description})")
    for rel in result.relations:
        lines.append(f"  and {rel.text}")
    if result.constants:
        lines += ["", "hidden constants (set with --const NAME=VALUE; default 1):"]
        lines += [f"  {c}: {text}" for c, text in result.constants.items()]
    for q in result.quantities:
        lines += ["", f"{q.name} ({q.symbol}){' [derivation step]' if q.intermediate else ''}: "
                  f"{q.description}"]
        f = forms(result, q)
        for form in ("asymptotic", "explicit"):
            if form in f:
                text, tex = f[form]
                lines.append(f"  {form}: {q.symbol} = {text}" if form == "asymptotic" or
                             not isinstance(q.explicit, Implicit) else f"  {form}: {q.symbol} = {text}")
                if latex:
                    lines.append(f"  {form} (LaTeX): {tex}")
        if isinstance(q.explicit, Implicit):
            lines.append(f"  inequality as in the paper: {q.explicit.text}")
        if isinstance(q.explicit, Infimum):
            lines.append(f"  infimum as in the paper: {q.explicit.text}")
            lines.append("  computed numerically: golden-section search in log("
                         f"{q.explicit.var}) over the bracket shown (the objective is unimodal there)")
        if q.derivation:
            lines.append("  derivation:")
            lines.append(_wrap(q.derivation, "    "))
        if not q.has_explicit:
            lines.append("  no explicit form: compute uses the asymptotic form with the hidden "
                         "constants (default 1), valid up to them")
    if result.notes or result.errata:
        from .errata import get as erratum

        lines += ["", "notes and errata:"] + [_wrap("- " + n) for n in result.notes]
        lines += [_wrap(f"- {erratum(i).status} {i}: {erratum(i).title} (docs/ERRATA.md)")
                  for i in result.errata]
    lines += ["", f"source: {result.source}"]
    from .where import render as where

    lines += where(result)
    return "\n".join(lines)
