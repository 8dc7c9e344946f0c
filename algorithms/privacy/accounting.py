"""Privacy guarantees as values, and the rules that combine them.

Every mechanism and algorithm of the workbench declares what it spends as one of three
frozen values:

* ``PureDP(eps)``          eps-differential privacy (Dwork, McSherry, Nissim, Smith 2006);
* ``ApproxDP(eps, delta)`` (eps, delta)-differential privacy (LVSUW21 Definition 2.6);
* ``ZCDP(rho)``            rho-zero-concentrated DP (Bun-Steinke 2016; LVSUW21 Definition 2.5
                           writes it as (1/2) eps~^2-CDP, i.e. rho = eps~^2 / 2).

and returns it with its output as a ``Release(value, guarantee)`` (a NamedTuple, so
``value, guarantee = mech(...)`` unpacks). An algorithm built from several mechanisms
records each spend on an ``Accountant`` and returns ``Release(output, accountant.total())``.

Neighbouring datasets differ in one individual's record (LVSUW21 Section 2; BCMNUW20).
Natural logarithms throughout.

Bad input raises ``ValueError`` naming the argument, its value and the allowed range.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple, Union

import numpy as np
from algorithms._lazy import lazy_module
from ..validate import check_delta as _check_delta
from ..validate import check_int as _check_positive_int
from ..validate import check_nonneg_finite as _check_nonneg_finite
from ..validate import check_positive_finite as _check_positive_finite
from ..validate import check_real as _check_real

optimize, special = lazy_module("scipy.optimize"), lazy_module("scipy.special")  # imported on first use

__all__ = [
    "PureDP",
    "ApproxDP",
    "ZCDP",
    "Guarantee",
    "Release",
    "compose",
    "advanced_composition",
    "pure_to_zcdp",
    "bounded_range_to_zcdp",
    "pure_to_approx",
    "zcdp_to_approx",
    "zcdp_to_approx_closed",
    "zcdp_epsilon_infimum",
    "zcdp_epsilon_closed",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_sigma_analytic",
    "group_privacy",
    "amplify_by_subsampling",
    "Accountant",
    "format_guarantee",
]


# --------------------------------------------------------------------------- validation

# --------------------------------------------------------------------------- guarantees

@dataclass(frozen=True)
class PureDP:
    """Dwork-Roth (2014) Definition 2.4 with delta = 0: eps-differential privacy, eps in [0, inf)."""

    eps: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", _check_nonneg_finite("eps", self.eps))

    def __str__(self) -> str:
        return format_guarantee(self)


@dataclass(frozen=True)
class ApproxDP:
    """LVSUW21 Definition 2.6: (eps, delta)-differential privacy, eps in [0, inf), delta in [0, 1)."""

    eps: float
    delta: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", _check_nonneg_finite("eps", self.eps))
        object.__setattr__(self, "delta", _check_delta("delta", self.delta))

    def __str__(self) -> str:
        return format_guarantee(self)


@dataclass(frozen=True)
class ZCDP:
    """LVSUW21 Definition 2.5 (Bun-Steinke 2016 Def. 1.1): rho-zCDP, D_alpha <= rho * alpha for all alpha > 1.

    LVSUW21 writes (1/2) eps~^2-CDP; here rho = eps~^2 / 2. rho in [0, inf).
    """

    rho: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "rho", _check_nonneg_finite("rho", self.rho))

    def __str__(self) -> str:
        return format_guarantee(self)


Guarantee = Union[PureDP, ApproxDP, ZCDP]

#: the kinds a saved guarantee names (``{"kind": "ApproxDP", "eps": 1.0, "delta": 1e-06}`` in result files)
_KINDS = {"PureDP": PureDP, "ApproxDP": ApproxDP, "ZCDP": ZCDP}


def check_guarantee(name: str, g: Any):
    """A PureDP / ApproxDP / ZCDP value; ValueError naming ``name`` otherwise (the input check every algorithm
    that takes a guarantee shares)."""
    if not isinstance(g, (PureDP, ApproxDP, ZCDP)):
        raise ValueError(f"{name}={g!r} must be a PureDP, ApproxDP or ZCDP value")
    return g



def _num(x: float) -> str:
    """A privacy parameter as a reader writes it: 4 significant digits, no trailing zeros (1, 0.5, 1e-06)."""
    return f"{float(x):.4g}"


def format_guarantee(g: Any) -> str:
    """The one printed form of a privacy guarantee, used wherever one is shown: ``(1, 1e-06)-DP`` for
    (eps, delta)-DP (eps first, as in LVSUW21 Definition 2.6), ``1-DP`` for pure DP, ``0.5-zCDP`` for zCDP.

    ``g`` is a ``PureDP`` / ``ApproxDP`` / ``ZCDP`` value or its saved form, a mapping with ``kind`` and the
    value's fields (as written by the experiments' summaries); ``None`` prints as ``none declared``.
    ValueError for anything else (a mapping is validated exactly as the value would be)."""
    if g is None:
        return "none declared"
    if isinstance(g, dict):
        kind = _KINDS.get(g.get("kind"))
        if kind is None:
            raise ValueError(f"guarantee={g!r} must name kind PureDP, ApproxDP or ZCDP")
        fields = {k: v for k, v in g.items() if k != "kind"}
        try:
            g = kind(**fields)
        except TypeError:
            raise ValueError(f"guarantee={g!r}: a {kind.__name__} has the fields "
                             f"{', '.join(kind.__dataclass_fields__)}") from None
    if isinstance(g, ApproxDP):
        return f"({_num(g.eps)}, {_num(g.delta)})-DP"
    if isinstance(g, PureDP):
        return f"{_num(g.eps)}-DP"
    if isinstance(g, ZCDP):
        return f"{_num(g.rho)}-zCDP"
    raise ValueError(f"guarantee={g!r} must be a PureDP, ApproxDP or ZCDP value")


class Release(NamedTuple):
    """The workbench's result convention: an output together with the total privacy it spent.

    ``value`` is whatever the mechanism or algorithm outputs (an array, an index, a callable
    answering queries, a dataclass of several outputs); ``guarantee`` is a ``PureDP``,
    ``ApproxDP`` or ``ZCDP`` value covering everything the computation of ``value`` read from
    the private data. ``value, guarantee = algorithm(...)`` unpacks it.
    """

    value: Any
    guarantee: Guarantee


# --------------------------------------------------------------------------- composition

def compose(*guarantees: Guarantee) -> Guarantee:
    """Dwork-Roth (2014) Theorem 3.16 (basic composition) and Bun-Steinke (2016) Lemma 2.3 (zCDP).

    Pure values compose to PureDP(sum eps); pure and approximate values to
    ApproxDP(sum eps, sum delta); zCDP values to ZCDP(sum rho). Mixing zCDP with pure or
    approximate DP is refused: convert first (``pure_to_zcdp`` or ``zcdp_to_approx``), since
    which conversion to use is a choice the caller must make. ``compose()`` of nothing is
    PureDP(0). The sum of deltas is capped below 1 only by validation (a total delta >= 1 is
    an error, not a guarantee).
    """
    gs = [check_guarantee(f"guarantees[{i}]", g) for i, g in enumerate(guarantees)]
    if not gs:
        return PureDP(0.0)
    kinds = {type(g) for g in gs}
    if kinds == {ZCDP}:
        return ZCDP(math.fsum(g.rho for g in gs))
    if ZCDP in kinds:
        raise ValueError(
            f"guarantees={gs!r} mix ZCDP with pure/approximate DP: convert with pure_to_zcdp "
            "or zcdp_to_approx before composing"
        )
    eps = math.fsum(g.eps for g in gs)
    if kinds == {PureDP}:
        return PureDP(eps)
    delta = math.fsum(getattr(g, "delta", 0.0) for g in gs)
    if delta >= 1.0:
        raise ValueError(f"guarantees: total delta={delta!r} out of range: allowed [0, 1)")
    return ApproxDP(eps, delta)


def advanced_composition(guarantee: PureDP | ApproxDP, k: int, delta_slack: float) -> ApproxDP:
    """Dwork-Rothblum-Vadhan 2010 (Dwork-Roth 2014 Theorem 3.20): k-fold adaptive composition.

    k mechanisms each (eps, delta)-DP together satisfy (eps', k delta + delta')-DP with
    eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1), delta' = ``delta_slack`` in (0, 1).
    """
    g = check_guarantee("guarantee", guarantee)
    if isinstance(g, ZCDP):
        raise ValueError(f"guarantee={g!r} must be PureDP or ApproxDP (zCDP composes by compose)")
    k = _check_positive_int("k", k)
    dprime = _check_delta("delta_slack", delta_slack, allow_zero=False)
    eps = g.eps
    delta = getattr(g, "delta", 0.0)
    eps_total = math.sqrt(2.0 * k * math.log(1.0 / dprime)) * eps + k * eps * math.expm1(eps)
    delta_total = k * delta + dprime
    if delta_total >= 1.0:
        raise ValueError(
            f"k={k}, delta={delta}, delta_slack={dprime}: total delta {delta_total} "
            "out of range: allowed [0, 1)"
        )
    return ApproxDP(eps_total, delta_total)


# --------------------------------------------------------------------------- conversions

def pure_to_zcdp(guarantee: PureDP) -> ZCDP:
    """Bun-Steinke (2016) Proposition 1.4: eps-DP implies (eps^2 / 2)-zCDP (LVSUW21 Section 4.1 (i))."""
    if not isinstance(guarantee, PureDP):
        raise ValueError(f"guarantee={guarantee!r} must be a PureDP value")
    return ZCDP(guarantee.eps**2 / 2.0)


def bounded_range_to_zcdp(eps: float) -> ZCDP:
    """Cesar and Rogers (2021), "Bounding, Concentrating, and Truncating": an eps-bounded-range
    mechanism is (eps^2 / 8)-zCDP.

    eps-bounded range (Durfee-Rogers 2019): for every pair of neighbours the privacy loss
    log P(y) / P'(y) takes its values, over all outcomes y, in an interval of width at most eps.
    The exponential mechanism ``ExponentialMechanism(eps, Delta)`` (Pr[r] ~ exp(eps u(r) / (2 Delta)),
    or exp(eps u(r) / Delta) with monotone scores) is eps-bounded-range: the loss at r is
    eps (u(r) - u'(r)) / (2 Delta) plus a constant (log of the normalisers' ratio), and
    u(r) - u'(r) ranges over [-Delta, Delta]. So it is eps^2/8-zCDP, a quarter of the
    eps^2/2 of ``pure_to_zcdp``: at the same rho it may select with twice the eps.

    Permute-and-flip is eps-DP but NOT eps-bounded-range, and not eps^2/8-zCDP: with two
    candidates whose scores move from (0, 0) to (Delta, -Delta) its law moves from (1/2, 1/2) to
    (1 - e^-eps / 2, e^-eps / 2), a loss range of eps + log(2 - e^-eps) (about 2 eps) and a KL
    divergence of about eps^2 / 2 for small eps (tests/algorithms/test_privacy_accounting.py checks
    both on the exact laws). Account permute-and-flip with ``pure_to_zcdp``.
    """
    return ZCDP(_check_nonneg_finite("eps", eps) ** 2 / 8.0)


def pure_to_approx(guarantee: PureDP) -> ApproxDP:
    """Definition: eps-DP is (eps, 0)-DP."""
    if not isinstance(guarantee, PureDP):
        raise ValueError(f"guarantee={guarantee!r} must be a PureDP value")
    return ApproxDP(guarantee.eps, 0.0)


def zcdp_epsilon_closed(rho: float, delta: float) -> float:
    """Bun-Steinke (2016) Proposition 1.3; LVSUW21 Theorem 4.5 (second line):

    rho-zCDP implies (rho + 2 sqrt(rho ln(1/delta)), delta)-DP for every delta in (0, 1).
    With rho = eps~^2/2 this is eps~^2/2 + sqrt(2 ln(1/delta)) eps~, as LVSUW21 prints it.
    """
    rho = _check_nonneg_finite("rho", rho)
    delta = _check_delta("delta", delta, allow_zero=False)
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def _cks_objective(alpha: float, rho: float, log_inv_delta: float) -> float:
    # LVSUW21 Thm 4.5 first line: rho alpha + log(1/(alpha delta))/(alpha - 1) + log(1 - 1/alpha).
    return rho * alpha + (log_inv_delta - math.log(alpha)) / (alpha - 1.0) + math.log1p(-1.0 / alpha)


def zcdp_epsilon_infimum(rho: float, delta: float) -> tuple[float, float]:
    """LVSUW21 Theorem 4.5 (first line; Canonne-Kamath-Steinke 2020 Proposition 12 / Corollary 13):

    eps(delta) = inf_{alpha > 1} [ rho alpha + ln(1/(alpha delta)) / (alpha - 1) + ln(1 - 1/alpha) ],
    clipped at 0 (an (eps, delta) guarantee with eps < 0 means nothing more than eps = 0).

    Returns (eps, alpha_star). The objective is convex-shaped in alpha on (1, inf) (it tends
    to +inf at both ends for rho > 0), so the infimum is found by bounded scalar minimisation
    in u = ln(alpha - 1) over a bracket that contains the closed-form minimiser
    1 + sqrt(ln(1/delta)/rho) of the looser bound, then polished on a local grid.
    For rho = 0 the mechanism is perfectly private and eps = 0.
    """
    rho = _check_nonneg_finite("rho", rho)
    delta = _check_delta("delta", delta, allow_zero=False)
    if rho == 0.0:
        return 0.0, math.inf
    L = math.log(1.0 / delta)
    f = lambda u: _cks_objective(1.0 + math.exp(u), rho, L)  # noqa: E731
    u0 = math.log(max(math.sqrt(L / rho), 1e-12))
    lo, hi = u0 - 12.0, u0 + 12.0
    res = optimize.minimize_scalar(f, bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-12, "maxiter": 1000})
    u_best, f_best = float(res.x), float(res.fun)
    # Polish: the bounded Brent search is local; confirm on a fine grid around and across the bracket.
    grid = np.linspace(lo, hi, 4001)
    alphas = 1.0 + np.exp(grid)
    vals = rho * alphas + (L - np.log(alphas)) / (alphas - 1.0) + np.log1p(-1.0 / alphas)
    j = int(np.argmin(vals))
    if vals[j] < f_best:
        res = optimize.minimize_scalar(f, bounds=(grid[max(j - 1, 0)], grid[min(j + 1, grid.size - 1)]),
                                       method="bounded", options={"xatol": 1e-12})
        u_best, f_best = float(res.x), float(min(res.fun, vals[j]))
    return max(0.0, f_best), 1.0 + math.exp(u_best)


def zcdp_to_approx(guarantee: ZCDP, delta: float) -> ApproxDP:
    """LVSUW21 Theorem 4.5 (the infimum; Canonne-Kamath-Steinke 2020 Prop. 12): rho-zCDP -> (eps(delta), delta)-DP."""
    if not isinstance(guarantee, ZCDP):
        raise ValueError(f"guarantee={guarantee!r} must be a ZCDP value")
    eps, _ = zcdp_epsilon_infimum(guarantee.rho, delta)
    return ApproxDP(eps, delta)


def zcdp_to_approx_closed(guarantee: ZCDP, delta: float) -> ApproxDP:
    """Bun-Steinke (2016) Prop. 1.3 / LVSUW21 Theorem 4.5 (upper bound): (rho + 2 sqrt(rho ln(1/delta)), delta)."""
    if not isinstance(guarantee, ZCDP):
        raise ValueError(f"guarantee={guarantee!r} must be a ZCDP value")
    return ApproxDP(zcdp_epsilon_closed(guarantee.rho, delta), delta)


# --------------------------------------------------------------------------- exact Gaussian curve

def _gaussian_log_delta(eps: float, mu: float) -> float:
    """log of Balle-Wang (2018) Theorem 8's delta(eps) for mu = sensitivity / sigma."""
    a = mu / 2.0 - eps / mu
    b = -mu / 2.0 - eps / mu
    la = float(special.log_ndtr(a))
    lb = eps + float(special.log_ndtr(b))
    if lb >= la:
        return -math.inf
    return la + math.log(-math.expm1(lb - la))


def _mu(sensitivity: float | None, sigma: float | None, rho: float | None) -> float:
    if rho is not None:
        if sigma is not None or sensitivity is not None:
            raise ValueError("give either rho, or sensitivity and sigma, not both")
        return math.sqrt(2.0 * _check_positive_finite("rho", rho))
    if sigma is None or sensitivity is None:
        raise ValueError("give either rho, or sensitivity and sigma")
    return _check_positive_finite("sensitivity", sensitivity) / _check_positive_finite("sigma", sigma)


def gaussian_delta(eps: float, *, sensitivity: float | None = None, sigma: float | None = None,
                   rho: float | None = None) -> float:
    """Balle-Wang (2018) Theorem 8: the exact privacy curve of the Gaussian mechanism.

    N(0, sigma^2) noise on a query of L2 sensitivity Delta is (eps, delta)-DP exactly for
    delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), mu = Delta / sigma, and for no
    smaller delta. ``rho`` instead of (sensitivity, sigma) means the Gaussian mechanism that is
    exactly rho-zCDP, mu = sqrt(2 rho) (k-fold composition of Gaussians is one Gaussian with
    mu = sqrt(sum mu_i^2), so this is the exact curve of any composition of Gaussian mechanisms).
    """
    eps = _check_nonneg_finite("eps", eps)
    mu = _mu(sensitivity, sigma, rho)
    return math.exp(_gaussian_log_delta(eps, mu))


def gaussian_epsilon(delta: float, *, sensitivity: float | None = None, sigma: float | None = None,
                     rho: float | None = None) -> float:
    """Balle-Wang (2018) Theorem 8 inverted: the least eps with delta(eps) <= delta (bisection on log delta)."""
    delta = _check_delta("delta", delta, allow_zero=False)
    mu = _mu(sensitivity, sigma, rho)
    target = math.log(delta)
    g = lambda e: _gaussian_log_delta(e, mu) - target  # noqa: E731
    if g(0.0) <= 0.0:
        return 0.0
    hi = 1.0
    while g(hi) > 0.0:
        hi *= 2.0
    return optimize.brentq(g, 0.0, hi, xtol=1e-14, rtol=1e-14)


def gaussian_sigma_analytic(sensitivity: float, eps: float, delta: float) -> float:
    """Balle-Wang (2018) Theorem 8 / Algorithm 1: the least sigma making the Gaussian mechanism (eps, delta)-DP.

    Valid for every eps > 0 (no eps < 1 restriction, unlike Dwork-Roth Theorem A.1).
    delta(eps; mu) increases with mu = Delta/sigma, so the largest admissible mu is found by
    root finding on log delta.
    """
    sensitivity = _check_positive_finite("sensitivity", sensitivity)
    eps = _check_positive_finite("eps", eps)
    delta = _check_delta("delta", delta, allow_zero=False)
    target = math.log(delta)
    g = lambda m: _gaussian_log_delta(eps, m) - target  # noqa: E731
    lo, hi = 1e-6, 1.0
    while g(lo) > 0.0:
        lo /= 10.0
    while g(hi) < 0.0:
        hi *= 2.0
    mu = optimize.brentq(g, lo, hi, xtol=1e-15, rtol=1e-14)
    return sensitivity / mu


# --------------------------------------------------------------------------- group privacy, subsampling

def group_privacy(guarantee: Guarantee, k: int) -> Guarantee:
    """Group privacy for groups of k individuals.

    Pure: Dwork-Roth (2014) Theorem 2.2, k eps. Approximate: (k eps, k e^{(k-1) eps} delta)
    (Vadhan 2017 Lemma 2.2 / Dwork-Roth Section 2.3). zCDP: Bun-Steinke (2016) Proposition 1.9,
    k^2 rho.
    """
    g = check_guarantee("guarantee", guarantee)
    k = _check_positive_int("k", k)
    if isinstance(g, PureDP):
        return PureDP(k * g.eps)
    if isinstance(g, ZCDP):
        return ZCDP(k * k * g.rho)
    delta = k * math.exp((k - 1) * g.eps) * g.delta
    if delta >= 1.0:
        raise ValueError(f"k={k}: group delta k e^((k-1) eps) delta = {delta} out of range: allowed [0, 1)")
    return ApproxDP(k * g.eps, delta)


def amplify_by_subsampling(guarantee: PureDP | ApproxDP, q: float) -> PureDP | ApproxDP:
    """Balle-Barthe-Gaboardi (2018) Theorems 8 and 9 (Li-Qardaji-Su 2012): privacy amplification by subsampling.

    Running an (eps, delta)-DP mechanism on a subsample gives (ln(1 + q (e^eps - 1)), q delta)-DP,
    for Poisson sampling with rate q (add/remove-one neighbours) and for sampling m of n records
    without replacement, q = m/n (replace-one neighbours). q in (0, 1].
    """
    g = check_guarantee("guarantee", guarantee)
    if isinstance(g, ZCDP):
        raise ValueError(f"guarantee={g!r} must be PureDP or ApproxDP (zCDP has no such simple amplification)")
    q = _check_real("q", q)
    if not (0.0 < q <= 1.0):
        raise ValueError(f"q={q!r} out of range: allowed (0, 1]")
    eps = math.log1p(q * math.expm1(g.eps))
    if isinstance(g, PureDP):
        return PureDP(eps)
    return ApproxDP(eps, q * g.delta)


# --------------------------------------------------------------------------- accountant

class Accountant:
    """A ledger of privacy spends, each with a label; ``total()`` composes them (basic / zCDP composition).

    ``spend(label, guarantee)`` records one spend and returns the guarantee (so it can wrap a
    call: ``acct.spend("select t=3", mech.guarantee)``). ``total()`` is ``compose`` over all
    spends (PureDP(0) when empty). ``total_zcdp()`` converts pure spends by eps^2/2 first
    (Bun-Steinke Prop. 1.4) and refuses approximate ones; ``total_approx(delta)`` converts a
    zCDP part by LVSUW21 Theorem 4.5 at ``delta`` and adds the pure/approximate part by basic
    composition.
    """

    def __init__(self) -> None:
        self._entries: list[tuple[str, Guarantee]] = []

    def spend(self, label: str, guarantee: Guarantee) -> Guarantee:
        if not isinstance(label, str):
            raise ValueError(f"label={label!r} must be a string")
        g = check_guarantee("guarantee", guarantee)
        self._entries.append((label, g))
        return g

    @property
    def entries(self) -> tuple[tuple[str, Guarantee], ...]:
        return tuple(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def total(self) -> Guarantee:
        return compose(*(g for _, g in self._entries))

    def release(self, value: Any) -> Release:
        """``Release(value, self.total())``: how an algorithm returns its output with what it spent."""
        return Release(value, self.total())

    def total_zcdp(self) -> ZCDP:
        parts = []
        for label, g in self._entries:
            if isinstance(g, ApproxDP):
                if g.delta > 0.0:
                    raise ValueError(f"spend {label!r}={g!r} is approximate DP: no zCDP total exists")
                g = PureDP(g.eps)
            parts.append(pure_to_zcdp(g) if isinstance(g, PureDP) else g)
        return compose(*parts) if parts else ZCDP(0.0)

    def total_approx(self, delta: float) -> ApproxDP:
        """The smaller eps of two valid routes to an (eps, delta) total (both at the same delta):
        (a) zCDP spends converted by LVSUW21 Thm 4.5 at ``delta``, pure/approximate spends added
        by basic composition; (b) when no spend is approximate with delta > 0, everything
        converted to zCDP first (pure eps -> eps^2/2) and the sum converted at ``delta``."""
        delta = _check_delta("delta", delta, allow_zero=False)
        zc = [g for _, g in self._entries if isinstance(g, ZCDP)]
        rest = [g for _, g in self._entries if not isinstance(g, ZCDP)]
        parts: list[Guarantee] = list(rest)
        if zc:
            parts.append(zcdp_to_approx(compose(*zc), delta))
        out = compose(*parts)
        route_a = out if isinstance(out, ApproxDP) else pure_to_approx(out)
        if any(isinstance(g, ApproxDP) and g.delta > 0.0 for g in rest):
            return route_a
        route_b = zcdp_to_approx(self.total_zcdp(), delta)
        if route_b.eps < route_a.eps:
            return route_b
        return route_a
