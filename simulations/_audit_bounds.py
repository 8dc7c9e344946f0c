"""JUO20 / DWWZK18 (empirical privacy auditing): the bounds an event's error rates imply (eps, delta, Renyi
rho, a privacy profile), the selection scores, and what an audit of m outputs can see (exact binomial power).
Re-exported by :mod:`simulations.audit`, the import path to use; see its docstring for the method."""

from __future__ import annotations

import functools
import math

import numpy as np

from algorithms._lazy import lazy_module
from simulations import stats
from simulations._audit_types import (
    DEFAULT_CONFIDENCE, DETECTION_POWER, MIN_SELECTION_COUNT, PROFILE_POINTS, PROFILE_SPAN, SELECTION_LEVEL, AuditCase,
)

_st = lazy_module("scipy.stats")  # imported on first use: `simulations list` lists targets without it


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
        return np.where((num > 0) & (den > 0), np.log(np.clip(num, 1e-300, None)) - np.log(np.clip(den, 1e-300, None)),
                        0.0)


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


# ---------------------------------------------------------------- what the audit can see


def detection_probability(m: int, p: float, eps_true: float, eps: float, delta: float = 0.0,
                          confidence: float = DEFAULT_CONFIDENCE, delta_true: float = 0.0) -> float:
    """Exact Pr[the audit flags (eps, delta)] when its event has probability p under D0 and
    min(1, e^eps_true p + delta_true) under D1, m evaluation outputs per neighbour: the sum over FP = f ~ Bin(m, p) of
    Pr[TP >= t*(f)], t*(f) the least count whose Clopper-Pearson lower bound exceeds need(f) = e^eps FPR_u(f) + delta.
    (The lower bound at t exceeds x iff Pr[Bin(m, x) >= t] < 1 - level, so t*(f) - 1 = binom.isf(1 - level, m,
    need(f)).)"""
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
