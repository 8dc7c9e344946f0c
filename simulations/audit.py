"""JUO20 / DWWZK18 (empirical privacy auditing): an epsilon lower bound, with its confidence, from a test on two neighbours, and what the audit could not see.

Method (Jagielski, Ullman, Oprea 2020 "Auditing differentially private machine learning";
Ding et al. 2018 "Detecting violations of differential privacy"). If M is (eps, delta)-DP then for
neighbouring private datasets D0, D1 (public data fixed) and every event S,
Pr[M(D1) in S] <= e^eps Pr[M(D0) in S] + delta, and the same with D0 and D1 swapped. Take the test
"guess D1 iff the output is in S", with false-positive rate FPR = Pr[M(D0) in S] and false-negative
rate FNR = Pr[M(D1) not in S]. The two inequalities applied to S and to its complement give

    eps >= log((1 - delta - FNR) / FPR)   and   eps >= log((1 - delta - FPR) / FNR),
    delta >= max(1 - FNR - e^eps FPR, 1 - FPR - e^eps FNR)            (at a fixed eps).

The auditor

1. draws ``samples`` outputs of M(D0) and of M(D1) (in batches when the mechanism supports it) and
   maps each through ``statistic`` to a float (NaN and +-inf are values of their own), or to a
   vector; with ``statistic=None`` the outputs themselves are used;
2. splits each sample in two halves; on the first ("selection") half it searches a family of events
   S and keeps the one with the best score (below):
   * scalar outputs: threshold events {s > t} and {s < t} over a grid of thresholds (every distinct
     value if few, else quantiles with log-spaced tails), NaN placed above or below every number;
   * few distinct outputs (at most ``MAX_CATEGORIES``, scalars or vectors: categorical outputs):
     also the events "the output is among the k categories of largest empirical likelihood ratio
     on the selection half" (one-hot events are k = 1), which catches a leak in the middle of an
     order;
   * vector outputs with many distinct values: the threshold events of every coordinate, and the
     threshold events of a learned score: a logistic regression of "came from D1" on the outputs
     (each coordinate and a NaN indicator, standardised) fitted on the selection half, which sees a
     leak spread thinly over many coordinates (a classifier-based likelihood-ratio estimate);
3. on the second ("evaluation") half, independent of the choice, it counts the event's false
   positives and false negatives, takes one-sided Clopper-Pearson upper bounds FPR_u and FNR_u, each
   at level 1 - (1 - confidence)/2, and reports

       eps_lb = max(0, log((1 - delta - FNR_u) / FPR_u), log((1 - delta - FPR_u) / FNR_u))
       delta_lb = max(0, 1 - FNR_u - e^eps FPR_u, 1 - FPR_u - e^eps FNR_u)   at the declared eps.

With probability at least ``confidence`` both upper bounds hold, and then the mechanism is not
(eps, delta)-DP for any eps < eps_lb, nor (eps, delta')-DP for any delta' < delta_lb (union bound).
For one event the two refutations coincide (eps_lb > eps iff delta_lb > delta); what differs is the
selection, and no one objective is best: on a Gaussian the event that maximises the eps bound sits in
the bulk (eps_lb about 0.6 of eps = 1 at 10^6 samples) while the delta margin at eps lives in a tail
whose counts are too small to bound (eps_lb 0). So the audit runs several objectives, each choosing
its own event on the selection half and bounded on the evaluation half at 1 - (1 - confidence)/K
(K objectives; union bound, so every line holds jointly at ``confidence``):

* "eps": the eps bound (always);
* "delta": the delta margin at the declared eps (claims with delta > 0);
* "profile": when the case declares its whole privacy curve eps' -> delta(eps') (a Gaussian
  calibration's exact curve, BW18 Thm 8; the curve a rho-zCDP claim implies, CKS20), the largest
  delta_lb(eps') - delta(eps') over ``PROFILE_POINTS`` values of eps' in [0, PROFILE_SPAN max(eps, 1)].
  The CP bounds of the event hold for every eps' at once, so the maximum over eps' costs nothing. It
  refutes the declared curve, which is more than the point claim (eps, delta): a Gaussian with 10x
  the declared delta differs from its declared curve by 0.017 in total variation (eps' = 0), seen at
  2 * 10^5 samples, while at the point (1, 1e-5) the delta objective's minimal detectable delta at
  10^6 samples is 7e-5.

The headline eps_lb / delta_lb is the largest over the objectives (its event, counts and rates are
printed as ``test``); each objective is shown with its own bound and its own power statement.

Selection that cannot collapse. Scoring the candidate events by the bound they give on the selection
half itself picks, in about 10% of runs, an extreme-tail event that looked best by chance; the
evaluation half then holds a handful of counts and the bound collapses. The score here is the bound
at the stricter level ``SELECTION_LEVEL`` (so an event with few counts pays for its uncertainty), and
an event whose numerator count (events under the neighbour that the bound's ratio divides by the
other) is below ``MIN_SELECTION_COUNT`` on the selection half is never chosen. Neither touches the
evaluation half, so the guarantee above is unchanged.

What the audit could not see. ``minimal_detectable_delta`` (delta objective) is the least true delta' at
the declared eps seen with probability ``DETECTION_POWER``, the violation modelled as an event of
probability p under D0 and e^eps p + delta' under D1. ``minimal_detectable_eps`` (eps objective) is the smallest true epsilon the audit
would flag with probability ``DETECTION_POWER`` (0.9) at this evaluation size: the violation is
modelled as one event of probability p under D0 and e^eps' p under D1 (the tightest pure-DP
violation), power is an exact sum over the two binomial counts of the evaluation half
(Pr[FP = f] Pr[TP >= the least count flagged given f]), maximised over p. The audit is flagged
``no power`` when that exceeds ``NO_POWER_FACTOR`` (2) times the declared eps: a pass then says
little. It assumes the best event is found, so it is a floor: the real audit sees no smaller violation.

Neighbour search. A case that can draw neighbouring pairs (``neighbours``, ``mutate``, ``starts``) has its
pair chosen first, by :func:`search_pair`: the given pairs (the literature's hard instances), random pairs
of small data sets or answer vectors, then local moves from the best, each ranked by its eps score on draws
of its own. Those draws are then discarded: the event is chosen on a fresh selection half of the chosen
pair, the bound on a fresh evaluation half, so the search, like the event selection, costs the guarantee
nothing. A case may give the exact privacy loss of a pair (``pair_loss``, small settings): eps_lb cannot
exceed it, and the result says whether a gap to half the declared eps is the pair's or the test's.

Targets. An :class:`AuditTarget` names a mechanism with its declared guarantee, its hardest known
neighbouring pair and a distinguishing statistic. Targets are found automatically in the modules of
the package :mod:`simulations.audit_targets` (see its docstring for the interface), or added at run
time with :func:`register`; the engine never needs editing. :func:`audit_all` audits several targets
with one family-wise confidence (Bonferroni).
"""

from __future__ import annotations

import functools
import importlib
import math
import pkgutil
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable

import numpy as np

from algorithms._lazy import lazy_module
from simulations import stats

_st = lazy_module("scipy.stats")  # imported on first use: `simulations list` lists targets without it

DEFAULT_CONFIDENCE = 0.95
DEFAULT_BATCH = 100_000
SELECTION_LEVEL = 1 - 1e-4      # level of the Clopper-Pearson bounds that score events on the selection half
MIN_SELECTION_COUNT = 10        # an event is chosen only with this many numerator counts on the selection half
MAX_CATEGORIES = 1024           # at most this many distinct outputs: also the likelihood-ratio-ordered events
MIN_CATEGORY_COUNT = 5          # rarer values (on the pooled selection half) are merged into one category
MAX_COORDINATES = 64            # vector outputs: threshold events of at most this many coordinates
DETECTION_POWER = 0.9
NO_POWER_FACTOR = 2.0
SEARCH_RANDOM = 8               # neighbour search: random pairs tried ...
SEARCH_LOCAL = 8                # ... then local moves from the best
SEARCH_MIN = 500                # draws per neighbour for each pair tried
SEARCH_LEVEL = 0.975            # level of the Clopper-Pearson bounds that rank the pairs tried
PROFILE_POINTS = 121            # eps' values at which a declared privacy profile is checked
PROFILE_SPAN = 4.0              # ... spread over [0, PROFILE_SPAN * max(eps, 1)]
_GRID_LINEAR = 1001
_GRID_TAIL = 400


@dataclass(frozen=True)
class AuditCase:
    """One concrete audit: a mechanism, its declared (eps, delta), a neighbouring pair, public data, a statistic.

    ``mechanism(private_data, public_data, rng)`` returns one output; if ``batched`` it also accepts
    ``size=B`` and returns B outputs stacked on axis 0. ``statistic`` maps one output to a float or a
    vector, or, if ``batched``, a stack of B outputs to a length-B array (or a B x d array); ``None``
    uses the outputs themselves (numbers, index vectors, categorical values).

    ``profile`` (optional): the whole privacy curve the mechanism declares, eps' -> delta(eps') (e.g. the
    exact curve of a Gaussian calibration, Balle-Wang 2018 Thm 8, or the curve a rho-zCDP claim implies,
    Canonne-Kamath-Steinke 2020), named by ``profile_name``; it adds the "profile" objective (module docstring).

    Neighbour search (optional, module docstring): ``neighbours(rng)`` draws a random neighbouring pair of small
    data sets (or answer vectors), ``mutate(pair, rng)`` a pair near ``pair`` (a local move), ``starts`` are pairs
    tried first (the literature's hard instances); ``private_pair`` is always tried. ``pair_loss(pair)``
    (optional) is the exact privacy loss eps of a pair, sup over outputs of |log Pr[M(D0) = o] / Pr[M(D1) = o]|,
    computed by the target (small settings): eps_lb can never exceed it, so it says whether a gap between eps_lb
    and the declared eps is the pair's or the test's. ``rho`` (optional): a declared rho-zCDP claim, which adds the
    "renyi" objective.
    """

    mechanism: Callable[..., Any]
    statistic: Callable[[Any], Any] | None
    private_pair: tuple[Any, Any]
    public: Any
    eps: float
    delta: float = 0.0
    batched: bool = False
    profile: Callable[[float], float] | None = None
    profile_name: str = ""
    neighbours: Callable[[np.random.Generator], tuple] | None = None
    mutate: Callable[[tuple, np.random.Generator], tuple] | None = None
    starts: tuple = ()
    pair_loss: Callable[[tuple], float] | None = None
    rho: float | None = None


@dataclass(frozen=True)
class AuditTarget:
    """A registered audit: ``make(eps, delta) -> AuditCase``, with the source of its claim and whether it should pass.

    ``expect_private`` is False for a deliberately broken variant: the auditor is expected to catch it
    (eps_lb > declared eps). ``default_samples`` is what ``python -m simulations audit`` uses by default;
    ``ci_samples`` the smaller count at which the contract test requires the expected outcome.
    """

    name: str
    source: str
    description: str
    make: Callable[[float, float], AuditCase]
    expect_private: bool = True
    default_eps: float = 1.0
    default_delta: float = 0.0
    default_samples: int = 200_000
    ci_samples: int | None = None  # the contract test's sample count (tests/simulations/test_contract.py)


@dataclass(frozen=True)
class ThresholdTest:
    """Guess D1 iff ``direction * s > direction * threshold`` (direction +1: s > t; -1: s < t).

    NaN is ordered above every number (``nan_high``) or below it, so it is guessed D1 iff
    ``(direction > 0) == nan_high``. ``coordinate`` picks one coordinate of a vector output."""

    threshold: float
    direction: int
    nan_high: bool = True
    coordinate: int | None = None

    def guesses_d1(self, s: np.ndarray) -> np.ndarray:
        s = np.asarray(s, dtype=float)
        if self.coordinate is not None:
            s = s[:, self.coordinate]
        with np.errstate(invalid="ignore"):
            out = self.direction * s > self.direction * self.threshold
        nan = np.isnan(s)
        if nan.any():
            out = np.where(nan, (self.direction > 0) == self.nan_high, out)
        return out

    def describe(self) -> str:
        name = "s" if self.coordinate is None else f"s[{self.coordinate}]"
        nan_d1 = (self.direction > 0) == self.nan_high  # where a NaN output falls (guesses_d1)
        return (f"D1 iff {name} {'>' if self.direction > 0 else '<'} {self.threshold:.6g}"
                + (f" or {name} is NaN" if nan_d1 else f" (a NaN {name} guesses D0)"))


@dataclass(frozen=True)
class SetTest:
    """Guess D1 iff the output (a category: a number or a row) is one of ``members`` (the categories of largest
    likelihood ratio on the selection half). Outputs that were rare on the selection half (fewer than
    ``MIN_CATEGORY_COUNT`` of them, or unseen) form one category "rare": guessed D1 iff ``rare_in``."""

    members: tuple
    frequent: frozenset = frozenset()
    rare_in: bool = False

    def guesses_d1(self, s: np.ndarray) -> np.ndarray:
        wanted = set(self.members)
        return np.fromiter(((k in wanted) if k in self.frequent else self.rare_in for k in _row_keys(s)),
                           dtype=bool, count=len(s))

    def describe(self) -> str:
        shown = ", ".join(_show_key(k) for k in self.members[:4])
        more = f", ... ({len(self.members)} values)" if len(self.members) > 4 else ""
        rare = " or a rare value" if self.rare_in else ""
        return f"output in {{{shown}{more}}}{rare}"


@dataclass(frozen=True)
class ObjectiveResult:
    """One objective's event, chosen on the selection half and bounded on the evaluation half at ``confidence``
    (its share of the audit's confidence). ``minimal_detectable`` is the power statement of this objective: the
    least true eps (objective "eps") or delta at the declared eps (objective "delta") it sees with probability
    ``DETECTION_POWER``; NaN for "profile" (not computed). ``profile_eps``/``profile_margin``: the eps' where
    delta_lb(eps') - profile(eps') is largest, and that margin (> 0 refutes the declared curve)."""

    objective: str
    confidence: float
    test: str
    false_positives: int
    false_negatives: int
    fpr_upper: float
    fnr_upper: float
    eps_lower_bound: float
    delta_lower_bound: float
    minimal_detectable: float = math.nan
    profile_eps: float | None = None
    profile_margin: float | None = None
    threshold: float | None = None
    direction: int = 1
    rho_lower_bound: float | None = None
    declared_rho: float | None = None
    profile_delta: float | None = None  # the declared curve's delta at profile_eps

    def refutes(self, eps: float, delta: float) -> bool:
        return (self.eps_lower_bound > eps or self.delta_lower_bound > delta
                or (self.profile_margin is not None and self.profile_margin > 0)
                or (self.rho_lower_bound is not None and self.rho_lower_bound > self.declared_rho))

    def describe(self, eps: float, delta: float) -> str:
        c = f"{100 * self.confidence:.4g}%"
        if self.objective == "renyi":
            rel = ">" if self.rho_lower_bound > self.declared_rho else "<="
            return (f"renyi objective ({c}): rho_lb {self.rho_lower_bound:.4f} {rel} declared rho "
                    f"{self.declared_rho:g} (max over alpha of D_alpha / alpha of the event's Bernoulli laws at "
                    f"the confidence box's nearest corner); test {self.test}: FPR <= {self.fpr_upper:.3g}, "
                    f"FNR <= {self.fnr_upper:.3g}; power not computed")
        if self.objective == "profile":
            return (f"profile objective ({c}): largest delta_lb(eps') - declared delta(eps') = "
                    f"{self.profile_margin:.3g} at eps' = {self.profile_eps:.3g}; test {self.test}: "
                    f"FPR <= {self.fpr_upper:.3g}, FNR <= {self.fnr_upper:.3g}; power not computed")
        if self.objective == "delta":
            mdd = self.minimal_detectable
            power = "has power" if mdd <= NO_POWER_FACTOR * delta else "NO POWER"
            return (f"delta objective ({c}): delta_lb at eps {eps:g} = {self.delta_lower_bound:.3g}, eps_lb "
                    f"{self.eps_lower_bound:.4f}; minimal detectable delta at eps {mdd:.3g} ({power} against "
                    f"{NO_POWER_FACTOR:g}x delta); test {self.test}: FPR <= {self.fpr_upper:.3g}, "
                    f"FNR <= {self.fnr_upper:.3g}")
        mde = self.minimal_detectable
        power = "has power" if mde <= NO_POWER_FACTOR * eps else "NO POWER"
        return (f"eps objective ({c}): eps_lb {self.eps_lower_bound:.4f}"
                + (f", delta_lb at eps {self.delta_lower_bound:.3g}" if delta > 0 else "")
                + f"; minimal detectable eps {mde:.3f} ({power}); test {self.test}: FPR <= {self.fpr_upper:.3g}, "
                f"FNR <= {self.fnr_upper:.3g}")


@dataclass(frozen=True)
class AuditResult:
    """The outcome of :func:`audit` (see the module docstring for the bounds).

    The headline fields (eps_lower_bound, delta_lower_bound, test, counts, rates, objective) are those of the
    objective with the largest eps_lb (ties: the largest delta_lb); ``objectives`` holds every objective's
    own result. ``minimal_detectable_eps`` is the eps objective's power statement, ``minimal_detectable_delta``
    the delta objective's (NaN without one)."""

    eps_lower_bound: float
    declared_eps: float
    declared_delta: float
    confidence: float
    samples: int  # per dataset, both halves together
    threshold: float | None
    direction: int
    false_positives: int
    false_negatives: int
    evaluation_size: int  # per dataset
    fpr_upper: float
    fnr_upper: float
    delta_lower_bound: float = 0.0
    minimal_detectable_eps: float = math.inf
    test: str = ""
    objective: str = "eps"
    nonfinite: dict = field(default_factory=dict)
    objectives: tuple = ()
    minimal_detectable_delta: float = math.nan
    profile_name: str = ""
    pair: str = ""
    search: str = ""
    pair_loss: float = math.nan

    @property
    def violated(self) -> bool:
        """True when an objective refutes the declaration at ``confidence``: eps_lb > eps, delta_lb > delta, or
        (with a declared profile) delta_lb(eps') > profile(eps') at some eps'."""
        if self.objectives:
            return any(o.refutes(self.declared_eps, self.declared_delta) for o in self.objectives)
        return self.eps_lower_bound > self.declared_eps or self.delta_lower_bound > self.declared_delta

    @property
    def no_power(self) -> bool:
        """The eps objective would not reliably see a violation of twice the claim (module docstring)."""
        return not (self.minimal_detectable_eps <= NO_POWER_FACTOR * self.declared_eps)

    def gap_statement(self) -> str:
        """Whether a gap between eps_lb and half the declared eps is the pair's (its exact loss is below half) or
        the test's (the pair has the loss, the events or samples do not reach it)."""
        x, half = self.pair_loss, 0.5 * self.declared_eps
        text = f"exact privacy loss of the pair: eps {x:.4g}; eps_lb reaches {self.eps_lower_bound / x:.2f} of it" if x > 0 \
            else f"exact privacy loss of the pair: eps {x:.4g}"
        if self.eps_lower_bound >= half:
            return text + f"; eps_lb >= half the declared eps {self.declared_eps:g}"
        if math.isclose(x, half, rel_tol=1e-9):
            return text + (f"; exactly half the declared eps {self.declared_eps:g}, which a test reaches only in the "
                           "limit: the gap is the pair's, then the test's")
        if x < half:
            return text + f"; below half the declared eps {self.declared_eps:g}: the gap is the pair's"
        return text + f"; the pair reaches half the declared eps {self.declared_eps:g}: the gap is the test's"

    def as_dict(self) -> dict:
        d = asdict(self)
        for key in ("threshold", "minimal_detectable_eps", "minimal_detectable_delta", "pair_loss"):
            if d[key] is not None and not math.isfinite(d[key]):
                d[key] = None if key != "minimal_detectable_eps" else str(d[key])
        for o in d["objectives"]:
            for key, v in o.items():
                if isinstance(v, float) and not math.isfinite(v):
                    o[key] = None if math.isnan(v) else str(v)
        d["objectives"] = list(d["objectives"])
        return {**d, "violated": self.violated, "no_power": self.no_power}

    def __str__(self) -> str:
        rel = ">" if self.eps_lower_bound > self.declared_eps else "<="
        word = "VIOLATED" if self.violated else "consistent"
        power = "NO POWER" if self.no_power else "has power"
        mdv = f"{self.minimal_detectable_eps:.3f}" if math.isfinite(self.minimal_detectable_eps) else "inf"
        if len(self.objectives) > 1:
            text = (f"{word}: eps_lb {self.eps_lower_bound:.4f} {rel} declared eps {self.declared_eps:g} "
                    f"(delta {self.declared_delta:g}, delta_lb at eps {self.delta_lower_bound:.3g}; headline from "
                    f"the {self.objective} objective); {100 * self.confidence:g}% confidence split over "
                    f"{len(self.objectives)} objectives, {self.samples} samples per dataset")
            if self.profile_name:
                text += f"; declared profile: {self.profile_name}"
            text += "".join(f"\n  {o.describe(self.declared_eps, self.declared_delta)}" for o in self.objectives)
        else:
            text = (f"{word}: eps_lb {self.eps_lower_bound:.4f} {rel} declared eps {self.declared_eps:g} "
                    f"(delta {self.declared_delta:g}"
                    + (f", delta_lb at eps {self.delta_lower_bound:.3g}" if self.declared_delta > 0 else "")
                    + f"); minimal detectable eps {mdv} ({power}); {100 * self.confidence:g}% confidence, "
                    f"{self.samples} samples per dataset; test {self.test}: FPR <= {self.fpr_upper:.3g}, "
                    f"FNR <= {self.fnr_upper:.3g}")
        if self.search:
            text += f"\n  pair: {self.search}"
        if math.isfinite(self.pair_loss):
            text += f"\n  {self.gap_statement()}"
        if any(self.nonfinite.values()):
            text += "; non-finite outputs " + ", ".join(f"{k} {v}" for k, v in self.nonfinite.items() if v)
        return text


# ---------------------------------------------------------------- the bounds


def epsilon_lower_bound(fpr_upper, fnr_upper, delta: float = 0.0):
    """max(0, log((1 - delta - FNR_u)/FPR_u), log((1 - delta - FPR_u)/FNR_u)); vectorised; 0 where no bound follows."""
    fpr = np.asarray(fpr_upper, dtype=float)
    fnr = np.asarray(fnr_upper, dtype=float)
    out = np.maximum(0.0, np.maximum(_log_ratio(1 - delta - fnr, fpr), _log_ratio(1 - delta - fpr, fnr)))
    return float(out) if out.ndim == 0 else out


def delta_lower_bound(fpr_upper, fnr_upper, eps: float):
    """max(0, 1 - FNR_u - e^eps FPR_u, 1 - FPR_u - e^eps FNR_u): the delta refuted at a fixed eps; vectorised."""
    fpr = np.asarray(fpr_upper, dtype=float)
    fnr = np.asarray(fnr_upper, dtype=float)
    e = math.exp(eps)
    out = np.maximum(0.0, np.maximum(1 - fnr - e * fpr, 1 - fpr - e * fnr))
    return float(out) if out.ndim == 0 else out


def _log_ratio(num, den):
    """log(num/den) where num > 0 and den > 0, else 0 (no bound); elementwise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((num > 0) & (den > 0), np.log(np.clip(num, 1e-300, None)) - np.log(np.clip(den, 1e-300, None)), 0.0)


RENYI_ORDERS = np.geomspace(1.0 + 1e-3, 64.0, 48)


def _bernoulli_renyi(a, b, alpha):
    """D_alpha(Bern(a) || Bern(b)) = log(a^alpha b^(1-alpha) + (1-a)^alpha (1-b)^(1-alpha)) / (alpha - 1),
    elementwise (a, b broadcast against alpha), in logs; inf where b = 0 < a or b = 1 > a."""
    with np.errstate(divide="ignore", invalid="ignore"):
        la, lb = np.log(a), np.log(b)
        l1a, l1b = np.log1p(-a), np.log1p(-b)
        t1 = np.where(a > 0, alpha * la + (1 - alpha) * lb, -np.inf)
        t2 = np.where(a < 1, alpha * l1a + (1 - alpha) * l1b, -np.inf)
        return np.logaddexp(t1, t2) / (alpha - 1)


def renyi_rho_lower_bound(fpr_upper, fnr_upper):
    """The zCDP rho refuted by an event whose rates are bounded by FPR_u and FNR_u (vectorised over events).

    rho-zCDP means D_alpha(M(D1) || M(D0)) <= rho alpha and D_alpha(M(D0) || M(D1)) <= rho alpha for every
    alpha > 1 (Bun-Steinke 2016 Def 1.1). By data processing the event's two Bernoulli laws, TPR = q under D1
    and FPR = p under D0, satisfy the same; with q >= q_l = 1 - FNR_u and p <= FPR_u, and D_alpha(Bern(q) ||
    Bern(p)) increasing in q and decreasing in p for q > p (both directions), the least value over the
    confidence box is at (q_l, FPR_u). So rho >= max over alpha (RENYI_ORDERS) of
    max(D_alpha(Bern(q_l) || Bern(FPR_u)), D_alpha(Bern(FPR_u) || Bern(q_l))) / alpha when q_l > FPR_u, else 0;
    the complement event gives the same numbers (relabelling)."""
    p = np.clip(np.asarray(fpr_upper, dtype=float), 0.0, 1.0)[..., None]
    q = np.clip(1.0 - np.asarray(fnr_upper, dtype=float), 0.0, 1.0)[..., None]
    alpha = RENYI_ORDERS
    d = np.maximum(_bernoulli_renyi(q, p, alpha), _bernoulli_renyi(p, q, alpha)) / alpha
    out = np.where(q[..., 0] > p[..., 0], np.max(np.nan_to_num(d, nan=0.0, posinf=np.inf), axis=-1), 0.0)
    out = np.maximum(out, 0.0)
    return float(out) if np.ndim(out) == 0 else out


def _profile_margins(fpr_u, fnr_u, profile):
    """(max over eps' of 1 - FNR_u - e^eps' FPR_u - delta(eps'), the same for the complement), elementwise over
    events; ``profile = (grid of eps', declared delta at each)``."""
    grid, deltas = profile
    e = np.exp(np.asarray(grid, dtype=float))
    f = np.asarray(fpr_u, dtype=float)[..., None]
    g = np.asarray(fnr_u, dtype=float)[..., None]
    return (np.max(1 - g - e * f - deltas, axis=-1), np.max(1 - f - e * g - deltas, axis=-1))


def profile_grid(case: "AuditCase") -> tuple[np.ndarray, np.ndarray] | None:
    """The declared profile of ``case`` on PROFILE_POINTS values of eps' in [0, PROFILE_SPAN * max(eps, 1)]."""
    if case.profile is None:
        return None
    grid = np.linspace(0.0, PROFILE_SPAN * max(case.eps, 1.0), PROFILE_POINTS)
    deltas = np.array([float(case.profile(float(x))) for x in grid])
    if not np.all((deltas >= 0) & (deltas <= 1)):
        raise ValueError("the declared profile must give deltas in [0, 1]")
    return grid, deltas


def _rate_level(confidence: float) -> float:
    """Each of the two one-sided bounds gets half of the miss probability (union bound)."""
    return 1 - (1 - confidence) / 2


def _scores(fp, tp, n0, n1, delta, eps, objective, level=SELECTION_LEVEL, min_count=MIN_SELECTION_COUNT,
            profile=None):
    """Selection score of events with ``fp`` of n0 D0-outputs and ``tp`` of n1 D1-outputs inside (vectorised).

    The bound of each direction at the stricter ``level``; a direction whose numerator count (tp for
    S, n0 - fp for its complement) is below ``min_count`` scores -inf. objective "eps": the eps bound;
    "delta": the delta margin at the declared eps; "profile": the largest margin delta_lb(eps') - profile(eps')
    over the grid ``profile = (eps' values, declared deltas)``."""
    fp = np.asarray(fp)
    tp = np.asarray(tp)
    fpr_u = stats.clopper_pearson(fp, n0, level, "upper")[1]
    fnr_u = stats.clopper_pearson(n1 - tp, n1, level, "upper")[1]
    if objective == "profile":
        a, b = _profile_margins(fpr_u, fnr_u, profile)
    elif objective == "renyi":
        a = b = renyi_rho_lower_bound(fpr_u, fnr_u)
    elif objective == "delta":
        e = math.exp(eps)
        a, b = 1 - fnr_u - e * fpr_u, 1 - fpr_u - e * fnr_u
    else:
        a, b = _log_ratio(1 - delta - fnr_u, fpr_u), _log_ratio(1 - delta - fpr_u, fnr_u)
    a = np.where(tp >= min_count, a, -np.inf)
    b = np.where(n0 - fp >= min_count, b, -np.inf)
    return np.maximum(a, b)


# ---------------------------------------------------------------- the families of events


def _candidate_thresholds(pooled_sorted: np.ndarray) -> np.ndarray:
    """Thresholds: every distinct value if few, else quantiles on a linear grid plus log-spaced grids in both tails."""
    values = np.unique(pooled_sorted)
    if values.size <= _GRID_LINEAR + 2 * _GRID_TAIL:
        return values
    n = pooled_sorted.size
    tail = np.geomspace(1.0 / n, 0.5, _GRID_TAIL)
    probs = np.unique(np.concatenate([np.linspace(0, 1, _GRID_LINEAR), tail, 1 - tail]))
    return np.unique(np.quantile(pooled_sorted, probs, method="inverted_cdf"))


def _threshold_search(s0, s1, delta, eps, objective, coordinate=None, profile=None, level=SELECTION_LEVEL):
    """The best threshold event on scalar samples (NaN allowed); returns (ThresholdTest, score)."""
    s0 = np.asarray(s0, dtype=float)
    s1 = np.asarray(s1, dtype=float)
    nan0, nan1 = np.isnan(s0), np.isnan(s1)
    f0, f1 = np.sort(s0[~nan0]), np.sort(s1[~nan1])
    k0, k1 = int(nan0.sum()), int(nan1.sum())
    n0, n1 = s0.size, s1.size
    thresholds = _candidate_thresholds(np.sort(np.concatenate([f0, f1])))
    if thresholds.size == 0:
        thresholds = np.array([0.0])
    best = (ThresholdTest(float(thresholds[0]), 1, True, coordinate), -np.inf)
    for direction in (1, -1):
        if direction == 1:  # guess D1 iff s > t
            fp = f0.size - np.searchsorted(f0, thresholds, side="right")
            tp = f1.size - np.searchsorted(f1, thresholds, side="right")
        else:  # guess D1 iff s < t
            fp = np.searchsorted(f0, thresholds, side="left")
            tp = np.searchsorted(f1, thresholds, side="left")
        for nan_high in ((True, False) if k0 + k1 else (True,)):
            nan_in = (direction > 0) == nan_high
            score = _scores(fp + k0 * nan_in, tp + k1 * nan_in, n0, n1, delta, eps, objective, level, profile=profile)
            j = int(np.argmax(score))
            if score[j] > best[1]:
                best = (ThresholdTest(float(thresholds[j]), direction, nan_high, coordinate), float(score[j]))
    return best


def _row_keys(s) -> list:
    """Hashable keys of outputs: floats (NaN as the string 'nan') or tuples of a vector output's entries."""
    a = np.asarray(s)
    if a.ndim <= 1:
        return ["nan" if (isinstance(v, float) and v != v) else v for v in a.tolist()]
    return [tuple("nan" if (isinstance(v, float) and v != v) else v for v in row) for row in a.reshape(a.shape[0], -1).tolist()]


def _show_key(k) -> str:
    return f"{k:.6g}" if isinstance(k, float) else str(k)


def _category_search(s0, s1, delta, eps, objective, profile=None, level=SELECTION_LEVEL):
    """The best "among the k most likely-under-D1 categories" event; None when there are too many categories.

    Values seen fewer than MIN_CATEGORY_COUNT times on the (pooled) selection half are merged into one "rare"
    category: the likelihood ratio of a value seen once is noise, and a union of such values would look
    best by chance and never recur on the evaluation half."""
    pooled = np.concatenate([s0, s1])
    if pooled.dtype.kind == "f" and np.unique(pooled, axis=0 if pooled.ndim > 1 else None).shape[0] > MAX_CATEGORIES:
        return None
    keys0, keys1 = _row_keys(s0), _row_keys(s1)
    cats: dict = {}
    for k in keys0 + keys1:
        cats[k] = cats.get(k, 0) + 1
        if len(cats) > MAX_CATEGORIES:
            return None
    frequent = [k for k, count in cats.items() if count >= MIN_CATEGORY_COUNT]
    index = {k: i for i, k in enumerate(frequent)}
    rare = len(frequent)
    c0 = np.bincount([index.get(k, rare) for k in keys0], minlength=rare + 1)
    c1 = np.bincount([index.get(k, rare) for k in keys1], minlength=rare + 1)
    order = np.argsort(-(c1 + 0.5) / (c0 + 0.5), kind="stable")  # empirical likelihood ratio, largest first
    score = _scores(np.cumsum(c0[order]), np.cumsum(c1[order]), len(keys0), len(keys1), delta, eps, objective,
                    level, profile=profile)
    j = int(np.argmax(score))
    chosen = [int(i) for i in order[: j + 1]]
    members = tuple(frequent[i] for i in chosen if i != rare)
    return SetTest(members, frozenset(frequent), rare in chosen), float(score[j])


def _as_outputs(x) -> np.ndarray:
    """Statistic values as an array: float for numbers (keeping NaN and +-inf), else as given."""
    a = np.asarray(x)
    if a.dtype.kind in "biuf":
        return a.astype(float)
    return a


def _features(a: np.ndarray) -> np.ndarray:
    """Features of vector outputs for the learned score: each coordinate (NaN as 0, +-inf clipped to +-1e300)
    and a NaN indicator per coordinate."""
    nan = np.isnan(a)
    return np.hstack([np.nan_to_num(a, nan=0.0, posinf=1e300, neginf=-1e300), nan.astype(float)])


@dataclass(frozen=True)
class LearnedTest:
    """Guess D1 iff the logistic-regression score w . (features - center) / scale crosses ``threshold``: the
    weights are fitted on the selection half (module docstring), the event is a threshold test on the score."""

    weights: tuple
    center: tuple
    scale: tuple
    inner: ThresholdTest

    def score(self, s: np.ndarray) -> np.ndarray:
        x = (_features(np.asarray(s, dtype=float)) - np.asarray(self.center)) / np.asarray(self.scale)
        return x @ np.asarray(self.weights)

    def guesses_d1(self, s: np.ndarray) -> np.ndarray:
        return self.inner.guesses_d1(self.score(s))

    def describe(self) -> str:
        return f"learned score (logistic regression on {len(self.weights)} features): {self.inner.describe()}"


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """L2-regularised logistic regression (mean log-loss + l2 |w|^2 / 2, intercept unpenalised) by L-BFGS;
    returns (w, b)."""
    from scipy import optimize, special

    d = x.shape[1]

    def loss(theta):
        w, b = theta[:d], theta[d]
        z = x @ w + b
        ll = np.mean(np.logaddexp(0.0, z) - y * z) + 0.5 * l2 * w @ w
        r = special.expit(z) - y
        return ll, np.r_[x.T @ r / len(y) + l2 * w, np.mean(r)]

    res = optimize.minimize(loss, np.zeros(d + 1), jac=True, method="L-BFGS-B", options={"maxiter": 200})
    return res.x


def _learned_search(a0, a1, delta, eps, objective, profile, level=SELECTION_LEVEL):
    """Fit a logistic regression separating D1's outputs from D0's on (the selection half) a0, a1, then the best
    threshold event on its score, on the same half (the evaluation half is never seen)."""
    x = _features(np.vstack([a0, a1]))
    center = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[~(scale > 0) | ~np.isfinite(scale)] = 1.0
    y = np.r_[np.zeros(len(a0)), np.ones(len(a1))]
    theta = fit_logistic((x - center) / scale, y)
    test = LearnedTest(tuple(theta[:-1].tolist()), tuple(center.tolist()), tuple(scale.tolist()),
                       ThresholdTest(0.0, 1))
    inner, score = _threshold_search(test.score(a0), test.score(a1), delta, eps, objective, profile=profile,
                                     level=level)
    return LearnedTest(test.weights, test.center, test.scale, inner), score


def select_test(s0, s1, delta: float = 0.0, eps: float = 0.0, objective: str = "eps", profile=None,
                level: float = SELECTION_LEVEL):
    """The event with the best selection score on (s0 from D0, s1 from D1), over the families of the module docstring."""
    a0, a1 = _as_outputs(s0), _as_outputs(s1)
    candidates = []
    if a0.ndim == 1 and a0.dtype.kind == "f":
        candidates.append(_threshold_search(a0, a1, delta, eps, objective, profile=profile, level=level))
    elif a0.ndim == 2 and a0.dtype.kind == "f":
        for j in range(min(a0.shape[1], MAX_COORDINATES)):
            candidates.append(_threshold_search(a0[:, j], a1[:, j], delta, eps, objective, coordinate=j,
                                                profile=profile, level=level))
        if a0.shape[1] > 1:
            candidates.append(_learned_search(a0, a1, delta, eps, objective, profile, level))
    cat = _category_search(a0, a1, delta, eps, objective, profile=profile, level=level)
    if cat is not None:
        candidates.append(cat)
    if not candidates:
        raise ValueError(f"statistic gives {a0.dtype} outputs of shape {a0.shape[1:]} with more than "
                         f"{MAX_CATEGORIES} distinct values: give a numeric statistic")
    return max(candidates, key=lambda c: c[1])


def best_threshold_test(s0: np.ndarray, s1: np.ndarray, delta: float = 0.0,
                        confidence: float = DEFAULT_CONFIDENCE) -> tuple[ThresholdTest, float]:
    """The threshold test on scalar (s0 from D0, s1 from D1) with the best selection score (the eps bound at
    ``SELECTION_LEVEL``, events with enough counts only); ``confidence`` is kept for callers and unused."""
    return _threshold_search(s0, s1, delta, 0.0, "eps")


# ---------------------------------------------------------------- what the audit can see


def detection_probability(m: int, p: float, eps_true: float, eps: float, delta: float = 0.0,
                          confidence: float = DEFAULT_CONFIDENCE, delta_true: float = 0.0) -> float:
    """Exact Pr[the audit flags (eps, delta)] when its event has probability p under D0 and
    min(1, e^eps_true p + delta_true) under D1, m evaluation outputs per neighbour: the sum over FP = f ~ Bin(m, p) of Pr[TP >= t*(f)], t*(f) the
    least count whose Clopper-Pearson lower bound exceeds need(f) = e^eps FPR_u(f) + delta. (The lower bound at
    t exceeds x iff Pr[Bin(m, x) >= t] < 1 - level, so t*(f) - 1 = binom.isf(1 - level, m, need(f)).)"""
    level = _rate_level(confidence)
    q = min(1.0, math.exp(eps_true) * p + delta_true)
    lo = int(_st.binom.ppf(1e-10, m, p))
    hi = int(_st.binom.isf(1e-10, m, p)) + 1
    f = np.arange(lo, min(hi, m) + 1)
    need = math.exp(eps) * stats.clopper_pearson(f, m, level, "upper")[1] + delta
    ok = need < 1.0
    t_minus_1 = _st.binom.isf(1 - level, m, np.where(ok, need, 0.5))
    return float(np.sum(np.where(ok, _st.binom.pmf(f, m, p) * _st.binom.sf(t_minus_1, m, q), 0.0)))


@functools.lru_cache(maxsize=256)
def minimal_detectable_eps(m: int, eps: float, delta: float = 0.0, confidence: float = DEFAULT_CONFIDENCE,
                           power: float = DETECTION_POWER) -> float:
    """The least true eps' that an audit with m evaluation outputs per neighbour flags with probability >= power.

    The violation: an event of probability p under D0 and e^eps' p under D1, with p <= 1/(1 + e^eps') so that
    the pair is itself exactly eps'-DP (randomized response is the largest p); power maximised over p on a
    log grid (module docstring). inf when no eps' up to eps + 30 is seen; bisection to 1e-3 (relative)."""

    def seen(e_true):
        top = 1.0 / (1.0 + math.exp(e_true))
        return any(detection_probability(m, float(p), e_true, eps, delta, confidence) >= power
                   for p in np.geomspace(min(1.0 / m, top), top, 16)[::-1])

    lo, step = eps, 0.05 * max(eps, 0.2)
    hi = eps + step
    while not seen(hi):
        lo, step = hi, 2 * step
        hi = eps + step
        if hi > eps + 30.0:
            return math.inf
    while hi - lo > 1e-3 * max(1.0, eps):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if seen(mid) else (mid, hi)
    return float(hi)


@functools.lru_cache(maxsize=256)
def minimal_detectable_delta(m: int, eps: float, delta: float, confidence: float = DEFAULT_CONFIDENCE,
                             power: float = DETECTION_POWER) -> float:
    """The least true delta' that the delta objective (m evaluation outputs per neighbour) flags at the declared
    eps with probability >= power: the violation is an event of probability p under D0 and e^eps p + delta'
    under D1 (the tightest (eps, delta') violation), power maximised over p on a log grid from 0.01/m; bisection
    on log delta' to 1% (relative). 1.0 when not even delta' = 1 - e^eps p is seen."""

    def seen(d_true):
        top = max(0.0, (1.0 - d_true) / (1.0 + math.exp(eps)))
        grid = np.r_[0.0, np.geomspace(min(0.01 / m, top), top, 16)] if top > 0 else np.array([0.0])
        return any(detection_probability(m, float(p), eps, eps, delta, confidence, delta_true=d_true) >= power
                   for p in grid)

    lo, hi = max(delta, 1e-12), max(2 * delta, 1e-9)
    while not seen(hi):
        lo, hi = hi, 2 * hi
        if hi >= 1.0:
            return 1.0 if seen(1.0 - 1e-12) else math.inf
    while hi / lo > 1.01:
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if seen(mid) else (mid, hi)
    return float(hi)


# ---------------------------------------------------------------- sampling and the audit


def sample_statistic(case: AuditCase, private_data: Any, samples: int, rng: np.random.Generator,
                     batch_size: int = DEFAULT_BATCH) -> np.ndarray:
    """``samples`` values of ``statistic(mechanism(private_data, public, rng))`` (batched if the case allows),
    as an array with ``samples`` rows: float for numeric statistics (NaN and +-inf kept)."""
    stat = case.statistic if case.statistic is not None else (lambda out: out)
    if case.batched:
        parts, left = [], samples
        while left > 0:
            b = min(batch_size, left)
            out = _as_outputs(stat(case.mechanism(private_data, case.public, rng, size=b)))
            if out.ndim == 0 or out.shape[0] != b:
                raise ValueError(f"statistic of a batch of {b} outputs has shape {out.shape}, must start with ({b},)")
            parts.append(out)
            left -= b
        return np.concatenate(parts)
    return _as_outputs([stat(case.mechanism(private_data, case.public, rng)) for _ in range(samples)])


def _nonfinite_counts(e0, e1) -> dict:
    if e0.dtype.kind != "f":
        return {}
    return {f"{name} under D{i}": int(np.count_nonzero(fn(e)))
            for i, e in ((0, e0), (1, e1)) for name, fn in (("NaN", np.isnan), ("inf", np.isinf))}


def _pair_text(pair) -> str:
    """A short rendering of a neighbouring pair (numbers, arrays of a few entries)."""
    def one(x):
        a = np.asarray(x)
        return np.array2string(a, threshold=24, separator=",", max_line_width=10_000) if a.size <= 64 else f"<{a.shape}>"
    return f"D0 = {one(pair[0])}, D1 = {one(pair[1])}"


def search_pair(case: AuditCase, samples: int, rng: np.random.Generator, batch_size: int = DEFAULT_BATCH):
    """The neighbouring pair the audit evaluates, found on draws of its own (module docstring): the case's pair,
    its ``starts`` and ``SEARCH_RANDOM`` pairs from ``neighbours(rng)``, then ``SEARCH_LOCAL`` moves by ``mutate``
    from the best so far, each scored by the eps objective's selection score (its bounds at SEARCH_LEVEL: the
    stricter SELECTION_LEVEL favours frequent events on few draws and ranks the pairs by them) on ``per`` draws
    per neighbour,
    per = max(SEARCH_MIN, samples // (2 * candidates)). None of these draws is used again: the event is chosen,
    and the bound computed, on fresh draws from the chosen pair. Returns (pair, a note of the search)."""
    tried = [case.private_pair, *case.starts]
    n_cand = len(tried) + SEARCH_RANDOM + (SEARCH_LOCAL if case.mutate is not None else 0)
    per = max(SEARCH_MIN, samples // (2 * n_cand))

    def score(pair):
        s0 = sample_statistic(replace(case, private_pair=pair), pair[0], per, rng, batch_size)
        s1 = sample_statistic(replace(case, private_pair=pair), pair[1], per, rng, batch_size)
        return select_test(s0, s1, case.delta, case.eps, "eps", level=SEARCH_LEVEL)[1]

    tried += [case.neighbours(rng) for _ in range(SEARCH_RANDOM)]
    scored = [(score(p), i, p) for i, p in enumerate(tried)]
    best = max(scored, key=lambda t: (t[0], -t[1]))
    first = best[1]
    moves = accepted = 0
    if case.mutate is not None:
        for _ in range(SEARCH_LOCAL):
            cand = case.mutate(best[2], rng)
            sc = score(cand)
            moves += 1
            if sc > best[0]:
                best = (sc, -1, cand)
                accepted += 1
    origin = ("the case's pair" if first == 0 else "a start" if first <= len(case.starts)
              else "a random pair")
    note = (f"searched {len(scored) + moves} pairs ({len(case.starts) + 1} given, {SEARCH_RANDOM} random, {moves} "
            f"local moves, {accepted} accepted) on {per} draws per neighbour each, separate from the audit's draws; "
            f"best from {origin}: {_pair_text(best[2])}")
    return best[2], note


def audit(case: AuditCase, samples: int, rng: np.random.Generator, confidence: float = DEFAULT_CONFIDENCE,
          batch_size: int = DEFAULT_BATCH, objective: str | None = None, search: bool = True) -> AuditResult:
    """Audit ``case``: an epsilon (and delta) lower bound at ``confidence`` from ``samples`` outputs on each
    neighbour, and each objective's power statement (module docstring).

    Objectives: "eps" always; "delta" when the claim has delta > 0; "profile" when the case declares a privacy
    profile. Each picks its own event on the selection half and is bounded on the evaluation half at
    1 - (1 - confidence)/K (K objectives, union bound), so every statement of the result holds jointly at
    ``confidence``; the headline is the objective with the largest eps_lb. ``objective`` given: that one alone,
    at the full confidence. With ``search`` and a case that can draw neighbours, the pair is first chosen by
    :func:`search_pair` on draws of its own (extra to ``samples``)."""
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 4:
        raise ValueError(f"samples={samples!r} must be an integer >= 4")
    if not (0 < confidence < 1):
        raise ValueError(f"confidence={confidence!r} must lie in (0, 1)")
    if not (0 <= case.delta < 1):
        raise ValueError(f"delta={case.delta!r} must lie in [0, 1)")
    if not (case.eps >= 0) or not math.isfinite(case.eps):
        raise ValueError(f"eps={case.eps!r} must be a finite number >= 0")
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size={batch_size!r} must be an integer >= 1")
    if objective is None:
        names = (["eps"] + (["delta"] if case.delta > 0 else []) + (["profile"] if case.profile is not None else [])
                 + (["renyi"] if case.rho is not None else []))
    elif objective in ("eps", "delta", "profile", "renyi"):
        if objective == "renyi" and case.rho is None:
            raise ValueError("objective='renyi' needs a case with a declared rho")
        if objective == "profile" and case.profile is None:
            raise ValueError("objective='profile' needs a case with a declared profile")
        names = [objective]
    else:
        raise ValueError(f"objective={objective!r} must be 'eps', 'delta', 'profile' or 'renyi'")
    profile = profile_grid(case) if "profile" in names else None
    search_note = ""
    if case.neighbours is not None and search:
        pair, search_note = search_pair(case, samples, rng, batch_size)
        case = replace(case, private_pair=pair)
    pair_loss = float(case.pair_loss(case.private_pair)) if case.pair_loss is not None else math.nan
    d0, d1 = case.private_pair
    s0 = sample_statistic(case, d0, samples, rng, batch_size)
    s1 = sample_statistic(case, d1, samples, rng, batch_size)
    half = samples // 2
    e0, e1 = s0[half:], s1[half:]
    m = int(e0.shape[0])
    share = 1 - (1 - confidence) / len(names)
    level = _rate_level(share)
    results = []
    for name in names:
        test, _ = select_test(s0[:half], s1[:half], case.delta, case.eps, name, profile=profile)
        fp = int(np.count_nonzero(test.guesses_d1(e0)))
        fn = int(np.count_nonzero(~test.guesses_d1(e1)))
        fpr_u = float(stats.clopper_pearson(fp, m, level, "upper")[1])
        fnr_u = float(stats.clopper_pearson(fn, int(e1.shape[0]), level, "upper")[1])
        if name == "eps":
            power = minimal_detectable_eps(m, float(case.eps), float(case.delta), float(share))
        elif name == "delta":
            power = minimal_detectable_delta(m, float(case.eps), float(case.delta), float(share))
        else:
            power = math.nan
        p_eps = p_margin = rho_lb = p_delta = None
        if name == "renyi":
            rho_lb = renyi_rho_lower_bound(fpr_u, fnr_u)
        if name == "profile":
            grid, deltas = profile
            e = np.exp(grid)
            margins = np.maximum(1 - fnr_u - e * fpr_u, 1 - fpr_u - e * fnr_u) - deltas
            j = int(np.argmax(margins))
            p_eps, p_margin, p_delta = float(grid[j]), float(margins[j]), float(deltas[j])
        is_threshold = isinstance(test, ThresholdTest)
        results.append(ObjectiveResult(
            name, float(share), test.describe(), fp, fn, fpr_u, fnr_u,
            epsilon_lower_bound(fpr_u, fnr_u, case.delta), delta_lower_bound(fpr_u, fnr_u, case.eps), float(power),
            p_eps, p_margin, test.threshold if is_threshold else None, test.direction if is_threshold else 1,
            rho_lb, case.rho if name == "renyi" else None, p_delta))
    head = max(results, key=lambda o: (o.eps_lower_bound, o.delta_lower_bound))
    by_name = {o.objective: o for o in results}
    mde = by_name["eps"].minimal_detectable if "eps" in by_name else minimal_detectable_eps(
        m, float(case.eps), float(case.delta), float(share))
    return AuditResult(
        eps_lower_bound=head.eps_lower_bound,
        declared_eps=float(case.eps), declared_delta=float(case.delta), confidence=float(confidence),
        samples=int(samples), threshold=head.threshold, direction=head.direction,
        false_positives=head.false_positives, false_negatives=head.false_negatives, evaluation_size=m,
        fpr_upper=head.fpr_upper, fnr_upper=head.fnr_upper,
        delta_lower_bound=max(o.delta_lower_bound for o in results),
        minimal_detectable_eps=float(mde), test=head.test, objective=head.objective,
        nonfinite=_nonfinite_counts(e0, e1), objectives=tuple(results),
        minimal_detectable_delta=float(by_name["delta"].minimal_detectable) if "delta" in by_name else math.nan,
        profile_name=case.profile_name if case.profile is not None else "",
        pair=_pair_text(case.private_pair), search=search_note, pair_loss=pair_loss,
    )


# ---------------------------------------------------------------- the registry of targets

_REGISTERED: dict[str, AuditTarget] = {}


def with_ci_samples(targets, ci_samples: dict[str, int]) -> tuple[AuditTarget, ...]:
    """``targets`` with each one's ``ci_samples`` set from ``ci_samples`` (ValueError naming a target left out
    or a name that is not one of them): a target module's declaration of its contract-test sizes."""
    names = {t.name for t in targets}
    if set(ci_samples) != names:
        raise ValueError(f"ci_samples must name exactly the targets; missing {sorted(names - set(ci_samples))}, "
                         f"unknown {sorted(set(ci_samples) - names)}")
    return tuple(replace(t, ci_samples=int(ci_samples[t.name])) for t in targets)


def register(target: AuditTarget) -> AuditTarget:
    """Add ``target`` to the registry (ValueError if its name is taken by a different target)."""
    if not isinstance(target, AuditTarget):
        raise ValueError(f"target must be an AuditTarget, got {type(target).__name__}")
    known = _REGISTERED.get(target.name)
    if known is not None and known is not target:
        raise ValueError(f"audit target name {target.name!r} is already registered")
    _REGISTERED[target.name] = target
    return target


def _discover() -> dict[str, str]:
    """Import every module of simulations.audit_targets and register its TARGETS; returns {module: import error}."""
    import simulations.audit_targets as pkg

    errors = {}
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("_"):
            continue
        path = f"{pkg.__name__}.{info.name}"
        try:
            module = importlib.import_module(path)
        except ImportError as exc:  # a missing optional dependency shows as this module's error; a bug raises
            errors[path] = f"{type(exc).__name__}: {exc}"
            continue
        for t in getattr(module, "TARGETS", ()):
            register(t)
    return errors


def targets() -> dict[str, AuditTarget]:
    """All audit targets (discovered and registered), by name."""
    _discover()
    return dict(sorted(_REGISTERED.items()))


def target_errors() -> dict[str, str]:
    """Target modules that failed to import, with their errors."""
    return _discover()


def get_target(name: str) -> AuditTarget:
    found = targets()
    if name not in found:
        raise ValueError(f"audit target {name!r} is unknown; known: {', '.join(found) or 'none'}")
    return found[name]


def run_target(name: str, *, samples: int | None = None, seed: int = 0, eps: float | None = None,
               delta: float | None = None, confidence: float = DEFAULT_CONFIDENCE,
               batch_size: int = DEFAULT_BATCH, objective: str | None = None) -> AuditResult:
    """Audit the registered target ``name`` at (eps, delta) (its defaults when None) with ``rng = default_rng(seed)``."""
    t = get_target(name)
    eps = t.default_eps if eps is None else eps
    delta = t.default_delta if delta is None else delta
    samples = t.default_samples if samples is None else samples
    case = t.make(float(eps), float(delta))
    return audit(case, samples, np.random.default_rng(seed), confidence, batch_size, objective)


def as_expected(target: AuditTarget, result: AuditResult) -> bool:
    """A target declared private passes (not violated); a deliberately broken one is caught (violated)."""
    return result.violated != target.expect_private


@dataclass(frozen=True)
class FamilyAudit:
    """Several audits with one family-wise confidence: each at 1 - (1 - confidence)/K (Bonferroni)."""

    confidence: float
    per_audit_confidence: float
    results: tuple  # ((name, AuditTarget, AuditResult), ...)

    @property
    def unexpected(self) -> list[str]:
        """Targets declared private that were flagged, and broken ones that were not caught."""
        return [name for name, t, r in self.results if not as_expected(t, r)]

    @property
    def no_power(self) -> list[str]:
        return [name for name, _, r in self.results if r.no_power]

    def statement(self) -> str:
        k = len(self.results)
        real = sum(t.expect_private for _, t, _ in self.results)
        caught = sum((not t.expect_private) and r.violated for _, t, r in self.results)
        flagged = [n for n, t, r in self.results if t.expect_private and r.violated]
        text = (f"family-wise: {k} audits, each at {100 * self.per_audit_confidence:.4g}% (Bonferroni), so with "
                f"probability >= {100 * self.confidence:g}% no correct target among them is flagged falsely and every "
                f"flag is a true refutation. {real - len(flagged)}/{real} targets declared private pass"
                + (f" (flagged: {', '.join(flagged)})" if flagged else "")
                + f"; {caught}/{k - real} broken variants caught")
        missed = [n for n, t, r in self.results if not t.expect_private and not r.violated]
        if missed:
            text += f" (missed: {', '.join(missed)})"
        if self.no_power:
            text += f"; no power (minimal detectable eps > {NO_POWER_FACTOR:g}x the claim): {', '.join(self.no_power)}"
        return text + "."


def audit_all(names=None, *, seed: int = 0, confidence: float = DEFAULT_CONFIDENCE, samples: int | None = None,
              progress: bool = False) -> FamilyAudit:
    """Audit ``names`` (default: every registered target) at their defaults, with one family-wise ``confidence``.

    Target ``name`` draws from ``default_rng(SeedSequence(seed, spawn_key=(crc32(name),)))``: its draws do not
    depend on which other targets are audited with it (its confidence does: Bonferroni over them)."""
    found = targets()
    names = sorted(found) if names is None else list(names)
    for n in names:
        if n not in found:
            raise ValueError(f"audit target {n!r} is unknown; known: {', '.join(found) or 'none'}")
    if not (0 < confidence < 1):
        raise ValueError(f"confidence={confidence!r} must lie in (0, 1)")
    per = 1 - (1 - confidence) / max(1, len(names))
    iterator = names
    if progress:
        from tqdm import tqdm

        iterator = tqdm(names, desc="audits", unit="target")
    results = []
    for name in iterator:
        t = found[name]
        case = t.make(float(t.default_eps), float(t.default_delta))
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(_name_key(name),)))
        results.append((name, t, audit(case, samples or t.default_samples, rng, per)))
    return FamilyAudit(float(confidence), float(per), tuple(results))


def _name_key(name: str) -> int:
    """A stable integer per target name (its seed stream does not depend on the other targets)."""
    import zlib

    return zlib.crc32(name.encode())

