"""The rigorous namespace of :mod:`bounds.ops`: :data:`INTERVAL` evaluates a formula ``f(o, ...)`` on intervals
(:class:`Interval`: exact end points, every operation rounded outward) and returns an interval that encloses every
value the formula takes on the box; on :class:`Dual` numbers it also encloses the formula's gradient over the box
(forward mode), which lets a prover use monotonicity and the mean-value form (proofs_checks.certify). The end points
are FLINT's arb numbers (python-flint): each operation is done in arb's ball arithmetic on exact end points and the
ball's lower or upper bound kept, so the rounding is outward at :func:`precision`'s bits (53 unless a prover raises
it). Imported by bounds.ops, the import path to use; python-flint is imported on first use."""
from __future__ import annotations

import contextlib
import math

import numpy as np

class Undecided(ArithmeticError):
    """A comparison of two overlapping intervals (or a log, sqrt, power or quotient outside its domain): the formula
    branches on something the box does not decide (the caller splits the box or gives up). A float or a
    truth value asked of an interval is a TypeError instead: that formula cannot be evaluated on intervals."""


_FLINT: dict = {}


def _arb():
    """python-flint's arb type (imported on first use) and its exact infinities."""
    if not _FLINT:
        from flint import arb, ctx

        _FLINT.update(arb=arb, ctx=ctx, pinf=arb.pos_inf(), ninf=arb.neg_inf())
    return _FLINT["arb"]


@contextlib.contextmanager
def precision(bits: int):
    """Round the end points to ``bits`` bits inside the block (outward, whatever the precision)."""
    _arb()
    ctx = _FLINT["ctx"]
    saved, ctx.prec = ctx.prec, bits
    try:
        yield
    finally:
        ctx.prec = saved


def _dn(x):
    """The lower bound of an arb ball, as an exact point (-inf for nan: a product or difference of infinities
    encloses nothing narrower)."""
    r = x.lower()
    return _FLINT["ninf"] if r.is_nan() else r


def _up(x):
    r = x.upper()
    return _FLINT["pinf"] if r.is_nan() else r


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


def _point(x):
    """A number as an arb ball: floats and ints exactly (they are binary numbers), an arb as it is."""
    arb = _arb()
    if isinstance(x, arb):
        return x
    if isinstance(x, (bool, np.bool_, int, np.integer)):
        return arb(int(x))
    if isinstance(x, (float, np.floating)):
        if math.isnan(x):
            raise Undecided("nan in an interval formula")
        return _FLINT["pinf"] if x == math.inf else _FLINT["ninf"] if x == -math.inf else arb(float(x))
    raise TypeError(f"interval arithmetic got {type(x).__name__}")


class Interval(_Refused):
    """A closed real interval [lo, hi] that encloses every value a formula takes on a box.

    The end points ``lo`` and ``hi`` are exact arb numbers; arithmetic rounds outward. A comparison answers True or
    False only when it holds for every pair of points of the two intervals, and raises :class:`Undecided` otherwise;
    ``bool()``, ``float()`` and numpy's ufuncs are refused, so a formula that silently leaves interval arithmetic
    (``np.maximum``, ``math.log``, scipy) raises instead of returning an unsound enclosure.
    """

    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi=None):
        if isinstance(lo, Interval):
            self.lo, self.hi = lo.lo, lo.hi
            return
        if isinstance(lo, Dual):
            raise TypeError("a dual number is not an interval (its gradient would be lost)")
        a = _point(lo)
        b = a if hi is None else _point(hi)
        self.lo, self.hi = (a, b) if a.is_exact() and b.is_exact() else (_dn(a), _up(b))

    @classmethod
    def _of(cls, lo, hi) -> "Interval":
        """From exact end points (no checks)."""
        out = object.__new__(cls)
        out.lo, out.hi = lo, hi
        return out

    def __repr__(self):
        return f"Interval({float(self.lo)!r}, {float(self.hi)!r})"

    def __add__(self, o):
        o = _coerce(o)
        if o is None:
            return NotImplemented
        return Interval._of(_dn(self.lo + o.lo), _up(self.hi + o.hi))

    __radd__ = __add__

    def __sub__(self, o):
        o = _coerce(o)
        if o is None:
            return NotImplemented
        return Interval._of(_dn(self.lo - o.hi), _up(self.hi - o.lo))

    def __rsub__(self, o):
        o = _coerce(o)
        return NotImplemented if o is None else o - self

    def __mul__(self, o):
        o = _coerce(o)
        if o is None:
            return NotImplemented
        a, b, c, d = self.lo, self.hi, o.lo, o.hi
        if a >= 0 and c >= 0:
            return Interval._of(_dn(a * c), _up(b * d))
        if (a == 0 and b == 0) or (c == 0 and d == 0):  # 0 times any real (an infinite end point is a bound)
            return Interval(0)
        ps = (a * c, a * d, b * c, b * d)
        return Interval._of(min(_dn(p) for p in ps), max(_up(p) for p in ps))

    __rmul__ = __mul__

    def __truediv__(self, o):
        o = _coerce(o)
        if o is None:
            return NotImplemented
        a, b, c, d = self.lo, self.hi, o.lo, o.hi
        if not (c > 0 or d < 0):
            raise Undecided("a quotient by an interval reaching 0")
        if a >= 0 and c > 0:
            return Interval._of(_dn(a / d), _up(b / c))
        qs = (a / c, a / d, b / c, b / d)
        return Interval._of(min(_dn(q) for q in qs), max(_up(q) for q in qs))

    def __rtruediv__(self, o):
        o = _coerce(o)
        return NotImplemented if o is None else o / self

    def __pow__(self, o):
        o = _coerce(o)
        if o is None:
            return NotImplemented
        if o.lo == o.hi and o.lo.is_integer() and o.lo.is_finite():  # integer power: exact sign handling
            return self._ipow(int(o.lo.unique_fmpz()))
        if self.lo < 0:
            raise Undecided("a non-integer power of an interval reaching below 0")
        if self.lo == 0 and o.lo <= 0:
            raise Undecided("a non-positive power of an interval reaching 0")
        # x^p is monotone in x for each p and in p for each x > 0: its extremes on the box are at the corners
        cs = [x ** p for x in (self.lo, self.hi) for p in (o.lo, o.hi)]
        return Interval._of(min(_dn(c) for c in cs), max(_up(c) for c in cs))

    def _ipow(self, k: int) -> "Interval":
        if k == 0:
            return Interval(1)
        if k < 0:
            return Interval(1) / self._ipow(-k)
        a, b = self.lo, self.hi
        if k % 2 == 1 or a >= 0:
            return Interval._of(_dn(a ** k), _up(b ** k))
        if b <= 0:
            return Interval._of(_dn(b ** k), _up(a ** k))
        return Interval._of(_arb()(0), max(_up(a ** k), _up(b ** k)))

    def __rpow__(self, o):
        o = _coerce(o)
        return NotImplemented if o is None else o ** self

    def __neg__(self):
        return Interval._of(-self.hi, -self.lo)

    def __pos__(self):
        return self

    def __abs__(self):
        if self.lo >= 0:
            return self
        if self.hi <= 0:
            return -self
        return Interval._of(_arb()(0), max(-self.lo, self.hi))

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


def _coerce(x) -> Interval | None:
    if isinstance(x, Interval):
        return x
    if isinstance(x, (int, float, np.integer, np.floating, bool, np.bool_)):
        return Interval(x)
    if isinstance(x, np.ndarray) and x.shape == ():
        return _coerce(x.item())
    if _FLINT and isinstance(x, _FLINT["arb"]):
        return Interval(x)
    return None


def _monotone(f, x, increasing: bool = True) -> Interval:
    """f on an interval, f monotone on it: f at the two exact end points, rounded outward."""
    x = _coerce(x)
    if x is None:
        raise TypeError("interval arithmetic got a value it cannot enclose")
    if increasing:
        return Interval._of(_dn(f(x.lo)), _up(f(x.hi)))
    return Interval._of(_dn(f(x.hi)), _up(f(x.lo)))


def _round(x, up: bool) -> Interval:
    x = _coerce(x)

    def r(e):
        return e if not e.is_finite() else (e.ceil() if up else e.floor())

    return Interval._of(r(x.lo), r(x.hi))


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
        if p.lo == p.hi and p.lo.is_integer() and p.lo.is_finite():
            k = int(p.lo.unique_fmpz())
            if k == 0:
                return Dual(Interval(1))
            return Dual(self.v ** k, _gcomb(self.d, k * self.v ** (k - 1)))
        value = self.v ** p
        try:
            slope = p * self.v ** (p - 1)
        except Undecided:  # x^(p-1) unbounded at x = 0 (value defined there, so x >= 0): only its sign is known
            slope = p * Interval(0, math.inf)
        return Dual(value, _gcomb(self.d, slope))

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
    inf = math.inf
    return Dual(value, tuple(Interval(-inf, inf) for _ in like.d))


def _monotone_step(x: Dual, value: Interval) -> Dual:
    """A non-decreasing step function (ceil, floor) of x: gradient 0 where it does not jump on the box; where it
    jumps only the sign of each component is kept ([0, inf] or [-inf, 0]: still monotone, never a mean value)."""
    if value.lo == value.hi or x.d is None:
        return Dual(value)
    inf = math.inf
    d = tuple(Interval(0, inf) if g.lo >= 0 else Interval(-inf, 0) if g.hi <= 0 else Interval(-inf, inf)
              for g in x.d)
    return Dual(value, d)


class _IntervalOps:
    """The rigorous namespace: every function maps intervals to an interval enclosing its range."""

    name = "interval"

    @property
    def pi(self):
        return Interval(_arb().pi())

    @property
    def e(self):
        return Interval(_arb().const_e())

    inf = math.inf

    def log(self, x):
        if isinstance(x, Dual):
            return _chain(x, self.log(x.v), 1 / x.v)
        x = _coerce(x)
        if x.lo <= 0:
            raise Undecided("log of an interval reaching 0 or below")
        return _monotone(lambda e: e.log(), x)

    def log2(self, x):
        return self.log(x) / Interval(_arb().const_log2())

    def exp(self, x):
        if isinstance(x, Dual):
            e = self.exp(x.v)
            return _chain(x, e, e)
        return _monotone(lambda e: e.exp(), x)

    def sqrt(self, x):
        if isinstance(x, Dual):
            r = self.sqrt(x.v)
            return _chain(x, r, 1 / (2 * r) if r.lo > 0 else Interval(_dn(1 / (2 * r.hi)), math.inf))
        x = _coerce(x)
        if x.lo < 0:
            raise Undecided("sqrt of an interval reaching below 0")
        return _monotone(lambda e: e.sqrt(), x)

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
        if isinstance(x, Dual):
            return _chain(x, self.log1p(x.v), 1 / (1 + x.v))
        x = _coerce(x)
        if x.lo <= -1:
            raise Undecided("log1p of an interval reaching -1 or below")
        return _monotone(lambda e: e.log1p(), x)

    def expm1(self, x):
        if isinstance(x, Dual):
            return _chain(x, self.expm1(x.v), self.exp(x.v))
        return _monotone(lambda e: e.expm1(), x)

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
