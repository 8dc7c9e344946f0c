"""Text for ``python -m bounds show ID``: statement, domain, forms (plain text and LaTeX),
derivation notes, source. The only place besides proof checks where sympy is imported.

The forms are what sympy derives from the formulas the engine evaluates. Rendering them costs sympy's import
(about 0.8 s of CPU), so ``show`` prints them from ``bounds/forms.json``, which holds sympy's rendering of every
form and is generated, never edited:

    python -m bounds.show --write    # rewrite bounds/forms.json (a test holds it equal to a fresh rendering)

A form missing from the file is rendered by sympy on the spot."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from .core import Implicit, Infimum, Result, call, latex_names, symbolic, symbols_for
from .ops import SYMPY

_ORDER_TEXT = {"O": "O", "Otilde": "O~", "Omega": "Omega", "Omegatilde": "Omega~", "Theta": "Theta",
               "exact": ""}
_ORDER_TEX = {"O": r"O", "Otilde": r"\tilde O", "Omega": r"\Omega", "Omegatilde": r"\tilde\Omega",
              "Theta": r"\Theta", "exact": ""}


def _wrap(text: str, indent: str = "  ") -> str:
    return textwrap.fill(text, 96, initial_indent=indent, subsequent_indent=indent)


_GREEK_NAMES = {"alpha": r"\alpha", "beta": r"\beta", "gamma": r"\gamma", "delta": r"\delta", "eps": r"\varepsilon",
                "epsilon": r"\varepsilon", "rho": r"\rho", "lam": r"\lambda", "lambda": r"\lambda", "sigma": r"\sigma",
                "mu": r"\mu", "tau": r"\tau", "phi": r"\phi", "theta": r"\theta", "eta": r"\eta", "xi": r"\xi"}
_DECORATIONS = {"hat": r"\hat{%s}", "tilde": r"\tilde{%s}", "prime": "%s'", "star": "%s^*"}


def _name_part(part: str) -> str:
    """One piece of a symbol name as LaTeX: a Greek name as its letter, one character as itself, a longer
    word upright as a whole (``min``, ``learn``), a word ending in digits as the word with them (``phase2``)."""
    if part in _GREEK_NAMES:
        return _GREEK_NAMES[part]
    if len(part) <= 1:
        return part
    if part.isdigit():
        return part
    return r"\mathrm{" + part + "}"


def tex_name(name: str) -> str:
    """A symbol name (``n_min``, ``alpha_pmw``, ``eps_hat``, ``log_h``, ``n_prime_printed``) set as a name in
    LaTeX: the subscript is every part after the first underscore, whole (``n_{\\mathrm{min}}``, never
    ``n_m in``); ``hat`` / ``tilde`` / ``prime`` / ``star`` decorate the head; ``log_x`` / ``logX`` is
    ``\\log x`` (the logarithm of x, never a log to base x). A name already holding LaTeX is kept."""
    if any(ch in name for ch in "\\^{}"):
        return name
    parts = [p for p in name.split("_") if p]
    if not parts:
        return name
    head, subs = parts[0], parts[1:]
    if head == "log" and subs:
        return r"\log " + tex_name("_".join(subs))
    if head.startswith("log") and len(head) > 3 and not subs:
        return r"\log " + tex_name(head[3:])
    if len(head) == 2 and head[0].isalpha() and head[1].isdigit():  # e0 -> e_0
        head, subs = head[0], [head[1]] + subs
    out = _name_part(head)
    for deco in [s for s in subs if s in _DECORATIONS]:
        out = _DECORATIONS[deco] % out
    subs = [s for s in subs if s not in _DECORATIONS]
    if subs:
        out = f"{out}_{{{','.join(_name_part(s) for s in subs)}}}"
    return out


#: numeric floors the bounds put inside exponentials for evaluation (e^max(-1e7, x)); never part of a formula
_CLAMP = 1e6


def _unclamp(expr):
    """``expr`` without the evaluation clamps ``Max(x, -1e7)`` (a floor that keeps exp() representable, not
    part of the paper's formula): each such Max is replaced by its other arguments."""
    import sympy as sp

    def clamp(e):
        return isinstance(e, sp.Max) and any(a.is_Number and a <= -_CLAMP for a in e.args)

    return expr.replace(clamp, lambda e: sp.Max(*[a for a in e.args if not (a.is_Number and a <= -_CLAMP)]))


def forms(result: Result, quantity) -> dict:
    """Plain-text and LaTeX renderings of a quantity's asymptotic and explicit forms (symbols set as names by
    :func:`tex_name`, evaluation clamps removed)."""
    import sympy as sp

    params = latex_names(result)
    out = {}
    for form in ("asymptotic", "explicit"):
        expr = symbolic(result, quantity, form)
        if expr is None:
            continue
        expr = _unclamp(sp.sympify(expr))
        names = {sym: tex_name(sym.name) for sym in expr.free_symbols if isinstance(sym, sp.Symbol)}
        names.update(params)
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
            tex = (rf"\min\{{{tex_name(var)} \in \mathbb{{N}},\ {tex_name(var)} \ge "
                   rf"{sp.latex(lower, symbol_names=names)} : {tex}\}}")
        out[form] = (text, tex)
    return out


FORMS_JSON = Path(__file__).with_name("forms.json")


def rendered_forms() -> dict:
    """What ``bounds/forms.json`` holds, freshly rendered by sympy: result id -> quantity name -> form ->
    [plain text, LaTeX]."""
    from .registry import all_results

    return {r.id: {q.name: {k: list(v) for k, v in forms(r, q).items()} for q in r.quantities}
            for r in all_results()}


def forms_json(data: dict) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


_STORED: dict | None = None


def stored_forms(result: Result) -> dict:
    """The forms of ``result`` as ``bounds/forms.json`` stores them (quantity name -> form -> (text, tex));
    empty if the file or the result is not there."""
    global _STORED
    if _STORED is None:
        try:
            _STORED = json.loads(FORMS_JSON.read_text(encoding="utf-8"))
        except FileNotFoundError:
            _STORED = {}
    return {q: {k: tuple(v) for k, v in fs.items()} for q, fs in _STORED.get(result.id, {}).items()}


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
    stored = stored_forms(result)
    for q in result.quantities:
        lines += ["", f"{q.name} ({q.symbol}){' [derivation step]' if q.intermediate else ''}: "
                  f"{q.description}"]
        f = stored[q.name] if q.name in stored else forms(result, q)
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


def main(argv=None) -> int:
    """``python -m bounds.show [--write]``: print (or write to bounds/forms.json) sympy's rendering of every
    form."""
    from .cli_common import generated_file

    return generated_file(argv, "bounds.show", FORMS_JSON, lambda: forms_json(rendered_forms()))


if __name__ == "__main__":
    raise SystemExit(main())
