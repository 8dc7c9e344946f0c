"""The catalogue of parameters: command-line name, the paper's letter, type and default domain.

A result names the parameters it needs by key and may narrow their domain (for example
Lemma 7 needs 0 < epsilon < 1). Formulas receive parameters under their ``arg`` name, which is
the paper's letter where the papers have one (d, p, n, m, eps, ...).

Add a parameter here, in the same style, when a result needs one; the command line picks it
up as ``--key-with-dashes``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .errors import DomainError


@dataclass(frozen=True)
class Interval:
    """An interval of allowed values; ``integer`` restricts it to the integers."""

    low: float = -math.inf
    high: float = math.inf
    low_open: bool = True
    high_open: bool = True
    integer: bool = False

    def contains(self, x) -> bool:
        try:
            if x != x:  # nan
                return False
        except TypeError:
            return False
        if self.integer and int(x) != x:
            return False
        above = x > self.low if self.low_open else x >= self.low
        below = x < self.high if self.high_open else x <= self.high
        return bool(above and below)

    def contains_all(self, values) -> tuple[bool, object]:
        """Vectorised membership: (all inside, the first value outside or None)."""
        import numpy as np

        arr = np.asarray(values)
        if arr.dtype == object or arr.size <= 8:
            for x in arr.ravel():
                if not self.contains(x):
                    return False, x
            return True, None
        a = arr.astype(float)
        ok = ~np.isnan(a)
        ok &= (a > self.low) if self.low_open else (a >= self.low)
        ok &= (a < self.high) if self.high_open else (a <= self.high)
        if self.integer:
            ok &= np.floor(a) == a
        if ok.all():
            return True, None
        return False, arr.ravel()[np.argmin(ok.ravel())]

    def describe(self, symbol: str) -> str:
        if self.integer:
            if self.high == math.inf:
                lo = self.low + 1 if self.low_open else self.low
                return f"{symbol} an integer >= {_fmt(lo)}"
            return f"{symbol} an integer in {self._brackets()}"
        if self.low == -math.inf and self.high == math.inf:
            return f"{symbol} any real number"
        if self.high == math.inf:
            return f"{symbol} {'>' if self.low_open else '>='} {_fmt(self.low)}"
        if self.low == -math.inf:
            return f"{symbol} {'<' if self.high_open else '<='} {_fmt(self.high)}"
        lo_op = "<" if self.low_open else "<="
        hi_op = "<" if self.high_open else "<="
        return f"{_fmt(self.low)} {lo_op} {symbol} {hi_op} {_fmt(self.high)}"

    def _brackets(self) -> str:
        return (("(" if self.low_open else "[") + f"{_fmt(self.low)}, {_fmt(self.high)}"
                + (")" if self.high_open else "]"))


def _fmt(x) -> str:
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return str(x)


@dataclass(frozen=True)
class Param:
    key: str          # command-line / API name: --dual-vc, dual_vc=
    arg: str          # argument name in formulas (the paper's letter)
    latex: str        # symbol for show / LaTeX
    domain: Interval  # default domain; results may narrow it
    description: str

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-")

    def with_domain(self, domain: Interval) -> "Param":
        return replace(self, domain=domain)

    def check(self, value, result_id: str = "") -> None:
        """Raise DomainError unless ``value`` (a number or an array of them) is in the domain."""
        inside, bad = self.domain.contains_all(value)
        if not inside:
            value = bad
            where = f" for {result_id}" if result_id else ""
            raise DomainError(
                f"{self.flag} = {value!s}: outside the domain{where}; allowed: "
                f"{self.domain.describe(self.key)}"
            )


def open01() -> Interval:
    return Interval(0.0, 1.0, True, True)


POS_INT = Interval(0, math.inf, True, True, integer=True)
NONNEG_INT = Interval(0, math.inf, False, True, integer=True)
POSITIVE = Interval(0.0, math.inf, True, True)
NONNEG = Interval(0.0, math.inf, False, True)

_CATALOGUE = [
    Param("alpha", "alpha", r"\alpha", open01(), "accuracy (error) parameter"),
    Param("beta", "beta", r"\beta", open01(), "failure probability"),
    Param("epsilon", "eps", r"\varepsilon", POSITIVE, "privacy parameter epsilon"),
    Param("delta", "delta", r"\delta", Interval(0.0, 1.0, False, True), "privacy parameter delta"),
    Param("vc", "d", "d", POS_INT, "VC dimension of the class"),
    Param("dual_vc", "p", "p", POS_INT, "dual VC dimension of the class"),
    Param("littlestone", "ldim", r"\mathrm{Ldim}", POS_INT, "Littlestone dimension of the class"),
    Param("num_queries", "num_queries", "m_q", POS_INT,
          "number of queries: NB20's m classification queries, LVSUW21's |Q| statistical queries"),
    Param("private_samples", "n", "n", POS_INT, "private sample size"),
    Param("public_samples", "m", "m", POS_INT, "public sample size"),
    Param("renyi_2", "D2", r"D_2", NONNEG, "Renyi divergence of order 2, D_2(mu || nu), nats"),
    Param("renyi_inf", "Dinf", r"D_\infty", NONNEG,
          "Renyi divergence of order infinity, D_inf(mu || nu), nats"),
    Param("num_hypotheses", "num_hypotheses", r"|H|", POS_INT, "size of a finite class"),
    Param("domain_size", "domain_size", r"|\mathcal{X}|", POS_INT, "size of a finite domain"),
]

PARAMS: dict[str, Param] = {p.key: p for p in _CATALOGUE}


def add_param(param: Param) -> Param:
    """Register a parameter a result needs that the catalogue lacks (keys are unique)."""
    if param.key in PARAMS and PARAMS[param.key] != param:
        raise ValueError(f"parameter {param.key!r} is already catalogued differently")
    PARAMS[param.key] = param
    return param
