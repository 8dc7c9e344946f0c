"""The validation contract every experiment follows (docs/DESIGN.md, "validation contract"): the typed
declaration of an experiment, the one function that builds every summary from its judgement, when a run is at a
result's sizes, what a claim and a baseline record look like, and the negative-control convention.

The declaration
    ``EXPERIMENT = Experiment(name=..., results=(...), description=..., params=Params, trial=..., summarise=...,
    outcome=Outcome, ci=CiRun(trials, {...}), opponents=(...) | NoOpponents(why) | LowerBoundRegime(tested_by),
    controls={variant: what is broken}, ...)`` (:class:`Experiment`, from ``simulations._experiment``; the
    reference is :mod:`simulations.experiments`). ``outcome`` types one trial's record (:func:`record_fields`,
    :func:`record_errors`); an opponent's fields are :func:`opponent_field`.

The summary
    ``summarise`` returns a :class:`Judgement` (claims, text, opponents' outcomes, regime flag, measurements);
    :func:`summarise_run` builds the summary every consumer reads: ``verdict`` (:func:`combine` of the claims),
    ``verdict_text``, ``informative`` (:func:`informative` over the declared opponents' outcomes, the regime flag,
    or False with ``informative_reason``), ``variant``, ``negative_control``, ``result_ids``, ``params``.

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

Opponents (trivial baselines)
    The trivial releases (public-only: answers from the public histogram; private-only: PMW / MWEM on
    the full domain at the same eps, delta; non-private where it applies) run in the same trials on the
    same draws as the paper's algorithm. :func:`baseline` summarises one as a record whose ``status`` is
    ``succeeds`` / ``fails`` / ``undecided`` (the same Clopper-Pearson rule, but a statement about the
    baseline, never a verdict on the result). A validation of an upper bound is informative only where
    the trivial baselines fail (:func:`informative`).

Negative controls
    Every experiment ships deliberately broken variants of its algorithm, chosen by the ``Params`` field
    ``variant`` (``"none"`` = the paper's algorithm) and declared in ``controls`` (variant -> what is broken).
    Run at the result's own sizes a broken variant must come out ``violated``; the summary carries ``variant``
    and ``negative_control``. The contract test (tests/simulations/test_contract.py) runs every control of every
    experiment small and requires ``violated``; a control that cannot come out violated at a CI size is listed
    there, with the reason, as a known failure. Broken variants the bound's slack absorbs are ``probes``.

Kinds of claim
    :func:`claim` records carry ``kind`` (:data:`KINDS`: ``verdict``, ``premise``, ``floor check``,
    ``algorithm-free``; only verdicts enter the report's Holm family) and ``label``, the claim in words.

Sizes
    :func:`required_sizes` is the one way an experiment reads a result's sizes from ``bounds``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Mapping

from simulations import stats
from simulations._experiment import (CiRun, Experiment, LowerBoundRegime, NoOpponents, Opponent, Unsectioned,
                                     as_record, opponent_field, outcome_opponent_fields, record_errors, record_fields)

__all__ = ["CiRun", "Experiment", "LowerBoundRegime", "NoOpponents", "Opponent", "Unsectioned", "as_record",
           "opponent_field", "outcome_opponent_fields", "record_errors", "record_fields", "Judgement", "summarise_run",
           "claim", "baseline", "informative", "combine", "required_sizes", "ceil_int", "at_bound",
           "fractions_of_bound", "check_variant", "find_claims", "claim_kind", "KINDS", "VERDICT", "PREMISE",
           "FLOOR_CHECK", "ALGORITHM_FREE", "NO_VARIANT", "SUCCEEDS", "FAILS", "UNDECIDED", "BASELINE_STATUSES",
           "RESERVED"]

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
    """ValueError naming ``variant`` unless it is ``"none"`` or a key of the declaration's ``controls``."""
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


# ---------------------------------------------------------------- the summary every experiment gives

#: the summary keys :func:`summarise_run` writes (a judgement's measurements may not use them)
RESERVED = ("verdict", "verdict_text", "informative", "informative_reason", "strongest_opponent", "variant",
            "negative_control", "result_ids", "params")


@dataclass(frozen=True)
class Judgement:
    """What an experiment's ``summarise(records, params)`` returns: the judgement only.

    ``claims``: the claims (records of :func:`claim`, or their statuses) whose statuses decide the verdict
    (:func:`combine`; no claim at all: ``below-bound``, nothing was judged). ``text``: what the verdict says, in
    words, without its status (``summarise_run`` puts the status first). ``opponents``: the outcomes
    (:func:`baseline` records) of the experiment's declared opponents, ``{name: record}``, or ``{group: {name:
    record}}`` when each group (a case, a cell) is judged apart (a record None: that opponent does not apply to
    that group, e.g. the tree to a class without an order); empty when they were not run (``informative`` is
    then None, said so). ``regime``: a lower bound's regime flag (``LowerBoundRegime`` experiments), a bool or
    ``{group: bool}``. ``measurements``: everything else the summary shows (JSON values, any nesting).
    ``floor_check``: the claims are checks only a bug can fail: the verdict is ``floor check`` (say in ``text``
    and the measurements whether it passed), or ``violated`` for a negative control whose check caught it."""

    claims: tuple | list
    text: str
    measurements: Mapping = field(default_factory=dict)
    opponents: Mapping = field(default_factory=dict)
    regime: bool | Mapping | None = None
    floor_check: bool = False


def _status(c) -> str:
    status = c if isinstance(c, str) else c.get("verdict", c.get("status"))
    if status not in stats.STATUSES:
        raise ValueError(f"a claim's status {status!r} is not in {stats.STATUSES}")
    return status


def _informative(experiment: Experiment, judgement: Judgement):
    """``informative`` (and its reason) from the declared opponents' outcomes, the regime flag or NoOpponents."""
    o = experiment.opponents
    if isinstance(o, NoOpponents):
        return {"informative": False, "informative_reason": o.why}
    if isinstance(o, LowerBoundRegime):
        r = judgement.regime
        if not (isinstance(r, bool) or (isinstance(r, Mapping) and all(isinstance(v, bool) for v in r.values()))):
            raise ValueError(f"experiment {experiment.name}: a LowerBoundRegime judgement states regime (a bool or "
                             f"{{group: bool}}), not {r!r}")
        return {"informative": dict(r) if isinstance(r, Mapping) else r}
    names = experiment.opponent_names
    outcomes = judgement.opponents
    if not outcomes:
        return {"informative": None, "informative_reason": "the opponents were not run"}
    grouped = all(isinstance(v, Mapping) and "status" not in v for v in outcomes.values())

    def one(group: Mapping, where: str) -> bool:
        missing = [n for n in names if n not in group]
        if missing:
            raise ValueError(f"experiment {experiment.name}: no outcome of opponent {', '.join(missing)}{where}")
        return informative({n: group[n] for n in names if group[n] is not None})  # None: does not apply here

    if grouped:
        return {"informative": {g: one(v, f" in {g}") for g, v in outcomes.items()},
                "strongest_opponent": {g: strongest_opponent({n: v[n] for n in names}) for g, v in outcomes.items()}}
    return {"informative": one(outcomes, ""),
            "strongest_opponent": strongest_opponent({n: outcomes[n] for n in names})}


def strongest_opponent(outcomes: Mapping[str, dict | None]) -> dict | None:
    """The declared opponent that came closest to doing the algorithm's job in one group: the highest success rate
    (ties: the lowest mean error where the records state ``error_mean``, then the first declared), its ``status``
    and whether it ``failed``; None where no opponent applies."""
    known = {k: v for k, v in outcomes.items() if v is not None}
    if not known:
        return None
    best = max(known, key=lambda k: (known[k]["rate"], -known[k].get("error_mean", math.inf)))
    return {"name": best, "status": known[best]["status"], "failed": known[best]["status"] == FAILS}


def summarise_run(experiment: Experiment, records: list, params) -> dict:
    """The summary of a run: ``experiment.summarise(records, params)`` (a :class:`Judgement`) and what every
    summary states besides: ``verdict`` (the claims' statuses combined), ``verdict_text`` (the status, the
    judgement's text, and for a negative control what is broken), ``informative`` (from the declared opponents'
    outcomes, a lower bound's regime flag, or False with ``informative_reason`` for NoOpponents) and with declared
    opponents ``strongest_opponent`` (per group: the one with the highest success rate, and whether it failed),
    ``variant`` and ``negative_control``, ``result_ids`` and ``params`` (the run's parameters). The one way a
    summary is made: the runner, the store, status, the reports and the tests all call it."""
    if not records:
        raise ValueError("records must hold at least one trial")
    j = experiment.summarise([as_record(r) for r in records], params)
    if not isinstance(j, Judgement):
        raise ValueError(f"experiment {experiment.name}: summarise must return a contract.Judgement, "
                         f"not {type(j).__name__}")
    clash = sorted(set(j.measurements) & set(RESERVED))
    if clash:
        raise ValueError(f"experiment {experiment.name}: measurements use the contract's keys {', '.join(clash)}")
    statuses = [_status(c) for c in j.claims]
    variant = getattr(params, "variant", NO_VARIANT)
    negative = variant in experiment.controls
    if j.floor_check:  # a failed check is a bug, not a verdict on a result; a control must be caught by it
        verdict = stats.VIOLATED if negative and stats.VIOLATED in statuses else stats.FLOOR_CHECK
    else:
        verdict = combine(statuses) if statuses else stats.BELOW_BOUND
    text = f"{verdict}: {j.text}"
    if negative:
        text += f"; NEGATIVE CONTROL {variant} ({experiment.controls[variant]})"
    elif variant in experiment.probes:
        text += f"; PROBE {variant} ({experiment.probes[variant]})"
    params_echo = {f.name: (list(v) if isinstance(v := getattr(params, f.name), tuple) else v)
                   for f in dataclasses.fields(params)}
    return {**j.measurements, **_informative(experiment, j), "result_ids": list(experiment.results),
            "variant": variant, "negative_control": negative, "params": params_echo,
            "verdict": verdict, "verdict_text": text}
