"""The rigorous namespace of :mod:`bounds.ops`: :data:`INTERVAL` evaluates a formula ``f(o, ...)`` on intervals
(:class:`Interval`, mpmath's ``iv`` endpoints rounded outward) and returns an interval that encloses every value the
formula takes on the box; on :class:`Dual` numbers it also encloses the formula's gradient over the box (forward
mode), which lets a prover use monotonicity and the mean-value form (proofs_checks.certify). Imported by
bounds.ops, the import path to use; mpmath is imported on first use."""
from __future__ import annotations

import math

import numpy as np



class Undecided(ArithmeticError):
    """A comparison of two overlapping intervals (or a log, sqrt or power outside its domain): the formula
    branches on something the box does not decide (the caller splits the box or gives up). A float or a
    truth value asked of an interval is a TypeError instead: that formula cannot be evaluated on intervals."""


def _iv():
    from mpmath import iv

    return iv


class _Refused:
    """What an interval refuses: a truth value, a float or an int (the formula would leave interval arithmetic
    silently), hashing, and numpy's ufuncs (numpy defers to the reflected operators; its functions raise)."""

    __slots__ = ()
    __array_ufunc__ = None
    __hash__ = None

    def __bool__(self):
        raise TypeError("the truth value of an interval (compare it instead)")

    def __float__(self):
        raise TypeError("an interval is not one float: the formula leaves interval arithmetic")

    __int__ = __index__ = __float__


class Interval(_Refused):
    """A closed real interval [lo, hi] that encloses every value a formula takes on a box.

    Arithmetic rounds outward (mpmath ``iv``). A comparison answers True or False only when it holds for
    every pair of points of the two intervals, and raises :class:`Undecided` otherwise; ``bool()``,
    ``float()`` and numpy's ufuncs are refused, so a formula that silently leaves interval arithmetic
    (``np.maximum``, ``math.log``, scipy) raises instead of returning an unsound enclosure.
    """

    __slots__ = ("v",)

    def __init__(self, lo, hi=None):
        iv = _iv()
        if isinstance(lo, Interval):
            self.v = lo.v
        elif isinstance(lo, Dual):
            raise TypeError("a dual number is not an interval (its gradient would be lost)")
        elif hi is None:
            self.v = lo if isinstance(lo, type(iv.mpf(0))) else iv.mpf(_exact(lo))
        else:
            self.v = iv.mpf([_exact(lo), _exact(hi)])

    @property
    def lo(self):
        return self.v.a

    @property
    def hi(self):
        return self.v.b

    def __repr__(self):
        return f"Interval({float(self.v.a)!r}, {float(self.v.b)!r})"

    def _bin(self, other, op):
        o = _coerce(other)
        return NotImplemented if o is None else Interval(op(self.v, o.v))

    def __add__(self, o):
        return self._bin(o, lambda a, b: a + b)

    def __radd__(self, o):
        return self._bin(o, lambda a, b: b + a)

    def __sub__(self, o):
        return self._bin(o, lambda a, b: a - b)

    def __rsub__(self, o):
        return self._bin(o, lambda a, b: b - a)

    def __mul__(self, o):
        return self._bin(o, lambda a, b: a * b)

    def __rmul__(self, o):
        return self._bin(o, lambda a, b: b * a)

    def __truediv__(self, o):
        return self._bin(o, lambda a, b: a / b)

    def __rtruediv__(self, o):
        return self._bin(o, lambda a, b: b / a)

    def __pow__(self, o):
        o = _coerce(o)
        if o is None:
            return NotImplemented
        if o.lo == o.hi and o.lo == int(o.lo):  # integer power: exact sign handling
            return Interval(self.v ** int(o.lo))
        if self.lo < 0:
            raise Undecided("a non-integer power of an interval reaching below 0")
        return Interval(self.v ** o.v)

    def __rpow__(self, o):
        o = _coerce(o)
        return NotImplemented if o is None else o ** self

    def __neg__(self):
        return Interval(-self.v)

    def __pos__(self):
        return self

    def __abs__(self):
        if self.lo >= 0:
            return self
        if self.hi <= 0:
            return -self
        return Interval(0, max(-self.lo, self.hi))

    def _cmp(self, other, strict: bool, less: bool):
        o = _coerce(other)
        if o is None:
            return NotImplemented
        a, b = (self, o) if less else (o, self)  # decide a < b (strict) or a <= b
        if (a.hi < b.lo) if strict else (a.hi <= b.lo):
            return True
        if (a.lo >= b.hi) if strict else (a.lo > b.hi):
            return False
        raise Undecided("the box does not decide a comparison")

    def __lt__(self, o):
        return self._cmp(o, True, True)

    def __le__(self, o):
        return self._cmp(o, False, True)

    def __gt__(self, o):
        return self._cmp(o, True, False)

    def __ge__(self, o):
        return self._cmp(o, False, False)

    def __eq__(self, o):
        o = _coerce(o)
        if o is None:
            return NotImplemented
        if self.lo == self.hi == o.lo == o.hi:
            return True
        if self.hi < o.lo or o.hi < self.lo:
            return False
        raise Undecided("the box does not decide an equality")



def _exact(x):
    """A number as an mpmath value without rounding (floats and ints are exact binary numbers)."""
    import mpmath

    if isinstance(x, (bool, np.bool_)):
        return int(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return mpmath.mpf(float(x))
    return x


def _coerce(x) -> Interval | None:
    if isinstance(x, Interval):
        return x
    if isinstance(x, (int, float, np.integer, np.floating, bool, np.bool_)):
        if isinstance(x, (float, np.floating)) and math.isnan(x):
            raise Undecided("nan in an interval formula")
        return Interval(x)
    if isinstance(x, np.ndarray) and x.shape == ():
        return _coerce(x.item())
    return None


def _iv_apply(f, x):
    x = _coerce(x)
    if x is None:
        raise TypeError(f"interval arithmetic got {type(x).__name__}")
    return Interval(f(x.v))


def _round(x, up: bool) -> Interval:
    import mpmath

    x = _coerce(x)
    r = mpmath.ceil if up else mpmath.floor
    return Interval(r(mpmath.mpf(x.lo)), r(mpmath.mpf(x.hi)))


def _g(d, k: int):
    return d[k] if d is not None else None


def _gcomb(a, fa, b=None, fb=None):
    """fa * a + fb * b for gradient tuples (None is the zero gradient)."""
    if a is None and b is None:
        return None
    n = len(a if a is not None else b)
    out = []
    for k in range(n):
        t = None
        if a is not None:
            t = fa * a[k]
        if b is not None:
            u = fb * b[k]
            t = u if t is None else t + u
        out.append(t)
    return tuple(out)


class Dual(_Refused):
    """An interval value ``v`` with an interval enclosure ``d`` of its gradient over the box (one Interval per
    variable; None for a constant): forward-mode differentiation in interval arithmetic. A formula's gradient
    enclosure proves it monotone in a variable on a box (``d[k].lo >= 0``) and gives the mean-value form
    f(box) in f(c) + sum_k d[k] (box_k - c_k). Comparisons, ``bool`` and ``float`` behave as on :class:`Interval`."""

    __slots__ = ("v", "d")

    def __init__(self, v, d=None):
        self.v = v if isinstance(v, Interval) else Interval(v)
        self.d = d

    @staticmethod
    def variables(values) -> list["Dual"]:
        n = len(values)
        zero, one = Interval(0), Interval(1)
        return [Dual(Interval(v), tuple(one if j == i else zero for j in range(n))) for i, v in enumerate(values)]

    def __repr__(self):
        return f"Dual({self.v!r}, {self.d!r})"

    def __add__(self, o):
        o = _dual(o)
        return NotImplemented if o is None else Dual(self.v + o.v, _gcomb(self.d, 1, o.d, 1))

    __radd__ = __add__

    def __sub__(self, o):
        o = _dual(o)
        return NotImplemented if o is None else Dual(self.v - o.v, _gcomb(self.d, 1, o.d, -1))

    def __rsub__(self, o):
        o = _dual(o)
        return NotImplemented if o is None else o - self

    def __mul__(self, o):
        o = _dual(o)
        return NotImplemented if o is None else Dual(self.v * o.v, _gcomb(self.d, o.v, o.d, self.v))

    __rmul__ = __mul__

    def __truediv__(self, o):
        o = _dual(o)
        if o is None:
            return NotImplemented
        q = self.v / o.v
        return Dual(q, _gcomb(self.d, 1 / o.v, o.d, -q / o.v))

    def __rtruediv__(self, o):
        o = _dual(o)
        return NotImplemented if o is None else o / self

    def __pow__(self, o):
        o = _dual(o)
        if o is None:
            return NotImplemented
        if o.d is not None:  # a variable exponent: exp(o log(self))
            return INTERVAL.exp(o * INTERVAL.log(self))
        p = o.v
        if p.lo == p.hi and p.lo == int(p.lo):
            k = int(p.lo)
            if k == 0:
                return Dual(Interval(1))
            return Dual(self.v ** k, _gcomb(self.d, k * self.v ** (k - 1)))
        return Dual(self.v ** p, _gcomb(self.d, p * self.v ** (p - 1)))

    def __rpow__(self, o):
        o = _dual(o)
        return NotImplemented if o is None else o ** self

    def __neg__(self):
        return Dual(-self.v, _gcomb(self.d, -1))

    def __pos__(self):
        return self

    def __abs__(self):
        if self.v.lo >= 0:
            return self
        if self.v.hi <= 0:
            return -self
        raise Undecided("abs of a dual number whose sign the box does not decide")

    def __lt__(self, o):
        return self.v < _value(o)

    def __le__(self, o):
        return self.v <= _value(o)

    def __gt__(self, o):
        return self.v > _value(o)

    def __ge__(self, o):
        return self.v >= _value(o)

    def __eq__(self, o):
        return self.v == _value(o)



def _dual(x) -> Dual | None:
    if isinstance(x, Dual):
        return x
    c = _coerce(x)
    return None if c is None else Dual(c)


def _value(x):
    return x.v if isinstance(x, Dual) else x


def _chain(x: Dual, value: Interval, slope) -> Dual:
    """f(x) with f(x.v) = value and f' on x.v enclosed by ``slope``."""
    return Dual(value, _gcomb(x.d, slope))


def unknown_slope(value: Interval, like: Dual) -> Dual:
    """A value whose dependence on the variables is not known (a gradient enclosure of [-inf, inf] per variable)."""
    if like.d is None:
        return Dual(value)
    inf = _iv().inf
    return Dual(value, tuple(Interval(-inf, inf) for _ in like.d))


def _monotone_step(x: Dual, value: Interval) -> Dual:
    """A non-decreasing step function (ceil, floor) of x: gradient 0 where it does not jump on the box; where it
    jumps only the sign of each component is kept ([0, inf] or [-inf, 0]: still monotone, never a mean value)."""
    if value.lo == value.hi or x.d is None:
        return Dual(value)
    inf = _iv().inf
    d = tuple(Interval(0, inf) if g.lo >= 0 else Interval(-inf, 0) if g.hi <= 0 else Interval(-inf, inf)
              for g in x.d)
    return Dual(value, d)


class _IntervalOps:
    """The rigorous namespace: every function maps intervals to an interval enclosing its range."""

    name = "interval"

    @property
    def pi(self):
        return Interval(_iv().pi)

    @property
    def e(self):
        return Interval(_iv().e)

    inf = math.inf

    def log(self, x):
        if isinstance(x, Dual):
            return _chain(x, self.log(x.v), 1 / x.v)
        x = _coerce(x)
        if x.lo <= 0:
            raise Undecided("log of an interval reaching 0 or below")
        return Interval(_iv().log(x.v))

    def log2(self, x):
        return self.log(x) / Interval(_iv().log(2))

    def exp(self, x):
        if isinstance(x, Dual):
            e = self.exp(x.v)
            return _chain(x, e, e)
        return _iv_apply(_iv().exp, x)

    def sqrt(self, x):
        if isinstance(x, Dual):
            r = self.sqrt(x.v)
            return _chain(x, r, 1 / (2 * r))
        x = _coerce(x)
        if x.lo < 0:
            raise Undecided("sqrt of an interval reaching below 0")
        return Interval(_iv().sqrt(x.v))

    def ceil(self, x):
        return _monotone_step(x, _round(x.v, True)) if isinstance(x, Dual) else _round(x, True)

    def floor(self, x):
        return _monotone_step(x, _round(x.v, False)) if isinstance(x, Dual) else _round(x, False)

    def max(self, a, b):
        if isinstance(a, Dual) or isinstance(b, Dual):
            return _hull_pick(_dual(a), _dual(b), True)
        a, b = _coerce(a), _coerce(b)
        return Interval(max(a.lo, b.lo), max(a.hi, b.hi))

    def min(self, a, b):
        if isinstance(a, Dual) or isinstance(b, Dual):
            return _hull_pick(_dual(a), _dual(b), False)
        a, b = _coerce(a), _coerce(b)
        return Interval(min(a.lo, b.lo), min(a.hi, b.hi))

    def log1p(self, x):
        return self.log(1 + (x if isinstance(x, Dual) else _coerce(x)))

    def expm1(self, x):
        return self.exp(x) - 1

    def frac(self, p, q):
        if isinstance(p, Dual) or isinstance(q, Dual):
            return _dual(p) / _dual(q)
        return _coerce(p) / _coerce(q)

    def gt(self, a, b):
        try:
            return Interval(1 if _coerce(_value(a)) > _coerce(_value(b)) else 0)
        except Undecided:
            if isinstance(a, Dual) or isinstance(b, Dual):  # a jump inside the box: no slope is known
                return unknown_slope(Interval(0, 1), a if isinstance(a, Dual) else b)
            return Interval(0, 1)

    def binomial(self, n, k):
        raise Undecided("binomial coefficients have no interval form here")


INTERVAL = _IntervalOps()


def _hull_pick(a: Dual, b: Dual, larger: bool) -> Dual:
    """max (larger) or min of two dual numbers: the one the box decides, else the hull of values and gradients
    (the max or min of two functions is monotone wherever both are, with one-sided slopes between theirs)."""
    try:
        if a.v >= b.v:
            return a if larger else b
        if a.v <= b.v:
            return b if larger else a
    except Undecided:
        pass
    v = INTERVAL.max(a.v, b.v) if larger else INTERVAL.min(a.v, b.v)
    if a.d is None and b.d is None:
        return Dual(v)
    zero = Interval(0)
    ad = a.d or tuple(zero for _ in b.d)
    bd = b.d or tuple(zero for _ in a.d)
    return Dual(v, tuple(Interval(min(x.lo, y.lo), max(x.hi, y.hi)) for x, y in zip(ad, bd)))
