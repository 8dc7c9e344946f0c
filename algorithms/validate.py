"""The input checks every algorithm shares, defined once here (the algorithm modules import them). Each raises
ValueError naming the argument, its value and the allowed range, and returns the value in its checked type.

>>> check_int("T", 3), check_unit_open("alpha", "0.5")
(3, 0.5)
>>> check_int("n_pub", 0)
Traceback (most recent call last):
ValueError: n_pub=0 out of range: allowed integers >= 1
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["check_rng", "check_values", "check_int", "check_size", "check_real", "check_nonneg_finite",
           "check_positive_finite", "check_delta", "check_unit_open"]


def check_rng(rng: Any) -> np.random.Generator:
    """A ``numpy.random.Generator`` (randomness is an argument)."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng={rng!r} must be a numpy.random.Generator")
    return rng


def check_values(name: str, values: Any) -> np.ndarray:
    """A float array with finite entries."""
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={values!r} must be an array of real numbers") from None
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} contains non-finite entries: allowed finite reals")
    return x


def check_int(name: str, value: Any, lo: int = 1) -> int:
    """An integer (not a bool) >= ``lo``: counts, sizes, iterations."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < lo:
        raise ValueError(f"{name}={value!r} out of range: allowed integers >= {lo}")
    return int(value)


def check_size(size: Any) -> int:
    """The ``size`` of a batch of draws: an integer >= 1."""
    return check_int("size", size)


def check_real(name: str, value: Any) -> float:
    """A real number (not nan)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r} must be a real number") from None
    if math.isnan(x):
        raise ValueError(f"{name}={value!r} must be a real number, not nan")
    return x


def check_nonneg_finite(name: str, value: Any) -> float:
    """A real number in [0, inf)."""
    x = check_real(name, value)
    if not (0.0 <= x < math.inf):
        raise ValueError(f"{name}={value!r} out of range: allowed [0, inf)")
    return x


def check_positive_finite(name: str, value: Any) -> float:
    """A real number in (0, inf)."""
    x = check_real(name, value)
    if not (0.0 < x < math.inf):
        raise ValueError(f"{name}={value!r} out of range: allowed (0, inf)")
    return x


def check_delta(name: str, value: Any, *, allow_zero: bool = True) -> float:
    """A delta in [0, 1) (or (0, 1) with ``allow_zero=False``)."""
    x = check_real(name, value)
    lo_ok = x >= 0.0 if allow_zero else x > 0.0
    if not (lo_ok and x < 1.0):
        rng = "[0, 1)" if allow_zero else "(0, 1)"
        raise ValueError(f"{name}={value!r} out of range: allowed {rng}")
    return x


def check_unit_open(name: str, value: Any) -> float:
    """A real number in the open interval (0, 1)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r} must be a real number in (0, 1)") from None
    if not (0.0 < x < 1.0):
        raise ValueError(f"{name}={value!r} out of range: allowed (0, 1)")
    return x
