"""Private learning with public data: ERM oracle, A_SSPP, NB20's classification-query algorithms.

What users call is exported here, imported on first use (the modules stay reachable by name:
``from algorithms.learning import sspp`` is the module, ``from algorithms.learning import a_sspp`` the function).
"""
from .._lazy import lazy_exports

_EXPORTS = {
    "ERMResult": "erm", "LabeledSample": "erm", "empirical_errors": "erm", "population_errors": "erm",
    "ASSPP": "sspp", "a_sspp": "sspp", "sspp_cover": "sspp", "GaussianNoisyERM": "noisy_erm",
    "a_relabel": "relabel",
    "SubSamp": "subsamp", "SubSampParams": "subsamp", "a_subsamp": "subsamp", "answer_online": "subsamp",
    "AgPrivCl": "agprivcl", "AgPrivClParams": "agprivcl", "a_agprivcl": "agprivcl",
    "UnvPrivCl": "unvprivcl", "UnvPrivClParams": "unvprivcl", "a_unvprivcl": "unvprivcl",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
