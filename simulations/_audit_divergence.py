"""Donsker-Varadhan 1983 / Birrell-Dupuis-Katsoulakis-Rey-Bellet-Wang 2021 (variational forms of the KL and Renyi
divergences) with Maurer-Pontil 2009 Thm 4 (empirical Bernstein): a lower confidence bound on a divergence between
the two output laws of a neighbouring pair, from samples of whole transcripts, compared with the divergence the
declared guarantee allows. The auditor's "divergence" objective; re-exported by :mod:`simulations.audit`.

The bound. For laws P, Q and every bounded function g (a "witness"),

    KL(P || Q)  >= E_P[g] - log E_Q[e^g]                                      (Donsker-Varadhan)
    D_a(P || Q) >= a/(a-1) log E_P[e^((a-1) g)] - log E_Q[e^(a g)],   a > 1   (Renyi, variational)

with equality at g = log dP/dQ. (The second by Hoelder with exponents a and a/(a-1):
E_P[e^((a-1)g)] = E_Q[r e^((a-1)g)] <= E_Q[r^a]^(1/a) E_Q[e^(a g)]^((a-1)/a), r = dP/dQ, and
E_Q[r^a] = e^((a-1) D_a).) The witness is clipped to [-l, c], so each of the two expectations is the mean of
a variable in a known interval [lo, hi]; each is bounded on held-out samples by the empirical Bernstein bound

    E X >= mean - sqrt(2 V ln(2/t) / m) - 7 (hi - lo) ln(2/t) / (3 (m - 1))       (and the upper one alike),

V the sample variance, m the number of samples, each term at t = (1 - share)/2 (union bound over the two
terms), so the divergence bound holds with probability >= ``share``, the objective's part of the audit's
confidence.

The witness is chosen on the selection half only: a raw score r(o) estimating log dP_D1/dP_D0 of a transcript
o -- a logistic regression of "came from D1" on transcript features (:class:`TranscriptFeatures`: per category
of the transcript's discrete parts, its real-valued parts, their squares and their repeated values, so a
Gaussian measurement's log-ratio, linear in the value per selected query, and a clip's atoms lie in the family),
and the exact log-density ratio of the declared law when the target gives it (``AuditCase.log_ratio``). Then
g = clip(s * r, -l, c) (direction D1 || D0) or clip(-s * r, -l, c) (D0 || D1) (l = c or 2c: the lower clip
costs little, only the upper one enters an exponential's range), with the order a, the clips and the scale s, is chosen
by its bound on the selection half relative to the declared ceiling; only the choice is carried to the evaluation half,
whose samples bound it. So the bound's guarantee does not depend on the fit.

The declared ceiling. rho-zCDP: D_a <= rho a for every a >= 1 in both directions (Bun-Steinke 2016 Def 1.1;
a = 1 is KL by continuity); the objective's rho_lb is bound / a. Pure eps-DP: D_a <= min(eps, a eps^2/2)
(D_inf <= eps, and eps-DP implies eps^2/2-zCDP, BS16 Prop 3.3). An (eps, delta) claim with delta > 0 bounds no
divergence (a delta-mass may have infinite divergence), so the objective then needs a declared rho.

Power (``minimal_detectable_kl``): the least KL of a Gaussian-shift pair (N(mu, 1) against N(0, 1), whose
D_a / a = mu^2/2 = KL for every a, the extremal law of a zCDP claim) that the objective flags with probability
``DETECTION_POWER`` at m evaluation samples, the witness being the exact log-ratio (so a floor: a fitted witness
does no better), the bound's mean and spread computed by quadrature and its spread taken as normal.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from simulations._audit_types import DEFAULT_CONFIDENCE, DETECTION_POWER, ObjectiveResult, _row_keys

DIVERGENCE_ORDERS = (1.0, 1.5, 2.0, 3.0)       # a = 1 is KL (Donsker-Varadhan)
DIVERGENCE_CLIPS = (0.5, 1.0, 2.0, 3.0, 4.0, 6.0)
DIVERGENCE_SCALES = (0.5, 0.75, 1.0, 1.25, 1.5)
MAX_TRANSCRIPT_CATEGORIES = 32  # combined values of a transcript's discrete parts kept apart (more: one "rare")
MIN_ATOM_COUNT = 20             # a real value repeated this often on the selection half is an atom feature


# ---------------------------------------------------------------- the bound


def bernstein_mean_bound(x, lo: float, hi: float, miss: float, side: str) -> float:
    """Maurer-Pontil 2009 Thm 4: a one-sided bound on E X from the samples ``x`` of a variable in [lo, hi], holding
    with probability >= 1 - miss: mean -/+ (sqrt(2 V ln(2/miss) / m) + 7 (hi - lo) ln(2/miss) / (3 (m - 1))),
    clamped to [lo, hi]; side "lower" or "upper"."""
    x = np.asarray(x, dtype=float)
    m = x.size
    if m < 2:
        return lo if side == "lower" else hi
    log_term = math.log(2.0 / miss)
    dev = math.sqrt(2.0 * float(np.var(x, ddof=1)) * log_term / m) + 7.0 * (hi - lo) * log_term / (3.0 * (m - 1))
    mean = float(np.mean(x))
    return max(lo, mean - dev) if side == "lower" else min(hi, mean + dev)


def variational_bound(gp, gq, alpha: float, clip: float, miss: float, low: float | None = None) -> float:
    """The lower bound on D_alpha(P || Q) (KL at alpha = 1) of the module docstring, from witness values ``gp`` on
    samples of P and ``gq`` on samples of Q, both in [-low, clip] (low = clip when None); holds with probability
    >= 1 - miss (each of the two terms at miss / 2)."""
    t = miss / 2.0
    low = clip if low is None else low
    if alpha == 1.0:
        ep = bernstein_mean_bound(gp, -low, clip, t, "lower")
        eq = bernstein_mean_bound(np.exp(gq), math.exp(-low), math.exp(clip), t, "upper")
        return ep - math.log(eq)
    a = alpha - 1.0
    ep = bernstein_mean_bound(np.exp(a * np.asarray(gp)), math.exp(-a * low), math.exp(a * clip), t, "lower")
    eq = bernstein_mean_bound(np.exp(alpha * np.asarray(gq)), math.exp(-alpha * low), math.exp(alpha * clip), t,
                              "upper")
    return alpha / a * math.log(ep) - math.log(eq)


def declared_ceiling(alpha: float, eps: float, delta: float, rho: float | None) -> float:
    """The largest D_alpha the declared guarantee allows (module docstring): rho alpha for rho-zCDP, min(eps,
    alpha eps^2/2) for pure eps-DP, inf for an (eps, delta > 0) claim without rho (no divergence bounded)."""
    if rho is not None:
        return float(rho) * alpha
    if delta == 0:
        return min(float(eps), alpha * float(eps) ** 2 / 2.0)
    return math.inf


def divergence_applies(eps: float, delta: float, rho: float | None) -> bool:
    """Whether the declared guarantee bounds a divergence (a rho, or pure DP)."""
    return rho is not None or delta == 0


# ---------------------------------------------------------------- the witness


@dataclass(frozen=True)
class TranscriptFeatures:
    """Features of transcripts (rows of real numbers) for the learned witness, fixed on the selection half:
    columns with at most ``MAX_TRANSCRIPT_CATEGORIES`` distinct values are discrete parts (their joint value a
    category, rare ones pooled), the others real; per category: 1, each real part (NaN as 0) and its square, a NaN
    indicator and an indicator of each value repeated >= ``MIN_ATOM_COUNT`` times (an atom, e.g. a clip's end)."""

    discrete: tuple
    real: tuple
    categories: tuple
    atoms: tuple  # per real column, the atom values
    center: tuple
    scale: tuple

    @staticmethod
    def fit(a: np.ndarray) -> "TranscriptFeatures":
        a = _as_matrix(a)
        discrete, real = [], []
        for j in range(a.shape[1]):
            (discrete if np.unique(a[:, j]).size <= MAX_TRANSCRIPT_CATEGORIES else real).append(j)
        keys, counts = _category_keys(a, discrete)
        order = np.argsort(-counts, kind="stable")[:MAX_TRANSCRIPT_CATEGORIES]
        categories = tuple(tuple(keys[i]) for i in order)
        atoms = []
        for j in real:
            col = a[:, j][np.isfinite(a[:, j])]
            vals, cnt = np.unique(col, return_counts=True)
            atoms.append(tuple(vals[cnt >= MIN_ATOM_COUNT].tolist()))
        base = TranscriptFeatures(tuple(discrete), tuple(real), categories, tuple(atoms), (), ())
        raw = base._raw(a)
        scale = raw.std(axis=0)
        scale[~(scale > 0)] = 1.0
        return TranscriptFeatures(tuple(discrete), tuple(real), categories, tuple(atoms),
                                  tuple(raw.mean(axis=0).tolist()), tuple(scale.tolist()))

    def _raw(self, a: np.ndarray) -> np.ndarray:
        parts = [np.ones((a.shape[0], 1))]
        for j, atoms in zip(self.real, self.atoms):
            x = a[:, j]
            nan = ~np.isfinite(x)
            v = np.where(nan, 0.0, x)
            parts += [v[:, None], (v * v)[:, None], nan[:, None].astype(float)]
            parts += [(x == t)[:, None].astype(float) for t in atoms]
        within = np.hstack(parts)
        if not self.discrete:
            return within
        index = {k: i for i, k in enumerate(self.categories)}
        keys = [tuple(row) for row in a[:, list(self.discrete)].tolist()]
        cat = np.array([index.get(k, len(self.categories)) for k in keys])
        onehot = np.zeros((a.shape[0], len(self.categories) + 1))
        onehot[np.arange(a.shape[0]), cat] = 1.0
        return (onehot[:, :, None] * within[:, None, :]).reshape(a.shape[0], -1)

    def transform(self, a: np.ndarray) -> np.ndarray:
        return (self._raw(_as_matrix(a)) - np.asarray(self.center)) / np.asarray(self.scale)


def _as_matrix(a) -> np.ndarray:
    a = np.asarray(a, dtype=float)
    return a[:, None] if a.ndim == 1 else a.reshape(a.shape[0], -1)


def _category_keys(a: np.ndarray, discrete: list):
    if not discrete:
        return np.zeros((1, 0)), np.array([a.shape[0]])
    keys, counts = np.unique(np.nan_to_num(a[:, discrete], nan=np.inf), axis=0, return_counts=True)
    return keys, counts


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


def learned_log_ratio(t0: np.ndarray, t1: np.ndarray):
    """A raw score r(o) ~ log dP_D1/dP_D0: a logistic regression of "came from D1" on the transcript features of
    the selection half's samples (balanced classes, so its logit estimates the log-ratio). Returns a function."""
    feats = TranscriptFeatures.fit(np.vstack([_as_matrix(t0), _as_matrix(t1)]))
    x = np.vstack([feats.transform(t0), feats.transform(t1)])
    y = np.r_[np.zeros(len(t0)), np.ones(len(t1))]
    theta = fit_logistic(x, y, l2=1e-4)
    w, b = theta[:-1], theta[-1]
    return lambda t: feats.transform(t) @ w + b


# ---------------------------------------------------------------- the objective


@dataclass(frozen=True)
class DivergenceWitness:
    """The witness chosen on the selection half: g = clip(sign * scale * r, -clip, clip), r the raw score
    ``source`` ("learned" or "exact"); bounds D_alpha(P || Q), P = D1 if sign > 0 else D0."""

    source: str
    sign: int
    scale: float
    clip: float
    alpha: float
    low: float

    def describe(self) -> str:
        laws = "D1 || D0" if self.sign > 0 else "D0 || D1"
        name = "KL" if self.alpha == 1.0 else f"D_{self.alpha:g}"
        return (f"{name}({laws}) with witness clip({self.scale:g} x {self.source} log-ratio, "
                f"[-{self.low:g}, {self.clip:g}])")


def _bound_of(w: DivergenceWitness, r0, r1, miss: float) -> float:
    g0 = np.clip(w.sign * w.scale * r0, -w.low, w.clip)
    g1 = np.clip(w.sign * w.scale * r1, -w.low, w.clip)
    gp, gq = (g1, g0) if w.sign > 0 else (g0, g1)
    return variational_bound(gp, gq, w.alpha, w.clip, miss, w.low)


def choose_witness(raw: dict, miss: float, ceiling) -> tuple[DivergenceWitness, float]:
    """The witness (source, direction, scale, clip, order) whose bound on the selection half, relative to the
    declared ceiling(alpha), is largest; ``raw`` maps a source to (r on D0's samples, r on D1's samples)."""
    best = (None, -math.inf)
    for source, (r0, r1) in raw.items():
        for sign in (1, -1):
            for alpha in DIVERGENCE_ORDERS:
                for clip in DIVERGENCE_CLIPS:
                    for scale in DIVERGENCE_SCALES:
                        for low in (clip, 2 * clip):
                            w = DivergenceWitness(source, sign, scale, clip, alpha, low)
                            score = _bound_of(w, r0, r1, miss) / ceiling(alpha)
                            if score > best[1]:
                                best = (w, score)
    return best


@dataclass(frozen=True)
class DivergenceResult:
    """The divergence objective's outcome: the witness (chosen on the selection half), the lower bound on its
    divergence from the evaluation half at ``confidence``, the declared ceiling at its order, and the power line."""

    witness: str
    alpha: float
    bound: float
    ceiling: float
    confidence: float
    evaluation_size: int
    minimal_detectable_kl: float
    rho: float | None

    @property
    def refutes(self) -> bool:
        return self.bound > self.ceiling

    def describe(self) -> str:
        c = f"{100 * self.confidence:.4g}%"
        rel = ">" if self.refutes else "<="
        claim = (f"rho {self.rho:g} x alpha {self.alpha:g}" if self.rho is not None
                 else f"the pure-DP ceiling min(eps, alpha eps^2/2) at alpha {self.alpha:g}")
        rho = f" (rho_lb {self.bound / self.alpha:.4f})" if self.rho is not None else ""
        return (f"divergence objective ({c}): {self.witness}: lower bound {self.bound:.4f}{rho} {rel} declared "
                f"{self.ceiling:.4g} ({claim}); {self.evaluation_size} held-out transcripts per neighbour; minimal "
                f"detectable KL {self.minimal_detectable_kl:.3g} (Gaussian-shift model)")


def divergence_objective(t0, t1, half: int, share: float, eps: float, delta: float, rho: float | None,
                         log_ratio=None) -> DivergenceResult:
    """The divergence objective on transcripts ``t0`` (from D0) and ``t1`` (from D1): the witness chosen on the
    first ``half`` rows of each, the bound on the rest at ``share`` (module docstring). ``log_ratio`` (optional):
    the exact log dP_D1/dP_D0 of transcript rows, a second raw score."""
    t0, t1 = _as_matrix(t0), _as_matrix(t1)
    s0, s1, e0, e1 = t0[:half], t1[:half], t0[half:], t1[half:]
    miss = 1.0 - share

    def ceiling(alpha):
        return declared_ceiling(alpha, eps, delta, rho)

    scorers = {"learned": learned_log_ratio(s0, s1)}
    if log_ratio is not None:
        scorers["exact"] = lambda t: np.asarray(log_ratio(t), dtype=float)
    raw_sel = {k: (_finite(f(s0)), _finite(f(s1))) for k, f in scorers.items()}
    w, _ = choose_witness(raw_sel, miss, ceiling)
    f = scorers[w.source]
    bound = _bound_of(w, _finite(f(e0)), _finite(f(e1)), miss)
    m = int(min(e0.shape[0], e1.shape[0]))
    return DivergenceResult(w.describe(), w.alpha, float(bound), float(ceiling(w.alpha)), float(share), m,
                            minimal_detectable_kl(m, float(eps), float(delta), rho, float(share)), rho)


def divergence_result(case, t0, t1, half: int, share: float, m: int, whole: bool) -> ObjectiveResult:
    """The "divergence" objective (simulations._audit_divergence) as an objective line: on the transcript rows when
    the case gives them (``whole``), else on the statistic's values; its counts are the trivial event's."""
    if not whole and np.asarray(t0).dtype.kind not in "biuf":
        index = {k: float(i) for i, k in enumerate(sorted({str(k) for k in _row_keys(t0) + _row_keys(t1)}))}
        t0, t1 = (np.array([index[str(k)] for k in _row_keys(t)]) for t in (t0, t1))
    r = divergence_objective(t0, t1, half, share, case.eps, case.delta, case.rho,
                             case.log_ratio if whole else None)
    what = "whole transcripts" if whole else "the statistic's values"
    return ObjectiveResult(
        "divergence", float(share), r.describe() + f" (on {what})", m, 0, 1.0, 0.0, 0.0, 0.0,
        r.minimal_detectable_kl, divergence_bound=r.bound, divergence_ceiling=r.ceiling, divergence_alpha=r.alpha)


def _finite(r) -> np.ndarray:
    """Raw scores with NaN as 0 and +-inf kept (the clip makes them +-c)."""
    return np.nan_to_num(np.asarray(r, dtype=float), nan=0.0, posinf=1e300, neginf=-1e300)


# ---------------------------------------------------------------- what the objective can see

_Z = np.linspace(-14.0, 14.0, 4001)
_W = np.exp(-_Z ** 2 / 2) / np.sum(np.exp(-_Z ** 2 / 2))


def _expected_bound(mu: float, alpha: float, clip: float, m: int, miss: float) -> tuple[float, float]:
    """(mean, spread) of the bound at m samples per law for P = N(mu, 1), Q = N(0, 1) and the witness
    clip(log dP/dQ, +-clip), population moments by quadrature in place of the sample ones."""
    lq = np.clip(mu * _Z - mu * mu / 2, -clip, clip)           # witness under Q (x = z)
    lp = np.clip(mu * _Z + mu * mu / 2, -clip, clip)           # under P (x = z + mu)
    log_term = math.log(4.0 / miss)
    a = alpha - 1.0
    if alpha == 1.0:
        xp, xq, lo_p, hi_p = lp, np.exp(lq), -clip, clip
    else:
        xp, xq, lo_p, hi_p = np.exp(a * lp), np.exp(alpha * lq), math.exp(-a * clip), math.exp(a * clip)
    lo_q, hi_q = (math.exp(-clip), math.exp(clip)) if alpha == 1.0 else (math.exp(-alpha * clip),
        math.exp(alpha * clip))
    mp, mq = float(_W @ xp), float(_W @ xq)
    vp, vq = float(_W @ (xp - mp) ** 2), float(_W @ (xq - mq) ** 2)
    dp = math.sqrt(2 * vp * log_term / m) + 7 * (hi_p - lo_p) * log_term / (3 * (m - 1))
    dq = math.sqrt(2 * vq * log_term / m) + 7 * (hi_q - lo_q) * log_term / (3 * (m - 1))
    ep, eq = max(lo_p, mp - dp), min(hi_q, mq + dq)
    if alpha == 1.0:
        return ep - math.log(eq), math.sqrt(vp / m + vq / (mq * mq * m))
    return alpha / a * math.log(ep) - math.log(eq), math.sqrt((alpha / a) ** 2 * vp / (mp * mp * m) + vq
                                                              / (mq * mq * m))


@functools.lru_cache(maxsize=256)
def minimal_detectable_kl(m: int, eps: float, delta: float, rho: float | None,
                          confidence: float = DEFAULT_CONFIDENCE, power: float = DETECTION_POWER) -> float:
    """The least KL = mu^2/2 of a Gaussian-shift pair the objective flags with probability >= ``power`` at m
    evaluation samples per neighbour (module docstring); bisection on mu to 1e-3; inf if mu = 12 is not seen."""
    if not divergence_applies(eps, delta, rho) or m < 4:
        return math.inf
    miss = 1.0 - confidence
    z = float(np.sqrt(2) * _erfinv(2 * power - 1))

    def seen(mu):
        for alpha in DIVERGENCE_ORDERS:
            ceil = declared_ceiling(alpha, eps, delta, rho)
            for clip in DIVERGENCE_CLIPS:
                mean, sd = _expected_bound(mu, alpha, clip, m, miss)
                if mean - z * sd > ceil:
                    return True
        return False

    lo, hi = 0.0, 12.0
    if not seen(hi):
        return math.inf
    while hi - lo > 1e-3:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if seen(mid) else (mid, hi)
    return hi * hi / 2.0


def _erfinv(y: float) -> float:
    from scipy import special

    return float(special.erfinv(y))
