"""Constructors of the finite classes the papers use (BCMNUW20 Definition 2 example, Definition 12, ...).

Every constructor returns a :class:`FiniteClass` whose rows are distinct labelings, built
with array operations; sizes that would not fit in memory raise ValueError up front.
"""

from __future__ import annotations

import itertools
from functools import cmp_to_key
from math import comb, gcd

import numpy as np

from . import _bits
from .finite import FiniteClass

_MAX_ENTRIES = 2 * 10**9  # refuse to build a matrix above ~2 GB of booleans


def _check_int(value, argname: str, lo: int, hi: int | None = None) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{argname} must be an integer in [{lo}, {hi if hi is not None else 'inf'}), got {value!r}")
    v = int(value)
    if v < lo or (hi is not None and v >= hi):
        raise ValueError(f"{argname}={v} is outside the allowed range [{lo}, {hi if hi is not None else 'inf'})")
    return v


def _check_size(rows: int, cols: int, what: str) -> None:
    if rows * cols > _MAX_ENTRIES:
        raise ValueError(f"{what} would need a {rows} x {cols} matrix (> {_MAX_ENTRIES} entries); choose smaller "
                         f"parameters")


def thresholds(num_points: int, *, include_all_negative: bool = True, grid=None) -> FiniteClass:
    """BCMNUW20 Definition 2 (example): thresholds h_t(x) = +1 iff x <= t on a grid of N points.

    The domain is the grid points 0..N-1 (coordinates ``grid``, default 0..N-1, must be
    increasing). Hypothesis j (j = 0..N) is +1 exactly on the first j points, i.e. the
    threshold t lies between grid point j-1 and j. With ``include_all_negative`` (default)
    all N + 1 labelings that thresholds on the real line induce on the grid are present
    (the threshold below every point gives the all -1 labeling); without it the class has
    the N thresholds t in the grid, hypotheses j = 1..N.
    VC = 1; Littlestone = floor(log2 |H|) (a chain of |H| functions).
    """
    n = _check_int(num_points, "num_points", 1)
    start = 0 if include_all_negative else 1
    _check_size(n + 1 - start, n, "thresholds")
    j = np.arange(start, n + 1)[:, None]
    matrix = np.arange(n)[None, :] < j
    coords = np.arange(n) if grid is None else np.asarray(grid, dtype=float)
    if coords.shape != (n,) or (n > 1 and not np.all(np.diff(coords) > 0)):
        raise ValueError(f"grid must be {n} strictly increasing coordinates, got shape {np.shape(grid)}")
    return FiniteClass(matrix, point_coords=coords, name=f"thresholds(N={n})", copy=False)


def intervals(num_points: int, *, include_empty: bool = True) -> FiniteClass:
    """Intervals h_{a,b}(x) = +1 iff a <= x <= b on the grid 0..N-1 (0 <= a <= b < N).

    N (N + 1) / 2 non-empty intervals, plus the empty interval (all -1) if ``include_empty``;
    these are all labelings that intervals of the real line induce on N points. VC = 2 for N >= 2.
    """
    n = _check_int(num_points, "num_points", 1)
    a, b = np.triu_indices(n)
    _check_size(a.size + 1, n, "intervals")
    x = np.arange(n)[None, :]
    matrix = (x >= a[:, None]) & (x <= b[:, None])
    if include_empty:
        matrix = np.vstack([np.zeros((1, n), dtype=bool), matrix])
    return FiniteClass(matrix, point_coords=np.arange(n), name=f"intervals(N={n})", copy=False)


def hypercube_points(p: int) -> np.ndarray:
    """The domain {+-1}^p as an int8 (2^p, p) array; point index j has x_i = -1 iff bit i of j is 1."""
    p = _check_int(p, "p", 1, 31)
    j = np.arange(2**p, dtype=np.int64)[:, None]
    bits = (j >> np.arange(p, dtype=np.int64)[None, :]) & 1
    return (1 - 2 * bits).astype(np.int8)


def decision_stumps(p: int) -> FiniteClass:
    """BCMNUW20 Definition 12: S_p = {h_i(x) = x_i : i in [p]} over the domain {+-1}^p.

    Exactly p hypotheses (no negations x -> -x_i, no constant functions: the definition has
    only the p coordinate projections) over 2^p points (see :func:`hypercube_points`).
    VC(S_p) = floor(log2 p) and VC_dual(S_p) = p, for every p >= 1.
    """
    p = _check_int(p, "p", 1, 31)
    _check_size(p, 2**p, "decision_stumps")
    pts = hypercube_points(p)
    matrix = np.ascontiguousarray((pts == 1).T)
    return FiniteClass(matrix, point_coords=pts, name=f"decision_stumps(p={p})", copy=False)


def point_functions(num_points: int, *, include_all_negative: bool = False) -> FiniteClass:
    """Point functions h_z(x) = +1 iff x = z on {0..N-1} (and the all -1 function if asked). VC = 1."""
    n = _check_int(num_points, "num_points", 1)
    _check_size(n + 1, n, "point_functions")
    matrix = np.eye(n, dtype=bool)
    if include_all_negative:
        matrix = np.vstack([matrix, np.zeros((1, n), dtype=bool)])
    return FiniteClass(matrix, point_coords=np.arange(n), name=f"point_functions(N={n})", copy=False)


def boolean_cube(d: int) -> np.ndarray:
    """The domain {0,1}^d as a uint8 (2^d, d) array; point index j has x_i = bit i of j."""
    d = _check_int(d, "d", 1, 31)
    j = np.arange(2**d, dtype=np.int64)[:, None]
    return ((j >> np.arange(d, dtype=np.int64)[None, :]) & 1).astype(np.uint8)


def marginals(d: int, k: int) -> FiniteClass:
    """k-way marginal queries over {0,1}^d: q_{S,v}(x) = +1 iff x_S = v, |S| = k, v in {0,1}^k.

    C(d, k) 2^k hypotheses over 2^d points (see :func:`boolean_cube`); k = 0 is the constant +1.
    """
    d = _check_int(d, "d", 1, 31)
    k = _check_int(k, "k", 0, d + 1)
    num = comb(d, k) * 2**k
    _check_size(num, 2**d, "marginals")
    cube = boolean_cube(d).astype(bool)
    subsets = np.array(list(itertools.combinations(range(d), k)), dtype=np.intp).reshape(-1, k)
    values = boolean_cube(k).astype(bool) if k > 0 else np.zeros((1, 0), dtype=bool)
    # (num_subsets, num_values, num_points): all k chosen coordinates equal the values
    chosen = cube[:, subsets]                      # (points, subsets, k)
    eq = chosen[None, :, :, :] == values[:, None, None, :]   # (values, points, subsets, k)
    matrix = eq.all(axis=3).transpose(2, 0, 1).reshape(num, 2**d)
    return FiniteClass(np.ascontiguousarray(matrix), point_coords=cube.astype(np.uint8),
                       name=f"marginals(d={d}, k={k})", copy=False)


def conjunctions(d: int, *, monotone: bool = False, max_literals: int | None = None) -> FiniteClass:
    """Conjunctions of literals over {0,1}^d: h(x) = +1 iff every literal holds.

    Each variable is absent, positive (x_i = 1) or, unless ``monotone``, negated (x_i = 0):
    3^d (or 2^d) hypotheses, at most ``max_literals`` literals each; the empty conjunction is
    the constant +1. Contradictions (x_i and not x_i) are not included.
    """
    d = _check_int(d, "d", 1, 31)
    kmax = d if max_literals is None else _check_int(max_literals, "max_literals", 0, d + 1)
    states = 2 if monotone else 3
    _check_size(states**d, 2**d, "conjunctions")
    # code[c, i] in {0: absent, 1: x_i = 1, 2: x_i = 0}
    code = (np.arange(states**d)[:, None] // states ** np.arange(d)[None, :]) % states
    code = code[(code > 0).sum(axis=1) <= kmax]
    cube = boolean_cube(d).astype(bool)  # (points, d)
    pos = (code == 1)[:, None, :] & ~cube[None, :, :]   # a positive literal violated
    neg = (code == 2)[:, None, :] & cube[None, :, :]    # a negative literal violated
    matrix = ~(pos | neg).any(axis=2)
    kind = "monotone_conjunctions" if monotone else "conjunctions"
    return FiniteClass(matrix, point_coords=cube.astype(np.uint8), name=f"{kind}(d={d})", copy=False)


def explicit(matrix, point_coords=None, name: str = "explicit") -> FiniteClass:
    """Any explicit class: a boolean (hypotheses x points) matrix, True meaning +1."""
    return FiniteClass(matrix, point_coords=point_coords, name=name, copy=True)


def random_class(num_hypotheses: int, num_points: int, rng: np.random.Generator, *,
                 density: float = 0.5) -> FiniteClass:
    """A random class: each entry +1 independently with probability ``density`` (rows may repeat)."""
    h = _check_int(num_hypotheses, "num_hypotheses", 1)
    n = _check_int(num_points, "num_points", 1)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    if not 0.0 <= float(density) <= 1.0:
        raise ValueError(f"density={density} is outside [0, 1]")
    _check_size(h, n, "random_class")
    return FiniteClass(rng.random((h, n)) < density, name=f"random({h}x{n}, density={density})", copy=False)


# --------------------------------------------------------------------------- halfspaces in R^2
_MAX_COORD = 2**29


def _angle_cmp(u, v) -> int:
    """Exact counter-clockwise order of integer directions by angle in [0, 2 pi)."""
    def half(w):  # 0 for angle in [0, pi), 1 for [pi, 2 pi)
        return 0 if (w[1] > 0 or (w[1] == 0 and w[0] > 0)) else 1
    hu, hv = half(u), half(v)
    if hu != hv:
        return hu - hv
    cross = u[0] * v[1] - u[1] * v[0]
    return -1 if cross > 0 else (1 if cross < 0 else 0)


def _critical_and_arc_directions(points: list[tuple[int, int]]) -> np.ndarray:
    """Integer directions: each normal of a pair p_i - p_j (both signs) and one direction
    strictly inside every open arc between consecutive normals. Every halfspace labeling of
    the points is a top set {x : <w, x> >= c} for one of these directions w."""
    dirs = set()
    for (x1, y1), (x2, y2) in itertools.combinations(set(points), 2):
        dx, dy = x2 - x1, y2 - y1
        g = gcd(dx, dy)
        nx, ny = -dy // g, dx // g
        dirs.add((nx, ny))
        dirs.add((-nx, -ny))
    if not dirs:
        return np.array([[1, 0], [-1, 0]], dtype=np.int64)
    ordered = sorted(dirs, key=cmp_to_key(_angle_cmp))
    out = list(ordered)
    for u, v in zip(ordered, ordered[1:] + ordered[:1]):
        cross = u[0] * v[1] - u[1] * v[0]
        if cross > 0:       # arc shorter than pi: u + v lies strictly inside
            out.append((u[0] + v[0], u[1] + v[1]))
        else:               # arc of exactly pi (collinear points): rotate u by +90 degrees
            out.append((-u[1], u[0]))
    return np.array(out, dtype=np.int64)


def halfspaces(points) -> FiniteClass:
    """All distinct labelings of a finite point set in R^2 by halfspaces {x : <w, x> >= c}, exactly.

    ``points`` is an integer array (N, 2) with |coordinates| < 2^29 (use a fine integer grid
    for real-valued points): integer arithmetic makes ties exact, so a labeling that only a
    floating-point rounding error would produce never appears. The order of the points along
    a direction w changes only when w is normal to some p_i - p_j; the class is the union of
    the top sets along those O(N^2) normals and along one direction inside each arc between
    consecutive normals, plus the constant labelings. For points in general position the
    class has N (N - 1) + 2 labelings and VC dimension 3 (N >= 4).
    """
    pts = np.asarray(points)
    if pts.ndim != 2 or pts.shape[1] != 2 or pts.shape[0] == 0:
        raise ValueError(f"points must be an (N, 2) array with N >= 1, got shape {pts.shape}")
    if not np.issubdtype(pts.dtype, np.integer):
        raise ValueError(f"points must have an integer dtype (exact arithmetic), got {pts.dtype}")
    if np.abs(pts).max() >= _MAX_COORD:
        raise ValueError(f"points coordinates must satisfy |c| < {_MAX_COORD}, got max {int(np.abs(pts).max())}")
    pts = pts.astype(np.int64)
    n = pts.shape[0]
    dirs = _critical_and_arc_directions([tuple(map(int, p)) for p in pts])
    _check_size(dirs.shape[0] * n, n, "halfspaces (candidate labelings)")
    proj = dirs @ pts.T                                   # exact int64: |proj| < 2^62
    # top set of every direction at the level of every point: {x : proj(x) >= proj(y)}
    labels = (proj[:, None, :] >= proj[:, :, None]).reshape(-1, n)
    labels = np.vstack([labels, np.zeros((1, n), dtype=bool), np.ones((1, n), dtype=bool)])
    first, _ = _bits.unique_rows(labels)
    matrix = labels[np.sort(first)]
    return FiniteClass(matrix, point_coords=pts, name=f"halfspaces_R2(N={n})", copy=False)
