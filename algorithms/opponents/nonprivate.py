"""The non-private extreme: exact answers of the private sample, and of the private and public samples pooled.

No privacy (``Release.guarantee`` is None, printed "none declared"): these are the releases a lower bound's
claim must be compared with (a failure of a private release counts against privacy or the public sample only in
a cell where these succeed), and the accuracy ceiling of any release at that n and m (their error is the
sampling error alone; uniform convergence, ``baselines:uc``).
"""
from __future__ import annotations

import numpy as np

from ..privacy import Release
from ..validate import check_int, check_values

__all__ = ["exact_private", "exact_pooled"]


def _answers(name: str, answers) -> np.ndarray:
    a = check_values(name, answers)
    if a.ndim != 1 or a.size == 0 or a.min() < -1.0 or a.max() > 1.0:
        raise ValueError(f"{name} must be a non-empty 1-d array in [-1, 1] (BCMNUW20 Definition 5's scale)")
    return a


def exact_private(private_answers) -> Release:
    """The private sample's exact empirical answers; no privacy (guarantee None)."""
    return Release(_answers("private_answers", private_answers).copy(), None)


def exact_pooled(private_answers, n: int, public_answers, m: int) -> Release:
    """The exact empirical answers of the n private and m public points pooled, (n a_x + m a_w)/(n + m); no privacy."""
    a = _answers("private_answers", private_answers)
    b = _answers("public_answers", public_answers)
    if a.shape != b.shape:
        raise ValueError(f"private_answers and public_answers must have one shape, got {a.shape} and {b.shape}")
    n, m = check_int("n", n), check_int("m", m)
    return Release((n * a + m * b) / (n + m), None)
