"""What the report checks itself before it shows a result file: saved audits are re-judged from their
saved numbers (never from their ``violated`` flag), and run directories whose records disagree are flagged.

Result files are untrusted input (a forged or hand-edited file must show as a problem, never as a pass):

* :func:`recheck_audit` recomputes an audit's verdict (simulations.audit: eps_lb = max(0,
  log((1 - delta - FNR_u)/FPR_u), log((1 - delta - FPR_u)/FNR_u)) from one-sided Clopper-Pearson upper
  bounds on the saved false-positive / false-negative counts, each at 1 - (1 - confidence)/2; violated when
  eps_lb > declared eps or delta_lb > declared delta) and lists every saved number that disagrees.
* :func:`run_problems` lists a run directory's internal disagreements. It calls the run store's own
  integrity check, ``simulations.store.integrity_problems(path) -> list[str]``, when the store provides one;
  until then it uses :func:`_local_run_problems` (conflicting duplicate records, NaN or infinite numbers
  the writer forbids, records whose params digest differs from the manifest's). This is the one seam:
  once the store's check exists, delete the local function.
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path

#: the most bytes of records.jsonl the local check reads (a larger file is flagged, not read)
MAX_RECORDS_BYTES = 256 * 1024 * 1024
#: two numbers agree when they differ by at most this (relative): the saved floats are printed at full precision
_RTOL = 1e-9


def _close(a, b) -> bool:
    return math.isclose(float(a), float(b), rel_tol=_RTOL, abs_tol=1e-12)


def recheck_audit(a: dict) -> tuple[bool | None, list[str]]:
    """(violated as recomputed from the saved numbers, problems). ``None``: the numbers needed are missing
    or malformed (a problem is listed; the report shows the audit as unjudged, never as a pass)."""
    from simulations import audit, stats

    problems = []
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
        head = [o for o in a.get("objectives") or [] if isinstance(o, dict) and o.get("objective") == a.get("objective")]
        if head and isinstance(head[0].get("confidence"), (int, float)) and 0 < head[0]["confidence"] < 1:
            conf = float(head[0]["confidence"])  # the headline's own share of the audit's confidence
        level = audit._rate_level(conf)
        fpr_u = float(stats.clopper_pearson(fp, size, level, "upper")[1])
        fnr_u = float(stats.clopper_pearson(fn, size, level, "upper")[1])
        eps_re = audit.epsilon_lower_bound(fpr_u, fnr_u, delta)
        delta_re = audit.delta_lower_bound(fpr_u, fnr_u, eps)
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
    from simulations import audit, stats

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
        level = audit._rate_level(conf)
        fpr_u = float(stats.clopper_pearson(fp, size, level, "upper")[1])
        fnr_u = float(stats.clopper_pearson(fn, size, level, "upper")[1])
        refuted |= audit.epsilon_lower_bound(fpr_u, fnr_u, delta) > eps
        refuted |= audit.delta_lower_bound(fpr_u, fnr_u, eps) > delta
        if o.get("profile_eps") is not None and o.get("profile_delta") is not None:
            e = math.exp(float(o["profile_eps"]))
            refuted |= max(1 - fnr_u - e * fpr_u, 1 - fpr_u - e * fnr_u) > float(o["profile_delta"])
        if o.get("declared_rho") is not None:
            refuted |= audit.renyi_rho_lower_bound(fpr_u, fnr_u) > float(o["declared_rho"])
        if o.get("divergence_bound") is not None and o.get("divergence_ceiling") is not None:
            # the divergence objective tests no event (its counts are the trivial one's): judged by its saved bound
            refuted |= float(o["divergence_bound"]) > float(o["divergence_ceiling"])
    return bool(refuted)


def run_problems(path) -> list[str]:
    """A run directory's internal disagreements, one line each (empty: none found)."""
    from simulations import store

    check = getattr(store, "integrity_problems", None)
    if callable(check):
        return list(check(path))
    return _local_run_problems(Path(path))


def _local_run_problems(path: Path) -> list[str]:
    """Stand-in for the store's integrity check (module docstring). Reads records.jsonl without following a
    link and only up to MAX_RECORDS_BYTES."""
    from simulations import store

    rec = path / store.RECORDS
    try:
        st = os.lstat(rec)
    except FileNotFoundError:
        return []
    except OSError as exc:
        return [f"{rec}: cannot be read ({exc.strerror})"]
    if not stat.S_ISREG(st.st_mode):
        return [f"{rec} is not a regular file (a link, FIFO or device): not read"]
    if st.st_size > MAX_RECORDS_BYTES:
        return [f"{rec} holds {st.st_size:,} bytes, more than the report reads ({MAX_RECORDS_BYTES:,})"]
    try:
        manifest = json.loads((path / store.MANIFEST).read_text())
    except (OSError, ValueError):
        manifest = {}
    digest = manifest.get("digest") if isinstance(manifest, dict) else None
    nonfinite = []

    def constant(name):  # NaN, Infinity, -Infinity: the writer refuses them, so a record holding one was edited
        nonfinite.append(name)
        return float("nan")

    fd = os.open(rec, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as fh:
        raw = fh.read(MAX_RECORDS_BYTES + 1)
    seen: dict[int, bytes] = {}
    conflicts, bad_digest, nonfinite_lines = [], [], []
    for number, line in enumerate(raw.split(b"\n")[:-1], 1):  # the torn tail is the store's business
        if not line.strip():
            continue
        before = len(nonfinite)
        try:
            row = json.loads(line, parse_constant=constant)
            index = row["index"]
        except (ValueError, KeyError, TypeError):
            continue  # a corrupt line: simulations.store's scan reports it
        if len(nonfinite) > before:
            nonfinite_lines.append(number)
        canon = json.dumps(row.get("record"), sort_keys=True).encode()
        if index in seen and seen[index] != canon:
            conflicts.append(index)
        seen.setdefault(index, canon)
        if digest is not None and isinstance(row, dict) and "digest" in row and row["digest"] != digest:
            bad_digest.append(number)
    out = []
    if conflicts:
        out.append(f"{rec}: {len(conflicts)} trial(s) recorded twice with different results (first: trial "
                   f"{conflicts[0]}); which one counts is undecidable")
    if nonfinite_lines:
        out.append(f"{rec}: line {nonfinite_lines[0]} holds NaN or an infinity, which the writer never writes"
                   + (f" ({len(nonfinite_lines)} such lines)" if len(nonfinite_lines) > 1 else ""))
    if bad_digest:
        out.append(f"{rec}: line {bad_digest[0]} was written under other params or another seed than the "
                   "manifest's" + (f" ({len(bad_digest)} such lines)" if len(bad_digest) > 1 else ""))
    return out
