"""Each result's section leads with its one-line answer (reports.answers): the verdict, and whether a trivial
baseline also reaches it, computed from the summary's baselines; and the verdict plots name rows in words."""

from __future__ import annotations

from pathlib import Path

from reports import answers
from reports.model import Badge
from reports.sections import success_rates
from simulations import contract


class _Run:
    def __init__(self, name, experiment, summary, trials=30):
        self.path, self.summary, self.manifest = Path(name), summary, {"experiment": experiment, "trials": trials}
        self.experiment, self.complete = experiment, True


def _base(status):
    return {"successes": 1, "trials": 1, "target": 0.9, "status": status}


def test_the_answer_says_whether_a_trivial_baseline_also_holds():
    """Catches an answer that reports `holds` without saying the public-only baseline holds too."""
    holds = {"verdict": "holds", "cases": {"a": {"informative": False, "baselines": {"public_only": _base("succeeds")}},
                                            "b": {"informative": True, "baselines": {"public_only": _base("fails")}}}}
    [b] = answers.answer_blocks([_Run("r", "thm10", holds)], ("thm10",))
    assert isinstance(b, Badge) and b.status == "holds"
    assert "informative in 1 of 2 cases (b)" in b.text and "public_only also reach" in b.text
    assert not b.text.lower().startswith("holds")  # the badge shows the word; the text does not repeat it
    alone = {"verdict": "holds", "informative": False, "baselines": {"private_only": _base("succeeds")}}
    [b] = answers.answer_blocks([_Run("r", "thm3_1", alone)], ("thm3_1",))
    assert b.text.endswith("not informative: a trivial baseline does as well (private_only also reach it).")
    # a summary naming the audit that judges its algorithm's privacy: the answer pairs the accuracy verdict with it
    paired = {**alone, "cases": {"a": {"privacy_blind": {}, "audit": "a_sspp"}}}
    [b] = answers.answer_blocks([_Run("r", "thm3_1", paired)], ("thm3_1",))
    assert b.text.endswith("accuracy cannot see privacy: judged by the audit `simulations audit a_sspp`.")
    control = {"verdict": "inconclusive", "variant": "noiseless", "negative_control": True}
    [b] = answers.answer_blocks([_Run("c", "thm10", control, 4)], ("thm10",))
    assert b.status == "missed" and "must come out violated" in b.text


def test_badges_do_not_repeat_their_word():
    assert Badge("holds", "holds: 29/30 vs 0.9").text == "29/30 vs 0.9"
    assert Badge("below-bound", "below-bound at the sizes").text == "At the sizes"
    assert Badge("holds", "holdsworth").text == "holdsworth"


def test_verdict_plot_rows_are_claims_named_in_words():
    """One row per claim, named by its label (else a readable path), never one per internal record key."""
    c = contract.claim(29, 30, 0.9, 0.95)
    summary = {"cases": {"stumps:zipf": {"accuracy": {**c, "label": "A_PAP error <= alpha, skewed stumps"},
                                         "cover": dict(c), "n_fraction_of_bound": 0.5}},
               "verdict_detail": dict(c, status=c["verdict"])}
    rows = success_rates.claims(summary)
    assert [r["label"] for r in rows] == ["A_PAP error <= alpha, skewed stumps", "stumps:zipf / cover"]
    assert all(r["n_fraction"] == 0.5 for r in rows)


def test_the_answer_says_where_the_algorithm_separates_or_why_no_trivial_algorithm_is_judged():
    """Each result's line names the cases where the algorithm succeeds while every trivial algorithm fails (thm10's
    ``separation``, thm7's ``separated``), the sizes where a least-size search separates, and, for an experiment that
    judges none, why. Catches an answer that says 'informative' without where, or 'not stated' where a reason is."""
    sep = {"verdict": "below-bound", "cases": {
        "a": {"informative": True, "separation": {"separated": True}, "baselines": {"public_only": _base("fails")}},
        "b": {"informative": False, "separation": {"separated": False},
              "baselines": {"private_only": _base("succeeds")}}}}
    [b] = answers.answer_blocks([_Run("r", "thm10", sep)], ("thm10",))
    assert "succeeds where every trivial algorithm fails in 1 of 2 cases (a)" in b.text
    nb20 = {"verdict": "holds", "cases": {"x": {"informative": True, "separated": False,
                                                "baselines": {"constant": _base("fails")}}}}
    [b] = answers.answer_blocks([_Run("r", "thm7", nb20)], ("thm7",))
    assert "in none of its 1 cases" in b.text
    loose = {"verdict": "holds", "informative": False, "informative_reason": "a search for least sizes",
             "rows": [
                 {"key": "t:z", "trivial_least_sizes": {"public_only": {"searched": "m", "separates_at": [17, 33]}}}]}
    [b] = answers.answer_blocks([_Run("r", "thm10_looseness", loose)], ("thm10_looseness",))
    assert "not informative: a search for least sizes" in b.text and "t:z: from public_only at m 17, 33" in b.text


def test_every_experiment_has_a_section_that_answers_for_it(tmp_path):
    """Each experiment declares the report section that answers for its runs (``Experiment.section``, written into
    bounds/where.json), and that section exists: built with no runs, the report has a section of every declared
    key. Catches an experiment whose runs no section answers for (its verdict would be missing from the report), and
    a declared key no section has (a typo). Built with no runs, the sections also take their bound tables' points
    from the experiments' defaults in bounds/where.json (abm19's Theorem 3.1, thm10's chain) without failing."""
    from bounds import where
    from reports import builder, results
    from simulations.experiments import catalogue

    declared = where.sections()
    placed = {exp for exps in declared.values() for exp in exps}
    names = {row["name"] for row in catalogue(lazy=True)}
    assert names - placed == set(where.unsectioned()) and placed <= names
    built, errors = builder.build_sections(results.load(tmp_path), tmp_path)
    assert errors == [] and set(declared) <= {s.key for s in built}
