"""Formulas as images a reader can read: matplotlib mathtext, no TeX installation.

:func:`render` turns LaTeX (as sympy prints it) into one PNG:

1. sympy LaTeX that mathtext does not know is rewritten to what it knows (``\\ge`` -> ``\\geq``,
   ``\\operatorname{f}`` -> ``\\mathrm{f}``, ``\\text{}`` -> ``\\mathrm{}``, ...);
2. a formula wider than ``max_width`` pixels is broken over lines: long fractions become inline
   divisions ``(numerator)/(denominator)`` (the same value), ``\\left( .. \\right)`` become plain
   parentheses so a line may end inside them, and the formula is cut at its top-level ``+ - , =
   \\leq :`` (never inside braces, so never inside a number, a root or a subscript), lines packed
   greedily by their measured width, continuation lines indented;
3. if mathtext still cannot parse it, the plain-text form (``plain``, e.g. sympy's ``sstr``) is set
   in a monospaced font, wrapped: the reader sees an equivalent formula, never LaTeX source with an
   error message.

The result says which of the three it used (``"mathtext"``, ``"mathtext, N lines"``, ``"plain text"``).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

#: widest formula image in pixels at DPI: the PDF's text width (A4 minus margins, 180 mm) at 150 dpi
MAX_WIDTH_PX = 1000
DPI = 150
#: a fraction longer than this (characters of LaTeX) is set inline when a formula must be broken
LONG_FRACTION = 70

#: Greek letters mathtext sets as \\name
_GREEK_NAMES = ("alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "iota", "kappa",
                "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "varphi", "chi", "psi",
                "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega")

_REWRITES = [
    (r"\\(mathcal|mathbb|mathrm|mathbf|mathit)\s*([A-Za-z0-9])", r"\\\1{\2}"),  # \mathcal X
    (r"\\geqslant\b", r"\\geq"), (r"\\leqslant\b", r"\\leq"),
    (r"\\ge(?![a-zA-Z])", r"\\geq"), (r"\\le(?![a-zA-Z])", r"\\leq"), (r"\\ne(?![a-zA-Z])", r"\\neq"),
    (r"\\operatorname\{([^{}]*)\}", r"\\mathrm{\1}"), (r"\\text\{([^{}]*)\}", r"\\mathrm{\1}"),
    (r"\\mathrm\{([^{}]*)\}", lambda m: r"\mathrm{" + m.group(1).replace(" ", r"\ ") + "}"),
    (r"\\lvert|\\rvert", "|"), (r"\\lVert|\\rVert", r"\\Vert"),
    (r"\\displaystyle", ""), (r"\\limits", ""), (r"\\!", ""),
    (r"\\dots\b", r"\\ldots"), (r"\\tfrac", r"\\frac"), (r"\\dfrac", r"\\frac"),
    # a symbol named by a Greek letter that sympy set upright as a word (\mathrm{kappa}): the letter
    (r"\\mathrm\{(" + "|".join(_GREEK_NAMES) + r")\}", r"\\\1"),
    # an integer that sympy printed as a float (-1.0): the exact integer it is
    (r"(?<![\d.])(\d+)\.0(?![\d.])", r"\1"),
]


def normalise(latex: str) -> str:
    """sympy / paper LaTeX rewritten to matplotlib mathtext's subset (same formula)."""
    out = latex.strip()
    for pat, rep in _REWRITES:
        out = re.sub(pat, rep, out)
    return out


def _group(s: str, i: int) -> int:
    """Index just past the brace group starting at s[i] == '{'."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "\\":
            continue
        if s[j] == "{" and (j == 0 or s[j - 1] != "\\"):
            depth += 1
        elif s[j] == "}" and s[j - 1] != "\\":
            depth -= 1
            if depth == 0:
                return j + 1
    raise ValueError("unbalanced braces")


def inline_long_fractions(latex: str, limit: int = LONG_FRACTION) -> str:
    """``\\frac{a}{b}`` with more than ``limit`` characters -> ``(a)/(b)`` (recursively); short ones stay."""
    out, i = [], 0
    while i < len(latex):
        if latex.startswith(r"\frac{", i):
            a_end = _group(latex, i + 5)
            b_end = _group(latex, a_end)
            num = inline_long_fractions(latex[i + 6:a_end - 1], limit)
            den = inline_long_fractions(latex[a_end + 1:b_end - 1], limit)
            if b_end - i > limit:
                simple = re.fullmatch(r"[A-Za-z0-9]+|\\[A-Za-z]+", den.strip())
                den_txt = den if simple else f"({den})"
                out.append(f"({num}) / {den_txt}")
            else:
                out.append(r"\frac{" + num + "}{" + den + "}")
            i = b_end
            continue
        out.append(latex[i])
        i += 1
    return "".join(out)


def inline_long_roots(latex: str, limit: int = LONG_FRACTION) -> str:
    """``\\sqrt{x}`` with more than ``limit`` characters -> ``(x)^{1/2}`` (the same value), so that a line may end
    inside it (a radical's bar cannot be broken); short roots stay."""
    out, i = [], 0
    while i < len(latex):
        if latex.startswith(r"\sqrt{", i):
            end = _group(latex, i + 5)
            inner = inline_long_roots(latex[i + 6:end - 1], limit)
            out.append(f"({inner})^{{1/2}}" if end - i > limit else r"\sqrt{" + inner + "}")
            i = end
            continue
        out.append(latex[i])
        i += 1
    return "".join(out)


def _plain_delimiters(latex: str) -> str:
    """``\\left( .. \\right)`` -> ``( .. )`` so that a line may end between them."""
    s = re.sub(r"\\left\\lfloor\s*", r"\\lfloor ", latex)
    s = re.sub(r"\\right\\rfloor", r"\\rfloor", s)
    s = re.sub(r"\\left\\lceil\s*", r"\\lceil ", s)
    s = re.sub(r"\\right\\rceil", r"\\rceil", s)
    s = re.sub(r"\\left\\\{", r"\\{", s)
    s = re.sub(r"\\right\\\}", r"\\}", s)
    s = re.sub(r"\\left\s*([(\[|.])", lambda m: "" if m.group(1) == "." else m.group(1), s)
    s = re.sub(r"\\right\s*([)\]|.])", lambda m: "" if m.group(1) == "." else m.group(1), s)
    return _unbrace_arguments(s)


def _unbrace_arguments(latex: str) -> str:
    """``\\log{(a + b)}`` -> ``\\log(a + b)`` (sympy braces a function's argument), so a line may end
    inside the argument; a brace group that is not one parenthesised expression stays."""
    out, i = [], 0
    while i < len(latex):
        m = re.match(r"\\(log|exp|sqrt|ln)\{", latex[i:])
        if m and not latex.startswith(r"\sqrt", i):
            start = i + m.end() - 1
            end = _group(latex, start)
            inner = latex[start + 1:end - 1].strip()
            if inner.startswith("(") and inner.endswith(")") and _balanced_parens(inner):
                out.append(latex[i:start] + _unbrace_arguments(inner))
                i = end
                continue
        out.append(latex[i])
        i += 1
    return "".join(out)


def _balanced_parens(text: str) -> bool:
    """True when ``text``'s first "(" closes at its last character (one parenthesised expression)."""
    depth = 0
    for k, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if depth == 0 and k < len(text) - 1:
            return False
    return depth == 0


_BREAK = re.compile(r"\s*(\\leq|\\geq|\\cdot|=|\+|-|,|:)\s*")


def break_points(latex: str, max_depth: int = 99) -> list[str]:
    """Pieces of ``latex`` cut before each top-level (brace depth 0, parenthesis depth <= ``max_depth``)
    ``+ - = \\leq \\geq \\cdot`` and after each such ``, :``; joining them gives ``latex`` back."""
    pieces, start, depth, parens, i = [], 0, 0, 0, 0
    while i < len(latex):
        c = latex[i]
        if c == "\\" and i + 1 < len(latex) and latex[i + 1] in "{}":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0 and c in "([":
            parens += 1
        elif depth == 0 and c in ")]":
            parens -= 1
        elif depth == 0 and parens <= max_depth:
            m = _BREAK.match(latex, i)
            if m and m.group(1) and i > start:
                op = m.group(1)
                if op in (",", ":"):
                    pieces.append(latex[start:m.end()])
                    start = m.end()
                else:
                    # a sign right after an opening parenthesis or an operator is a unary minus: no cut
                    before = latex[start:i].rstrip()
                    if before and before[-1] not in "(,[=+-:":
                        pieces.append(latex[start:i])
                        start = i
                i = m.end()
                continue
        i += 1
    pieces.append(latex[start:])
    return [p for p in pieces if p.strip()]


def _parse(latex: str, fontsize: float):
    from matplotlib.font_manager import FontProperties
    from matplotlib.mathtext import MathTextParser

    return MathTextParser("path").parse(f"${latex}$", dpi=DPI, prop=FontProperties(size=fontsize))


def width(latex: str, fontsize: float) -> float:
    """Width in pixels of ``latex`` set by mathtext at DPI (ValueError if mathtext cannot parse it)."""
    return float(_parse(latex, fontsize).width)


def _pack(pieces: list[str], fontsize: float, max_width: float) -> list[str]:
    lines, cur = [], ""
    for p in pieces:
        cand = cur + p
        if cur and width(cand, fontsize) > max_width:
            lines.append(cur)
            cur = p.lstrip()
        else:
            cur = cand
    if cur:
        lines.append(cur)
    return lines


def _refine(text: str, fontsize: float, max_width: float, depth: int = 0) -> list[str]:
    """``text`` cut at the shallowest parenthesis depth that splits it, each part refined again only
    if it is still too wide (so ``(1 + 16 sqrt 2)`` stays whole when a shallower cut suffices)."""
    if width(text, fontsize) <= max_width:
        return [text]
    for d in range(depth, 10):
        parts = break_points(text, d)
        if len(parts) > 1:
            return [f for p in parts for f in _refine(p, fontsize, max_width, d)]
    return [text]


def _lines(latex: str, fontsize: float, max_width: float) -> list[str]:
    """Lines of at most ``max_width`` pixels (where a cut exists) packed from :func:`_refine`'s parts."""
    flat = _plain_delimiters(inline_long_roots(inline_long_fractions(latex)))
    return _pack(_refine(flat, fontsize, max_width), fontsize, max_width)


def _draw(lines: list[str], path: Path, fontsize: float, math: bool) -> None:
    """Set ``lines`` (mathtext or monospaced text) one under the other into a tight PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    step = fontsize * (2.6 if math else 1.5) / 72  # inches per line (fractions need room)
    fig = plt.figure(figsize=(1, step * len(lines) + 0.1), dpi=DPI)
    for k, line in enumerate(lines):
        y = 1 - (k + 0.5) / len(lines)
        fig.text(0.02 if k == 0 else 0.06, y, f"${line}$" if math else line, fontsize=fontsize,
                 va="center", ha="left", family=None if math else "DejaVu Sans Mono")
    fig.savefig(path, dpi=DPI, bbox_inches="tight", pad_inches=0.04, transparent=False, facecolor="white")
    plt.close(fig)


def render(latex: str, path: str | Path, fontsize: float = 13, plain: str | None = None,
           max_width: float = MAX_WIDTH_PX) -> str:
    """Write the formula to ``path`` (PNG) and say how: "mathtext", "mathtext, N lines" or "plain text"."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import mathtext
    from matplotlib.font_manager import FontProperties

    path = Path(path)
    tex = normalise(latex)
    try:
        w = width(tex, fontsize)
        if w <= max_width:
            mathtext.math_to_image(f"${tex}$", str(path), prop=FontProperties(size=fontsize), dpi=DPI,
                                   format="png")
            return "mathtext"
        lines = _lines(tex, fontsize, 0.92 * max_width)  # room for the continuation indent
        _draw(lines, path, fontsize, math=True)
        return f"mathtext, {len(lines)} lines"
    except Exception:  # mathtext raises ValueError / ParseException on what it does not support
        path.unlink(missing_ok=True)
    text = plain if plain else plain_text(latex)
    chars = max(20, int(max_width / (fontsize * 0.62 * DPI / 72)))
    _draw(textwrap.wrap(text, chars, break_on_hyphens=False) or [text], path, fontsize * 0.8, math=False)
    return "plain text"


_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "varepsilon": "ε", "epsilon": "ε", "zeta": "ζ",
          "kappa": "κ", "eta": "η", "theta": "θ", "phi": "φ", "omega": "ω", "pi": "π", "xi": "ξ", "psi": "ψ",
          "lambda": "λ", "mu": "μ", "nu": "ν", "rho": "ρ", "sigma": "σ", "tau": "τ", "infty": "∞",
          "leq": "<=", "geq": ">=", "le": "<=", "ge": ">=", "cdot": "*", "log": "log", "sqrt": "sqrt"}


def plain_text(latex: str) -> str:
    """A readable plain-text version of LaTeX (last resort when no plain form was given)."""
    s = normalise(latex)
    try:
        s = inline_long_fractions(s, 0)  # every fraction as (numerator) / denominator, nested ones too
    except ValueError:  # unbalanced braces: left to the patterns below
        pass
    s = _plain_delimiters(s)
    for _ in range(8):
        s2 = re.sub(r"\\(?:mathrm|mathbf|mathit|mathcal|text|operatorname)\{([^{}]*)\}", r"\1", s)
        s2 = re.sub(r"\\mathbb\{N\}", "ℕ", s2)
        s2 = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"(\1)/(\2)", s2)
        s2 = re.sub(r"\\sqrt\{([^{}]*)\}", r"sqrt(\1)", s2)
        if s2 == s:
            break
        s = s2
    s = re.sub(r"\\([A-Za-z]+)", lambda m: _GREEK.get(m.group(1), m.group(1)), s)
    return " ".join(s.replace("{", "(").replace("}", ")").replace("\\", "").split())
