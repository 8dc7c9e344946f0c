"""JUO20 / DWWZK18 (empirical privacy auditing): the auditor's settings and records (a case, a target, the
event tests, an objective's and an audit's result). Re-exported by :mod:`simulations.audit`, the import path
to use; see its docstring for the method."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np


DEFAULT_CONFIDENCE = 0.95
DEFAULT_BATCH = 100_000
SELECTION_LEVEL = 1 - 1e-4      # level of the Clopper-Pearson bounds that score events on the selection half
MIN_SELECTION_COUNT = 10        # an event is chosen only with this many numerator counts on the selection half
OBJECTIVES = ("eps", "delta", "profile", "renyi", "divergence", "loss")  # every objective an audit can have
MAX_CATEGORIES = 1024           # at most this many distinct outputs: also the likelihood-ratio-ordered events
MIN_CATEGORY_COUNT = 5          # rarer values (on the pooled selection half) are merged into one category
MAX_COORDINATES = 64            # vector outputs: threshold events of at most this many coordinates
DETECTION_POWER = 0.9
NO_POWER_FACTOR = 2.0
SEARCH_RANDOM = 8               # neighbour search: random pairs tried ...
SEARCH_LOCAL = 8                # ... then local moves from the best
SEARCH_MIN = 500                # draws per neighbour for each pair tried
SEARCH_LEVEL = 0.975            # level of the Clopper-Pearson bounds that rank the pairs tried
SEARCH_FINALISTS = 3            # the best pairs re-scored on fresh draws ...
SEARCH_FINAL_FACTOR = 3         # ... this many times as many per neighbour; the re-score alone picks the pair
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
    and the declared eps is the pair's or the test's; ``pair_loss_note``, for a case without it, says why it is not
    computed (printed on the line in its place); ``loss_bound`` (optional) states a bound on every neighbouring
    pair's loss (why no pair can beat the worst found; printed on the line). ``rho`` (optional): a declared
    rho-zCDP claim, which adds the "renyi" and "divergence" objectives.

    Transcript divergence (optional, :mod:`simulations._audit_divergence`): ``transcript`` maps the mechanism's
    outputs (a batch if ``batched``, else one) to the whole released transcript as rows of real numbers (discrete
    parts as numbers, real-valued parts as they are), drawn once with the statistic; given, it adds the
    "divergence" objective (also added, on the statistic's values, by a declared rho). ``log_ratio`` maps such rows
    to the exact log dP_D1/dP_D0 of the declared mechanism on ``private_pair`` (a witness offered beside the
    learned one). ``loss_neighbours(rng)`` (optional, with ``pair_loss``): random neighbouring pairs ranked by their
    exact loss only (no sampled search; for targets whose draws are too slow to search on), so the line states the
    worst pair found and its loss. ``pair_llr(pair, outputs)`` (optional): the exact privacy-loss variable
    log dP_D0/dP_D1 of statistic values under the law of the mechanism audited, on ``pair``: its threshold events
    join every event family and, for delta > 0, it adds the "loss" objective (:mod:`simulations._audit_loss`).
    ``objective_weights`` (optional): (objective, weight) pairs; the audit's miss 1 - confidence is split between
    its objectives in proportion to them (1 for an objective not named; :func:`objective_shares`).
    ``selection_fraction``: the share of each neighbour's samples that chooses the events and witnesses (the rest
    bounds them; :func:`selection_size`): below 1/2 for a case whose families are small and whose bounds are short
    of counts.
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
    transcript: Callable[[Any], Any] | None = None
    loss_neighbours: Callable[[np.random.Generator], tuple] | None = None
    log_ratio: Callable[[np.ndarray], np.ndarray] | None = None
    pair_llr: Callable[[tuple, np.ndarray], np.ndarray] | None = None
    objective_weights: tuple = ()
    selection_fraction: float = 0.5
    pair_loss_note: str = ""
    loss_bound: str = ""


@dataclass(frozen=True)
class AuditTarget:
    """A registered audit: ``make(eps, delta) -> AuditCase``, with the source of its claim and whether it should pass.

    ``expect_private`` is False for a deliberately broken variant: the auditor is expected to catch it
    (eps_lb > declared eps). ``default_samples`` is what ``python -m simulations audit`` uses by default;
    ``ci_samples`` the smaller count at which the contract test requires the expected outcome. ``results``:
    the registered results whose algorithm it audits (``("bcmnuw20:thm10",)``). ``make_exact`` (optional):
    ``make_exact(eps, delta)`` is ``make(eps, delta)``'s case with its draws taken from the exact output law of the
    mechanism audited on each data set of the pair (the law behind the case's ``pair_loss`` / ``pair_llr``, in the
    target's module), not from its code: the same pair, objectives and values of the statistic, many times cheaper
    (benchmarks/bench_audit_alarms.py ``--law exact``; a test holds each law to the code's draws).
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
    #: the ids (``paper:kind+number``) of the paper's results whose algorithm this target audits, as data: registered
    #: results (``bounds show`` lists the target under them) or numbered items of bounds/papers_index.toml that are
    #: not registered (a privacy lemma: coverage counts the audit as what decides it); ``()`` for neither
    results: tuple = ()
    make_exact: Callable[[float, float], AuditCase] | None = None


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
    delta_lb(eps') - profile(eps') is largest, and that margin (> 0 refutes the declared curve).

    The "divergence" objective tests no event: ``test`` is its whole statement (witness, bound, ceiling, power),
    ``divergence_bound`` > ``divergence_ceiling`` refutes, ``minimal_detectable`` is its least detectable KL, and
    its counts are those of the trivial event "always guess D1" (FP = m, FN = 0), which bounds nothing."""

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
    divergence_bound: float | None = None    # "divergence": the lower bound on D_alpha of the chosen witness
    divergence_ceiling: float | None = None  # ... and the declared ceiling of D_alpha it is compared with
    divergence_alpha: float | None = None
    loss_counts: tuple | None = None         # "loss": the Bernoulli counts of each direction ...
    loss_samples: int | None = None          # ... of this many outputs each, and the bound they give
    loss_delta_bound: float | None = None

    def refutes(self, eps: float, delta: float) -> bool:
        return (self.eps_lower_bound > eps or self.delta_lower_bound > delta
                or (self.profile_margin is not None and self.profile_margin > 0)
                or (self.divergence_bound is not None and self.divergence_bound > self.divergence_ceiling)
                or (self.rho_lower_bound is not None and self.rho_lower_bound > self.declared_rho)
                or (self.loss_delta_bound is not None and self.loss_delta_bound > delta))

    def describe(self, eps: float, delta: float) -> str:
        c = f"{100 * self.confidence:.4g}%"
        if self.objective in ("divergence", "loss"):
            return self.test
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
    exact_search: str = ""  # the exact-loss search's worst pair and its loss (simulations._audit_pairs)
    pair_loss_note: str = ""  # why the pair's exact loss is not computed, when it is not
    loss_bound: str = ""  # a bound on every neighbouring pair's loss, when the case gives one

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
        text = f"exact privacy loss of the pair: eps {x:.4g}"
        if x > 0:
            text += f"; eps_lb reaches {self.eps_lower_bound / x:.2f} of it"
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
        if self.exact_search:
            text += f"\n  worst pair: {self.exact_search}"
        if math.isfinite(self.pair_loss):
            text += f"\n  {self.gap_statement()}"
        elif self.pair_loss_note:
            text += f"\n  exact privacy loss of the pair: not computed ({self.pair_loss_note})"
        if self.loss_bound:
            text += f"\n  every pair: {self.loss_bound}"
        if any(self.nonfinite.values()):
            text += "; non-finite outputs " + ", ".join(f"{k} {v}" for k, v in self.nonfinite.items() if v)
        return text


def _row_keys(s) -> list:
    """Hashable keys of outputs: floats (NaN as the string 'nan') or tuples of a vector output's entries."""
    a = np.asarray(s)
    if a.ndim <= 1:
        return ["nan" if (isinstance(v, float) and v != v) else v for v in a.tolist()]
    return [tuple("nan" if (isinstance(v, float) and v != v) else v for v in row) for row
            in a.reshape(a.shape[0], -1).tolist()]


def _show_key(k) -> str:
    return f"{k:.6g}" if isinstance(k, float) else str(k)


def objective_shares(names, confidence: float, weights=()) -> dict:
    """Each objective's share of ``confidence`` (Bonferroni with weights): the miss 1 - confidence split between
    ``names`` in proportion to ``weights`` ((name, weight) pairs; 1 for a name not given), so the objectives'
    misses add up to exactly 1 - confidence and every statement holds jointly at ``confidence``."""
    given = dict(weights)
    raw = [float(given.get(n, 1.0)) for n in names]
    if not all(math.isfinite(x) and x > 0 for x in raw) or not set(given) <= set(OBJECTIVES):
        raise ValueError(f"objective_weights={weights!r}: positive finite weights of objectives {OBJECTIVES}")
    total = sum(raw)
    return {n: 1.0 - (1.0 - confidence) * x / total for n, x in zip(names, raw)}


def selection_size(samples: int, fraction: float) -> int:
    """How many of ``samples`` outputs per neighbour form the selection half: ``fraction`` of them, at least 2 and
    leaving at least 2 to bound on (the halves are disjoint whatever the fraction, so the guarantee is unchanged)."""
    if not (0 < fraction < 1):
        raise ValueError(f"selection_fraction={fraction!r} must lie in (0, 1)")
    return min(max(2, int(samples * fraction)), samples - 2)
