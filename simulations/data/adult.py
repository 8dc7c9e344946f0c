"""LVSUW21 Section 5.5.2: the UCI Adult data as the paper's categorical domain (13 attributes, 146 values).

The files ship in ``simulations/data/adult/`` (gzip of the original ``adult.data`` and ``adult.test``, CC BY 4.0,
Becker and Kohavi 1996; README there): nothing is downloaded. Both files together, 48,842 rows, as LVSUW21's
authors preprocess them (their code's ADULT configuration; the attribute sizes are the domain they publish):

================  ======  ===========================================================================
attribute         values  encoding
================  ======  ===========================================================================
workclass         9       the file's strings sorted ("?" = missing is a value of its own, first)
education         16      sorted strings
marital-status    7       sorted strings
occupation        15      sorted strings, "?" included
relationship      6       sorted strings
race              5       sorted strings
sex               2       Female = 0, Male = 1
native-country    42      sorted strings, "?" included
income>50K        2       <=50K = 0, >50K = 1 (the test file's trailing "." dropped)
age               10      [0,10) [10,20) ... [80,90) [90,inf)
capital-gain      16      edges 0, 0, 1000, 2000, ..., 10000, 15000, 20000, 30000, 50000, inf
capital-loss      6       edges 0, 0, 1000, 2000, 3000, 4000, inf
hours-per-week    10      [0,10) [10,20) ... [80,90) [90,inf)
================  ======  ===========================================================================

The numeric bins are the half-open intervals [e_i, e_{i+1}) of the edges, a value going to the last bin that
contains it; so for capital-gain and capital-loss, whose edges start 0, 0, the degenerate first bin {0} is
empty and 0 falls in [0, 1000): that is what the authors' preprocessing does (a later bin overwrites an
earlier one), kept so that the marginals are the paper's. 9 * 16 * 7 * 15 * 6 * 5 * 2 * 42 * 2 * 10 * 16 * 6 * 10
= 731,566,080,000 cells (LVSUW21: "13 attributes, and the data domain has dimension 146", the one-hot width).

Private and public data (LVSUW21 Section 5.5.2): rows drawn with replacement, 0.9 N private and 0.1 N public,
the public ones with P(sex = Female) = r + Delta (r = 0.3315, the share of women): ``simulations.data.cps.biased_pair``
with ``attribute=ADULT_SEX``, ``level=ADULT_FEMALE``.
"""

from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from algorithms.query_release.workloads import CategoricalDomain

__all__ = ["ADULT_ATTRIBUTES", "ADULT_BINS", "ADULT_FEMALE", "ADULT_SEX", "ADULT_SIZES", "load_adult"]

_DIR = Path(__file__).resolve().parent / "adult"
_FILES = {"adult.data.gz": "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d",
          "adult.test.gz": "a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05"}
_RAW_COLUMNS = ("age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
                "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week", "native-country",
                "income>50K")
_CATEGORICAL = ("workclass", "education", "marital-status", "occupation", "relationship", "race", "sex",
                "native-country", "income>50K")
_INF = np.inf
ADULT_BINS = {
    "age": [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, _INF],
    "capital-gain": [0, 0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 15000, 20000, 30000,
                     50000, _INF],
    "capital-loss": [0, 0, 1000, 2000, 3000, 4000, _INF],
    "hours-per-week": [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, _INF],
}
ADULT_ATTRIBUTES = _CATEGORICAL + tuple(ADULT_BINS)
ADULT_SIZES = (9, 16, 7, 15, 6, 5, 2, 42, 2, 10, 16, 6, 10)
ADULT_SEX = ADULT_ATTRIBUTES.index("sex")
ADULT_FEMALE = 0
_MAX_BYTES = 8 << 20  # the uncompressed files are 3.97 MB and 2.00 MB


def _read(name: str) -> list[list[str]]:
    """The rows of one shipped file as lists of stripped strings, after checking its digest."""
    with gzip.open(_DIR / name, "rb") as fh:
        raw = fh.read(_MAX_BYTES + 1)
    if len(raw) > _MAX_BYTES or hashlib.sha256(raw).hexdigest() != _FILES[name]:
        raise ValueError(f"{_DIR / name} is not the shipped UCI Adult file (its SHA-256 differs)")
    rows = []
    for line in raw.decode("ascii").splitlines():
        if not line.strip() or line.startswith("|"):
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != len(_RAW_COLUMNS):
            raise ValueError(f"{name}: a row has {len(fields)} fields, expected {len(_RAW_COLUMNS)}")
        fields[-1] = fields[-1].rstrip(".")
        rows.append(fields)
    return rows


def _bin(values: np.ndarray, edges) -> np.ndarray:
    """The last half-open bin [e_i, e_{i+1}) that holds each value (the authors' rule, module docstring)."""
    return np.searchsorted(np.asarray(edges[1:], dtype=np.float64), values, side="right")


@lru_cache(maxsize=1)
def load_adult() -> tuple[CategoricalDomain, np.ndarray]:
    """LVSUW21's ADULT: the domain (13 attributes of ``ADULT_SIZES``) and the 48,842 rows as value indices."""
    table = np.array(_read("adult.data.gz") + _read("adult.test.gz"), dtype=object)
    col = {name: table[:, i] for i, name in enumerate(_RAW_COLUMNS)}
    out = []
    for name, size in zip(_CATEGORICAL, ADULT_SIZES):
        levels, codes = np.unique(col[name].astype(str), return_inverse=True)
        if levels.size != size:
            raise ValueError(f"attribute {name} has {levels.size} values, LVSUW21's domain has {size}")
        out.append(codes)
    for name in ADULT_BINS:
        out.append(_bin(col[name].astype(np.float64), ADULT_BINS[name]))
    rows = np.stack(out, axis=1).astype(np.int64)
    domain = CategoricalDomain(list(ADULT_SIZES), list(ADULT_ATTRIBUTES))
    rows = domain.check_rows(rows)
    rows.setflags(write=False)
    return domain, rows
