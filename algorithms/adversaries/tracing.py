"""BCMNUW20 Theorem 14 (Dwork, Smith, Steinke, Ullman, Vadhan 2015, Thm 17, special case): the robust tracing
attack on released answers to decision stumps S_p on {+-1}^p (one-way marginals, BCMNUW20 Definition 12).

The hard distribution D~ (fingerprinting). Per coordinate j a bias mu_j is drawn i.i.d. from the bias prior,
here the uniform law on [-gamma, gamma] (``bias_range`` = gamma in (0, 1]); a sample is then p independent
+-1 coordinates with E[x_j] = mu_j. Answers to the stumps h_j(x) = x_j are the marginals E_{D~}[x_j] = mu_j.
Why the prior has width gamma, and not the full [-1, 1] of the basic fingerprinting lemma: for any release
f of the s samples with g(mu) = E[f_j | mu_j = mu], the score identity (differentiate E[f_j] in mu)
    E[f_j sum_i (x_ij - mu_j) | mu_j] = (1 - mu_j^2) g'(mu_j)
averaged over mu_j ~ U[-gamma, gamma] and integrated by parts gives, for answers within alpha of mu_j
(|g(mu) - mu| <= alpha),
    E[f_j sum_i (x_ij - mu_j)] >= (1 - gamma^2)(1 - alpha/gamma) + 2 gamma^2/3 - alpha gamma    (*)
(:func:`signal_floor`). Summed over j, the s samples carry a total expected score >= p (*), while a fresh
sample's score has standard deviation of order gamma sqrt(p): the attack separates up to s ~ sqrt(p)/alpha
samples when gamma is a constant multiple of alpha (Theorem 14's r = Omega~(sqrt(p)/alpha)), and an
algorithm that answers from a subsample of 1/alpha^2 points is traced on that subsample (t = Omega(1/alpha^2)).
This prior is our choice (the papers do not fix one); DSS+15 use a truncated fingerprinting prior to the same
effect. Whatever the prior, the false-positive guarantees below do not depend on it.

The attacker T(q, y) (DSS+15's attack with a reference sample; :class:`Attacker`). With q the released answers
clipped to [-1, 1] (post-processing), z one fresh reference sample of D~ (the attacker's knowledge of D~) and
v = q - c, c the mean of optional fresh centring samples (c = 0: DSS+15's statistic <y - z, q> exactly),
    score(y) = <y - z, v>,   T(q, y) = IN iff score(y) > tau.
For a fresh y (independent of v and z given the biases) the terms (y_j - z_j) v_j are independent, of mean 0,
and y_j, z_j in [-1, 1] are each 1-sub-Gaussian (Hoeffding's lemma), so score(y) is 2 ||v||^2-sub-Gaussian:
    Pr[score(y) > tau] <= exp(-tau^2 / (4 ||v||^2)).
The threshold, three ways (``THRESHOLD_METHODS``):

* ``analytic``: tau = 2 ||v|| sqrt(ln(1/f)), so that Pr[fresh y is IN] <= f for every q; Theorem 14 asks
  f = 1/(r + t)^2 (:meth:`Attacker.analytic_threshold`).
* ``null``: the ceil((1 - f)(K + 1))-th smallest score of K fresh samples of D~ (a conformal quantile): for a
  fresh y exchangeable with the K draws, Pr[score(y) > tau] <= f exactly, whatever D~ is; needs K + 1 >= 1/f
  (:meth:`Attacker.null_threshold`).
* ``sign-flip``: a randomization test per candidate. Given the biases, y_j - z_j is symmetric about 0 (y and z
  are i.i.d.) and independent of v, so flipping the signs of the terms (y_j - z_j) v_j leaves the null law
  unchanged; the p-value (1 + #{b : S_b >= S}) / (B + 1) of B random flips is exact (valid at every level), and T
  says IN iff p <= f (:meth:`Attacker.sign_flip_pvalues`). (A permutation of coordinates is not exact here: the
  coordinates differ in bias and v is correlated with the biases; the sign-change group is the one that is.)

Robustness: nothing above uses exactness of q; the false-positive bounds hold for every q, and the expected
score of the members degrades gracefully with the error (inequality (*)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..validate import check_rng as _check_rng
from ..validate import check_unit_open

REALISES = ("bcmnuw20:thm14",)  # the results this module's algorithm realises (bounds show lists it)

__all__ = ["HardDistribution", "hard_distribution", "signal_floor", "clip_answers", "Attacker", "roc_curve",
           "THRESHOLD_METHODS"]

THRESHOLD_METHODS = ("analytic", "null", "sign-flip")


_check_prob = check_unit_open  # a probability in (0, 1): the one shared validator


def _check_pm1(name: str, data, p: int | None = None) -> np.ndarray:
    a = np.asarray(data)
    if a.ndim == 1:
        a = a[None, :]
    if a.ndim != 2 or (p is not None and a.shape[1] != p):
        want = f"(k, {p})" if p is not None else "(k, p)"
        raise ValueError(f"{name} has shape {np.shape(data)}: allowed {want} arrays of +-1")
    if a.size and not np.all((a == 1) | (a == -1)):
        raise ValueError(f"{name} has entries other than +-1: allowed values -1, +1")
    return a


@dataclass(frozen=True, eq=False)
class HardDistribution:
    """BCMNUW20 Theorem 14's D~ (fingerprinting): independent +-1 coordinates with E[x_j] = biases[j]."""

    biases: np.ndarray
    bias_range: float

    @property
    def p(self) -> int:
        return int(self.biases.size)

    @property
    def marginals(self) -> np.ndarray:
        """The true answers E_{D~}[h_j] = mu_j of the stumps h_j(x) = x_j."""
        return self.biases

    def sample(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """k i.i.d. samples as a (k, p) int8 array of +-1."""
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:
            raise ValueError(f"k={k!r} out of range: allowed integers >= 0")
        u = _check_rng(rng).random((int(k), self.p))
        return np.where(u < (1.0 + self.biases) / 2.0, 1, -1).astype(np.int8)


def hard_distribution(p: int, bias_range: float, rng: np.random.Generator) -> HardDistribution:
    """BCMNUW20 Theorem 14 / DSS+15: biases mu_j ~ U[-gamma, gamma] i.i.d., gamma = bias_range in (0, 1]."""
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 1:
        raise ValueError(f"p={p!r} out of range: allowed integers >= 1")
    g = float(bias_range)
    if not (0.0 < g <= 1.0):
        raise ValueError(f"bias_range={bias_range!r} out of range: allowed (0, 1]")
    mu = _check_rng(rng).uniform(-g, g, size=int(p))
    return HardDistribution(mu, g)


def signal_floor(alpha: float, bias_range: float) -> float:
    """DSS+15 fingerprinting identity under the U[-gamma, gamma] prior (module docstring, (*)): a lower bound on
    E[f_j sum_i (x_ij - mu_j)] per coordinate for answers within alpha of the biases (negative: no guarantee)."""
    a, g = float(alpha), float(bias_range)
    if not (a >= 0.0):
        raise ValueError(f"alpha={alpha!r} out of range: allowed >= 0")
    if not (0.0 < g <= 1.0):
        raise ValueError(f"bias_range={bias_range!r} out of range: allowed (0, 1]")
    return (1.0 - g * g) * (1.0 - a / g) + 2.0 * g * g / 3.0 - a * g


def clip_answers(answers) -> np.ndarray:
    """Released answers as floats clipped to [-1, 1] (post-processing; the attacker's q)."""
    q = np.asarray(answers, dtype=np.float64)
    if q.ndim != 1 or q.size == 0:
        raise ValueError(f"answers has shape {q.shape}: allowed a non-empty 1-d array (one answer per stump)")
    if not np.all(np.isfinite(q)):
        raise ValueError("answers contains non-finite entries: allowed finite reals")
    return np.clip(q, -1.0, 1.0)


@dataclass(frozen=True, eq=False)
class Attacker:
    """BCMNUW20 Theorem 14's attacker T(q, .) (module docstring): the weights v = clip(q) - c, where c is the mean of
    the optional centring samples (fresh samples of D~, independent of the reference; c = 0 without them), and the
    reference sample z; score(y) = <y - z, v>.

    Centring is our addition to DSS+15's statistic: q ~ mu carries no information about membership, and subtracting
    an independent estimate of mu removes its share of the fresh score's variance (2 sum_j v_j^2 (1 - mu_j^2)); the
    false-positive guarantees are unchanged because v stays independent of (y, z) for a fresh y.
    """

    weights: np.ndarray
    reference: np.ndarray

    @classmethod
    def build(cls, answers, reference, center=None) -> "Attacker":
        q = clip_answers(answers)
        z = _check_pm1("reference", reference, q.size)
        if z.shape[0] != 1:
            raise ValueError(f"reference has shape {np.shape(reference)}: allowed one sample of length {q.size}")
        v = q if center is None else q - _check_pm1("center", center, q.size).mean(axis=0, dtype=np.float64)
        return cls(v, z[0].astype(np.float64))

    @property
    def norm(self) -> float:
        """||v||, the scale of a fresh sample's score."""
        return float(np.linalg.norm(self.weights))

    def scores(self, candidates) -> np.ndarray:
        """<y - z, v> for every candidate row y."""
        y = _check_pm1("candidates", candidates, self.weights.size)
        return y.astype(np.float64) @ self.weights - float(self.reference @ self.weights)

    def analytic_threshold(self, target: float) -> float:
        """Sub-Gaussian tail (module docstring): tau = 2 ||v|| sqrt(ln(1/target)); Pr[fresh IN] <= target for
        every v."""
        f = _check_prob("target", target)
        return 2.0 * self.norm * math.sqrt(math.log(1.0 / f))

    def null_threshold(self, null_sample, target: float) -> float:
        """Conformal quantile of K fresh samples' scores: Pr[fresh IN] <= target exactly; needs K + 1 >= 1/target."""
        f = _check_prob("target", target)
        s = np.sort(self.scores(null_sample))
        K = s.size
        if K + 1 < 1.0 / f:
            raise ValueError(f"null_sample has {K} rows: allowed at least ceil(1/target) - 1 = "
                             f"{math.ceil(1.0 / f) - 1} for target={target!r}")
        rank = math.ceil((1.0 - f) * (K + 1) - 1e-9)  # 1-based rank of the order statistic
        return float(s[min(rank, K) - 1])

    def sign_flip_pvalues(self, candidates, num_flips: int, rng: np.random.Generator) -> np.ndarray:
        """Exact randomization p-values (1 + #{b: S_b >= S})/(B + 1) under random sign flips of (y_j - z_j) v_j.

        One set of B flips serves all candidates (each candidate's p-value is still exact). The flipped scores are
        the (k, B) product of the candidates' terms with the (p, B) sign matrix.
        """
        if isinstance(num_flips, bool) or not isinstance(num_flips, (int, np.integer)) or num_flips < 1:
            raise ValueError(f"num_flips={num_flips!r} out of range: allowed integers >= 1")
        y = _check_pm1("candidates", candidates, self.weights.size).astype(np.float64)
        terms = (y - self.reference) * self.weights                 # (k, p)
        observed = terms.sum(axis=1)
        signs = _check_rng(rng).integers(0, 2, size=(self.weights.size, int(num_flips)), dtype=np.int8) * 2 - 1
        flipped = terms @ signs.astype(np.float64)                  # (k, B)
        exceed = (flipped >= observed[:, None] - 1e-9).sum(axis=1)
        return (1.0 + exceed) / (num_flips + 1.0)

    def trace(self, candidates, tau: float) -> np.ndarray:
        """T(q, y): True (IN) where score(y) > tau."""
        return self.scores(candidates) > float(tau)


def roc_curve(member_scores, nonmember_scores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(thresholds, FPR, TPR) of the tests score > threshold over every distinct observed score, decreasing, from
    +inf (the point (0, 0)) to -inf (the point (1, 1))."""
    pos = np.asarray(member_scores, dtype=np.float64).ravel()
    neg = np.asarray(nonmember_scores, dtype=np.float64).ravel()
    if pos.size == 0 or neg.size == 0:
        raise ValueError("member_scores and nonmember_scores must both be non-empty")
    thr = np.concatenate([[np.inf], np.unique(np.concatenate([pos, neg]))[::-1], [-np.inf]])
    tpr = (pos.size - np.searchsorted(np.sort(pos), thr, side="right")) / pos.size
    fpr = (neg.size - np.searchsorted(np.sort(neg), thr, side="right")) / neg.size
    return thr, fpr, tpr
