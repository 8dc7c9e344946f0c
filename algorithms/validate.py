"""The input checks every algorithm shares, under public names (no private validator is
imported across modules). Each raises ValueError naming the argument, its value and the allowed range.

- :func:`check_rng` (a ``numpy.random.Generator``), :func:`check_values` (a finite float array),
  :func:`check_size` (an integer >= 1): defined in :mod:`algorithms.privacy.mechanisms`;
- :func:`check_real`, :func:`check_positive_finite`, :func:`check_delta` (in [0, 1), or (0, 1)),
  :func:`check_guarantee` (a PureDP / ApproxDP / ZCDP value): defined in :mod:`algorithms.privacy.accounting`;
- :func:`check_unit_open` (in (0, 1)): defined in :mod:`algorithms.query_release.pmw`.

New code imports them from here; the defining modules keep their private names for their own use.
"""
from __future__ import annotations

from .privacy.accounting import _check_delta as check_delta
from .privacy.accounting import _check_guarantee as check_guarantee
from .privacy.accounting import _check_positive_finite as check_positive_finite
from .privacy.accounting import _check_real as check_real
from .privacy.mechanisms import _check_rng as check_rng
from .privacy.mechanisms import _check_size as check_size
from .privacy.mechanisms import _check_values as check_values


def check_unit_open(name: str, value) -> float:
    """``value`` as a float in the open interval (0, 1) (algorithms.query_release.pmw's check)."""
    from .query_release.pmw import _check_unit_open

    return _check_unit_open(name, value)


__all__ = ["check_rng", "check_values", "check_size", "check_real", "check_positive_finite", "check_delta",
           "check_guarantee", "check_unit_open"]
