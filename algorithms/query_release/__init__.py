"""Query release: PMW, MWEM, PMW^Pub, A_PAP, best mixture error.

Shared engine: ``mw`` (MWDistribution, MatrixQueries, the LinearQueries protocol).
BCMNUW20 Algorithm 1 / Lemma 7: ``pmw.pmw``; Algorithm 3 / Theorem 10: ``a_pap``;
baselines: ``public_only``, ``private_only``; HLM12 MWEM and LVSUW21 Algorithm 1's zCDP loop: ``mwem.mwem``;
LVSUW21 Algorithm 1 (PMW^Pub): ``pmw_pub.pmw_pub``; the best mixture error: ``best_mixture_error``; marginal
workloads: ``CategoricalDomain``, ``MarginalQueries``, ``all_k_way``. A function named like its module
(``pmw``, ``mwem``, ``pmw_pub``) is not exported here, so ``from algorithms.query_release import pmw`` is the
module; PMW^Pub, the mixture and the workloads are imported on first use.
"""

from .baselines import private_only, public_only
from .mw import LinearQueries, MatrixQueries, MWDistribution, as_queries
from . import mwem as mwem, pmw as pmw  # the modules (their functions of the same name are not exported here)
from .._lazy import lazy_exports
from .mwem import (
    MWEMResult,
    mw_rounds,
    mwem_from_answers,
    mwem_zcdp,
    mwem_zcdp_from_answers,
    true_answers_of,
)
from .pap import PAPResult, a_pap, pap_answer_function
from .pmw import PMWParameters, PMWResult, pmw_parameters, pmw_sample_size

_LAZY = {
    "PMWPubResult": "pmw_pub", "marginal_answers": "pmw_pub", "max_error": "pmw_pub", "pmw_pub_epsilon": "pmw_pub",
    "MixtureFit": "mixture", "best_mixture_error": "mixture", "release_best_mixture_error": "mixture",
    "CategoricalDomain": "workloads", "MarginalQueries": "workloads", "DomainMarginalQueries": "workloads",
    "all_k_way": "workloads", "random_k_way": "workloads",
}
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)

__all__ = [
    "LinearQueries", "MatrixQueries", "MWDistribution", "as_queries",
    "PMWParameters", "PMWResult", "pmw_parameters", "pmw_sample_size",
    "MWEMResult", "mw_rounds", "mwem_from_answers", "mwem_zcdp", "mwem_zcdp_from_answers",
    "true_answers_of",
    "PAPResult", "a_pap", "pap_answer_function",
    "public_only", "private_only",
    *sorted(_LAZY),
]
