"""The four papers by key and title, and :func:`cite`, which names them so in every output.

The plain-text extractions in ``../shared/papers`` have hashed file names (``000_f1b0431f359f12a2.txt``);
code that reads those texts keeps using the file names, but nothing shown to a reader should:
``cite(text)`` replaces each file name by the paper's key and version.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    key: str
    authors: str
    title: str
    venue: str
    files: tuple[tuple[str, str], ...]  # (file name in ../shared/papers, version)

    @property
    def reference(self) -> str:
        """``KEY: Authors, *Title*, venue``."""
        return f"{self.key}: {self.authors}, {self.title}, {self.venue}"


PAPERS: dict[str, Paper] = {p.key: p for p in (
    Paper("BCMNUW20", "Bassily, Cheu, Moran, Nikolov, Ullman, Wu",
          "Private Query Release Assisted by Public Data", "ICML 2020",
          (("000_f1b0431f359f12a2.txt", "ICML"), ("003_95100840c5f51bc1.txt", "arXiv"))),
    Paper("ABM19", "Alon, Bassily, Moran", "Limits of Private Learning with Access to Public Data",
          "NeurIPS 2019", (("001_f11d23217d8fb771.txt", ""),)),
    Paper("LVSUW21", "Liu, Vietri, Steinke, Ullman, Wu",
          "Leveraging Public Data for Practical Private Query Release", "ICML 2021",
          (("002_612460dc0cc18cc4.txt", ""),)),
    Paper("NB20", "Nandi, Bassily", "Privately Answering Classification Queries in the Agnostic PAC Model",
          "ALT 2020", (("004_d21f3e9c5d64269f.txt", ""),)),
)}

_BY_FILE = {f: (p, version) for p in PAPERS.values() for f, version in p.files}
_FILE_RE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt(\s*\((ICML|arXiv)\))?")


def title(key: str) -> str:
    """``KEY (Title, venue)`` for a paper key (the key itself if unknown, e.g. "baselines")."""
    p = PAPERS.get(key.upper())
    return f"{p.key} ({p.title}, {p.venue})" if p else key


def source(key: str) -> str:
    """How a result's source names its paper: key, title and venue (both versions where there are two)."""
    p = PAPERS[key]
    versions = [v for _, v in p.files if v]
    return f"{p.key}, {p.title} ({p.venue}" + (f"; {' and '.join(versions)} versions)" if versions else ")")


def cite(text: str) -> str:
    """``text`` with every paper file name replaced by the paper's key (and version)."""
    def repl(m: re.Match) -> str:
        name = m.group(0).split()[0].split("(")[0]
        p, version = _BY_FILE.get(name, (None, ""))
        if p is None:
            return m.group(0)
        return f"{p.key} ({version})" if version else p.key

    return _FILE_RE.sub(repl, text)
