"""DWWZK18 (searching for the counterexample pair) with exact losses: a search over neighbouring pairs that
maximises the exact privacy loss a target computes from its own law (``AuditCase.pair_loss``), so an audit is run
on the worst pair found and its line states that pair's exact loss beside the declaration. Used by
:func:`simulations.audit.audit` before its sampled pair search; re-exported by :mod:`simulations.audit`.

The search: the case's pair and its ``starts``, ``EXACT_RANDOM`` pairs from ``neighbours(rng)``, then
``EXACT_LOCAL`` moves by ``mutate`` from the best so far (kept when the loss grows); a case that gives
``loss_neighbours`` instead (its draws too slow for the sampled search) has ``EXACT_RANDOM`` random pairs ranked, and
the audit keeps its own pair (the line states the worst found beside it). Exact losses cost no samples,
so the search is cheap where the target's exact law is (small settings); it draws nothing the audit then uses, and
the audit's bound stays valid whatever pair it returns. A pair of larger exact loss is not always easier to test
(its loss may sit on an output of tiny probability), so the winner is handed to the sampled search as a start,
which ranks it with the others on draws (:func:`simulations.audit.search_pair`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

EXACT_RANDOM = 64     # random neighbouring pairs whose exact loss is computed ...
EXACT_LOCAL = 64      # ... then local moves from the best


@dataclass(frozen=True)
class ExactSearch:
    """The worst pair found by the exact search, its exact loss, and the losses seen (for the line)."""

    pair: tuple
    loss: float
    tried: int
    accepted: int
    given_loss: float  # the case's own pair's exact loss

    def describe(self, declared: float) -> str:
        frac = f" = {self.loss / declared:.2f} of the declared {declared:g}" if declared > 0 else ""
        return (f"exact-loss search over {self.tried} neighbouring pairs ({self.accepted} local moves kept): worst "
                f"exact loss {self.loss:.4g}{frac} (the case's own pair: {self.given_loss:.4g})")


def replace_one_pair(rng, cells: int, n_min: int, n_max: int) -> tuple[np.ndarray, np.ndarray]:
    """A random neighbouring pair for a target's exact-loss search (``loss_neighbours``): n uniform on
    ``n_min``..``n_max`` records, each a cell of ``0..cells-1`` drawn from a random (Dirichlet) law, and the same data
    set with one record replaced by another cell. Returns the two arrays of cell indices."""
    n = int(rng.integers(n_min, n_max + 1))
    d0 = rng.choice(cells, size=n, p=rng.dirichlet(np.ones(cells)))
    d1 = d0.copy()
    i = int(rng.integers(0, n))
    d1[i] = (d0[i] + rng.integers(1, cells)) % cells
    return d0, d1


def eps_at_delta(p, q, delta: float) -> float:
    """The exact eps at ``delta`` of two laws on the same finite set of outputs (probability vectors ``p``, ``q``):
    max over both directions and the top-j sets E of log((P(E) - delta) / Q(E)) (the hockey-stick divergence's
    optimal sets are the j outputs of largest P / Q); inf when an output one law gives probability above delta has
    probability 0 under the other. A target's ``pair_loss`` from its finite exact law (the NB20 targets')."""
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    best = 0.0
    for a, b in ((p, q), (q, p)):
        keep = a > 0
        a, b = a[keep], b[keep]
        with np.errstate(divide="ignore"):
            ratio = np.where(b > 0, np.log(a) - np.log(np.where(b > 0, b, 1.0)), np.inf)
        order = np.argsort(-ratio, kind="stable")
        top_a, top_b = np.cumsum(a[order]), np.cumsum(b[order])
        ok = top_a > delta
        if not ok.any():
            continue
        with np.errstate(divide="ignore"):
            cand = np.where(top_b[ok] > 0, np.log(top_a[ok] - delta) - np.log(np.where(top_b[ok] > 0, top_b[ok], 1)),
                            np.inf)
        best = max(best, float(np.max(cand)))
    return best


def exact_loss_search(case, rng, random: int = EXACT_RANDOM, local: int = EXACT_LOCAL) -> ExactSearch | None:
    """The neighbouring pair of largest ``case.pair_loss`` among the case's pair, its starts, ``random`` pairs from
    ``case.neighbours`` and ``local`` moves by ``case.mutate`` (module docstring); None when the case gives no
    exact loss or cannot draw pairs."""
    draw = case.neighbours if case.neighbours is not None else case.loss_neighbours
    if case.pair_loss is None or draw is None:
        return None
    if case.neighbours is None:     # pairs ranked by exact loss only: no local moves
        local = 0

    def loss(pair):
        x = float(case.pair_loss(pair))
        return x if not math.isnan(x) else -math.inf

    given = loss(case.private_pair)
    pairs = [case.private_pair, *case.starts] + [draw(rng) for _ in range(random)]
    scored = [(given, case.private_pair)] + [(loss(p), p) for p in pairs[1:]]
    best = max(scored, key=lambda t: t[0])
    accepted = 0
    if case.mutate is not None and case.neighbours is not None:
        for _ in range(local):
            cand = case.mutate(best[1], rng)
            x = loss(cand)
            scored.append((x, cand))
            if x > best[0]:
                best, accepted = (x, cand), accepted + 1
    return ExactSearch(best[1], float(best[0]), len(scored), accepted, float(given))
