"""NB20: Nandi, Bassily. Privately Answering Classification Queries in the Agnostic PAC Model.
ALT 2020 (seed 004). Results in paper order.

NB20's m is the number of classification queries; in code it is ``num_queries`` (``--num-queries``).
Every explicit constant below was checked against the proofs; where a printed constant or step is
wrong, the corrected one is encoded and the result names the erratum record by id (``errata``;
records in bounds/errata/nb20.toml, docs/ERRATA.md generated from them).

Explicit tools the proofs call "standard" (the paper gives no constant), pinned here:

- VC inequality (Anthony & Bartlett 1999, Thm 4.3; Vapnik-Chervonenkis 1971):
  P[exists h: |err(h) - err^(h)| >= a] <= 4 G(2n) exp(-n a^2 / 8), with Sauer G(t) <= (e t/d)^d.
- Realizable PAC by a consistent learner (Anthony & Bartlett 1999, Thm 4.8; Blumer et al. 1989):
  n >= (4/a) (d log(12/a) + log(2/b)) samples give error <= a w.p. >= 1 - b.
- Exponential mechanism (McSherry-Talwar 2007), score sensitivity 1/n, privacy e: w.p. >= 1 - b
  the selected score is within (2/(e n)) (log|H| + log(1/b)) of the best.

The results are declared in one module per algorithm or result group (below); this package
registers them in paper order and re-exports their formulas (``from bounds.papers.nb20 import ...``).
"""
from __future__ import annotations

from ...registry import register
from ._common import _DECLARED  # noqa: F401  (re-exported)
from .btt18 import *  # noqa: F401,F403
from .relabel import *  # noqa: F401,F403
from .subsamp import *  # noqa: F401,F403
from .agprivcl import *  # noqa: F401,F403
from .thm7 import *  # noqa: F401,F403
from .unvprivcl import *  # noqa: F401,F403


# paper order: Sections 2.1, 3.1, 3.2 (Alg 3, Thm 7, Lemma 9, Claim 10), 4 (Alg 4, Thm 11,
# Remark 12), Appendix B.1 (Alg 5)
register(*(_DECLARED[f"nb20:{k}"] for k in (
    "lemma3", "lemma4", "lemma5", "lemma6", "alg3", "thm7", "lemma9", "claim10", "alg4", "thm11",
    "remark12", "alg5")))
