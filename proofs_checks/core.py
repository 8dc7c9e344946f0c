"""The frame of a proof check: a claim, a checker parametrised by that claim, a verdict.

A :class:`Check` names one step of one proof (paper, result, equation), states the claim in words
and carries the claim itself as a value (an :class:`Inequality`, :class:`Identity`,
:class:`Exhaustive` or :class:`MonteCarlo`). Its checker is a plain function of the claim, so the
same checker runs on the paper's claim, on the corrected claim where the paper is wrong, and on
deliberately perturbed claims (a constant changed, an inequality flipped): the tests run all three,
so no check can be vacuous.

Verdicts (:data:`STATUSES`):

- ``proved``: an inequality proved on its whole stated box in rigorous interval arithmetic
  (:mod:`proofs_checks.certify`: the number of boxes and the smallest margin are reported);
- ``holds (sampled)``: no counterexample on a dense grid nor by a hypothesis search, but the interval
  proof did not finish (its reason is reported): evidence, not a proof;
- ``holds``: a symbolic proof (sympy), every case of an exhaustive enumeration, or a Monte-Carlo
  confidence bound;
- ``proved on part`` / ``holds on part (sampled)`` / ``holds on part``: fails somewhere on the stated
  domain (the smallest counterexample found, certified in interval arithmetic where it can be) but
  holds on a stated sub-region, which is itself proved, sampled, or enumerated;
- ``fails``: a counterexample (the smallest found) inside the stated domain;
- ``not machine-checkable``: with the reason.

Formulas are functions ``f(o, **args)`` over :mod:`bounds.ops` namespaces, the convention of
:mod:`bounds`: the same function evaluates vectorised in numpy and symbolically in sympy. Where a
result's formula exists in :mod:`bounds`, a check imports it instead of retyping it.
"""
from __future__ import annotations

import itertools
import sys
import time
from importlib import import_module
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from bounds.ops import INTERVAL, NUMPY, SYMPY
from bounds.references import PAPERS as REFERENCES
from bounds.registry import Registry

from ._claims import (  # noqa: F401  (re-exported: proofs_checks.core is the import path)
    FAILS, HOLDS, METHODS, NOT_CHECKABLE, OUTCOME, PART, PART_SAMPLED, PROVED, PROVED_PART, SAMPLED, STATUSES, Case,
    Exhaustive, Identity, Inequality, Mask, MonteCarlo, Var, Verdict, _plain, _sympy_symbols, not_checkable,
)


# ---------------------------------------------------------------------------------------------
# checkers


def _relation_ok(lhs, rhs, rel: str, rtol: float):
    """lhs <rel> rhs, with a relative slack of rtol for the non-strict relations (float noise)."""
    lhs = np.asarray(lhs, dtype=float)
    rhs = np.asarray(rhs, dtype=float)
    with np.errstate(invalid="ignore", over="ignore"):
        big = np.maximum(np.abs(lhs), np.abs(rhs))
        slack = np.where(np.isfinite(big), rtol * big, 0.0)
        if rel == "<=":
            ok = lhs <= rhs + slack
        elif rel == "<":
            ok = lhs < rhs
        elif rel == ">=":
            ok = lhs >= rhs - slack
        else:
            ok = lhs > rhs
    return ok & ~np.isnan(lhs) & ~np.isnan(rhs)


def _mesh(domain: Sequence[Var], max_points: int) -> dict[str, np.ndarray]:
    """The product grid of the variables' grids (each ``points * SETTINGS['grid_scale']``), capped near max_points."""
    scale = SETTINGS.get("grid_scale", 1)
    per = max(2, int(max_points ** (1.0 / max(1, len(domain)))))
    grids = [v.grid(min(v.points * scale, per) if len(domain) > 1 else v.points * scale) for v in domain]
    mesh = np.meshgrid(*grids, indexing="ij")
    return {v.name: m.ravel() for v, m in zip(domain, mesh)}


def _mask(fn: Mask | None, env: dict) -> np.ndarray:
    n = len(next(iter(env.values())))
    if fn is None:
        return np.ones(n, dtype=bool)
    return np.broadcast_to(np.asarray(fn(NUMPY, **env), dtype=bool), (n,)).copy()


def _point(env: dict, i: int, domain: Sequence[Var]) -> dict:
    return {v.name: (int(env[v.name][i]) if v.integer else float(env[v.name][i])) for v in domain}


def _smallest(env: dict, idx: np.ndarray, domain: Sequence[Var]) -> int:
    """The violating point nearest the domain's lower corner (in grid ranks)."""
    ranks = np.zeros(idx.size)
    for v in domain:
        vals = env[v.name][idx]
        ranks += np.searchsorted(np.unique(env[v.name]), vals)
    return int(idx[np.argmin(ranks)])


def _violations(claim: Inequality, env: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    with np.errstate(all="ignore"):
        lhs = np.broadcast_to(np.asarray(claim.lhs(NUMPY, **env), dtype=float), env[claim.domain[0].name].shape)
        rhs = np.broadcast_to(np.asarray(claim.rhs(NUMPY, **env), dtype=float), lhs.shape)
    ok = _relation_ok(lhs, rhs, claim.rel, claim.rtol)
    inside = _mask(claim.where, env)
    return inside & ~ok, lhs, rhs


def _hypothesis_search(claim: Inequality, region: Mask | None, examples: int) -> dict | None:
    """A counterexample found by hypothesis (shrunk towards the simplest), or None."""
    from hypothesis import HealthCheck, find, settings, strategies as st
    from hypothesis.errors import NoSuchExample

    strat = st.fixed_dictionaries({v.name: v.strategy() for v in claim.domain})

    def bad(pt) -> bool:
        env = {k: np.array([float(x)]) for k, x in pt.items()}
        if not _mask(claim.where, env)[0] or (region is not None and not _mask(region, env)[0]):
            return False
        viol, _, _ = _violations(claim, env)
        return bool(viol[0])

    try:
        # deadline=None: one example's time depends on the machine's load, not on the claim
        return find(strat, bad, settings=settings(max_examples=examples, derandomize=True, database=None,
                                                 deadline=None, suppress_health_check=list(HealthCheck)))
    except NoSuchExample:
        return None


#: grid size and hypothesis budget of the numeric checks; ``python -m proofs_checks --thorough`` raises them
SETTINGS = {"max_points": 40_000, "examples": 150, "grid_scale": 1}


def check_inequality(claim: Inequality, *, max_points: int | None = None, examples: int | None = None) -> Verdict:
    """Dense grid of the domain, then a hypothesis search; a claimed region is checked the same way.

    The reported counterexample is the violating grid point nearest the domain's lower corner (smallest
    sum of grid ranks), or hypothesis's shrunk example when only hypothesis finds one.
    """
    max_points = SETTINGS["max_points"] if max_points is None else max_points
    examples = SETTINGS["examples"] if examples is None else examples
    if claim.symbolic and claim.where is None:
        proof = _sympy_sign(claim)
        if proof is not None:
            return Verdict(HOLDS, f"sympy: {proof}", "symbolic")
    env = _mesh(claim.domain, max_points)
    viol, lhs, rhs = _violations(claim, env)
    inside = _mask(claim.where, env)
    n_in = int(inside.sum())
    evidence: dict[str, Any] = {"grid_points": n_in}
    with np.errstate(all="ignore"):
        gap = np.where(inside, rhs - lhs if claim.rel in ("<=", "<") else lhs - rhs, np.nan)
    if np.any(np.isfinite(gap)):
        j = int(np.nanargmin(gap))
        evidence["tightest"] = {**_point(env, j, claim.domain), "lhs": float(lhs[j]), "rhs": float(rhs[j])}
    if not viol.any():
        found = _hypothesis_search(claim, None, examples)
        if found is None:
            sampled = f"no counterexample on {n_in} grid points nor in {examples} hypothesis examples"
            return _certified(claim, None, sampled, evidence)
        pt = {k: float(v) for k, v in found.items()}
        e1 = {k: np.array([v]) for k, v in pt.items()}
        _, l1, r1 = _violations(claim, e1)
        return Verdict(FAILS, "hypothesis found a counterexample between grid points",
                       "numeric grid + hypothesis", counterexample={**pt, "lhs": float(l1[0]), "rhs": float(r1[0])},
                       evidence=evidence)
    idx = np.nonzero(viol)[0]
    k = _smallest(env, idx, claim.domain)
    cex = {**_point(env, k, claim.domain), "lhs": float(lhs[k]), "rhs": float(rhs[k])}
    if "tightest" in evidence:
        evidence["worst"] = evidence.pop("tightest")
    evidence["violations"] = int(idx.size)
    evidence["violated_fraction"] = idx.size / max(n_in, 1)
    if claim.region is not None:
        in_reg = _mask(claim.region, env)
        bad_in = viol & in_reg
        if not bad_in.any() and _hypothesis_search(claim, claim.region, examples) is None:
            evidence["counterexample_certified"] = _certify_point(claim, cex)
            return _certified(claim, claim.region, f"fails on {idx.size} of {n_in} grid points; holds on the region",
                              evidence, counterexample=cex)
        if bad_in.any():
            k2 = _smallest(env, np.nonzero(bad_in)[0], claim.domain)
            evidence["counterexample_in_region"] = {**_point(env, k2, claim.domain),
                                                    "lhs": float(lhs[k2]), "rhs": float(rhs[k2])}
    evidence["counterexample_certified"] = _certify_point(claim, cex)
    return Verdict(FAILS, f"fails on {idx.size} of {n_in} grid points", "numeric grid + hypothesis",
                   counterexample=cex, evidence=evidence)


def _certified(claim: Inequality, region: Mask | None, sampled: str, evidence: dict,
               counterexample: dict | None = None) -> Verdict:
    """The sampled verdict (no counterexample found; on ``region`` when given) turned into a proof where the interval
    branch-and-bound (:mod:`proofs_checks.certify`) finishes, a certified counterexample where it finds one, and
    otherwise kept as ``holds (sampled)`` / ``holds on part (sampled)`` with the reason it is not proved."""
    from . import certify

    out = certify.prove(claim, region)
    ev = {**evidence, "certify": {"outcome": out.kind, **out.evidence()}}
    where = "on the region" if region is not None else "on the whole box"
    if out.kind == certify.PROVED:
        margin = f", smallest margin {out.margin:.3g}" if out.margin < float("inf") else ""
        ends = f" ({out.end_point_boxes} settled at their end points)" if out.end_point_boxes else ""
        if out.zero_faces:
            ends += f" ({out.zero_faces} on which sympy reduces the gap to 0 identically)"
        if "restated_as" in out.extra:
            ends += f", through its restatement as {'; '.join(out.extra['restated_as'])}"
        text = f"proved {where}: {out.boxes} boxes{ends}{margin}" + (f"; {sampled}" if region is not None else "")
        identity = out.boxes == 1 and out.zero_faces == 1  # tight everywhere: sympy's identity is the whole proof
        if identity:
            text = f"proved {where}: sympy reduces the gap to 0 identically (the claim is tight everywhere)" + (
                f"; {sampled}" if region is not None else "")
        return Verdict(PROVED_PART if region is not None else PROVED, text,
                       "symbolic" if identity else "interval branch-and-bound",
                       region=claim.region_text if region is not None else None, counterexample=counterexample,
                       evidence=ev)
    if out.kind == certify.COUNTEREXAMPLE and _within_rtol(claim, out.box):
        return Verdict(PART_SAMPLED if region is not None else SAMPLED,
                       f"{sampled}; not proved: it fails exactly at {out.box}, by less than the checker's relative "
                       f"float tolerance {claim.rtol:g}", "numeric grid + hypothesis",
                       region=claim.region_text if region is not None else None, counterexample=counterexample,
                       evidence=ev)
    if out.kind == certify.COUNTEREXAMPLE:
        return Verdict(FAILS, f"interval branch-and-bound found a counterexample {where} that the grid missed",
                       "interval branch-and-bound", counterexample={**out.box, **out.extra}, evidence=ev)
    text = f"{sampled}; not proved: {out.reason}"
    return Verdict(PART_SAMPLED if region is not None else SAMPLED, text, "numeric grid + hypothesis",
                   region=claim.region_text if region is not None else None, counterexample=counterexample,
                   evidence=ev)


def _within_rtol(claim: Inequality, point: Mapping) -> bool:
    """The claim holds at this point up to the checker's relative float tolerance (a violation that small is
    rounding of the constants, e.g. a printed 0.01 against 1/100, not a finding)."""
    env = {v.name: np.array([float(point[v.name])]) for v in claim.domain}
    with np.errstate(all="ignore"):
        lhs, rhs = claim.lhs(NUMPY, **env), claim.rhs(NUMPY, **env)
    return bool(np.all(_relation_ok(np.broadcast_to(lhs, (1,)), np.broadcast_to(rhs, (1,)), claim.rel, claim.rtol)))


def _certify_point(claim: Inequality, point: Mapping) -> bool:
    """True when interval arithmetic confirms that the claim fails at this grid point (a certified counterexample)."""
    from bounds.ops import Interval, Undecided

    env = {v.name: Interval(point[v.name]) for v in claim.domain}
    try:
        lhs, rhs = claim.lhs(INTERVAL, **env), claim.rhs(INTERVAL, **env)
        gap = (rhs - lhs) if claim.rel in ("<=", "<") else (lhs - rhs)
        gap = gap if isinstance(gap, Interval) else Interval(gap)
    except (Undecided, TypeError, ValueError, ZeroDivisionError, KeyError):
        return False
    return bool(gap.hi < 0) if claim.rel in ("<=", ">=") else bool(gap.hi <= 0)


def _sympy_sign(claim: Inequality) -> str | None:
    """A sympy proof that rhs - lhs (or lhs - rhs) is nonnegative given only the variables' signs (sound on any
    sub-domain of the positive orthant), or None when sympy cannot decide."""
    import sympy as sp

    syms = _sympy_symbols(claim.domain)
    try:
        gap = claim.rhs(SYMPY, **syms) - claim.lhs(SYMPY, **syms)
    except Exception:
        return None
    if claim.rel in (">=", ">"):
        gap = -gap
    gap = sp.factor(sp.simplify(gap))
    ok = gap.is_positive if claim.rel in ("<", ">") else gap.is_nonnegative
    sign = "positive" if claim.rel in ("<", ">") else "nonnegative"
    return f"rhs - lhs = {gap}, which is {sign} for these signs" if ok else None


def check_identity(claim: Identity, *, max_points: int | None = None) -> Verdict:
    """sympy: simplify(lhs - rhs) == 0; otherwise the grid decides (and gives the counterexample)."""
    max_points = SETTINGS["max_points"] // 2 if max_points is None else max_points
    import sympy as sp

    syms = _sympy_symbols(claim.domain)
    diff = None
    try:
        diff = sp.simplify(sp.expand_log(claim.lhs(SYMPY, **syms) - claim.rhs(SYMPY, **syms), force=True))
    except Exception:  # a numeric-only formula (scipy inside): the grid decides
        diff = None
    if diff is not None and diff == 0:
        return Verdict(HOLDS, "sympy simplifies lhs - rhs to 0", "symbolic")
    env = _mesh(claim.domain, max_points)
    with np.errstate(all="ignore"):
        lhs = np.broadcast_to(np.asarray(claim.lhs(NUMPY, **env), dtype=float), env[claim.domain[0].name].shape)
        rhs = np.broadcast_to(np.asarray(claim.rhs(NUMPY, **env), dtype=float), lhs.shape)
    inside = _mask(claim.where, env)
    bad = inside & ~np.isclose(lhs, rhs, rtol=claim.rtol, atol=1e-12)
    evidence = {"grid_points": int(inside.sum())}
    if diff is not None:
        evidence["lhs_minus_rhs"] = str(diff)
    if not bad.any():
        return Verdict(SAMPLED, "equal on every grid point (sympy did not reduce the difference to 0)",
                       "numeric grid + hypothesis", evidence=evidence)
    k = _smallest(env, np.nonzero(bad)[0], claim.domain)
    return Verdict(FAILS, f"differs on {int(bad.sum())} of {int(inside.sum())} grid points",
                   "symbolic" if diff is not None else "numeric grid + hypothesis",
                   counterexample={**_point(env, k, claim.domain), "lhs": float(lhs[k]), "rhs": float(rhs[k])},
                   evidence=evidence)


def check_exhaustive(claim: Exhaustive) -> Verdict:
    """Every case; the smallest failing case is the counterexample."""
    n = 0
    bad: list[tuple[Case, Mapping]] = []
    bad_region: list[tuple[Case, Mapping]] = []
    for case in claim.cases():
        n += 1
        ok, info = claim.holds(case)
        if not ok:
            bad.append((case, info))
            if claim.in_region is not None and claim.in_region(case):
                bad_region.append((case, info))
    if not bad:
        return Verdict(HOLDS, f"holds in all {n} cases", "exhaustive", evidence={"cases": n})
    case, info = min(bad, key=lambda ci: ci[0].size)
    cex = {"case": case.label, **dict(case.data), **dict(info)}
    ev = {"cases": n, "failing_cases": len(bad)}
    if claim.in_region is not None and not bad_region:
        return Verdict(PART, f"fails in {len(bad)} of {n} cases; holds on the region", "exhaustive",
                       region=claim.region_text, counterexample=cex, evidence=ev)
    return Verdict(FAILS, f"fails in {len(bad)} of {n} cases", "exhaustive", counterexample=cex, evidence=ev)


def clopper_pearson(k: int, n: int, level: float) -> tuple[float, float]:
    """Two-sided Clopper-Pearson interval for a binomial proportion at confidence 1 - level: the
    workbench's one implementation, :func:`bounds.intervals.clopper_pearson` (which takes the
    confidence, not the level)."""
    from bounds.intervals import clopper_pearson as _cp

    return _cp(k, n, 1 - level, "two-sided")


def check_monte_carlo(claim: MonteCarlo) -> Verdict:
    rng = np.random.default_rng(claim.seed)
    k = int(claim.trials(rng, claim.n_trials))
    lo, hi = clopper_pearson(k, claim.n_trials, claim.level)
    ev = {"trials": claim.n_trials, "bad": k, "rate": k / claim.n_trials, "ci_low": lo, "ci_high": hi,
          "bound": claim.bound, "confidence": 1 - claim.level}
    if hi <= claim.bound:
        return Verdict(HOLDS, f"{k}/{claim.n_trials} bad; Clopper-Pearson upper {hi:.4g} <= {claim.bound:.4g}",
                       "monte carlo", evidence=ev)
    if lo > claim.bound:
        return Verdict(FAILS, f"{k}/{claim.n_trials} bad; Clopper-Pearson lower {lo:.4g} > {claim.bound:.4g}",
                       "monte carlo", counterexample={"rate": k / claim.n_trials}, evidence=ev)
    return Verdict(NOT_CHECKABLE, f"inconclusive at {claim.n_trials} trials: interval [{lo:.4g}, {hi:.4g}] "
                   f"contains {claim.bound:.4g}", "monte carlo", evidence=ev)


def check(claim) -> Verdict:
    """Dispatch on the claim's type."""
    if isinstance(claim, Inequality):
        return check_inequality(claim)
    if isinstance(claim, Identity):
        return check_identity(claim)
    if isinstance(claim, Exhaustive):
        return check_exhaustive(claim)
    if isinstance(claim, MonteCarlo):
        return check_monte_carlo(claim)
    if isinstance(claim, str):  # the reason a step is not machine-checkable
        return not_checkable(claim)
    raise TypeError(f"no checker for claim of type {type(claim).__name__}")


# ---------------------------------------------------------------------------------------------
# checks and the registry


@dataclass(frozen=True)
class Check:
    """One machine-checkable step of one proof.

    ``stated``: the claim as the paper writes it. ``corrected``: the right claim where the paper's
    fails (None when the paper is right); ``expect_corrected`` its verdict (``holds``, or ``holds on
    part`` when the right claim is itself restricted to a region). ``perturbed``: named claims a sound checker must
    reject (used by the tests). ``expect``: the verdict status the stated claim gets (the tests hold the
    registry to it, so a changed outcome is noticed). ``errata``: ids of the erratum entries this
    check verifies. ``formula_from``: where the formulas come from (``paper text`` or
    ``bounds:<id>``).
    """

    id: str
    paper: str
    result: str
    claim: str
    source: str
    method: str
    stated: Any
    expect: str = HOLDS
    corrected: Any = None
    expect_corrected: str = HOLDS
    perturbed: Mapping[str, Any] = field(default_factory=dict)
    errata: tuple[str, ...] = ()
    formula_from: str = "paper text"
    runner: Callable[[Any], Verdict] = check

    def __post_init__(self):
        if self.method not in METHODS:
            raise ValueError(f"{self.id}: method={self.method!r}: allowed {METHODS}")
        if self.expect not in STATUSES:
            raise ValueError(f"{self.id}: expect={self.expect!r}: allowed {STATUSES}")

    def run(self) -> Verdict:
        return self.runner(self.stated)

    def run_on(self, claim) -> Verdict:
        return self.runner(claim)

    @property
    def expected(self) -> str:
        """The verdict the stated claim is held to: ``expect`` (holds / holds on part / fails), refined for the
        numeric checks by how the interval prover decides them (:data:`proofs_checks.certify.EXPECTED`: proved, or
        sampled only)."""
        from .certify import EXPECTED

        return EXPECTED.get(self.id, self.expect)

    @property
    def correct(self):
        return self.corrected if self.corrected is not None else self.stated


@dataclass(frozen=True)
class CheckResult:
    """A check and its verdict on the paper's claim; ``error`` is set when the check itself crashed (then
    the verdict is ``not machine-checkable`` with the exception, and the command line exits 3)."""

    check: Check
    verdict: Verdict
    seconds: float
    error: str | None = None

    def to_dict(self) -> dict:
        c = self.check
        return {"id": c.id, "paper": c.paper, "result": c.result, "claim": c.claim, "source": c.source,
                "method": c.method, "formula_from": c.formula_from, "errata": list(c.errata),
                "expected": c.expected, "verdict": self.verdict.to_dict(), "seconds": round(self.seconds, 4),
                "error": self.error}


#: the papers (bounds.references, the one list), by module name: a module of checks per paper, then the checks of
#: numbered results that are statements about formulas (``statements``)
PAPERS = {key.lower(): key for key in REFERENCES}
PAPER_MODULES = (*PAPERS, "statements")
CHECKS = Registry("proofs_checks", PAPER_MODULES, "check")  # the workbench's one registry helper
_CHECKS: dict[str, Check] = CHECKS.items


_MODULE_OF: dict[str, str] = {}


def register(*checks: Check) -> None:
    module = sys._getframe(1).f_globals.get("__name__", "")  # the declaring module (proofs_checks/checks.json)
    for c in checks:
        CHECKS.add(c.id, c)
        _MODULE_OF[c.id] = module


def module_of(check_id: str) -> str:
    return _MODULE_OF[check_id]


def _load(paper_label: str | None = None) -> None:
    """Import the modules declaring the checks (of one paper: only those, by proofs_checks/checks.json), or all."""
    if paper_label is None:
        CHECKS.load()
        return
    from .declared import modules

    for mod in modules(paper_label):
        import_module(mod)


def all_checks(paper: str | None = None) -> list[Check]:
    """Every registered check, in paper order; ``paper`` is a key (bcmnuw20, abm19, lvsuw21, nb20)."""
    if paper is None:
        _load()
        return _in_declared_order(_CHECKS.values())
    key = str(paper).strip().lower()
    if key not in PAPERS:
        raise ValueError(f"paper={paper!r}: allowed {', '.join(PAPERS)}")
    _load(PAPERS[key])
    return _in_declared_order(c for c in _CHECKS.values() if c.paper == PAPERS[key])


def _in_declared_order(checks) -> list[Check]:
    """Paper order (proofs_checks/checks.json), whichever paper's modules were imported first; a check not declared
    yet comes last, in the order it was registered."""
    from .declared import declarations

    order = {r["id"]: i for i, r in enumerate(declarations())}
    return sorted(checks, key=lambda c: order.get(c.id, len(order)))


def get(check_id: str) -> Check:
    from .declared import declarations

    row = next((r for r in declarations() if r["id"] == check_id), None)
    if row is not None:
        import_module(row["module"])
    if check_id not in _CHECKS:
        _load()
    try:
        return _CHECKS[check_id]
    except KeyError:
        raise ValueError(f"check id={check_id!r} is unknown; `python -m proofs_checks --list` shows them") from None


def run_check(c: Check) -> CheckResult:
    t0 = time.perf_counter()
    error = None
    try:
        v = c.run()
    except Exception as exc:  # a crash is reported as such, never as a verdict on the paper
        error = f"{type(exc).__name__}: {exc}"
        v = Verdict(NOT_CHECKABLE, f"the check itself raised {error}", "none")
    return CheckResult(c, v, time.perf_counter() - t0, error)


def run_all(paper: str | None = None) -> list[CheckResult]:
    """Run every check (of one paper) and return the results in paper order."""
    return [run_check(c) for c in all_checks(paper)]


def run_all_json(paper: str | None = None) -> list[dict]:
    """:func:`run_all` as JSON-serialisable dicts (what ``--json`` prints and reports read)."""
    return [r.to_dict() for r in run_all(paper)]


def report_data(paper: str | None = None) -> dict:
    """Everything a report's "Proof checks and errata" section needs, JSON-serialisable, in one call:
    ``{"checks": [...run_all_json rows...], "errata": [...as_dict(Erratum)...], "entries": [...the
    docs/ERRATA.md entries with the checks that verify them...], "counts": {status: n}}``."""
    from .errata import ERRATA, as_dict, report

    results = run_all(paper)
    papers = {r.check.paper for r in results}
    entries = [e for e in report(results) if paper is None or e["paper"] in papers]
    return {"checks": [r.to_dict() for r in results],
            "errata": [as_dict(e) for e in ERRATA if paper is None or e.paper in papers],
            "entries": entries,
            "counts": {s: sum(r.verdict.status == s for r in results) for s in STATUSES}}


def grid_product(**axes: Iterable) -> Iterable[dict]:
    """Every combination of the given axes, as dicts (small exhaustive enumerations)."""
    keys = list(axes)
    for combo in itertools.product(*(list(axes[k]) for k in keys)):
        yield dict(zip(keys, combo))


def bounds_value(result_id: str, quantity: str, **values) -> np.ndarray:
    """The explicit value of a quantity of a :mod:`bounds` result at (broadcast) parameter arrays.

    The checks take every formula :mod:`bounds` has from there (no formula written twice);
    ``values`` are keyed by the bounds parameter keys (alpha, beta, vc, ...).
    """
    import bounds
    from bounds.core import evaluate
    from bounds.ops import Dual, Interval

    if any(isinstance(v, (Interval, Dual)) for v in values.values()):  # a certified check's box
        from ._interval_bounds import quantity as enclosure

        return enclosure(result_id, quantity, values)
    out = evaluate(bounds.get(result_id), values)
    return out[quantity].value
