"""DWWZK18 (searching for the counterexample pair) with exact losses: a search over neighbouring pairs that
maximises the exact privacy loss a target computes from its own law (``AuditCase.pair_loss``), so an audit is run
on the worst pair found and its line states that pair's exact loss beside the declaration. Used by
:func:`simulations.audit.audit` before its sampled pair search; re-exported by :mod:`simulations.audit`.

The search: the case's pair and its ``starts``, ``EXACT_RANDOM`` pairs from ``neighbours(rng)``, then
``EXACT_LOCAL`` moves by ``mutate`` from the best so far (kept when the loss grows). Exact losses cost no samples,
so the search is cheap where the target's exact law is (small settings); it draws nothing the audit then uses, and
the audit's bound stays valid whatever pair it returns. A pair of larger exact loss is not always easier to test
(its loss may sit on an output of tiny probability), so the winner is handed to the sampled search as a start,
which ranks it with the others on draws (:func:`simulations.audit.search_pair`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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


def exact_loss_search(case, rng, random: int = EXACT_RANDOM, local: int = EXACT_LOCAL) -> ExactSearch | None:
    """The neighbouring pair of largest ``case.pair_loss`` among the case's pair, its starts, ``random`` pairs from
    ``case.neighbours`` and ``local`` moves by ``case.mutate`` (module docstring); None when the case gives no
    exact loss or cannot draw pairs."""
    if case.pair_loss is None or case.neighbours is None:
        return None

    def loss(pair):
        x = float(case.pair_loss(pair))
        return x if not math.isnan(x) else -math.inf

    given = loss(case.private_pair)
    pairs = [case.private_pair, *case.starts] + [case.neighbours(rng) for _ in range(random)]
    scored = [(given, case.private_pair)] + [(loss(p), p) for p in pairs[1:]]
    best = max(scored, key=lambda t: t[0])
    accepted = 0
    if case.mutate is not None:
        for _ in range(local):
            cand = case.mutate(best[1], rng)
            x = loss(cand)
            scored.append((x, cand))
            if x > best[0]:
                best, accepted = (x, cand), accepted + 1
    return ExactSearch(best[1], float(best[0]), len(scored), accepted, float(given))
