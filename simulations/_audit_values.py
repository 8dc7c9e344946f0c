"""JUO20 / DWWZK18 event families that read which values occur (Mironov 2012 "On significance of the least
significant bits for differential privacy": the set of outputs a floating-point mechanism can produce depends on
its input), added by :func:`simulations.audit.select_test` to the threshold events of every continuous output.

Both families below apply when the selection half holds more than ``MAX_CATEGORIES`` distinct values (fewer: the
categorical family of :mod:`simulations.audit` already orders every value by its likelihood ratio).

* Atoms: a value repeated on the pooled selection half (at least ``MIN_ATOM_COUNT`` times; a continuous law
  repeats no value) is a category of its own, every other value one category "continuous"; the events are the
  unions of the k categories of largest empirical likelihood ratio D1 : D0, ordered on one half of the selection
  half and cut on the other (``_ordered_unions``). A point mass inside a continuous law, or a set of outputs that
  differs between neighbours on a discrete grid (noise drawn from few values), is one such event: one side puts mass on
  it, the other (almost) none.
* Support by bins: the pooled selection half cut at min(``VALUE_BINS``, values / ``BIN_COUNT``) quantiles; the events
are the unions of the k
  bins of largest likelihood ratio. A band one neighbour never reaches (a hole in its support, an output range
  only one side can produce) is such a union, which a single threshold misses when the band is inside the bulk.
* Grids: "the value is a multiple of 10^-k" (k in ``GRID_DECIMALS``) and its complement: an output rounded on
  one neighbour only.

Each event is chosen on the selection half by the objective's score (:func:`simulations._audit_bounds._scores`)
and bounded on the evaluation half like every other event, so the audit's guarantee is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations._audit_bounds import _scores
from simulations._audit_types import MAX_CATEGORIES, SELECTION_LEVEL

MIN_ATOM_COUNT = 5       # a value repeated this often on the pooled selection half is an atom
MAX_ATOMS = 4096         # at most this many atoms kept (the most frequent), the rest "continuous"
VALUE_BINS = 1024        # quantile bins of the support family, at most ...
BIN_COUNT = 50           # ... one per this many pooled selection-half values
GRID_DECIMALS = (0, 1, 2, 3, 4, 6)
MAX_VALUE_COORDINATES = 8  # vector outputs: the value families of at most this many coordinates


def _column(s, coordinate):
    s = np.asarray(s, dtype=float)
    return s if coordinate is None else s[:, coordinate]


def _name(coordinate) -> str:
    return "s" if coordinate is None else f"s[{coordinate}]"


@dataclass(frozen=True)
class AtomSetTest:
    """Guess D1 iff the value is one of ``members`` (atoms), or, with ``rest_in``, is not an atom at all."""

    atoms: tuple
    members: tuple
    rest_in: bool
    coordinate: int | None = None

    def guesses_d1(self, s) -> np.ndarray:
        x = _column(s, self.coordinate)
        out = np.isin(x, np.asarray(self.members, dtype=float))
        if self.rest_in:
            out |= ~np.isin(x, np.asarray(self.atoms, dtype=float))
        return out

    def describe(self) -> str:
        shown = ", ".join(f"{v:.6g}" for v in self.members[:4])
        more = f", ... ({len(self.members)} atoms)" if len(self.members) > 4 else ""
        rest = " or a value repeated on no side (continuous part)" if self.rest_in else ""
        return f"atoms: {_name(self.coordinate)} in {{{shown}{more}}}{rest}"


@dataclass(frozen=True)
class BinSetTest:
    """Guess D1 iff the value falls in one of the bins ``members`` of the cut points ``edges`` (bin i is
    [edges[i-1], edges[i]), bin 0 below edges[0], NaN its own last bin)."""

    edges: tuple
    members: tuple
    coordinate: int | None = None

    def bins(self, s) -> np.ndarray:
        x = _column(s, self.coordinate)
        b = np.searchsorted(np.asarray(self.edges), x, side="right")
        return np.where(np.isnan(x), len(self.edges) + 1, b)

    def guesses_d1(self, s) -> np.ndarray:
        return np.isin(self.bins(s), np.asarray(self.members))

    def describe(self) -> str:
        e = (-np.inf, *self.edges, np.inf)
        parts = [f"[{e[i]:.4g}, {e[i + 1]:.4g})" if i <= len(self.edges) else "NaN" for i in sorted(self.members)[:3]]
        more = f" ... ({len(self.members)} of {len(self.edges) + 2} bins)" if len(self.members) > 3 else ""
        return f"support bins: {_name(self.coordinate)} in {' u '.join(parts)}{more}"


@dataclass(frozen=True)
class GridTest:
    """Guess D1 iff the value is (``on_grid``) or is not a multiple of 10^-decimals."""

    decimals: int
    on_grid: bool
    coordinate: int | None = None

    def guesses_d1(self, s) -> np.ndarray:
        x = _column(s, self.coordinate)
        with np.errstate(invalid="ignore"):
            on = np.isfinite(x) & (np.round(x, self.decimals) == x)
        return on if self.on_grid else ~on

    def describe(self) -> str:
        word = "a multiple" if self.on_grid else "not a multiple"
        return f"grid: {_name(self.coordinate)} is {word} of 1e-{self.decimals}"


def _ordered_unions(k0, k1, size, delta, eps, objective, profile, level):
    """The best union of the k categories of largest likelihood ratio: the categories (integer codes ``k0`` of
    D0's samples, ``k1`` of D1's, ``size`` codes) ordered by their ratio on the first half of each, the cut k
    chosen by the score on the second half, so the score is not inflated by the noise that ordered them (with
    hundreds of bins, ordering and scoring on the same counts would let a union of lucky bins outscore a real
    threshold event and then fail on the evaluation half). Returns (chosen codes, score)."""
    h0, h1 = k0.size // 2, k1.size // 2
    c0 = np.bincount(k0[:h0], minlength=size)
    c1 = np.bincount(k1[:h1], minlength=size)
    order = np.argsort(-(c1 + 0.5) / (c0 + 0.5), kind="stable")
    d0 = np.bincount(k0[h0:], minlength=size)[order]
    d1 = np.bincount(k1[h1:], minlength=size)[order]
    score = _scores(np.cumsum(d0), np.cumsum(d1), k0.size - h0, k1.size - h1, delta, eps, objective, level,
                    profile=profile)
    j = int(np.argmax(score))
    return [int(i) for i in order[: j + 1]], float(score[j])


def value_search(s0, s1, delta, eps, objective, profile=None, coordinate=None, level=SELECTION_LEVEL):
    """The best event of the atom, support-bin and grid families on the selection half (s0 from D0, s1 from D1,
    numeric; a vector's ``coordinate``): a list of (test, score), empty when there is nothing to test."""
    x0, x1 = _column(s0, coordinate), _column(s1, coordinate)
    n0, n1 = x0.size, x1.size
    pooled = np.concatenate([x0, x1])
    finite = pooled[np.isfinite(pooled)]
    out = []
    values, counts = np.unique(finite, return_counts=True)
    atoms = values[counts >= MIN_ATOM_COUNT]
    many = values.size > MAX_CATEGORIES  # fewer distinct values: the categorical family orders them all already
    if atoms.size and many:
        atoms = atoms[np.argsort(-counts[counts >= MIN_ATOM_COUNT], kind="stable")[:MAX_ATOMS]]
        atoms = np.sort(atoms)
        k0 = np.searchsorted(atoms, x0)
        k1 = np.searchsorted(atoms, x1)
        in0 = (k0 < atoms.size) & (atoms[np.minimum(k0, atoms.size - 1)] == x0)
        in1 = (k1 < atoms.size) & (atoms[np.minimum(k1, atoms.size - 1)] == x1)
        rest = atoms.size
        chosen, score = _ordered_unions(np.where(in0, k0, rest), np.where(in1, k1, rest), rest + 1, delta, eps,
                                        objective, profile, level)
        members = tuple(float(atoms[i]) for i in chosen if i != rest)
        out.append((AtomSetTest(tuple(atoms.tolist()), members, rest in chosen, coordinate), score))
    if many:
        bins = max(2, min(VALUE_BINS, finite.size // BIN_COUNT))
        edges = np.unique(np.quantile(finite, np.linspace(0, 1, bins + 1)[1:-1], method="inverted_cdf"))
        probe = BinSetTest(tuple(edges.tolist()), (), coordinate)
        chosen, score = _ordered_unions(probe.bins(s0), probe.bins(s1), edges.size + 2, delta, eps, objective,
                                        profile, level)
        out.append((BinSetTest(probe.edges, tuple(chosen), coordinate), score))
    if finite.size:
        for d in GRID_DECIMALS:
            on = GridTest(d, True, coordinate)
            g0, g1 = on.guesses_d1(s0), on.guesses_d1(s1)
            if g0.all() and g1.all() or not (g0.any() or g1.any()):
                continue
            fp = np.array([g0.sum(), n0 - g0.sum()])
            tp = np.array([g1.sum(), n1 - g1.sum()])
            score = _scores(fp, tp, n0, n1, delta, eps, objective, level, profile=profile)
            j = int(np.argmax(score))
            out.append((GridTest(d, j == 0, coordinate), float(score[j])))
    return out
