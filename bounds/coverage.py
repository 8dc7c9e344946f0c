"""The four papers' numbered results and what decides each (``python -m bounds coverage``, the report's first
screen).

Read from ``bounds/papers_index.toml`` (the 104 items of BCMNUW20, ABM19, LVSUW21 and NB20 as the papers list
them; a registered result names the items it is, ``Result.index_items``) and from the registries' own
declarations (:func:`bounds.where.declared`: experiments by their declared ``results``, proof checks by their
``result``, audit targets by the result their ``source`` cites; explicit forms from :mod:`bounds.registry`).
Nothing here is kept by hand: a new experiment, check or target changes its row.

What decides a result, in this order of strength:

* ``verdict at its own sizes``: an experiment validates it; a run at or above every size the result requires
  gives ``holds``/``violated``/``inconclusive``, below them a ``below-bound`` measurement;
* ``measurement``: an experiment runs it, but no finite run can decide it (the index's ``undecidable`` says
  why and what instance-level evidence is given);
* ``privacy audit``: an audit target of its algorithm cites it (a privacy claim), and no experiment does;
* ``proof check``: only machine checks of its proof's steps;
* ``nothing can``: the index says why no finite run can decide it, and nothing runs it;
* ``nothing yet``: none of the above (a gap, shown as one).

Which saved run answers a result is a rule of the results' reader (``reports.coverage``, ``python -m reports
coverage --results DIR``), not of ``bounds``.
"""
from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

INDEX = Path(__file__).with_name("papers_index.toml")
NUMBERED = "numbered result"
#: the kinds of evidence, strongest first (see the module docstring)
DECIDERS = ("verdict at its own sizes", "measurement", "privacy audit", "proof check", "nothing can",
            "nothing yet")
#: the words items use for a result's kind -> the kind in result ids ("Thm 10" -> thm10)
_KIND = {"thm": "thm", "theorem": "thm", "lemma": "lemma", "claim": "claim", "fact": "fact", "remark": "remark",
         "prop": "prop", "proposition": "prop", "alg": "alg", "cor": "cor", "corollary": "cor"}
_LABEL = re.compile(r"^(Thm|Theorem|Lemma|Claim|Fact|Remark|Prop|Proposition|Cor|Corollary)\.?\s+"
                    r"(\d+(?:\.\d+)?)(?=$|:|\s+\(|\s+\+)")  # "Thm 11 corollary" names no result


@dataclass(frozen=True)
class Item:
    """BCMNUW20/ABM19/LVSUW21/NB20 as listed in ../shared/PAPERS_INDEX.md: one item of a paper."""

    id: str          # B13 (B, A, L, N: the paper; the index's number)
    paper: str       # bcmnuw20
    item: str        # "Thm 10: n, m upper bound"
    kind: str
    klass: str       # "numbered result", "definition", "algorithm", ...
    result: str      # the registered result declaring it (Result.index_items), "" where none is registered
    undecidable: str = ""  # why no finite run can decide it, and what evidence is given instead ("" if one can)
    #: deciders the registries cannot derive (no registered result, or a decider declared under another id):
    #: ``kind:name`` with kind ``check``, ``audit`` or ``experiment``
    decided_by: tuple[str, ...] = ()


@dataclass
class Row:
    """One numbered result and what decides it."""

    item: Item
    cited: str                                   # the id its evidence is declared under (result, or from its label)
    experiments: list[str] = field(default_factory=list)
    proof_checks: list[str] = field(default_factory=list)
    audit_targets: list[str] = field(default_factory=list)
    explicit: str = ""                           # the registered result's explicit status ("" when unregistered)
    decides: str = ""                            # one of DECIDERS
    why: str = ""                                # the detail in words

    def to_dict(self) -> dict:
        i = self.item
        return {"item": i.id, "paper": i.paper, "label": i.item, "result": i.result or None,
                "decided_by": self.decides, "how": self.why, "experiments": self.experiments,
                "proof_checks": self.proof_checks, "audit_targets": self.audit_targets,
                "explicit": self.explicit or None, "undecidable": i.undecidable or None}


def _text(value) -> str:
    """The ``undecidable`` field as one line, whether the index gives a string or a table of strings."""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {v}" for k, v in value.items() if v)
    return " ".join(str(value or "").split())


def results_of_items(ids) -> dict[str, str]:
    """``{index item id: the registered result that declares it}`` (``Result.index_items``): ValueError for an
    item two results declare or a declared item the index does not have."""
    from .registry import all_results

    out: dict[str, str] = {}
    for r in all_results():
        for i in r.index_items:
            if i in out:
                raise ValueError(f"{INDEX.name}: item {i} is declared by both {out[i]} and {r.id}")
            if i not in ids:
                raise ValueError(f"{r.id}: index_items names {i}, which {INDEX.name} does not have")
            out[i] = r.id
    return out


@functools.lru_cache(maxsize=None)
def items() -> tuple[Item, ...]:
    """Every item of the index, in paper order, each with the registered result that declares it. A malformed
    index is a ValueError naming the item."""
    with INDEX.open("rb") as fh:
        data = tomllib.load(fh)
    raws = data.get("item", [])
    for raw in raws:
        if "result" in raw:
            raise ValueError(f"{INDEX.name}: item {raw.get('id')}: the result declares its item (Result.index_items); "
                             "the index has no `result`")
    results = results_of_items({str(raw.get("id")) for raw in raws})
    out = []
    for k, raw in enumerate(raws):
        try:
            out.append(Item(str(raw["id"]), str(raw["paper"]), str(raw["item"]), str(raw["kind"]),
                            str(raw["class"]), results.get(str(raw["id"]), ""), _text(raw.get("undecidable", "")),
                            tuple(str(d) for d in raw.get("decided_by", ()))))
        except KeyError as exc:
            raise ValueError(f"{INDEX.name}: item {k + 1} lacks {exc}") from None
    return tuple(out)


def numbered() -> list[Item]:
    return [i for i in items() if i.klass == NUMBERED]


def cited_id(item: Item) -> str:
    """The id the item's evidence is declared under: its registered result, else ``paper:kind+number`` read from
    its label ("Lemma 3.2: A_SSPP is eps-DP" of ABM19 -> abm19:lemma3.2), else ""."""
    if item.result:
        return item.result
    m = _LABEL.match(item.item)
    return f"{item.paper}:{_KIND[m.group(1).lower()]}{m.group(2)}" if m else ""


def _targets_citing(rid: str) -> list[str]:
    """Audit targets that declare ``rid`` in their ``results`` though it is not a registered result (a privacy
    lemma), from bounds/where.json."""
    from . import where

    return list(where.declared()["audit targets"].get(rid, []))


def _decide(row: Row) -> None:
    undecidable = row.item.undecidable
    if row.experiments and not undecidable:
        row.decides = DECIDERS[0]
        row.why = f"experiment {', '.join(row.experiments)}"
    elif row.experiments:
        row.decides, row.why = DECIDERS[1], f"experiment {', '.join(row.experiments)}; {undecidable}"
    elif row.audit_targets:
        row.decides, row.why = DECIDERS[2], f"audit of {', '.join(row.audit_targets)}"
    elif row.proof_checks:
        row.decides = DECIDERS[3]
        row.why = f"{len(row.proof_checks)} check(s) of its proof's steps"
    elif undecidable:
        row.decides, row.why = DECIDERS[4], undecidable
    else:
        row.decides = DECIDERS[5]
        row.why = ("no experiment, audit target or proof check declares it"
                   + ("" if row.item.result else "; no result is registered for it"))


def rows() -> list[Row]:
    """One row per numbered result of the four papers, in paper order."""
    from . import where
    from .registry import all_results

    found = where.declared()
    explicit = {r.id: r.explicit_status for r in all_results()}
    out = []
    for item in numbered():
        rid = cited_id(item)
        row = Row(item, rid)
        if rid:
            row.experiments = list(found["experiment"].get(rid, []))
            row.proof_checks = list(found["proof checks"].get(rid, []))
            row.audit_targets = list(found["audit targets"].get(rid, [])) or _targets_citing(rid)
        for entry in item.decided_by:  # what the index names beside what the registries declare
            kind, _, name = entry.partition(":")
            found_in = {"experiment": row.experiments, "check": row.proof_checks, "audit": row.audit_targets}
            if kind not in found_in:
                raise ValueError(f"{INDEX.name}: {item.id}: decided_by {entry!r}: kind check, audit or experiment")
            if name not in found_in[kind]:
                found_in[kind].append(name)
        row.explicit = explicit.get(item.result, "")
        _decide(row)
        out.append(row)
    return out


ITEM_ID = re.compile(r"^[BALN]\d+$")


def decider_lines(rid: str = "", item_id: str = "") -> list[str]:
    """The lines ``bounds show`` ends with: for each numbered result of the index that is ``item_id`` or whose
    registered result is ``rid``, what decides it (its kind of evidence and the experiments, proof checks or audit
    targets by name, or why nothing can). Empty when no numbered result matches."""
    found = [r for r in rows() if (item_id and r.item.id == item_id) or (rid and r.item.result == rid)]
    out = []
    for r in found:
        out += ["", f"decided by (papers index {r.item.id}: {r.item.item}):", f"  {r.decides}"]
        for what, names in (("experiment", r.experiments), ("proof check", r.proof_checks),
                            ("audit target", r.audit_targets)):
            out += [f"  {what}: {n}" for n in names]
        if r.decides in (DECIDERS[1], DECIDERS[4]):
            out.append(f"  why no finite run decides it: {r.item.undecidable}")
    return out


def render_item(item_id: str) -> str:
    """``bounds show B24``: a numbered result of the index by its item id (those with no registered result
    included): its paper, label, registered result and what decides it. ValueError for an unknown item."""
    item = next((i for i in items() if i.id == item_id), None)
    if item is None or item.klass != NUMBERED:
        raise ValueError(f"{item_id!r} is not a numbered result of bounds/papers_index.toml "
                         "(`python -m bounds coverage` lists them)")
    head = [f"{item.paper.upper()} {item.item}  (papers index {item.id}, {item.kind})",
            f"registered result: {item.result or 'none (the index names its deciders)'}"]
    return "\n".join(head + ["decided by:"] + decider_lines(item_id=item.id)[2:])


def short(text: str, width: int = 44) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def cmd(ns) -> int:
    """``python -m bounds coverage [--json | --csv]``: one row per numbered result and what decides it, from the
    registries alone (``python -m reports coverage --results DIR`` adds the saved runs that answer each)."""
    from . import cli_common as cli

    found = rows()
    header = ["item", "result", "decided by", "how", "explicit form"]
    table = [[f"{r.item.id} {r.item.item}", r.item.result.split(":", 1)[-1] if r.item.result else "-",
              r.decides, r.why, r.explicit or "-"] for r in found]
    text = None if ns.json or ns.csv else (cli.table([[short(c) if k in (0, 3) else c for k, c in enumerate(t)]
                                                      for t in table], header) + footer(found))
    cli.emit(ns, table, header, text=text, json_obj={"rows": [r.to_dict() for r in found]})
    return 0


def footer(rs) -> str:
    """The count line under a coverage table: results, items and how many each decider decides."""
    counts = {d: sum(r.decides == d for r in rs) for d in DECIDERS}
    return (f"\n\n{len(rs)} numbered results of {len(items())} items: "
            + ", ".join(f"{n} {d}" for d, n in counts.items() if n))
