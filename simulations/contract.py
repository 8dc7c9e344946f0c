"""The validation contract every experiment follows (docs/DESIGN.md, "validation contract"): when a run
is at a result's sizes, what a claim and a baseline record look like, and the negative-control convention.

At the bound
    A run is *at the bound* when every size it used is at least the size the result requires, all read
    from ``bounds`` (never retyped): :func:`at_bound`, :func:`fractions_of_bound`. Only such a run gets a
    verdict (``holds`` / ``violated`` / ``inconclusive``); below any size the status is ``below-bound``
    (``simulations.stats.verdict(..., at_bound=False)``), a measurement, never a verdict on the result.

Claims
    A claim "Pr[event] >= target" is summarised by :func:`claim` as a dict with ``successes``, ``trials``,
    ``target``, ``rate``, a two-sided Clopper-Pearson ``ci``, ``verdict`` (from ``stats.verdict``) and its
    one-sided p-values ``p_violated`` / ``p_holds`` (``stats.verdict_p_values``). The report's overview
    finds every such dict in a summary (any nesting) and applies Holm's step-down over all verdicts shown
    (``stats.holm``), so a new experiment gets the family-wise statement by using :func:`claim`.
    :func:`combine` folds several claims' statuses into one.

Baselines
    The trivial releases (public-only: answers from the public histogram; private-only: PMW / MWEM on
    the full domain at the same eps, delta; non-private where it applies) run in the same trials on the
    same draws as the paper's algorithm. :func:`baseline` summarises one as a claim whose ``status`` is
    ``succeeds`` / ``fails`` / ``undecided`` (the same Clopper-Pearson rule, but a statement about the
    baseline, never a verdict on the result). A validation of an upper bound is informative only where
    the trivial baselines fail: summaries say so with :func:`informative`. Every experiment states it: a module
    declares ``TRIVIAL_ALGORITHMS`` (the baselines that count; the contract test edits their outcomes in the
    records and re-summarises), or ``INFORMATIVE_TESTED_BY`` (a lower bound's regime flag, computed from other
    records, and the test that checks it against them), or ``NO_TRIVIAL_ALGORITHMS`` (why none is judged; its
    summary carries :func:`no_trivial_algorithms`).

Negative controls
    Every experiment ships deliberately broken variants of its algorithm, chosen by the ``Params`` field
    ``variant`` (``"none"`` = the paper's algorithm) and described in the module-level dict
    ``NEGATIVE_CONTROLS`` (variant -> what is broken). Run at the result's own sizes a broken variant
    must come out ``violated``; the summary carries ``variant`` and ``negative_control`` (True for a
    broken variant). The contract test (tests/simulations/test_contract.py) runs every control of every
    experiment small and requires ``violated``; a control that cannot come out violated at a CI size is
    listed there, with the reason, as a known failure. A module may accept old variant spellings through
    ``VARIANT_ALIASES = {old: new}``; broken variants the bound's slack absorbs are ``PROBES``, not controls.

Kinds of claim
    :func:`claim` records carry ``kind`` (:data:`KINDS`: ``verdict``, ``premise``, ``floor check``,
    ``algorithm-free``; only verdicts enter the report's Holm family) and ``label``, the claim in words.

Sizes
    :func:`required_sizes` is the one way an experiment reads a result's sizes from ``bounds``.
"""

from __future__ import annotations

import math
from typing import Mapping

from simulations import stats

SUCCEEDS, FAILS, UNDECIDED = "succeeds", "fails", "undecided"
BASELINE_STATUSES = (SUCCEEDS, FAILS, UNDECIDED)
_BASELINE_OF = {stats.HOLDS: SUCCEEDS, stats.VIOLATED: FAILS, stats.INCONCLUSIVE: UNDECIDED}
NO_VARIANT = "none"
#: the kinds of claim: a verdict on the paper's algorithm at the theorem's sizes (the only kind in the
#: report's family-wise Holm statement), a check of a premise the theorem assumes, a check only a bug can
#: fail, and a draw that involves no algorithm under test
VERDICT, PREMISE, FLOOR_CHECK, ALGORITHM_FREE = "verdict", "premise", "floor check", "algorithm-free"
KINDS = (VERDICT, PREMISE, FLOOR_CHECK, ALGORITHM_FREE)


def _check_sizes(used: Mapping[str, float], required: Mapping[str, float]) -> None:
    missing = sorted(set(required) - set(used))
    if missing:
        raise ValueError(f"used sizes lack {', '.join(missing)} (required: {', '.join(sorted(required))})")
    for k, v in required.items():
        if not (isinstance(v, (int, float)) and v > 0 and math.isfinite(v)):
            raise ValueError(f"required size {k}={v!r} must be a finite number > 0")


def fractions_of_bound(used: Mapping[str, float], required: Mapping[str, float]) -> dict[str, float]:
    """used / required for every size the result requires (e.g. ``{"n": 0.1, "m": 1.0}``)."""
    _check_sizes(used, required)
    return {k: float(used[k]) / float(required[k]) for k in required}


def at_bound(used: Mapping[str, float], required: Mapping[str, float]) -> bool:
    """True when every used size is >= the size the result requires (both keyed by the paper's letters)."""
    _check_sizes(used, required)
    return all(float(used[k]) >= float(required[k]) for k in required)


def claim(successes: int, trials: int, target: float, confidence: float, *, per_claim_confidence: float | None = None,
          at_bound: bool = True, kind: str = VERDICT, label: str | None = None) -> dict:
    """A claim ``Pr[event] >= target`` from ``successes`` of ``trials``: rate, two-sided CP interval at
    ``confidence``, the verdict at ``per_claim_confidence`` (default ``confidence``; pass a Bonferroni
    level when a summary combines several claims), and the verdict's one-sided p-values for Holm.
    ``kind`` is one of :data:`KINDS` (only ``"verdict"`` claims enter the report's Holm family) and
    ``label`` the claim in words, unique within one summary (None: the report names it by its path)."""
    if kind not in KINDS:
        raise ValueError(f"kind={kind!r} must be one of {', '.join(KINDS)}")
    if label is not None and not (isinstance(label, str) and label.strip()):
        raise ValueError(f"label={label!r} must be a non-empty string or None")
    per = confidence if per_claim_confidence is None else per_claim_confidence
    v = stats.verdict(successes, trials, target, per, at_bound=at_bound)
    lo, hi = stats.clopper_pearson(successes, trials, confidence, "two-sided")
    p_viol, p_holds = stats.verdict_p_values(successes, trials, target)
    return {"successes": int(successes), "trials": int(trials), "rate": successes / trials, "target": float(target),
            "ci": [float(lo), float(hi)], "ci_confidence": confidence, "verdict": v.status, "verdict_text": str(v),
            "verdict_confidence": per, "lower": v.lower, "upper": v.upper,
            "p_violated": p_viol, "p_holds": p_holds, "kind": kind, "label": label}


def claim_kind(record: Mapping) -> str:
    """The kind of a claim record; a record without ``kind`` (an old run directory) is a verdict."""
    return record.get("kind", VERDICT)


def baseline(successes: int, trials: int, target: float, confidence: float) -> dict:
    """A baseline's record: the rate at which it met the target with its CP interval and ``status``
    ``succeeds`` (one-sided lower bound >= target), ``fails`` (upper bound < target) or ``undecided``.
    Not a verdict on the result: it says whether the trivial release already does the job."""
    v = stats.verdict(successes, trials, target, confidence)
    lo, hi = stats.clopper_pearson(successes, trials, confidence, "two-sided")
    return {"successes": int(successes), "trials": int(trials), "rate": successes / trials, "target": float(target),
            "ci": [float(lo), float(hi)], "ci_confidence": confidence, "status": _BASELINE_OF[v.status]}


def informative(baselines: Mapping[str, dict]) -> bool:
    """Whether a validation against these baselines can tell the algorithm from them: every trivial
    baseline ``fails`` (if one succeeds, 'holds' for the algorithm shows nothing the baseline doesn't)."""
    return bool(baselines) and all(b["status"] == FAILS for b in baselines.values())


def no_trivial_algorithms(reason: str) -> dict:
    """The summary keys of an experiment that judges no trivial algorithm (its module's ``NO_TRIVIAL_ALGORITHMS``):
    ``informative`` is False (a verdict not set beside trivial algorithms cannot be shown to discriminate) and
    ``informative_reason`` says why none is judged."""
    if not (isinstance(reason, str) and reason.strip()):
        raise ValueError(f"reason={reason!r} must be a non-empty string")
    return {"informative": False, "informative_reason": reason}


def combine(statuses) -> str:
    """Overall status of several claims: ``violated`` if any claim at its bound is violated; else
    ``below-bound`` if any is below its bound; ``holds`` if all hold; else ``inconclusive``."""
    statuses = list(statuses)
    unknown = [s for s in statuses if s not in stats.STATUSES]
    if unknown:
        raise ValueError(f"statuses {unknown!r} are not in {stats.STATUSES}")
    if stats.VIOLATED in statuses:
        return stats.VIOLATED
    if stats.BELOW_BOUND in statuses:
        return stats.BELOW_BOUND
    return stats.HOLDS if statuses and all(s == stats.HOLDS for s in statuses) else stats.INCONCLUSIVE


def required_sizes(result_id: str, take: Mapping[str, str | tuple], *, constants: Mapping[str, float] | None = None,
                   **bound_params) -> dict:
    """The one way an experiment asks ``bounds`` for a result's sizes: ``bounds.compute(result_id,
    **bound_params)`` (``bound_params`` in bounds' own names: alpha, beta, epsilon, delta, vc, ...), and of
    its quantities those named in ``take`` = ``{key in the summary: quantity}`` or ``{key: (quantity,
    cast)}`` with cast ``int``, ``float`` (the default) or :func:`ceil_int`.

    >>> required_sizes("abm19:thm4.1", {"n_pub_min": ("public_samples", int)}, alpha=0.0001)
    {'n_pub_min': 7}
    """
    import bounds

    c = bounds.compute(result_id, constants=constants, **bound_params)
    out = {}
    for key, what in take.items():
        quantity, cast = (what, float) if isinstance(what, str) else what
        out[key] = cast(c[quantity])
    return out


def ceil_int(value) -> int:
    """``int(math.ceil(value))``: a size the result requires, as a whole number of samples or queries."""
    return int(math.ceil(value))


def check_variant(variant: str, controls: Mapping[str, str]) -> str:
    """ValueError naming ``variant`` unless it is ``"none"`` or a key of the module's ``NEGATIVE_CONTROLS``."""
    if variant != NO_VARIANT and variant not in controls:
        raise ValueError(f"variant={variant!r} must be one of {', '.join((NO_VARIANT, *controls))}")
    return variant


def find_claims(summary, path: str = "") -> list[tuple[str, dict]]:
    """Every claim dict (keys ``successes``, ``trials``, ``target`` and a verdict status under ``verdict``
    or ``status``) anywhere in a summary, with its path; baselines (status succeeds/fails) are skipped."""
    out: list[tuple[str, dict]] = []
    if isinstance(summary, dict):
        status = summary.get("verdict", summary.get("status"))
        if {"successes", "trials", "target"} <= set(summary) and status in stats.STATUSES:
            out.append((path or "summary", summary))
        for k, v in summary.items():
            out.extend(find_claims(v, f"{path}.{k}" if path else str(k)))
    elif isinstance(summary, list):
        for i, v in enumerate(summary):
            out.extend(find_claims(v, f"{path}[{i}]"))
    return out
