"""JUO20 / DWWZK18 (empirical privacy auditing): an epsilon lower bound, with its confidence, from a test on two
neighbours, and what the audit could not see.

Method (Jagielski, Ullman, Oprea 2020 "Auditing differentially private machine learning";
Ding et al. 2018 "Detecting violations of differential privacy"). If M is (eps, delta)-DP then for
neighbouring private datasets D0, D1 (public data fixed) and every event S,
Pr[M(D1) in S] <= e^eps Pr[M(D0) in S] + delta, and the same with D0 and D1 swapped. Take the test
"guess D1 iff the output is in S", with false-positive rate FPR = Pr[M(D0) in S] and false-negative
rate FNR = Pr[M(D1) not in S]. The two inequalities applied to S and to its complement give

    eps >= log((1 - delta - FNR) / FPR)   and   eps >= log((1 - delta - FPR) / FNR),
    delta >= max(1 - FNR - e^eps FPR, 1 - FPR - e^eps FNR)            (at a fixed eps).

The auditor

1. draws ``samples`` outputs of M(D0) and of M(D1) (in batches when the mechanism supports it) and
   maps each through ``statistic`` to a float (NaN and +-inf are values of their own), or to a
   vector; with ``statistic=None`` the outputs themselves are used;
2. splits each sample in two halves; on the first ("selection") half it searches a family of events
   S and keeps the one with the best score (below):
   * scalar outputs: threshold events {s > t} and {s < t} over a grid of thresholds (every distinct
     value if few, else quantiles with log-spaced tails), NaN placed above or below every number;
   * few distinct outputs (at most ``MAX_CATEGORIES``, scalars or vectors: categorical outputs):
     also the events "the output is among the k categories of largest empirical likelihood ratio
     on the selection half" (one-hot events are k = 1), which catches a leak in the middle of an
     order;
   * vector outputs with many distinct values: the threshold events of every coordinate, and the
     threshold events of a learned score: a logistic regression of "came from D1" on the outputs
     (each coordinate and a NaN indicator, standardised) fitted on the selection half, which sees a
     leak spread thinly over many coordinates (a classifier-based likelihood-ratio estimate);
   * continuous outputs (more than ``MAX_CATEGORIES`` distinct values; each of the first coordinates of a
     vector): the value families of :mod:`simulations._audit_values`: unions of atoms (values repeated on the
     selection half, which a continuous law never repeats), unions of fine quantile bins (a band one neighbour
     never reaches) and grids (a value rounded on one side only);
3. on the second ("evaluation") half, independent of the choice, it counts the event's false
   positives and false negatives, takes one-sided Clopper-Pearson upper bounds FPR_u and FNR_u, each
   at level 1 - (1 - confidence)/2, and reports

       eps_lb = max(0, log((1 - delta - FNR_u) / FPR_u), log((1 - delta - FPR_u) / FNR_u))
       delta_lb = max(0, 1 - FNR_u - e^eps FPR_u, 1 - FPR_u - e^eps FNR_u)   at the declared eps.

With probability at least ``confidence`` both upper bounds hold, and then the mechanism is not
(eps, delta)-DP for any eps < eps_lb, nor (eps, delta')-DP for any delta' < delta_lb (union bound).
For one event the two refutations coincide (eps_lb > eps iff delta_lb > delta); what differs is the
selection, and no one objective is best: on a Gaussian the event that maximises the eps bound sits in
the bulk (eps_lb about 0.6 of eps = 1 at 10^6 samples) while the delta margin at eps lives in a tail
whose counts are too small to bound (eps_lb 0). So the audit runs several objectives, each choosing
its own event on the selection half and bounded on the evaluation half at 1 - (1 - confidence)/K
(K objectives, or split by the case's ``objective_weights``; union bound: every line holds jointly):

* "eps": the eps bound (always);
* "delta": the delta margin at the declared eps (claims with delta > 0);
* "profile": when the case declares its whole privacy curve eps' -> delta(eps') (a Gaussian
  calibration's exact curve, BW18 Thm 8; the curve a rho-zCDP claim implies, CKS20), the largest
  delta_lb(eps') - delta(eps') over ``PROFILE_POINTS`` values of eps' in [0, PROFILE_SPAN max(eps, 1)].
  The CP bounds of the event hold for every eps' at once, so the maximum over eps' costs nothing. It
  refutes the declared curve, which is more than the point claim (eps, delta): a Gaussian with 10x
  the declared delta differs from its declared curve by 0.017 in total variation (eps' = 0), seen at
  2 * 10^5 samples, while at the point (1, 1e-5) the delta objective's minimal detectable delta at
  10^6 samples is 7e-5.

* "divergence": when the case declares a rho or gives its whole ``transcript`` (and the claim bounds a
  divergence: a rho, or pure DP), a lower confidence bound on KL or a Renyi divergence between the pair's
  transcript laws (Donsker-Varadhan / Renyi variational forms, a witness fitted on the selection half, empirical
  Bernstein on the evaluation half; :mod:`simulations._audit_divergence`) against the divergence the claim allows
  (rho alpha; min(eps, alpha eps^2/2) for pure eps-DP). It sees a break spread over a released real value, which
  binary events see only in part (a Gaussian's mu^2/2 against the best event's Bernoulli divergence).

* "loss": when the case gives its exact privacy-loss variable (``pair_llr``) and the claim has delta > 0, a
  Clopper-Pearson lower bound on delta(eps) = E_P[(1 - e^(eps - L))_+] from one neighbour's samples alone (valid
  when L is the exact log-ratio of the laws sampled; :mod:`simulations._audit_loss`): a Gaussian with 10x its
  declared delta is caught as a point claim at 2 * 10^5 samples. The same ``pair_llr`` adds its threshold events
  (Neyman-Pearson's) to every event objective's family.

The headline eps_lb / delta_lb is the largest over the objectives (its event, counts and rates are
printed as ``test``); each objective is shown with its own bound and its own power statement.

Selection that cannot collapse. Scoring the candidate events by the bound they give on the selection
half itself picks, in about 10% of runs, an extreme-tail event that looked best by chance; the
evaluation half then holds a handful of counts and the bound collapses. The score here is the bound
at the stricter level ``SELECTION_LEVEL`` (so an event with few counts pays for its uncertainty), and
an event whose numerator count (events under the neighbour that the bound's ratio divides by the
other) is below ``MIN_SELECTION_COUNT`` on the selection half is never chosen. Neither touches the
evaluation half, so the guarantee above is unchanged.

What the audit could not see. ``minimal_detectable_delta`` (delta objective) is the least true delta' at
the declared eps seen with probability ``DETECTION_POWER``, the violation modelled as an event of
probability p under D0 and e^eps p + delta' under D1. ``minimal_detectable_eps`` (eps objective) is the smallest true
epsilon the audit would flag with probability ``DETECTION_POWER`` (0.9) at this evaluation size: the violation is
modelled as one event of probability p under D0 and e^eps' p under D1 (the tightest pure-DP
violation), power is an exact sum over the two binomial counts of the evaluation half
(Pr[FP = f] Pr[TP >= the least count flagged given f]), maximised over p. The audit is flagged
``no power`` when that exceeds ``NO_POWER_FACTOR`` (2) times the declared eps: a pass then says
little. It assumes the best event is found, so it is a floor: the real audit sees no smaller violation.

Neighbour search. A case that can draw neighbouring pairs (``neighbours``, ``mutate``, ``starts``) has its
pair chosen first, by :func:`search_pair`: the given pairs (the literature's hard instances), random pairs
of small data sets or answer vectors, then local moves from the best, each ranked by its eps score on draws
of its own. Those draws are then discarded: the event is chosen on a fresh selection half of the chosen
pair, the bound on a fresh evaluation half, so the search, like the event selection, costs the guarantee
nothing. A case may give the exact privacy loss of a pair (``pair_loss``, small settings): eps_lb cannot
exceed it, and the result says whether a gap to half the declared eps is the pair's or the test's.

Exact-loss search (:mod:`simulations._audit_pairs`). A case that gives both ``pair_loss`` and ``neighbours`` has
its pairs first ranked by their exact loss (no samples: random pairs and local moves, on a child stream of the
audit's generator, so the audit's own draws do not change); the worst pair found joins the sampled search's starts,
and the result states its exact loss beside the declaration.

Targets. An :class:`AuditTarget` names a mechanism with its declared guarantee, its hardest known
neighbouring pair and a distinguishing statistic. Targets are found automatically in the modules of
the package :mod:`simulations.audit_targets` (see its docstring for the interface), or added at run
time with :func:`register`; the engine never needs editing. :func:`audit_all` audits several targets
with one family-wise confidence (Bonferroni).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from simulations import stats
from simulations._audit_types import (  # noqa: F401  (re-exported)
    DEFAULT_BATCH, DEFAULT_CONFIDENCE, DETECTION_POWER, MAX_CATEGORIES, MAX_COORDINATES, MIN_CATEGORY_COUNT,
    MIN_SELECTION_COUNT, NO_POWER_FACTOR, PROFILE_POINTS, PROFILE_SPAN, SEARCH_LEVEL, SEARCH_LOCAL,
    SEARCH_FINAL_FACTOR, SEARCH_FINALISTS, SEARCH_MIN, SEARCH_RANDOM, SELECTION_LEVEL, _GRID_LINEAR, _GRID_TAIL,
    AuditCase, AuditResult, AuditTarget, ObjectiveResult, SetTest, ThresholdTest, _row_keys, objective_shares,
    selection_size)
from simulations._audit_bounds import (  # noqa: F401  (re-exported)
    _rate_level, _scores, delta_lower_bound, detection_probability, epsilon_lower_bound, minimal_detectable_delta,
    minimal_detectable_eps, profile_grid, renyi_rho_lower_bound,
)
from simulations._audit_divergence import (  # noqa: F401  (re-exported)
    divergence_applies, divergence_objective, divergence_result, fit_logistic,
)
from simulations._audit_loss import RatioTest, loss_delta_bound, loss_objective  # noqa: F401
from simulations._audit_pairs import exact_loss_search
from simulations._audit_registry import (  # noqa: F401  (re-exported)
    FamilyAudit, _name_key, as_expected, get_target, register, target_errors, targets, with_ci_samples,
)


from simulations._audit_events import (  # noqa: F401  (re-exported)
    LearnedTest, _as_outputs, _candidate_thresholds, _category_search, _features, _learned_search, _threshold_search,
    best_threshold_test, select_test,
)


# ---------------------------------------------------------------- sampling and the audit


def sample_statistic(case: AuditCase, private_data: Any, samples: int, rng: np.random.Generator,
                     batch_size: int = DEFAULT_BATCH) -> np.ndarray:
    """``samples`` values of ``statistic(mechanism(private_data, public, rng))`` (batched if the case allows),
    as an array with ``samples`` rows: float for numeric statistics (NaN and +-inf kept)."""
    return sample_outputs(case, private_data, samples, rng, batch_size)[0]


def sample_outputs(case: AuditCase, private_data: Any, samples: int, rng: np.random.Generator,
                   batch_size: int = DEFAULT_BATCH, transcript: bool = False):
    """(statistic values as :func:`sample_statistic` gives them, and with ``transcript`` the case's transcript
    rows of the same outputs as floats, else None): each output drawn once."""
    stat = case.statistic if case.statistic is not None else (lambda out: out)
    keep = transcript and case.transcript is not None
    if case.batched:
        parts, rows, left = [], [], samples
        while left > 0:
            b = min(batch_size, left)
            raw = case.mechanism(private_data, case.public, rng, size=b)
            out = _as_outputs(stat(raw))
            if out.ndim == 0 or out.shape[0] != b:
                raise ValueError(f"statistic of a batch of {b} outputs has shape {out.shape}, must start with ({b},)")
            parts.append(out)
            if keep:
                rows.append(_transcript_rows(case.transcript(raw), b))
            left -= b
        return np.concatenate(parts), (np.concatenate(rows) if keep else None)
    raws = [case.mechanism(private_data, case.public, rng) for _ in range(samples)]
    out = _as_outputs([stat(r) for r in raws])
    return out, (_transcript_rows([case.transcript(r) for r in raws], samples) if keep else None)


def _transcript_rows(t, b: int) -> np.ndarray:
    a = np.asarray(t, dtype=float)
    if a.ndim == 0 or a.shape[0] != b:
        raise ValueError(f"transcript of {b} outputs has shape {a.shape}, must start with ({b},)")
    return a.reshape(b, -1)


def _nonfinite_counts(e0, e1) -> dict:
    if e0.dtype.kind != "f":
        return {}
    return {f"{name} under D{i}": int(np.count_nonzero(fn(e)))
            for i, e in ((0, e0), (1, e1)) for name, fn in (("NaN", np.isnan), ("inf", np.isinf))}


def _pair_text(pair) -> str:
    """A short rendering of a neighbouring pair: numbers and arrays of a few entries as they are; two large arrays of
    one shape by where they differ (at most four entries shown)."""
    def one(x):
        a = np.asarray(x)
        return np.array2string(a, threshold=24, separator=",",
                               max_line_width=10_000) if a.size <= 64 else f"<{a.shape}>"
    a, b = np.asarray(pair[0]), np.asarray(pair[1])
    if a.size > 64 and a.shape == b.shape and a.dtype.kind in "biuf" and b.dtype.kind in "biuf":
        where = np.argwhere(a != b)
        shown = "; ".join(f"{tuple(int(i) for i in ix)}: {a[tuple(ix)].item()!r} -> {b[tuple(ix)].item()!r}"
                          for ix in where[:4])
        return f"D0, D1 of shape {a.shape} differing in {len(where)} entries ({shown or 'none'})"
    return f"D0 = {one(pair[0])}, D1 = {one(pair[1])}".replace("\n", "")


def search_pair(case: AuditCase, samples: int, rng: np.random.Generator, batch_size: int = DEFAULT_BATCH):
    """The neighbouring pair the audit evaluates, found on draws of its own (module docstring): the case's pair,
    its ``starts`` and ``SEARCH_RANDOM`` pairs from ``neighbours(rng)``, then ``SEARCH_LOCAL`` moves by ``mutate``
    from the best so far, each scored by the eps objective's selection score (its bounds at SEARCH_LEVEL: the
    stricter SELECTION_LEVEL favours frequent events on few draws and ranks the pairs by them) on ``per`` draws
    per neighbour,
    per = max(SEARCH_MIN, samples // (2 * candidates)). The best ``SEARCH_FINALISTS`` distinct pairs are then
    re-scored on ``SEARCH_FINAL_FACTOR * per`` fresh draws each and the re-score alone picks the pair: a pair that
    led by the luck of its first draws (the winner's curse of ranking many pairs on few draws) is not kept on it.
    None of these draws is used again: the event is chosen, and the bound computed, on fresh draws from the chosen
    pair. Returns (pair, a note of the search)."""
    tried = [case.private_pair, *case.starts]
    n_cand = len(tried) + SEARCH_RANDOM + (SEARCH_LOCAL if case.mutate is not None else 0)
    per = max(SEARCH_MIN, samples // (2 * n_cand))

    def score(pair, draws=per):
        s0 = sample_statistic(replace(case, private_pair=pair), pair[0], draws, rng, batch_size)
        s1 = sample_statistic(replace(case, private_pair=pair), pair[1], draws, rng, batch_size)
        return select_test(s0, s1, case.delta, case.eps, "eps", level=SEARCH_LEVEL)[1]

    tried += [case.neighbours(rng) for _ in range(SEARCH_RANDOM)]
    scored = [(score(p), i, p) for i, p in enumerate(tried)]
    best = max(scored, key=lambda t: (t[0], -t[1]))
    moves = accepted = 0
    if case.mutate is not None:
        for _ in range(SEARCH_LOCAL):
            cand = case.mutate(best[2], rng)
            sc = score(cand)
            moves += 1
            scored.append((sc, len(scored), cand))
            if sc > best[0]:
                best = (sc, -1, cand)
                accepted += 1
    finalists, seen = [], set()
    for sc, i, p in sorted(scored, key=lambda t: (-t[0], t[1])):
        key = _pair_text(p)
        if key not in seen:
            seen.add(key)
            finalists.append((i, p))
        if len(finalists) == SEARCH_FINALISTS:
            break
    final = max(((score(p, SEARCH_FINAL_FACTOR * per), -i, p, i) for i, p in finalists), key=lambda t: t[:2])
    first = final[3]
    origin = ("the case's pair" if first == 0 else "a start" if first <= len(case.starts)
              else "a random pair" if first < len(case.starts) + 1 + SEARCH_RANDOM else "a local move")
    note = (f"searched {len(scored)} pairs ({len(case.starts) + 1} given, {SEARCH_RANDOM} random, {moves} "
            f"local moves, {accepted} accepted) on {per} draws per neighbour each, the best {len(finalists)} "
            f"re-scored on {SEARCH_FINAL_FACTOR * per}, separate from the audit's draws; "
            f"chosen from {origin}: {_pair_text(final[2])}")
    return final[2], note


def audit(case: AuditCase, samples: int, rng: np.random.Generator, confidence: float = DEFAULT_CONFIDENCE,
          batch_size: int = DEFAULT_BATCH, objective: str | None = None, search: bool = True) -> AuditResult:
    """Audit ``case``: an epsilon (and delta) lower bound at ``confidence`` from ``samples`` outputs on each
    neighbour, and each objective's power statement (module docstring).

    Objectives: "eps" always; "delta" when the claim has delta > 0; "profile" when the case declares a privacy
    profile. Each picks its own event on the selection half and is bounded on the evaluation half at
    1 - (1 - confidence)/K (K objectives, or by ``objective_weights``; union bound), so all statements hold jointly at
    ``confidence``; the headline is the objective with the largest eps_lb. ``objective`` given: that one alone,
    at the full confidence. With ``search`` and a case that can draw neighbours, the pair is first chosen by
    :func:`search_pair` on draws of its own (extra to ``samples``)."""
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 4:
        raise ValueError(f"samples={samples!r} must be an integer >= 4")
    if not (0 < confidence < 1):
        raise ValueError(f"confidence={confidence!r} must lie in (0, 1)")
    if not (0 <= case.delta < 1):
        raise ValueError(f"delta={case.delta!r} must lie in [0, 1)")
    if not (case.eps >= 0) or not math.isfinite(case.eps):
        raise ValueError(f"eps={case.eps!r} must be a finite number >= 0")
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size={batch_size!r} must be an integer >= 1")
    divergence = (case.rho is not None or case.transcript is not None) and divergence_applies(
        case.eps, case.delta, case.rho)
    if objective is None:
        names = (["eps"] + (["delta"] if case.delta > 0 else []) + (["profile"] if case.profile is not None else [])
                 + (["renyi"] if case.rho is not None else []) + (["divergence"] if divergence else [])
                 + (["loss"] if case.pair_llr is not None and case.delta > 0 else []))
    elif objective in ("eps", "delta", "profile", "renyi", "divergence", "loss"):
        if objective == "loss" and (case.pair_llr is None or case.delta == 0):
            raise ValueError("objective='loss' needs a case with an exact privacy-loss variable and delta > 0")
        if objective == "renyi" and case.rho is None:
            raise ValueError("objective='renyi' needs a case with a declared rho")
        if objective == "profile" and case.profile is None:
            raise ValueError("objective='profile' needs a case with a declared profile")
        if objective == "divergence" and not divergence_applies(case.eps, case.delta, case.rho):
            raise ValueError("objective='divergence' needs a declared rho or a pure-DP claim (delta = 0)")
        names = [objective]
    else:
        raise ValueError(f"objective={objective!r}: one of eps, delta, profile, renyi, divergence, loss")
    profile = profile_grid(case) if "profile" in names else None
    search_note = exact_note = ""
    exact = exact_loss_search(case, rng.spawn(1)[0]) if search else None  # a child stream: the audit's draws unchanged
    if exact is not None:
        exact_note = f"{exact.describe(float(case.eps))}: {_pair_text(exact.pair)}"
        if case.neighbours is not None and _pair_text(exact.pair) != _pair_text(case.private_pair):
            case = replace(case, starts=(exact.pair, *case.starts))
    if case.neighbours is not None and search:
        pair, search_note = search_pair(case, samples, rng, batch_size)
        case = replace(case, private_pair=pair)
    pair_loss = float(case.pair_loss(case.private_pair)) if case.pair_loss is not None else math.nan
    d0, d1 = case.private_pair
    s0, t0 = sample_outputs(case, d0, samples, rng, batch_size, "divergence" in names)
    s1, t1 = sample_outputs(case, d1, samples, rng, batch_size, "divergence" in names)
    half = selection_size(samples, case.selection_fraction)  # the selection "half": samples // 2 by default
    e0, e1 = s0[half:], s1[half:]
    m = int(e0.shape[0])
    shares = objective_shares(names, confidence, case.objective_weights)  # misses add up to 1 - confidence
    llr = None if case.pair_llr is None else [np.asarray(case.pair_llr(case.private_pair, s), dtype=float)
                                               for s in (s0, s1)]
    results = []
    for name in names:
        share, level = shares[name], _rate_level(shares[name])
        if name == "divergence":
            results.append(divergence_result(case, s0 if t0 is None else t0, s1 if t1 is None else t1, half, share,
                                              m, t0 is not None))
            continue
        if name == "loss":
            r = loss_objective(llr[0], llr[1], case.eps, case.delta, share, rng.spawn(1)[0])
            results.append(ObjectiveResult("loss", float(share), r.describe(case.eps, case.delta), m, 0, 1.0, 0.0,
                                           0.0, 0.0, r.minimal_detectable, loss_counts=r.counts,
                                           loss_samples=r.samples, loss_delta_bound=r.delta_lb))
            continue
        test, score = select_test(s0[:half], s1[:half], case.delta, case.eps, name, profile=profile)
        ev0, ev1 = e0, e1
        if llr is not None:   # the pair's Neyman-Pearson events (simulations._audit_loss)
            inner, ratio_score = _threshold_search(llr[0][:half], llr[1][:half], case.delta, case.eps, name,
                                                   profile=profile)
            if ratio_score > score:
                test, ev0, ev1 = RatioTest(inner), llr[0][half:], llr[1][half:]
        fp = int(np.count_nonzero(test.guesses_d1(ev0)))
        fn = int(np.count_nonzero(~test.guesses_d1(ev1)))
        fpr_u = float(stats.clopper_pearson(fp, m, level, "upper")[1])
        fnr_u = float(stats.clopper_pearson(fn, int(e1.shape[0]), level, "upper")[1])
        if name == "eps":
            power = minimal_detectable_eps(m, float(case.eps), float(case.delta), float(share))
        elif name == "delta":
            power = minimal_detectable_delta(m, float(case.eps), float(case.delta), float(share))
        else:
            power = math.nan
        p_eps = p_margin = rho_lb = p_delta = None
        if name == "renyi":
            rho_lb = renyi_rho_lower_bound(fpr_u, fnr_u)
        if name == "profile":
            grid, deltas = profile
            e = np.exp(grid)
            margins = np.maximum(1 - fnr_u - e * fpr_u, 1 - fpr_u - e * fnr_u) - deltas
            j = int(np.argmax(margins))
            p_eps, p_margin, p_delta = float(grid[j]), float(margins[j]), float(deltas[j])
        is_threshold = isinstance(test, ThresholdTest)
        results.append(ObjectiveResult(
            name, float(share), test.describe(), fp, fn, fpr_u, fnr_u,
            epsilon_lower_bound(fpr_u, fnr_u, case.delta), delta_lower_bound(fpr_u, fnr_u, case.eps), float(power),
            p_eps, p_margin, test.threshold if is_threshold else None, test.direction if is_threshold else 1,
            rho_lb, case.rho if name == "renyi" else None, p_delta))
    head = max(results, key=lambda o: (o.eps_lower_bound, o.delta_lower_bound))
    by_name = {o.objective: o for o in results}
    mde = by_name["eps"].minimal_detectable if "eps" in by_name else minimal_detectable_eps(
        m, float(case.eps), float(case.delta), float(share))
    return AuditResult(
        eps_lower_bound=head.eps_lower_bound,
        declared_eps=float(case.eps), declared_delta=float(case.delta), confidence=float(confidence),
        samples=int(samples), threshold=head.threshold, direction=head.direction,
        false_positives=head.false_positives, false_negatives=head.false_negatives, evaluation_size=m,
        fpr_upper=head.fpr_upper, fnr_upper=head.fnr_upper,
        delta_lower_bound=max(o.delta_lower_bound for o in results),
        minimal_detectable_eps=float(mde), test=head.test, objective=head.objective,
        nonfinite=_nonfinite_counts(e0, e1), objectives=tuple(results),
        minimal_detectable_delta=float(by_name["delta"].minimal_detectable) if "delta" in by_name else math.nan,
        profile_name=case.profile_name if case.profile is not None else "",
        pair=_pair_text(case.private_pair), search=search_note, pair_loss=pair_loss, exact_search=exact_note,
        pair_loss_note="" if case.pair_loss is not None else case.pair_loss_note, loss_bound=case.loss_bound,
    )


# ---------------------------------------------------------------- running registered targets


def run_target(name: str, *, samples: int | None = None, seed: int = 0, eps: float | None = None,
               delta: float | None = None, confidence: float = DEFAULT_CONFIDENCE,
               batch_size: int = DEFAULT_BATCH, objective: str | None = None) -> AuditResult:
    """Audit the registered target ``name`` at (eps, delta) (its defaults when None) with ``rng =
    default_rng(seed)``."""
    t = get_target(name)
    eps = t.default_eps if eps is None else eps
    delta = t.default_delta if delta is None else delta
    samples = t.default_samples if samples is None else samples
    case = t.make(float(eps), float(delta))
    return audit(case, samples, np.random.default_rng(seed), confidence, batch_size, objective)


def _audit_one(name: str, seed: int, per: float, samples: int | None):
    """One target of :func:`audit_all`, looked up by name (so that a worker process needs nothing but the name)."""
    t = targets()[name]
    case = t.make(float(t.default_eps), float(t.default_delta))
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(_name_key(name),)))
    return audit(case, samples or t.default_samples, rng, per)


def audit_all(names=None, *, seed: int = 0, confidence: float = DEFAULT_CONFIDENCE, samples: int | None = None,
              progress: bool = False, workers: int = 1) -> FamilyAudit:
    """Audit ``names`` (default: every registered target) at their defaults, with one family-wise ``confidence``.

    Target ``name`` draws from ``default_rng(SeedSequence(seed, spawn_key=(crc32(name),)))``: its draws do not
    depend on which other targets are audited with it (its confidence does: Bonferroni over them), nor on
    ``workers`` (processes auditing targets side by side: the same results in the same order)."""
    found = targets()
    names = sorted(found) if names is None else list(names)
    for n in names:
        if n not in found:
            raise ValueError(f"audit target {n!r} is unknown; known: {', '.join(found) or 'none'}")
    if not (0 < confidence < 1):
        raise ValueError(f"confidence={confidence!r} must lie in (0, 1)")
    if int(workers) < 1:
        raise ValueError(f"workers={workers!r} must be at least 1")
    per = 1 - (1 - confidence) / max(1, len(names))
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(names), desc="audits", unit="target")
    done: dict = {}
    if int(workers) == 1 or len(names) < 2:
        for name in names:
            done[name] = _audit_one(name, seed, per, samples)
            if bar is not None:
                bar.update()
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=min(int(workers), len(names)),
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            futures = {pool.submit(_audit_one, name, seed, per, samples): name for name in names}
            for f in as_completed(futures):
                done[futures[f]] = f.result()
                if bar is not None:
                    bar.update()
    if bar is not None:
        bar.close()
    results = [(name, found[name], done[name]) for name in names]
    return FamilyAudit(float(confidence), float(per), tuple(results))
