"""The claims a proof check carries and the verdicts it gives (proofs_checks.core, whose module docstring
describes both): the statuses, :class:`Verdict`, and the claim shapes :class:`Var`, :class:`Inequality`,
:class:`Identity`, :class:`Case`, :class:`Exhaustive`, :class:`MonteCarlo`. Re-exported by
:mod:`proofs_checks.core`, the import path to use."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

import numpy as np


HOLDS = "holds"
PART = "holds on part"
FAILS = "fails"
NOT_CHECKABLE = "not machine-checkable"
PROVED = "proved"                          # an inequality proved on its whole box (interval branch-and-bound)
SAMPLED = "holds (sampled)"                # no counterexample on a grid nor by hypothesis, not proved: evidence only
PROVED_PART = "proved on part"             # proved on the stated region, a counterexample outside it
PART_SAMPLED = "holds on part (sampled)"   # the region only sampled
STATUSES = (HOLDS, PROVED, SAMPLED, PART, PROVED_PART, PART_SAMPLED, FAILS, NOT_CHECKABLE)
#: the claim-level outcome of each status (what a corrected claim is expected to give, however it was decided)
OUTCOME = {HOLDS: HOLDS, PROVED: HOLDS, SAMPLED: HOLDS, PART: PART, PROVED_PART: PART, PART_SAMPLED: PART,
           FAILS: FAILS, NOT_CHECKABLE: NOT_CHECKABLE}
METHODS = ("symbolic", "interval branch-and-bound", "numeric grid + hypothesis", "exhaustive", "exact probability",
           "monte carlo", "text", "none")


# ---------------------------------------------------------------------------------------------
# verdicts


def _plain(x):
    """A JSON-friendly copy of numbers, arrays and nested containers."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating, float)):
        v = float(x)
        return v if math.isfinite(v) else str(v)
    if isinstance(x, np.ndarray):
        return _plain(x.tolist())
    if x is None or isinstance(x, (int, str)):
        return x
    return str(x)


@dataclass(frozen=True)
class Verdict:
    """The outcome of one check on one claim."""

    status: str
    summary: str
    method: str                              # the method that decided (see METHODS)
    region: str | None = None                # PART: where the claim holds
    counterexample: Mapping[str, Any] | None = None  # FAILS / PART: the smallest found
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status={self.status!r}: allowed {STATUSES}")

    @property
    def holds(self) -> bool:
        return OUTCOME[self.status] == HOLDS

    @property
    def outcome(self) -> str:
        """holds / holds on part / fails / not machine-checkable, however it was decided."""
        return OUTCOME[self.status]

    @property
    def failing(self) -> bool:
        """A finding: the claim fails on (part of) its stated domain."""
        return OUTCOME[self.status] in (FAILS, PART)

    def to_dict(self) -> dict:
        return {"status": self.status, "summary": self.summary, "method": self.method,
                "region": self.region, "counterexample": _plain(self.counterexample),
                "evidence": _plain(dict(self.evidence))}


def not_checkable(reason: str) -> Verdict:
    return Verdict(NOT_CHECKABLE, reason, "none")


# ---------------------------------------------------------------------------------------------
# claims


@dataclass(frozen=True)
class Var:
    """One variable of a numeric domain: an interval, log- or linearly spaced, maybe integer."""

    name: str
    lo: float
    hi: float
    integer: bool = False
    log: bool = True
    points: int = 24

    def grid(self, points: int | None = None) -> np.ndarray:
        k = points or self.points
        if self.integer:
            lo, hi = int(math.ceil(self.lo)), int(math.floor(self.hi))
            if hi - lo + 1 <= k:
                return np.arange(lo, hi + 1, dtype=float)
            g = (np.geomspace(max(lo, 1), hi, k) if self.log and lo >= 1 else np.linspace(lo, hi, k))
            return np.unique(np.concatenate([[lo], np.round(g)]))
        if self.log:
            return np.geomspace(self.lo, self.hi, k)
        return np.linspace(self.lo, self.hi, k)

    def strategy(self):
        from hypothesis import strategies as st

        if self.integer:
            return st.integers(int(math.ceil(self.lo)), int(math.floor(self.hi)))
        if self.log and self.lo > 0:
            return st.floats(math.log(self.lo), math.log(self.hi)).map(math.exp)
        return st.floats(self.lo, self.hi, allow_nan=False)


Mask = Callable[..., Any]  # f(o, **args) -> bool array


def _sympy_symbols(domain: Iterable[Var]) -> dict:
    import sympy as sp

    out = {}
    for v in domain:
        kw = {"integer": True} if v.integer else {"real": True}
        if v.lo > 0 or (v.integer and v.lo >= 1):
            kw["positive"] = True
        elif v.lo >= 0:
            kw["nonnegative"] = True
        out[v.name] = sp.Symbol(v.name, **kw)
    return out


@dataclass(frozen=True)
class Inequality:
    """``lhs <rel> rhs`` for every point of the domain (the box, restricted by ``where``).

    ``region``/``region_text``: a sub-domain on which the claim is asserted to hold when it does not
    hold everywhere (the check verifies it). ``lhs``/``rhs`` are ``f(o, **args)``; they may use
    scipy (then the claim is numeric only).
    """

    text: str
    lhs: Callable[..., Any]
    rhs: Callable[..., Any]
    domain: tuple[Var, ...]
    rel: str = "<="
    where: Mask | None = None
    region: Mask | None = None
    region_text: str | None = None
    rtol: float = 1e-9
    symbolic: bool = False   # first try to prove the sign of rhs - lhs with sympy (positivity assumptions only)
    tight: bool = False      # 0 on a face at the ends of the ranges, or everywhere: the prover asks sympy there
    #: restatements whose conjunction implies this claim (on its region when it has one), each as strong or stronger
    #: (argued where they are built: a change of variables that makes a curve a face, a max split into its terms, an
    #: integer relaxed to a real): the interval prover proves these instead; the grid and hypothesis check this claim
    proved_as: tuple["Inequality", ...] = ()

    def __post_init__(self):
        if self.rel not in ("<=", "<", ">=", ">"):
            raise ValueError(f"rel={self.rel!r}: allowed <=, <, >=, >")


@dataclass(frozen=True)
class Identity:
    """``lhs == rhs`` on the domain: sympy first, then the grid."""

    text: str
    lhs: Callable[..., Any]
    rhs: Callable[..., Any]
    domain: tuple[Var, ...]
    where: Mask | None = None
    rtol: float = 1e-9


@dataclass(frozen=True)
class Case:
    label: str
    data: Mapping[str, Any]
    size: float = 0.0  # orders counterexamples: the smallest is reported


@dataclass(frozen=True)
class Exhaustive:
    """``holds(case) -> (bool, info)`` for every case; ``in_region(case)`` marks a claimed sub-domain."""

    text: str
    cases: Callable[[], Iterable[Case]]
    holds: Callable[[Case], tuple[bool, Mapping[str, Any]]]
    in_region: Callable[[Case], bool] | None = None
    region_text: str | None = None


@dataclass(frozen=True)
class MonteCarlo:
    """A probability claimed to be at most ``bound``: ``trials(rng, n) -> number of bad events``."""

    text: str
    trials: Callable[[np.random.Generator, int], int]
    bound: float
    n_trials: int
    seed: int
    level: float = 0.01
