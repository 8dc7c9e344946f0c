"""BCMNUW20 Theorem 10 (``thm10``): the type of one trial's record (the experiment's ``outcome``), kept apart so
the experiment module stays within the layout's size."""
from __future__ import annotations

from dataclasses import dataclass

from simulations import contract


@dataclass(frozen=True)
class Case:
    """One case of one trial (``run_pap``); the trivial releases' fields only with ``baselines``. An opponent's
    outcome is its error (judged against alpha where it is summarised); its ``_accurate`` flag is written only where
    ``thm10_looseness`` reads it (``thm10.FLAGGED``) and stays declared for runs recorded before."""
    n: int
    m: int
    cover_radius: float
    cover_ok: bool
    error: float
    accurate: bool
    spent_eps: float
    spent_delta: float
    cover_size: int
    reduced_domain_size: int | None
    pmw_updates: int
    pmw_halted: bool
    pmw_alpha_mw: float
    private_only_updates: int | None = None
    public_only_error: float | None = contract.opponent_field("public_only", "error", None)
    public_only_accurate: bool | None = None
    public_shrunk_error: float | None = contract.opponent_field("public_shrunk", "error", None)
    public_shrunk_accurate: bool | None = None
    private_only_error: float | None = contract.opponent_field("private_only", "error", None)
    private_only_accurate: bool | None = None
    gaussian_error: float | None = contract.opponent_field("gaussian", "error", None)
    gaussian_accurate: bool | None = None
    laplace_error: float | None = contract.opponent_field("laplace", "error", None)
    laplace_accurate: bool | None = None
    tree_error: float | None = contract.opponent_field("tree", "error", None)
    tree_accurate: bool | None = None
    constant_zero_error: float | None = contract.opponent_field("constant_zero", "error", None)
    constant_zero_accurate: bool | None = None
    exact_private_error: float | None = None
    exact_private_accurate: bool | None = None
    exact_pooled_error: float | None = None
    exact_pooled_accurate: bool | None = None


@dataclass(frozen=True)
class Outcome:
    """One trial: per case name, and whether A_PAP was accurate in every case."""
    cases: dict[str, Case]
    success: bool
