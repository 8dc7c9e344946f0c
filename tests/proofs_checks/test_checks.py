"""Every proof check is itself checked: it gives its recorded verdict on the paper's claim, holds on the
corrected claim where the paper is wrong, and rejects every deliberately perturbed claim (a constant changed,
an inequality flipped, a region widened), so no check can be vacuous."""
from __future__ import annotations

import json

import pytest

from proofs_checks import certify
from proofs_checks.core import (FAILS, HOLDS, NOT_CHECKABLE, OUTCOME, PART, PART_SAMPLED, PROVED, PROVED_PART,
                                 SAMPLED, all_checks)
from proofs_checks.errata import ERRATA

CHECKS = all_checks()
BY_ID = {c.id: c for c in CHECKS}


#: the prover's CPU budget per claim in the module-wide run below: a proof is rigorous whatever the budget, but
#: whether it finishes within a CPU-seconds budget depends on the machine and its load, so that run only asks
#: that a verdict be its recorded one up to a proof gained or not finished (the same outcome: holds, holds on part,
#: fails); the recorded proofs are held separately, with room to spare (test_recorded_proofs_are_proved)
QUICK_SECONDS = 1.0
#: the CPU seconds the recorded proofs get in their own test: several times what each takes at the default box budget
PROOF_SECONDS = 60.0
PROVED_STATUSES = {PROVED: SAMPLED, PROVED_PART: PART_SAMPLED}


@pytest.fixture(scope="module")
def stated():
    """The verdict of every check on the paper's claim, computed once, with the prover on a short CPU budget."""
    old = dict(certify.BUDGET)
    certify.BUDGET["seconds"] = QUICK_SECONDS
    try:
        return {c.id: c.run() for c in CHECKS}
    finally:
        certify.BUDGET.update(old)


def _up_to_proof(status: str) -> str:
    """A status with a finished proof read as the sampled status it strengthens."""
    return PROVED_STATUSES.get(status, status)


def test_the_registry_covers_every_step_the_issue_lists():
    """The machine-checkable steps of the four papers; each must have at least one check."""
    wanted = ["bcmnuw20:sauer", "bcmnuw20:thm10.cover-size", "bcmnuw20:claim3", "bcmnuw20:fact4",
              "bcmnuw20:lemma11.versions", "abm19:lemma3.3.growth-delta", "abm19:lemma3.3.tail",
              "bcmnuw20:thm10.log-cover", "bcmnuw20:thm13.markov-identity", "bcmnuw20:thm14.versions",
              "abm19:lemma4.4.chernoff", "abm19:lemma4.4.tv", "abm19:lemma4.4.probabilities", "abm19:thm4.1.final",
              "lvsuw21:prop4.3.hoeffding", "lvsuw21:prop4.3.bernstein", "lvsuw21:prop4.3.union",
              "lvsuw21:prop4.3.ratio", "lvsuw21:thm4.5.closed", "nb20:lemma6.alpha3", "nb20:claim10.growth-delta",
              "nb20:lemma8.amplification", "nb20:lemma9.sizes", "nb20:thm11.privacy"]
    assert [w for w in wanted if w not in BY_ID] == []


def _seeds_present() -> bool:
    from proofs_checks.bcmnuw20 import ARXIV, ICML, PAPERS_DIR

    return (PAPERS_DIR / ICML).exists() and (PAPERS_DIR / ARXIV).exists()


@pytest.mark.parametrize("check_id", sorted(BY_ID))
def test_stated_claim_gets_its_recorded_verdict(check_id, stated):
    """A changed outcome (a check that starts passing or failing) is noticed. The text comparison needs the
    seed papers (../shared/papers or PUBPRIV_PAPERS); without them it must say so, not pass or fail."""
    v = stated[check_id]
    expect = BY_ID[check_id].expected
    if check_id == "bcmnuw20:versions.text" and not _seeds_present():
        expect = NOT_CHECKABLE
    assert _up_to_proof(v.status) == _up_to_proof(expect), (v.summary, v.counterexample)
    json.dumps(v.to_dict())  # JSON-serialisable, as the reports read it


@pytest.mark.parametrize("check_id", sorted(c for c, st in certify.EXPECTED.items() if st in PROVED_STATUSES))
def test_recorded_proofs_are_proved(check_id):
    """A proof the prover records is found again at the default box budget (a proof lost is noticed), with CPU
    seconds to spare so that a loaded machine cannot lose it."""
    old = dict(certify.BUDGET)
    certify.BUDGET["seconds"] = max(PROOF_SECONDS, old["seconds"])
    try:
        v = BY_ID[check_id].run()
    finally:
        certify.BUDGET.update(old)
    assert v.status == certify.EXPECTED[check_id], v.summary


def test_text_check_without_seeds_is_not_checkable(monkeypatch, tmp_path):
    import proofs_checks.bcmnuw20 as b

    monkeypatch.setattr(b, "PAPERS_DIR", tmp_path)
    v = BY_ID["bcmnuw20:versions.text"].run()
    assert v.status == NOT_CHECKABLE and "PUBPRIV_PAPERS" in v.summary


@pytest.mark.parametrize("check_id", sorted(c.id for c in CHECKS if c.corrected is not None))
def test_corrected_claim_holds(check_id, monkeypatch):
    monkeypatch.setitem(certify.BUDGET, "seconds", QUICK_SECONDS)  # the outcome asked for does not need a proof
    c = BY_ID[check_id]
    v = c.run_on(c.corrected)
    assert v.outcome == c.expect_corrected, (v.summary, v.counterexample)
    assert v.outcome in (HOLDS, PART)


PERTURBED = sorted((c.id, name) for c in CHECKS for name in c.perturbed)


@pytest.mark.parametrize("check_id,name", PERTURBED)
def test_perturbed_claim_fails(check_id, name):
    """The checker is not vacuous: a deliberately wrong claim is rejected with a counterexample."""
    v = BY_ID[check_id].run_on(BY_ID[check_id].perturbed[name])
    if check_id == "bcmnuw20:versions.text" and not _seeds_present():
        assert v.status == NOT_CHECKABLE  # without the seed texts it says so instead of passing
        return
    assert v.status == FAILS, (v.summary, v.region)
    assert v.counterexample


def test_every_checkable_check_has_a_perturbation():
    assert [c.id for c in CHECKS if c.expect != NOT_CHECKABLE and not c.perturbed] == []


def test_every_finding_is_an_erratum(stated):
    """A failing step (or one holding only on part of its domain) is recorded as an erratum, and every
    erratum names checks that exist and find it."""
    ids = {e.id for e in ERRATA}
    for c in CHECKS:
        if stated[c.id].failing or c.expect == NOT_CHECKABLE and c.errata:
            assert c.errata and set(c.errata) <= ids, c.id
    for e in ERRATA:
        assert set(e.checks) <= set(BY_ID), e.id
        if e.status == "erratum" and e.checks:
            assert any(OUTCOME[stated[ch].status] in (FAILS, PART, NOT_CHECKABLE) for ch in e.checks), e.id


