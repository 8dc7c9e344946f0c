"""Distributions over a finite domain {0, ..., N-1}, held as exact probability vectors.

The theorems quantify over "every distribution D over X" (BCMNUW20 Thm 10, ABM19 Thm 3.1, NB20 Thm 7):
holding D as an exact vector lets an experiment compute true errors Err_D(h) and cover radii
exactly (a dot product) instead of estimating them.

Index <-> coordinates convention for product domains ({0,1}^d, {+-1}^p, or any finite grid), the
one of :mod:`algorithms.classes.constructors` (``boolean_cube``, ``hypercube_points``): little-endian
mixed radix. A point with coordinate value indices (c_0, ..., c_{d-1}), c_i in {0, ..., k_i - 1},
has index sum_i c_i prod_{l<i} k_l, so coordinate 0 is the least significant. For {0,1}^d the value
index is the bit itself, x_i = bit i of the index; for {+-1}^p, x_i = -1 iff bit i of the index is 1
(x_i = 1 - 2 c_i). :func:`index_to_coordinates` and :func:`coordinates_to_index` convert.

Labeled distributions (learning, NB20 / ABM19) are distributions over X x Y with Y = {0,1} or
{-1,+1}, held as an (N, 2) joint matrix whose column j is the label ``labels[j]``; flattened to a
:class:`Distribution` over 2N points, point (x, label index j) has index 2x + j.

Renyi divergences (LVSUW21, for PMW^Pub with a public distribution differing from the private one):
D_alpha(P || Q) = 1/(alpha - 1) log sum_x P(x)^alpha Q(x)^(1 - alpha); D_2 and D_inf = log max_{P(x)>0} P(x)/Q(x).
They are +inf exactly when supp(P) is not contained in supp(Q). Natural logarithms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

_SUM_TOL = 1e-9


def _as_probability_vector(probs, name: str = "probs") -> np.ndarray:
    p = np.array(probs, dtype=float)
    if p.ndim != 1 or p.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D vector, got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError(f"{name} must have finite entries >= 0, got min {np.nanmin(p)!r}")
    total = p.sum()
    if abs(total - 1.0) > _SUM_TOL * max(1, p.size):
        raise ValueError(f"{name} must sum to 1 (within {_SUM_TOL:g} per point), got sum {total!r}")
    p = p / total
    p.setflags(write=False)
    return p


def _check_size(size) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 0:
        raise ValueError(f"size={size!r} must be an integer >= 0")
    return int(size)


def _check_domain(N) -> int:
    if isinstance(N, bool) or not isinstance(N, (int, np.integer)) or N < 1:
        raise ValueError(f"N={N!r} must be an integer >= 1")
    return int(N)


def _check_point(x, N: int, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not (0 <= x < N):
        raise ValueError(f"{name}={x!r} must be an integer in [0, {N - 1}]")
    return int(x)


def _check_mass(mass, name: str = "mass") -> float:
    if not (0.0 <= mass <= 1.0):
        raise ValueError(f"{name}={mass!r} must lie in [0, 1]")
    return float(mass)


@dataclass(frozen=True, eq=False)
class Distribution:
    """An exact distribution over {0, ..., N-1}: ``probs[x] = Pr[x]`` (read-only), and a descriptive name."""

    probs: np.ndarray
    name: str = "distribution"

    def __post_init__(self):
        object.__setattr__(self, "probs", _as_probability_vector(self.probs))

    @property
    def N(self) -> int:
        """Domain size."""
        return int(self.probs.size)

    @property
    def support(self) -> np.ndarray:
        """Indices with positive probability."""
        return np.flatnonzero(self.probs > 0)

    def sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` i.i.d. points (int64 indices) drawn with ``rng``."""
        size = _check_size(size)
        return rng.choice(self.N, size=size, p=self.probs).astype(np.int64)

    def expect(self, values) -> float:
        """Exact E_{x ~ D}[values[x]] for a vector of N values (e.g. a disagreement indicator row)."""
        v = np.asarray(values, dtype=float)
        if v.shape[-1] != self.N:
            raise ValueError(f"values has last dimension {v.shape[-1]}, must equal N={self.N}")
        return v @ self.probs

    def __repr__(self) -> str:
        return f"Distribution(name={self.name!r}, N={self.N})"


# ---------------------------------------------------------------- index <-> coordinates


def _check_shape(shape: Sequence[int]) -> tuple[int, ...]:
    shape = tuple(int(k) for k in shape)
    if not shape or any(k < 1 for k in shape):
        raise ValueError(f"shape={shape!r} must be a non-empty tuple of integers >= 1")
    return shape


def index_to_coordinates(index, shape: Sequence[int]) -> np.ndarray:
    """Value indices (c_0, ..., c_{d-1}) of points of a product domain of ``shape``; little-endian (module docstring).

    Vectorised: an array of k indices gives a (k, d) array.
    """
    shape = _check_shape(shape)
    idx = np.asarray(index)
    size = int(np.prod(shape))
    if np.any(idx < 0) or np.any(idx >= size):
        raise ValueError(f"index must lie in [0, {size - 1}]")
    return np.stack(np.unravel_index(idx, shape[::-1])[::-1], axis=-1)


def coordinates_to_index(coords, shape: Sequence[int]) -> np.ndarray:
    """Inverse of :func:`index_to_coordinates`: (..., d) value indices to point indices."""
    shape = _check_shape(shape)
    c = np.asarray(coords, dtype=np.int64)
    return np.ravel_multi_index(tuple(np.moveaxis(c, -1, 0))[::-1], shape[::-1])


# ---------------------------------------------------------------- constructors


def uniform(N: int) -> Distribution:
    """The uniform distribution over {0, ..., N-1}."""
    N = _check_domain(N)
    return Distribution(np.full(N, 1.0 / N), f"uniform(N={N})")


def product(marginals: Sequence[Sequence[float]]) -> Distribution:
    """Product distribution: coordinate i has value-index law ``marginals[i]``; points indexed little-endian (module
    docstring)."""
    if len(marginals) == 0:
        raise ValueError("marginals must hold at least one coordinate law")
    laws = [_as_probability_vector(m, f"marginals[{i}]") for i, m in enumerate(marginals)]
    probs = np.ones(1)
    for law in reversed(laws):  # coordinate 0 varies fastest
        probs = np.multiply.outer(probs, law).ravel()
    return Distribution(probs, f"product({len(laws)} coordinates)")


def _check_unit_vector(q, name: str) -> np.ndarray:
    q = np.asarray(q, dtype=float)
    if q.ndim != 1 or q.size == 0 or np.any((q < 0) | (q > 1)):
        raise ValueError(f"{name}={q!r} must be a non-empty vector with entries in [0, 1]")
    return q


def product_bernoulli(q: Sequence[float]) -> Distribution:
    """Independent bits: Pr[bit i of the index = 1] = q[i]. On {0,1}^d (``boolean_cube``) that is Pr[x_i = 1]."""
    q = _check_unit_vector(q, "q")
    return Distribution(product([(1 - qi, qi) for qi in q]).probs, f"product_bernoulli(d={q.size})")


def product_signs(q_plus: Sequence[float]) -> Distribution:
    """Independent signs on {+-1}^p in the ``hypercube_points`` indexing: Pr[x_i = +1] = q_plus[i] (bit i = 0)."""
    q = _check_unit_vector(q_plus, "q_plus")
    return Distribution(product([(qi, 1 - qi) for qi in q]).probs, f"product_signs(p={q.size})")


def point_mass_heavy(N: int, heavy_point: int = 0, heavy_mass: float = 0.5) -> Distribution:
    """``heavy_mass`` on one point, the rest spread uniformly over all N points."""
    N = _check_domain(N)
    x = _check_point(heavy_point, N, "heavy_point")
    w = _check_mass(heavy_mass, "heavy_mass")
    p = np.full(N, (1 - w) / N)
    p[x] += w
    return Distribution(p, f"point_mass_heavy(N={N}, point={x}, mass={w:g})")


def zipf(N: int, exponent: float = 1.0, order: Sequence[int] | None = None) -> Distribution:
    """Zipf law: Pr[rank r] proportional to (r+1)^(-exponent); ``order[r]`` is the point of rank r (default: r)."""
    N = _check_domain(N)
    if not (exponent >= 0):
        raise ValueError(f"exponent={exponent!r} must be >= 0")
    w = (np.arange(1, N + 1, dtype=float)) ** (-float(exponent))
    p = np.empty(N)
    if order is None:
        p[:] = w
    else:
        order = np.asarray(order)
        if sorted(order.tolist()) != list(range(N)):
            raise ValueError(f"order must be a permutation of 0..{N - 1}")
        p[order] = w
    return Distribution(p / p.sum(), f"zipf(N={N}, s={exponent:g})")


def mixture(components: Sequence[Distribution], weights: Sequence[float]) -> Distribution:
    """sum_i weights[i] * components[i] over a common domain."""
    if len(components) == 0 or len(components) != len(weights):
        raise ValueError(f"components ({len(components)}) and weights ({len(weights)}) must be non-empty, of equal "
                         f"length")
    w = _as_probability_vector(weights, "weights")
    sizes = {c.N for c in components}
    if len(sizes) != 1:
        raise ValueError(f"components must share one domain size, got sizes {sorted(sizes)}")
    p = w @ np.stack([c.probs for c in components])
    names = " + ".join(f"{wi:g}*{c.name}" for wi, c in zip(w, components))
    return Distribution(p, f"mixture({names})")


def near_threshold(N: int, threshold: int, width: int = 1, mass: float = 0.9) -> Distribution:
    """Adversarial for thresholds: ``mass`` spread uniformly on the ``2*width`` points {threshold-width, ...,
    threshold+width-1}
    around the cut between points threshold-1 and threshold (clipped to the domain), the rest uniform.
    That cut is hypothesis ``threshold`` of :func:`algorithms.classes.constructors.thresholds`.

    Under it the hypotheses near the target differ by a lot of mass, so a cover must resolve them.
    """
    N = _check_domain(N)
    t = _check_point(threshold, N + 1, "threshold")
    if width < 1:
        raise ValueError(f"width={width!r} must be an integer >= 1")
    w = _check_mass(mass)
    lo, hi = max(0, t - width), min(N, t + width)
    if hi <= lo:
        raise ValueError(f"threshold={threshold!r} and width={width!r} select no point of [0, {N - 1}]")
    p = np.full(N, (1 - w) / N)
    p[lo:hi] += w / (hi - lo)
    return Distribution(p, f"near_threshold(N={N}, t={t}, width={width}, mass={w:g})")


def interval_endpoints(N: int, left: int, right: int, mass: float = 0.9) -> Distribution:
    """Adversarial for intervals: ``mass`` split evenly on the two endpoints ``left`` and ``right``, the rest
    uniform."""
    N = _check_domain(N)
    a = _check_point(left, N, "left")
    b = _check_point(right, N, "right")
    if b < a:
        raise ValueError(f"right={right!r} must be >= left={left!r}")
    w = _check_mass(mass)
    p = np.full(N, (1 - w) / N)
    p[a] += w / 2
    p[b] += w / 2
    return Distribution(p, f"interval_endpoints(N={N}, [{a}, {b}], mass={w:g})")


# ---------------------------------------------------------------- labeled distributions


@dataclass(frozen=True, eq=False)
class LabeledDistribution:
    """A distribution over X x Y, Y = ``labels`` (``(0, 1)`` or ``(-1, 1)``): ``joint[x, j] = Pr[x, labels[j]]``."""

    joint: np.ndarray
    labels: tuple = (0, 1)
    name: str = "labeled"

    def __post_init__(self):
        j = np.array(self.joint, dtype=float)
        if j.ndim != 2 or j.shape[1] != 2:
            raise ValueError(f"joint must have shape (N, 2), got {j.shape}")
        flat = _as_probability_vector(j.ravel(), "joint")
        j = flat.reshape(-1, 2).copy()
        j.setflags(write=False)
        object.__setattr__(self, "joint", j)
        if tuple(self.labels) not in ((0, 1), (-1, 1)):
            raise ValueError(f"labels={self.labels!r} must be (0, 1) or (-1, 1)")
        object.__setattr__(self, "labels", tuple(self.labels))

    @property
    def N(self) -> int:
        return int(self.joint.shape[0])

    @property
    def marginal(self) -> Distribution:
        """The marginal D_X over X."""
        return Distribution(self.joint.sum(axis=1), f"marginal({self.name})")

    def flat(self) -> Distribution:
        """The same law over 2N points, point (x, label index j) at index 2x + j."""
        return Distribution(self.joint.ravel(), self.name)

    def _label_index(self, h) -> np.ndarray:
        h = np.asarray(h)
        if h.shape[-1] != self.N:
            raise ValueError(f"hypothesis rows have length {h.shape[-1]}, must equal N={self.N}")
        if not np.all(np.isin(h, self.labels)):
            raise ValueError(f"hypothesis values must lie in labels={self.labels}")
        return (h == self.labels[1]).astype(np.int64)

    def error(self, h) -> np.ndarray | float:
        """Exact Err_D(h) = Pr_{(x,y)~D}[h(x) != y] for a hypothesis row of N labels (or a matrix of rows)."""
        j = self._label_index(h)
        wrong = np.where(j == 1, self.joint[:, 0], self.joint[:, 1])
        return wrong.sum(axis=-1)

    def sample(self, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``size`` i.i.d. labeled examples: (points x as int64 indices, labels y in ``labels``)."""
        flat_idx = self.flat().sample(size, rng)
        return flat_idx // 2, np.asarray(self.labels)[flat_idx % 2]


def realizable(marginal: Distribution, target, labels: tuple = (0, 1)) -> LabeledDistribution:
    """Realizable labeled distribution: x ~ marginal, y = target[x] (a hypothesis row of N labels)."""
    return agnostic(marginal, target, 0.0, labels)


def agnostic(marginal: Distribution, target, noise_rate: float, labels: tuple = (0, 1)) -> LabeledDistribution:
    """x ~ marginal, y = target[x] flipped independently with probability ``noise_rate`` in [0, 1/2].

    The Bayes-optimal error is ``noise_rate`` and the target attains it.
    """
    if not (0.0 <= noise_rate <= 0.5):
        raise ValueError(f"noise_rate={noise_rate!r} must lie in [0, 0.5]")
    if tuple(labels) not in ((0, 1), (-1, 1)):
        raise ValueError(f"labels={labels!r} must be (0, 1) or (-1, 1)")
    t = np.asarray(target)
    if t.shape != (marginal.N,):
        raise ValueError(f"target has shape {t.shape}, must be ({marginal.N},)")
    if not np.all(np.isin(t, labels)):
        raise ValueError(f"target values must lie in labels={labels}")
    one = (t == labels[1]).astype(float)
    p_one = one * (1 - noise_rate) + (1 - one) * noise_rate
    joint = np.stack([marginal.probs * (1 - p_one), marginal.probs * p_one], axis=1)
    kind = "realizable" if noise_rate == 0 else f"agnostic(noise={noise_rate:g})"
    return LabeledDistribution(joint, tuple(labels), f"{kind}[{marginal.name}]")


# ---------------------------------------------------------------- Renyi divergences


def _pair(P, Q) -> tuple[np.ndarray, np.ndarray]:
    p = P.probs if isinstance(P, Distribution) else _as_probability_vector(P, "P")
    q = Q.probs if isinstance(Q, Distribution) else _as_probability_vector(Q, "Q")
    if p.shape != q.shape:
        raise ValueError(f"P and Q must share one domain, got sizes {p.size} and {q.size}")
    return p, q


def renyi_divergence(P, Q, order: float) -> float:
    """Renyi (1961): D_order(P || Q) = 1/(order-1) log sum_x P(x)^order Q(x)^(1-order), exact, natural log.

    ``order`` in (1, inf]; ``order=1`` is the KL divergence (the limit), ``order=inf`` is
    log max_{P(x)>0} P(x)/Q(x). Returns +inf when supp(P) is not contained in supp(Q).
    """
    p, q = _pair(P, Q)
    if not (order >= 1):
        raise ValueError(f"order={order!r} must lie in [1, inf]")
    on = p > 0
    if np.any(q[on] == 0):
        return float("inf")
    log_ratio = np.log(p[on]) - np.log(q[on])
    if order == np.inf:
        return float(log_ratio.max())
    if order == 1:
        return float(np.sum(p[on] * log_ratio))
    # log sum_x P(x) (P(x)/Q(x))^(order-1), in log space so that large ratios do not overflow
    from scipy.special import logsumexp

    return float(logsumexp((order - 1) * log_ratio, b=p[on]) / (order - 1))


def renyi_d2(P, Q) -> float:
    """D_2(P || Q) = log sum_x P(x)^2 / Q(x); +inf when supp(P) is not inside supp(Q)."""
    return renyi_divergence(P, Q, 2.0)


def renyi_dinf(P, Q) -> float:
    """D_inf(P || Q) = log max_{x: P(x)>0} P(x)/Q(x); +inf when supp(P) is not inside supp(Q)."""
    return renyi_divergence(P, Q, np.inf)
