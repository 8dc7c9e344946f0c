"""JUO20 / DWWZK18 (empirical privacy auditing): the registry of audit targets (discovered in
:mod:`simulations.audit_targets` or registered at run time) and family-wise audits of several (Bonferroni).
Re-exported by :mod:`simulations.audit`, the import path to use (which also runs them: ``run_target``,
``audit_all``, so that this registry never imports the engine back)."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, replace


from simulations._audit_types import NO_POWER_FACTOR, AuditResult, AuditTarget


# ---------------------------------------------------------------- the registry of targets

_REGISTERED: dict[str, AuditTarget] = {}


def with_ci_samples(targets, ci_samples: dict[str, int]) -> tuple[AuditTarget, ...]:
    """``targets`` with each one's ``ci_samples`` set from ``ci_samples`` (ValueError naming a target left out
    or a name that is not one of them): a target module's declaration of its contract-test sizes."""
    names = {t.name for t in targets}
    if set(ci_samples) != names:
        raise ValueError(f"ci_samples must name exactly the targets; missing {sorted(names - set(ci_samples))}, "
                         f"unknown {sorted(set(ci_samples) - names)}")
    return tuple(replace(t, ci_samples=int(ci_samples[t.name])) for t in targets)


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
        except ImportError as exc:  # a missing optional dependency shows as this module's error; a bug raises
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


def as_expected(target: AuditTarget, result: AuditResult) -> bool:
    """A target declared private passes (not violated); a deliberately broken one is caught (violated)."""
    return result.violated != target.expect_private


@dataclass(frozen=True)
class FamilyAudit:
    """Several audits with one family-wise confidence: each at 1 - (1 - confidence)/K (Bonferroni)."""

    confidence: float
    per_audit_confidence: float
    results: tuple  # ((name, AuditTarget, AuditResult), ...)

    @property
    def unexpected(self) -> list[str]:
        """Targets declared private that were flagged, and broken ones that were not caught."""
        return [name for name, t, r in self.results if not as_expected(t, r)]

    @property
    def no_power(self) -> list[str]:
        return [name for name, _, r in self.results if r.no_power]

    def statement(self) -> str:
        k = len(self.results)
        real = sum(t.expect_private for _, t, _ in self.results)
        caught = sum((not t.expect_private) and r.violated for _, t, r in self.results)
        flagged = [n for n, t, r in self.results if t.expect_private and r.violated]
        text = (f"family-wise: {k} audits, each at {100 * self.per_audit_confidence:.4g}% (Bonferroni), so with "
                f"probability >= {100 * self.confidence:g}% no correct target among them is flagged falsely and every "
                f"flag is a true refutation. {real - len(flagged)}/{real} targets declared private pass"
                + (f" (flagged: {', '.join(flagged)})" if flagged else "")
                + f"; {caught}/{k - real} broken variants caught")
        missed = [n for n, t, r in self.results if not t.expect_private and not r.violated]
        if missed:
            text += f" (missed: {', '.join(missed)})"
        if self.no_power:
            text += f"; no power (minimal detectable eps > {NO_POWER_FACTOR:g}x the claim): {', '.join(self.no_power)}"
        return text + "."


def _name_key(name: str) -> int:
    """A stable integer per target name (its seed stream does not depend on the other targets)."""
    import zlib

    return zlib.crc32(name.encode())
