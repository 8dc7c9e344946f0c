"""ABM19 Lemma 4.4, Algorithms 2-4: the public-data reduction B, which turns a semi-private learner A
(n_priv private, n_pub public examples) into a fully private learner for realizable distributions.

B (Algorithm 2) on its private sample S~ = (z~_1, ..., z~_n~):

1. D_0: a fixed dummy distribution over X x {0, 1} whose label is uniform and independent of x
   (here: x from a fixed law ``dummy_marginal`` over the domain, uniform by default);
2. p = 1/(100 n_pub) (:func:`mixture_weight`);
3. S_priv = PrivSamp(S~, D_0, p, n_priv) (Algorithm 3): for i = 1, 2, ... while S~ is not empty
   and i <= n_priv: b_i ~ Ber(p); if b_i = 1 the next unused element of S~ (removed from S~),
   else a fresh dummy from D_0. S_pub = PubSamp(S~, D_0, n_pub) (Algorithm 4): n_pub fresh
   dummies (S~ is not read);
4. return A(S_priv, S_pub).

PrivSamp is run as array operations: the n_priv coins at once, their running sum j_i = b_1 + ... + b_i
(position i takes z~_{j_i} when b_i = 1), and the loop's exit: if the n~-th success comes at a
position i < n_priv, S~ is empty afterwards and S_priv stops there with |S_priv| = i < n_priv
("PrivSamp ran out"). Exactly: P[ran out] = P[Bin(n_priv - 1, p) >= n~].

Claim 4.5: B is (eps, delta)-DP when A(., S_pub) is, for every S_pub: S_pub ignores S~, and each
element of S~ appears at most once in S_priv. B returns A's guarantee with A's output.
Claim 4.6 (accuracy, realizable D): err(h; D_(p)) = p err(h; D) + (1 - p)/2 for D_(p) = p D + (1 - p) D_0,
so excess error alpha of A on D_(p) is error alpha/p = 100 n_pub alpha of B on D; the proof's Chernoff
step needs n~ >= 4 besides n~ = ceil(n_priv/(10 n_pub)) (erratum, docs/ERRATA.md):
:func:`input_size` gives the corrected size, the printed one with ``floor=1``.

These two formulas are also in ``bounds.papers.abm19`` (lemma4_4_p, lemma4_4_n_b): a test holds them equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..classes.finite import validate_indices
from ..learning.erm import positive_labels
from ..privacy.accounting import Guarantee, Release
from ..privacy.accounting import check_guarantee as _check_guarantee
from ..validate import check_int as _check_count
from ..validate import check_rng as _check_rng

REALISES = ("abm19:lemma4.4",)  # the results this module's algorithm realises (bounds show lists it)

__all__ = [
    "SemiPrivateLearner",
    "PrivSample",
    "ReductionOutput",
    "mixture_weight",
    "input_size",
    "dummy_examples",
    "priv_samp",
    "pub_samp",
    "reduction_b",
    "exact_runout_probability",
]

#: ABM19 Lemma 4.4 (corrected, erratum on Claim 4.6's Chernoff step): B's input size is at least 4
N_B_FLOOR = 4

#: A semi-private learner: (private_points, private_labels, public_points, public_labels, rng) -> Release
SemiPrivateLearner = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.random.Generator], Release]


def mixture_weight(n_pub: int) -> float:
    """ABM19 Algorithm 2, step 2: p = 1/(100 n_pub)."""
    return 1.0 / (100 * _check_count("n_pub", n_pub))


def input_size(n_priv: int, n_pub: int, floor: int = N_B_FLOOR) -> int:
    """ABM19 Lemma 4.4: B's sample size n~ = max(ceil(n_priv/(10 n_pub)), floor); ``floor=4`` is the
    corrected size (erratum on Claim 4.6's Chernoff step), ``floor=1`` the printed one."""
    n_priv = _check_count("n_priv", n_priv)
    n_pub = _check_count("n_pub", n_pub)
    floor = _check_count("floor", floor)
    return max(-(-n_priv // (10 * n_pub)), floor)


def _check_marginal(dummy_marginal, num_points: int) -> np.ndarray | None:
    if dummy_marginal is None:
        return None
    q = np.asarray(dummy_marginal, dtype=float)
    if q.shape != (num_points,) or not np.all(np.isfinite(q)) or q.min() < 0 or abs(q.sum() - 1) > 1e-9:
        raise ValueError(f"dummy_marginal must be a probability vector of length num_points={num_points} "
                         f"(entries >= 0 summing to 1), got shape {q.shape}")
    return q / q.sum()


def dummy_examples(size: int, num_points: int, rng: np.random.Generator,
                   dummy_marginal=None) -> tuple[np.ndarray, np.ndarray]:
    """ABM19 Algorithm 2, step 1: ``size`` i.i.d. examples of D_0: x from ``dummy_marginal`` (uniform
    over {0..num_points-1} by default), y uniform on {0, 1} independently of x."""
    size = _check_count("size", size, lo=0)
    num_points = _check_count("num_points", num_points)
    rng = _check_rng(rng)
    q = _check_marginal(dummy_marginal, num_points)
    x = rng.integers(0, num_points, size=size) if q is None else rng.choice(num_points, size=size, p=q)
    y = rng.integers(0, 2, size=size)
    return x.astype(np.int64), y.astype(np.int64)


@dataclass(frozen=True, eq=False)
class PrivSample:
    """ABM19 Algorithm 3's output S_priv with its provenance.

    points, labels : S_priv (labels in {0, 1}); length n_priv unless PrivSamp ran out.
    source : for each position, the index into S~ of the real example placed there, or -1 for a dummy.
    ran_out : S~ was exhausted before position n_priv (|S_priv| < n_priv).
    n_priv : the requested length.
    """

    points: np.ndarray
    labels: np.ndarray
    source: np.ndarray
    ran_out: bool
    n_priv: int

    @property
    def num_real(self) -> int:
        """How many elements of S~ S_priv uses (each at most once)."""
        return int(np.count_nonzero(self.source >= 0))


def priv_samp(points, labels, p: float, n_priv: int, num_points: int, rng: np.random.Generator,
              dummy_marginal=None) -> PrivSample:
    """ABM19 Algorithm 3 (PrivSamp) on S~ = (points, labels), as array operations (module docstring)."""
    x_in = validate_indices(points, num_points, "points", allow_empty=True)
    y_in = positive_labels(labels, x_in.size).astype(np.int64)
    if not (isinstance(p, (int, float)) and 0 < p <= 1):
        raise ValueError(f"p={p!r} out of range: allowed (0, 1]")
    n_priv = _check_count("n_priv", n_priv)
    rng = _check_rng(rng)
    n_tilde = x_in.size
    b = rng.random(n_priv) < p
    j = np.cumsum(b)                               # j_i = b_1 + ... + b_i
    exhausted = np.flatnonzero(b & (j == n_tilde))  # the position that takes the last element of S~
    length = n_priv
    if n_tilde == 0:
        length = 0                                  # the while loop does not start
    elif exhausted.size and exhausted[0] + 1 < n_priv:
        length = int(exhausted[0]) + 1
    b, j = b[:length], j[:length]
    source = np.where(b, j - 1, -1)
    dx, dy = dummy_examples(int(np.count_nonzero(~b)), num_points, rng, dummy_marginal)
    x = np.empty(length, dtype=np.int64)
    y = np.empty(length, dtype=np.int64)
    x[b], y[b] = x_in[source[b]], y_in[source[b]]
    x[~b], y[~b] = dx, dy
    return PrivSample(points=x, labels=y, source=source, ran_out=bool(length < n_priv), n_priv=n_priv)


def pub_samp(n_pub: int, num_points: int, rng: np.random.Generator,
             dummy_marginal=None) -> tuple[np.ndarray, np.ndarray]:
    """ABM19 Algorithm 4 (PubSamp): n_pub fresh examples of D_0 (S~ is not an argument: it is not read)."""
    return dummy_examples(_check_count("n_pub", n_pub), num_points, rng, dummy_marginal)


@dataclass(frozen=True, eq=False)
class ReductionOutput:
    """ABM19 Algorithm 2's output: A's hypothesis with everything the analysis (Claims 4.5, 4.6) refers to.

    hypothesis : A(S_priv, S_pub).value, unchanged (for A_SSPP a row index of the class).
    guarantee : A's declared guarantee, which B inherits (Claim 4.5).
    ran_out : PrivSamp exhausted S~ before n_priv positions, so A got |S_priv| < n_priv examples
        (the event the Chernoff step of Claim 4.6 bounds; erratum: likely when n~ is small).
    p : the mixture weight 1/(100 n_pub).
    private : S_priv with provenance (:class:`PrivSample`).
    public_points, public_labels : S_pub (n_pub dummies).
    """

    hypothesis: Any
    guarantee: Guarantee
    ran_out: bool
    p: float
    private: PrivSample
    public_points: np.ndarray
    public_labels: np.ndarray


def reduction_b(learner: SemiPrivateLearner, points, labels, *, n_priv: int, n_pub: int, num_points: int,
                rng: np.random.Generator, dummy_marginal=None) -> Release:
    """ABM19 Algorithm 2 (B): run the semi-private learner ``learner`` on PrivSamp / PubSamp samples
    built from B's private sample S~ = (points, labels).

    learner : callable ``(private_points, private_labels, public_points, public_labels, rng) -> Release``
        (e.g. ``algorithms.learning.sspp.ASSPP(cls, eps)``), the A of Lemma 4.4 with sizes n_priv, n_pub.
    points, labels : S~, point indices in {0..num_points-1} and labels in {0, 1} / {-1, +1} / bool
        (Lemma 4.4's size is :func:`input_size`; any size is accepted and ``ran_out`` reports the effect).
    dummy_marginal : the x-law of D_0 (a probability vector over the domain; uniform by default).

    Returns ``Release(ReductionOutput, guarantee of A)`` (Claim 4.5).
    """
    if not callable(learner):
        raise ValueError(f"learner={learner!r} must be a callable semi-private learner")
    num_points = _check_count("num_points", num_points)
    if np.asarray(points).size == 0:
        raise ValueError("points is empty: B needs a non-empty private sample S~ (Lemma 4.4's size is input_size())")
    p = mixture_weight(n_pub)
    priv = priv_samp(points, labels, p, n_priv, num_points, rng, dummy_marginal)
    pub_x, pub_y = pub_samp(n_pub, num_points, rng, dummy_marginal)
    release = learner(priv.points, priv.labels, pub_x, pub_y, rng)
    if not isinstance(release, Release):
        raise ValueError(f"learner returned {type(release).__name__}; a semi-private learner must return a Release")
    g = _check_guarantee("learner's guarantee", release.guarantee)
    out = ReductionOutput(hypothesis=release.value, guarantee=g, ran_out=priv.ran_out, p=p, private=priv,
                          public_points=pub_x, public_labels=pub_y)
    return Release(out, g)


def exact_runout_probability(n_priv: int, n_pub: int, n_tilde: int) -> float:
    """ABM19 Claim 4.6: exact P[PrivSamp runs out] = P[Bin(n_priv - 1, p) >= n~], p = 1/(100 n_pub)
    (the n~-th success comes at a position < n_priv)."""
    from scipy import stats

    n_priv = _check_count("n_priv", n_priv)
    n_tilde = _check_count("n_tilde", n_tilde)
    return float(stats.binom.sf(n_tilde - 1, n_priv - 1, mixture_weight(n_pub))) if n_priv > 1 else 0.0

