"""Math namespaces that let one formula serve three purposes.

A formula is written once, as a Python function whose first argument ``o`` is one of these
namespaces, e.g. ``def n(o, alpha, eps): return 200 * o.sqrt(o.log(2)) / (eps * alpha**2)``.
Called with

- ``NUMPY`` and float arrays it evaluates fast and vectorised (compute, sweep);
- ``MPMATH`` and mpmath numbers it evaluates beyond floating-point range (log-space fallback);
- ``SYMPY`` and sympy symbols it returns the symbolic expression (show, LaTeX, proof checks).

Write exact rationals as ``o.frac(1, 2)``, not ``1/2`` (which would be a float in sympy), and
use ``o.max``/``o.min`` rather than Python's max/min. sympy and mpmath are imported lazily, so
``python -m bounds compute`` never pays for them unless it needs them.
"""
from __future__ import annotations

import math
from functools import cached_property

import numpy as np


class _NumpyOps:
    name = "numpy"
    pi = math.pi
    e = math.e
    inf = math.inf
    log = staticmethod(np.log)
    log2 = staticmethod(np.log2)
    exp = staticmethod(np.exp)
    sqrt = staticmethod(np.sqrt)
    ceil = staticmethod(np.ceil)
    floor = staticmethod(np.floor)
    max = staticmethod(np.maximum)
    min = staticmethod(np.minimum)
    log1p = staticmethod(np.log1p)
    expm1 = staticmethod(np.expm1)

    @staticmethod
    def frac(p, q):
        return p / q

    @staticmethod
    def gt(a, b):
        """1 where a > b, else 0 (a regime switch, e.g. NB20 Algorithm 4's second phase)."""
        return np.greater(a, b).astype(float)

    @staticmethod
    def binomial(n, k):
        from scipy.special import comb

        return comb(n, k, exact=False)

    @staticmethod
    def log_ndtr(x):
        """log Phi(x), the standard normal CDF's logarithm (accurate far into the lower tail)."""
        from scipy.special import log_ndtr

        return log_ndtr(x)


class _MpmathOps:
    name = "mpmath"

    @cached_property
    def _mp(self):
        import mpmath

        return mpmath

    @property
    def pi(self):
        return self._mp.pi

    @property
    def e(self):
        return self._mp.e

    @property
    def inf(self):
        return self._mp.inf

    def log(self, x):
        return self._mp.log(x)

    def log2(self, x):
        return self._mp.log(x, 2)

    def exp(self, x):
        return self._mp.exp(x)

    def sqrt(self, x):
        return self._mp.sqrt(x)

    def ceil(self, x):
        return self._mp.ceil(x)

    def floor(self, x):
        return self._mp.floor(x)

    def max(self, a, b):
        return a if a >= b else b

    def gt(self, a, b):
        return self._mp.mpf(1) if a > b else self._mp.mpf(0)

    def min(self, a, b):
        return a if a <= b else b

    def log1p(self, x):
        return self._mp.log1p(x)

    def expm1(self, x):
        return self._mp.expm1(x)

    def frac(self, p, q):
        return self._mp.mpf(p) / q

    def binomial(self, n, k):
        return self._mp.binomial(n, k)

    def log_ndtr(self, x):
        mp = self._mp
        # Mills ratio: log Phi(x) = -x^2/2 - log(-x sqrt(2 pi)) + log(1 - 1/x^2 + O(x^-4)), to 1e-24 below -1e6
        if x < -1e6:
            return -x * x / 2 - mp.log(-x * mp.sqrt(2 * mp.pi)) + mp.log1p(-1 / (x * x))
        return mp.log(mp.ncdf(x))


class _SympyOps:
    name = "sympy"

    @cached_property
    def _sp(self):
        import sympy

        return sympy

    @property
    def pi(self):
        return self._sp.pi

    @property
    def e(self):
        return self._sp.E

    @property
    def inf(self):
        return self._sp.oo

    def log(self, x):
        return self._sp.log(x)

    def log2(self, x):
        return self._sp.log(x, 2)

    def exp(self, x):
        return self._sp.exp(x)

    def sqrt(self, x):
        return self._sp.sqrt(x)

    def ceil(self, x):
        return self._sp.ceiling(x)

    def floor(self, x):
        return self._sp.floor(x)

    def max(self, a, b):
        return self._sp.Max(a, b)

    def gt(self, a, b):
        return self._sp.Piecewise((1, self._sp.StrictGreaterThan(a, b)), (0, True))

    def min(self, a, b):
        return self._sp.Min(a, b)

    def log1p(self, x):
        return self._sp.log(1 + x)

    def expm1(self, x):
        return self._sp.exp(x) - 1

    def frac(self, p, q):
        return self._sp.Rational(p, q) if isinstance(p, int) and isinstance(q, int) else self._sp.S(p) / q

    def binomial(self, n, k):
        return self._sp.binomial(n, k)

    def log_ndtr(self, x):
        return self._sp.log(self._sp.erfc(-x / self._sp.sqrt(2)) / 2)


NUMPY = _NumpyOps()
MPMATH = _MpmathOps()
SYMPY = _SympyOps()


# ---------------------------------------------------------------------------------------------
# the rigorous namespace (interval arithmetic with outward rounding; bounds/_interval.py)

# re-exported: bounds.ops is the import path
from ._interval import INTERVAL, Dual, Interval, Undecided, precision  # noqa: E402,F401
