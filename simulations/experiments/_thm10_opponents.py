"""BCMNUW20 Theorem 10's opponents, summarised per case (``simulations.experiments.thm10``): a baseline record each,
``informative`` over them, the strongest and whether it failed, the opponents weaker than the constant, and the
non-private releases apart with the audit that judges privacy."""
from __future__ import annotations

import numpy as np

from simulations import contract

#: the releases without privacy measured beside the opponents (thm10.NON_PRIVATE)
NON_PRIVATE = ("exact_private", "exact_pooled")
#: the audit target that judges A_PAP's privacy (what an accuracy verdict cannot see)
PRIVACY_AUDIT = "pap"


def opponents_summary(rows: list[dict], errors: np.ndarray, params, target: float, trivial) -> dict:
    """One case's opponents on the same draws (``simulations.opponents.summarise_opponents``): a baseline record
    each that applies (the tree to thresholds and intervals only), ``informative`` over them, the strongest and
    whether it failed, the ones weaker than the constant, the non-private releases apart (``privacy_blind``), and
    ``separation``."""
    from simulations.opponents import summarise_opponents

    names = [k for k in trivial if rows[0].get(f"{k}_error") is not None]
    per_trial = [{k: r[f"{k}_error"] for k in (*names, *NON_PRIVATE) if r.get(f"{k}_error") is not None}
                 for r in rows]
    for row in per_trial:  # the summariser's name for the public-only release
        row["public_empirical"] = row.pop("public_only")
    s = summarise_opponents(per_trial, params.alpha, target, params.confidence)
    per = s["opponents"]
    per["public_only"] = per.pop("public_empirical")
    base = {k: per[k] for k in names}
    algo = {**contract.baseline(int(np.sum(errors <= params.alpha)), errors.size, target, params.confidence),
            "error_mean": float(errors.mean()), "error_max": float(errors.max())}
    informative = contract.informative(base)
    strongest = max(base, key=lambda k: (base[k]["rate"], -base[k]["error_mean"]))
    return {
        "baselines": base,
        "informative": informative,
        "strongest": strongest, "strongest_failed": base[strongest]["status"] == contract.FAILS,
        "weaker_than_constant": ["public_only" if k == "public_empirical" else k for k in s["weaker_than_constant"]],
        "privacy_blind": {k: per[k] for k in NON_PRIVATE if k in per},
        "separation": {"algorithm": algo,
                       "separated": bool(algo["status"] == contract.SUCCEEDS and informative),
                       "trivial_not_failing": [k for k, b in base.items() if b["status"] != contract.FAILS]},
    }


def privacy_blind_text(cases: dict) -> str:
    """What the accuracy verdict cannot see: where the exact (non-private) answers succeed too, and the audit that
    judges A_PAP's privacy."""
    ok = [k for k, c in cases.items()
          if any(b["status"] != contract.FAILS for b in c.get("privacy_blind", {}).values())]
    return (f"accuracy cannot see privacy: the exact non-private answers are not shown to fail in {len(ok)}/"
            f"{len(cases)} case(s); A_PAP's privacy is judged by the audit `simulations audit {PRIVACY_AUDIT}`")
