"""JUO20 / DWWZK18 (empirical privacy auditing): an epsilon lower bound, with its confidence, from a threshold test on two neighbours.

Method (Jagielski, Ullman, Oprea 2020 "Auditing differentially private machine learning";
Ding et al. 2018 "Detecting violations of differential privacy"). If M is (eps, delta)-DP then for
neighbouring private datasets D0, D1 (public data fixed) and every event S,
Pr[M(D1) in S] <= e^eps Pr[M(D0) in S] + delta, and the same with D0 and D1 swapped. Take the test
"guess D1 iff the output is in S", with false-positive rate FPR = Pr[M(D0) in S] and false-negative
rate FNR = Pr[M(D1) not in S]. The two inequalities applied to S and to its complement give

    eps >= log((1 - delta - FNR) / FPR)   and   eps >= log((1 - delta - FPR) / FNR).

The auditor

1. draws ``samples`` outputs of M(D0) and of M(D1) (in batches when the mechanism supports it),
   maps each to a scalar with ``statistic``;
2. splits each sample in two halves; on the first ("selection") half it searches the threshold
   tests S = {s > t} and S = {s < t} over a grid of thresholds, keeping the one whose lower bound
   (step 3, computed on the selection half) is largest;
3. on the second ("evaluation") half, independent of the choice, it counts the test's false
   positives and false negatives, takes one-sided Clopper-Pearson upper bounds FPR_u and FNR_u, each
   at level 1 - (1 - confidence)/2, and reports

       eps_lb = max(0, log((1 - delta - FNR_u) / FPR_u), log((1 - delta - FPR_u) / FNR_u)).

With probability at least ``confidence`` both upper bounds hold, and then the mechanism is not
(eps, delta)-DP for any eps < eps_lb (union bound; the max over the two directions costs nothing
since both use the same two bounds). So a correct mechanism gives ``eps_lb <= declared eps`` except
with probability at most 1 - confidence; an eps_lb above the declared eps is evidence, at that
confidence, that the declaration is false.

Targets. An :class:`AuditTarget` names a mechanism with its declared guarantee, its hardest known
neighbouring pair and a distinguishing statistic. Targets are found automatically in the modules of
the package :mod:`simulations.audit_targets` (each module defines ``TARGETS``, a tuple of
:class:`AuditTarget`), or added at run time with :func:`register`; the engine never needs editing.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from dataclasses import asdict, dataclass
from typing import Any, Callable

import numpy as np

from simulations import stats

DEFAULT_CONFIDENCE = 0.95
DEFAULT_BATCH = 100_000
_GRID_LINEAR = 1001
_GRID_TAIL = 400


@dataclass(frozen=True)
class AuditCase:
    """One concrete audit: a mechanism, its declared (eps, delta), a neighbouring pair, public data, a statistic.

    ``mechanism(private_data, public_data, rng)`` returns one output; if ``batched`` it also accepts
    ``size=B`` and returns B outputs stacked on axis 0. ``statistic`` maps one output to a float, or,
    if ``batched``, a stack of B outputs to a length-B array.
    """

    mechanism: Callable[..., Any]
    statistic: Callable[[Any], Any]
    private_pair: tuple[Any, Any]
    public: Any
    eps: float
    delta: float = 0.0
    batched: bool = False


@dataclass(frozen=True)
class AuditTarget:
    """A registered audit: ``make(eps, delta) -> AuditCase``, with the source of its claim and whether it should pass.

    ``expect_private`` is False for a deliberately broken variant: the auditor is expected to catch it
    (eps_lb > declared eps). ``default_samples`` is what ``python -m simulations audit`` uses by default.
    """

    name: str
    source: str
    description: str
    make: Callable[[float, float], AuditCase]
    expect_private: bool = True
    default_eps: float = 1.0
    default_delta: float = 0.0
    default_samples: int = 200_000


@dataclass(frozen=True)
class ThresholdTest:
    """Guess D1 iff ``direction * s > direction * threshold`` (direction +1: s > t; -1: s < t)."""

    threshold: float
    direction: int

    def guesses_d1(self, s: np.ndarray) -> np.ndarray:
        return self.direction * s > self.direction * self.threshold


@dataclass(frozen=True)
class AuditResult:
    """The outcome of :func:`audit` (see the module docstring for the bound)."""

    eps_lower_bound: float
    declared_eps: float
    declared_delta: float
    confidence: float
    samples: int  # per dataset, both halves together
    threshold: float
    direction: int
    false_positives: int
    false_negatives: int
    evaluation_size: int  # per dataset
    fpr_upper: float
    fnr_upper: float

    @property
    def violated(self) -> bool:
        """True when the lower bound exceeds the declared eps: the declaration is refuted at ``confidence``."""
        return self.eps_lower_bound > self.declared_eps

    def as_dict(self) -> dict:
        return {**asdict(self), "violated": self.violated}

    def __str__(self) -> str:
        rel = ">" if self.violated else "<="
        word = "VIOLATED" if self.violated else "consistent"
        return (f"{word}: eps lower bound {self.eps_lower_bound:.4f} {rel} declared eps {self.declared_eps:g} "
                f"(delta {self.declared_delta:g}, {100 * self.confidence:g}% confidence, {self.samples} samples per "
                f"dataset; test s {'>' if self.direction > 0 else '<'} {self.threshold:.6g}: FPR <= {self.fpr_upper:.3g}, "
                f"FNR <= {self.fnr_upper:.3g})")


# ---------------------------------------------------------------- the bound


def epsilon_lower_bound(fpr_upper, fnr_upper, delta: float = 0.0):
    """max(0, log((1 - delta - FNR_u)/FPR_u), log((1 - delta - FPR_u)/FNR_u)); vectorised; 0 where no bound follows."""
    fpr = np.asarray(fpr_upper, dtype=float)
    fnr = np.asarray(fnr_upper, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where((1 - delta - fnr > 0) & (fpr > 0), np.log(np.clip(1 - delta - fnr, 1e-300, None)) - np.log(fpr), 0.0)
        b = np.where((1 - delta - fpr > 0) & (fnr > 0), np.log(np.clip(1 - delta - fpr, 1e-300, None)) - np.log(fnr), 0.0)
    out = np.maximum(0.0, np.maximum(a, b))
    return float(out) if out.ndim == 0 else out


def _rate_level(confidence: float) -> float:
    """Each of the two one-sided bounds gets half of the miss probability (union bound)."""
    return 1 - (1 - confidence) / 2


def _candidate_thresholds(pooled_sorted: np.ndarray) -> np.ndarray:
    """Thresholds: every distinct value if few, else quantiles on a linear grid plus log-spaced grids in both tails."""
    values = np.unique(pooled_sorted)
    if values.size <= _GRID_LINEAR + 2 * _GRID_TAIL:
        return values
    n = pooled_sorted.size
    tail = np.geomspace(1.0 / n, 0.5, _GRID_TAIL)
    probs = np.unique(np.concatenate([np.linspace(0, 1, _GRID_LINEAR), tail, 1 - tail]))
    return np.unique(np.quantile(pooled_sorted, probs, method="inverted_cdf"))


def best_threshold_test(s0: np.ndarray, s1: np.ndarray, delta: float = 0.0,
                        confidence: float = DEFAULT_CONFIDENCE) -> tuple[ThresholdTest, float]:
    """The threshold test on (s0 from D0, s1 from D1) with the largest Clopper-Pearson epsilon lower bound on these samples."""
    s0 = np.sort(np.asarray(s0, dtype=float))
    s1 = np.sort(np.asarray(s1, dtype=float))
    thresholds = _candidate_thresholds(np.sort(np.concatenate([s0, s1])))
    n0, n1 = s0.size, s1.size
    level = _rate_level(confidence)
    best = (ThresholdTest(float(thresholds[0]), 1), -1.0)
    for direction in (1, -1):
        if direction == 1:  # guess D1 iff s > t
            fp = n0 - np.searchsorted(s0, thresholds, side="right")
            tp = n1 - np.searchsorted(s1, thresholds, side="right")
        else:  # guess D1 iff s < t
            fp = np.searchsorted(s0, thresholds, side="left")
            tp = np.searchsorted(s1, thresholds, side="left")
        fpr_u = stats.clopper_pearson(fp, n0, level, "upper")[1]
        fnr_u = stats.clopper_pearson(n1 - tp, n1, level, "upper")[1]
        lb = epsilon_lower_bound(fpr_u, fnr_u, delta)
        j = int(np.argmax(lb))
        if lb[j] > best[1]:
            best = (ThresholdTest(float(thresholds[j]), direction), float(lb[j]))
    return best


# ---------------------------------------------------------------- sampling and the audit


def sample_statistic(case: AuditCase, private_data: Any, samples: int, rng: np.random.Generator,
                     batch_size: int = DEFAULT_BATCH) -> np.ndarray:
    """``samples`` values of ``statistic(mechanism(private_data, public, rng))`` as a float array (batched if the case allows)."""
    if case.batched:
        parts, left = [], samples
        while left > 0:
            b = min(batch_size, left)
            out = np.asarray(case.statistic(case.mechanism(private_data, case.public, rng, size=b)), dtype=float)
            if out.shape != (b,):
                raise ValueError(f"statistic of a batch of {b} outputs has shape {out.shape}, must be ({b},)")
            parts.append(out)
            left -= b
        return np.concatenate(parts)
    return np.array([float(case.statistic(case.mechanism(private_data, case.public, rng))) for _ in range(samples)])


def audit(case: AuditCase, samples: int, rng: np.random.Generator, confidence: float = DEFAULT_CONFIDENCE,
          batch_size: int = DEFAULT_BATCH) -> AuditResult:
    """Audit ``case``: an epsilon lower bound at ``confidence`` from ``samples`` outputs on each neighbour (module docstring)."""
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 4:
        raise ValueError(f"samples={samples!r} must be an integer >= 4")
    if not (0 < confidence < 1):
        raise ValueError(f"confidence={confidence!r} must lie in (0, 1)")
    if not (0 <= case.delta < 1):
        raise ValueError(f"delta={case.delta!r} must lie in [0, 1)")
    if not (case.eps >= 0):
        raise ValueError(f"eps={case.eps!r} must be >= 0")
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size={batch_size!r} must be an integer >= 1")
    d0, d1 = case.private_pair
    s0 = sample_statistic(case, d0, samples, rng, batch_size)
    s1 = sample_statistic(case, d1, samples, rng, batch_size)
    half = samples // 2
    test, _ = best_threshold_test(s0[:half], s1[:half], case.delta, confidence)
    e0, e1 = s0[half:], s1[half:]
    fp = int(np.count_nonzero(test.guesses_d1(e0)))
    fn = int(np.count_nonzero(~test.guesses_d1(e1)))
    level = _rate_level(confidence)
    fpr_u = stats.clopper_pearson(fp, e0.size, level, "upper")[1]
    fnr_u = stats.clopper_pearson(fn, e1.size, level, "upper")[1]
    return AuditResult(
        eps_lower_bound=epsilon_lower_bound(fpr_u, fnr_u, case.delta),
        declared_eps=float(case.eps), declared_delta=float(case.delta), confidence=float(confidence),
        samples=int(samples), threshold=test.threshold, direction=test.direction,
        false_positives=fp, false_negatives=fn, evaluation_size=int(e0.size),
        fpr_upper=float(fpr_u), fnr_upper=float(fnr_u),
    )


# ---------------------------------------------------------------- the registry of targets

_REGISTERED: dict[str, AuditTarget] = {}


def register(target: AuditTarget) -> AuditTarget:
    """Add ``target`` to the registry (ValueError if its name is taken by a different target)."""
    if not isinstance(target, AuditTarget):
        raise ValueError(f"target must be an AuditTarget, got {type(target).__name__}")
    known = _REGISTERED.get(target.name)
    if known is not None and known is not target:
        raise ValueError(f"audit target name {target.name!r} is already registered")
    _REGISTERED[target.name] = target
    return target


def _discover() -> dict[str, str]:
    """Import every module of simulations.audit_targets and register its TARGETS; returns {module: import error}."""
    import simulations.audit_targets as pkg

    errors = {}
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("_"):
            continue
        path = f"{pkg.__name__}.{info.name}"
        try:
            module = importlib.import_module(path)
        except Exception as exc:  # a target whose algorithm is not written yet must not hide the others
            errors[path] = f"{type(exc).__name__}: {exc}"
            continue
        for t in getattr(module, "TARGETS", ()):
            register(t)
    return errors


def targets() -> dict[str, AuditTarget]:
    """All audit targets (discovered and registered), by name."""
    _discover()
    return dict(sorted(_REGISTERED.items()))


def target_errors() -> dict[str, str]:
    """Target modules that failed to import, with their errors."""
    return _discover()


def get_target(name: str) -> AuditTarget:
    found = targets()
    if name not in found:
        raise ValueError(f"audit target {name!r} is unknown; known: {', '.join(found) or 'none'}")
    return found[name]


def run_target(name: str, *, samples: int | None = None, seed: int = 0, eps: float | None = None,
               delta: float | None = None, confidence: float = DEFAULT_CONFIDENCE,
               batch_size: int = DEFAULT_BATCH) -> AuditResult:
    """Audit the registered target ``name`` at (eps, delta) (its defaults when None) with ``rng = default_rng(seed)``."""
    t = get_target(name)
    eps = t.default_eps if eps is None else eps
    delta = t.default_delta if delta is None else delta
    samples = t.default_samples if samples is None else samples
    case = t.make(float(eps), float(delta))
    return audit(case, samples, np.random.default_rng(seed), confidence, batch_size)

