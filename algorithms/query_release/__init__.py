"""Query release: PMW, MWEM, PMW^Pub, A_PAP, best mixture error.

Shared engine: ``mw`` (MWDistribution, MatrixQueries, the LinearQueries protocol).
BCMNUW20 Algorithm 1 / Lemma 7: ``pmw``; Algorithm 3 / Theorem 10: ``pap.a_pap``;
baselines: ``baselines.public_only``, ``baselines.private_only``;
HLM12 MWEM and LVSUW21 Algorithm 1's zCDP loop: ``mwem``.
"""

from .baselines import private_only, public_only
from .mw import LinearQueries, MatrixQueries, MWDistribution, as_queries
from .mwem import (
    MWEMResult,
    mw_rounds,
    mwem,
    mwem_from_answers,
    mwem_zcdp,
    mwem_zcdp_from_answers,
    true_answers_of,
)
from .pap import PAPResult, a_pap, pap_answer_function
from .pmw import PMWParameters, PMWResult, pmw, pmw_parameters, pmw_sample_size

__all__ = [
    "LinearQueries", "MatrixQueries", "MWDistribution", "as_queries",
    "PMWParameters", "PMWResult", "pmw", "pmw_parameters", "pmw_sample_size",
    "MWEMResult", "mw_rounds", "mwem", "mwem_from_answers", "mwem_zcdp", "mwem_zcdp_from_answers",
    "true_answers_of",
    "PAPResult", "a_pap", "pap_answer_function",
    "public_only", "private_only",
]
