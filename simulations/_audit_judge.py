"""A saved audit re-judged from its saved numbers (never from its ``violated`` flag), against the declaration its
target registers: the store's rule for an audit file, as :mod:`simulations._store_judge` is for a run directory;
:mod:`simulations.store` re-exports it (the report's import path).

Source: the audit's own rule (:mod:`simulations.audit`): eps_lb = max(0, log((1 - delta - FNR_u)/FPR_u),
log((1 - delta - FPR_u)/FNR_u)) from one-sided Clopper-Pearson upper bounds on the saved false-positive /
false-negative counts, each at 1 - (1 - confidence)/2; violated when eps_lb > declared eps or delta_lb > declared
delta. A result file is untrusted input: a forged or hand-edited file must show as a problem, never as a pass.
"""

from __future__ import annotations

import math

from simulations import stats
from simulations._audit_loss import loss_delta_bound
from simulations._audit_bounds import _rate_level, delta_lower_bound, epsilon_lower_bound, renyi_rho_lower_bound
from simulations._audit_registry import targets

#: two numbers agree when they differ by at most this (relative): the saved floats are printed at full precision
_RTOL = 1e-9


def _close(a, b) -> bool:
    return math.isclose(float(a), float(b), rel_tol=_RTOL, abs_tol=1e-12)


def registered_declaration(a: dict) -> tuple[dict, list[str]]:
    """({"declared_eps", "declared_delta", "expect_private"} of the registered target the audit names, problems):
    each field of the file that differs from its target's is a problem; ({}, [why]) when it names no target."""
    name = a.get("target")
    try:
        target = targets().get(name) if isinstance(name, str) else None
    except Exception as exc:  # a target module that does not import: the audit cannot be judged
        return {}, [f"its targets cannot be loaded ({type(exc).__name__}): not judged"]
    if target is None:
        return {}, [f"names no registered audit target ({str(name)[:60]!r}): not judged"]
    declared = {"declared_eps": float(target.default_eps), "declared_delta": float(target.default_delta),
                "expect_private": bool(target.expect_private)}
    problems = []
    for key, value in declared.items():
        saved = a.get(key)
        same = saved == value if key == "expect_private" else (
            isinstance(saved, (int, float)) and not isinstance(saved, bool) and _close(saved, value))
        if not same:
            problems.append(f"says {key} = {str(saved)[:40]} where target {name} declares {value:g}: judged at "
                            "the target's declaration" if key != "expect_private" else
                            f"says {key} = {str(saved)[:40]} where target {name} is registered as "
                            f"{'real' if value else 'broken'}")
    return declared, problems


def recheck_audit(a: dict) -> tuple[bool | None, list[str]]:
    """(violated as recomputed from the saved numbers, problems). ``None``: the numbers needed are missing
    or malformed (a problem is listed; the report shows the audit as unjudged, never as a pass)."""
    declared, problems = registered_declaration(a)
    if not declared:
        return None, problems
    a = {**a, **declared}
    try:
        eps, delta = float(a["declared_eps"]), float(a["declared_delta"])
        eps_lb = float(a["eps_lower_bound"])
        delta_lb = float(a.get("delta_lower_bound", 0.0))
    except (KeyError, TypeError, ValueError):
        return None, ["lacks its declared eps / delta or its eps lower bound: not judged"]
    if not all(math.isfinite(x) for x in (eps, delta, eps_lb, delta_lb)):
        return None, ["holds a non-finite declared value or lower bound: not judged"]
    counts = ("false_positives", "false_negatives", "evaluation_size", "confidence")
    if all(k in a for k in counts):
        try:
            fp, fn, size = (int(a[k]) for k in counts[:3])
            conf = float(a["confidence"])
            if not (0 <= fp <= size and 0 <= fn <= size and size > 0 and 0 < conf < 1):
                raise ValueError
        except (TypeError, ValueError):
            return None, ["holds counts that are not a valid audit (false positives / negatives within the "
                          "evaluation size, confidence in (0, 1)): not judged"]
        head = [o for o in a.get("objectives") or []
                if isinstance(o, dict) and o.get("objective") == a.get("objective")]
        if head and isinstance(head[0].get("confidence"), (int, float)) and 0 < head[0]["confidence"] < 1:
            conf = float(head[0]["confidence"])  # the headline's own share of the audit's confidence
        level = _rate_level(conf)
        fpr_u = float(stats.clopper_pearson(fp, size, level, "upper")[1])
        fnr_u = float(stats.clopper_pearson(fn, size, level, "upper")[1])
        eps_re = epsilon_lower_bound(fpr_u, fnr_u, delta)
        delta_re = delta_lower_bound(fpr_u, fnr_u, eps)
        if not _close(eps_re, eps_lb):
            problems.append(f"saved eps lower bound {eps_lb:.6g} differs from {eps_re:.6g} recomputed from its "
                            f"counts ({fp} false positives, {fn} false negatives of {size})")
        if not _close(delta_re, delta_lb):
            problems.append(f"saved delta lower bound {delta_lb:.6g} differs from {delta_re:.6g} recomputed "
                            "from its counts")
        eps_lb, delta_lb = max(eps_lb, eps_re), max(delta_lb, delta_re)  # the stricter reading of the file
    else:
        problems.append("lacks the counts its lower bound came from: judged from the saved bound alone")
    violated = eps_lb > eps or delta_lb > delta
    objectives = a.get("objectives")
    if isinstance(objectives, list) and objectives:  # an audit with several objectives (simulations.audit)
        judged = _recheck_objectives(objectives, int(a.get("evaluation_size") or 0), eps, delta, problems)
        if judged is None:
            return None, problems
        violated = violated or judged
    saved = a.get("violated")
    if saved is not None and bool(saved) != violated:
        problems.append(f"says violated={str(bool(saved)).lower()} but its numbers give "
                        f"violated={str(violated).lower()} (eps_lb {eps_lb:.4g} vs declared eps {eps:g}, "
                        f"delta_lb {delta_lb:.3g} vs declared delta {delta:g})")
    return violated, problems


def _recheck_objectives(objectives: list, size: int, eps: float, delta: float, problems: list) -> bool | None:
    """Whether any saved objective of an audit refutes its claim, each recomputed from its own counts at its own
    confidence share (eps, delta, the declared curve's delta at the saved eps', the Renyi rho); None when one
    cannot be read (a problem is listed)."""
    refuted = False
    for o in objectives:
        try:
            fp, fn = int(o["false_positives"]), int(o["false_negatives"])
            conf = float(o["confidence"])
            if not (0 <= fp <= size and 0 <= fn <= size and size > 0 and 0 < conf < 1):
                raise ValueError
        except (KeyError, TypeError, ValueError):
            problems.append("holds an objective without valid counts and confidence: not judged")
            return None
        level = _rate_level(conf)
        fpr_u = float(stats.clopper_pearson(fp, size, level, "upper")[1])
        fnr_u = float(stats.clopper_pearson(fn, size, level, "upper")[1])
        refuted |= epsilon_lower_bound(fpr_u, fnr_u, delta) > eps
        refuted |= delta_lower_bound(fpr_u, fnr_u, eps) > delta
        if o.get("profile_eps") is not None and o.get("profile_delta") is not None:
            e = math.exp(float(o["profile_eps"]))
            refuted |= max(1 - fnr_u - e * fpr_u, 1 - fpr_u - e * fnr_u) > float(o["profile_delta"])
        if o.get("declared_rho") is not None:
            refuted |= renyi_rho_lower_bound(fpr_u, fnr_u) > float(o["declared_rho"])
        if o.get("divergence_bound") is not None and o.get("divergence_ceiling") is not None:
            # the divergence objective tests no event (its counts are the trivial one's): judged by its saved bound
            refuted |= float(o["divergence_bound"]) > float(o["divergence_ceiling"])
        if o.get("loss_counts") is not None and o.get("loss_samples"):
            # the loss objective (its counts are the trivial event's): recomputed from its Bernoulli counts
            refuted |= loss_delta_bound(o["loss_counts"], int(o["loss_samples"]), conf) > delta
    return bool(refuted)
