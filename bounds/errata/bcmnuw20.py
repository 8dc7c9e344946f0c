"""BCMNUW20: errata and checked statements (records of :class:`bounds.errata.Erratum`)."""
from __future__ import annotations

from . import Erratum

PAPER = "BCMNUW20"

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id='bcmnuw20-thm13-m-1',
        paper='BCMNUW20',
        title='Theorem 13, Markov step: (m - 1) should be (m + 1)',
        results=('thm13',),
        location="000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, proof of Theorem 13, display after Markov's inequality",
        printed='(m+1)(1 - 1/(n+m)^2) - m = 1 - (m-1)/(n+m)^2',
        corrected='= 1 - (m+1)/(n+m)^2; the next step 1 - (m+1)/(n+m)^2 >= 1 - 1/(n+m) still holds (it needs n >= 1), so the conclusion is unaffected',
        verified='sympy: the printed difference is -2/(n+m)^2, never 0 (counterexample n = 1, m = 0: 0 vs 2); the corrected identity simplifies to 0; the next inequality on a grid of (n, m) plus hypothesis',
        checks=('bcmnuw20:thm13.markov-identity', 'bcmnuw20:thm13.chain-1'),
        severity='typo', status='erratum',
    ),
    Erratum(
        id='bcmnuw20-thm13-case-split',
        paper='BCMNUW20',
        title='Theorem 13: the case split m <= t/2 - 1 vs m >= t/2 misses odd t',
        results=('thm13',),
        location='003_95100840c5f51bc1.txt and 000_f1b0431f359f12a2.txt, proof of Theorem 13, first paragraph',
        printed='it suffices to show the claim when m <= t/2 - 1 ...; this would imply that either m >= t/2 or n > r',
        corrected="assume m < t/2 (for integers, m <= ceil(t/2) - 1); the Markov step P[#IN >= m+1] >= P[#IN >= t/2] still holds under it, and its complement is m >= t/2. With 'm <= t/2 - 1' the case t odd, m = (t-1)/2 is covered by neither branch",
        verified='exhaustive over integers t <= 40, m <= 40: the printed split misses (t, m) = (1, 0), (3, 1), ...; the corrected one covers all, and the Markov step holds for every integer count',
        checks=('bcmnuw20:thm13.case-split',),
        severity='gap', status='erratum',
    ),
    Erratum(
        id='bcmnuw20-thm13-small-n',
        paper='BCMNUW20',
        title='Theorem 13: the dichotomy is proven only for n >= 11',
        results=('thm13',),
        location='000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, proof of Theorem 13, last display',
        printed="'we will show that either n > r or m >= t/2' (for every n)",
        corrected='the contradiction ln(n/4) <= eps = 1 only arises for n >= 11 (also the step 1 - 1/n >= 1/2 needs n >= 2): the dichotomy is proven for n >= 11; below that n is O(1), harmless for the Omega~ statement',
        verified='exhaustive over n <= 30, m <= 10, t <= 20, r <= 30 with t < n+m <= r+t, n <= r, m < t/2: the DP violation holds exactly when n >= 11; 11 is the least n with ln(n/4) > 1',
        checks=('bcmnuw20:thm13.conclusion', 'bcmnuw20:thm13.n-ge-11', 'bcmnuw20:thm13.chain-2'),
        severity='gap', status='erratum',
    ),
    Erratum(
        id='bcmnuw20-thm14-2t',
        paper='BCMNUW20',
        title="Theorem 14: '>= 2t' (ICML text) vs '>= t/2' (arXiv)",
        results=('thm14',),
        location='000_f1b0431f359f12a2.txt Theorem 14 and proof of Theorem 13 vs 003_95100840c5f51bc1.txt',
        printed="ICML text: P[|{i : T(q, z_i) = IN}| >= 2t] >= 1 - 1/(r+t)^2, and 'm <= 2t - 1'",
        corrected="arXiv: '>= t/2' and 'm <= t/2 - 1' (the ICML '2t' is the stacked fraction t/2 flattened by the PDF extraction). Read literally, '>= 2t' is an impossible event for s <= r + t < 2t samples (r < t)",
        verified='exhaustive over t < 60: the event #IN >= 2t is impossible for s = t samples, #IN >= t/2 is not; the quotations are located in both seed texts',
        checks=('bcmnuw20:thm14.versions', 'bcmnuw20:versions.text'),
        severity='version', status='erratum',
    ),
    Erratum(
        id='bcmnuw20-lemma11-O-vs-Omega',
        paper='BCMNUW20',
        title="Lemma 11: 'm = O(...)' (ICML) vs 'as long as m = Omega(...)' (arXiv)",
        results=('lemma11',),
        location='000_f1b0431f359f12a2.txt Lemma 11 vs 003_95100840c5f51bc1.txt Lemma 11',
        printed="ICML: 'Let w ~ D^m, where m = O((d log(1/alpha) + log(1/beta))/alpha)'",
        corrected="arXiv: 'as long as m = Omega(...)': the cover guarantee needs m at least that size; for small m (e.g. m = 1) it fails",
        verified='ABM19 inequality (1) at (alpha/4, beta/2) (bounds lemma11_g) on every m the reading claims: the O reading includes m = 1 where the failure bound exceeds beta/2; the Omega reading holds',
        checks=('bcmnuw20:lemma11.versions', 'bcmnuw20:versions.text'),
        severity='version', status='erratum',
    ),
    Erratum(
        id='bcmnuw20-thm10-small-alpha',
        paper='BCMNUW20',
        title='Theorem 10: the O(d log(1/alpha) + log(1/beta)) chain needs alpha bounded away from 1',
        results=('thm10',),
        location="000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, proof of Theorem 10, display after Sauer's lemma",
        printed='log|H~| <= d log(em/d) = O(d log(1/alpha) + d log(1 + log(1/beta)/d)) = O(d log(1/alpha) + log(1/beta))',
        corrected='true with the constant 12 for alpha <= 1/2 (any beta, d); not uniformly as alpha -> 1, where d log(1/alpha) -> 0 while log|H~| >= d (the O implicitly assumes alpha bounded away from 1)',
        verified='grid over alpha in [1e-8, 0.999], beta in [1e-12, 0.999], d <= 200 plus hypothesis, with m from bounds bcmnuw20:lemma11 and Sauer from bounds: holds on alpha <= 1/2, fails near alpha = 1',
        checks=('bcmnuw20:thm10.log-cover', 'bcmnuw20:thm10.log-cover-mid'),
        severity='remark', status='erratum',
    ),
    Erratum(
        id='bcmnuw20-lemma7-constants',
        paper='BCMNUW20',
        title='Lemma 7: the explicit constant 200 does not follow from Dwork-Roth Theorem 4.15',
        results=('lemma7', 'thm10', 'remark10',),
        location='000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, Lemma 7',
        printed='n >= 200 sqrt(log|X~| log(2/delta)) (log|H~| + log(128 log|X~|/(alpha^2 beta)))/(eps alpha^2) gives Err <= alpha w.p. >= 1 - beta',
        corrected="200 and 128 are Dwork-Roth Thm 4.15 read at a = alpha/2 (4 (2 + 32 sqrt 2) = 189.0, 4 x 32), which bounds the empirical error by 3a = 3 alpha/2 on [-1, 1] and leaves nothing for uniform convergence; Thm 3.28's delta > 0 accuracy does not cover the answer noise either. NumericSparse's 2|Q| queries are not dropped (DR's 32 = 2 x 16 counts them; an earlier reason in this entry was wrong). bounds lemma7: the derivation of algorithms.query_release.pmw with its error share and failure budgets optimised (README point of Theorem 10: 10.2 x printed; the fixed 3:1 split of algorithms.pmw is 20.2 x = 10.2 (correction) x 1.98 (that split's slack)",
        verified="symbolic: the printed reading's error budget 2 (3 alpha/2) != alpha, the corrected one (bounds' shares) = alpha; Thm 3.28's log(2|Q|) + log(4c/beta) = log|Q| + log(32 log|X|/(a^2 beta))",
        checks=('bcmnuw20:lemma7.error-budget', 'bcmnuw20:lemma7.numericsparse-queries'),
        severity='error', status='erratum',
        details="- **Where.** 000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, Lemma 7.\n- **Printed.** n >= 200 sqrt(log|X~| log(2/delta)) (log|H~| + log(128 log|X~|/(alpha^2 beta))) / (eps alpha^2) gives Err_{D~,H~}(G~) <= alpha w.p. >= 1 - beta.\n- **Right.** 200 and 128 are Dwork-Roth Theorem 4.15's (delta > 0) condition read at alpha' = alpha/2: 4 (2 + 32 sqrt 2) = 189.0 (rounded to 200) and 32 * 4 = 128. That reading drops Theorem 4.15's factor 3 (its error is 3 alpha'), the [0,1] -> [-1,1] factor 2 between Dwork-Roth's queries and BCMNUW20's, the uniform-convergence step and the beta split; and Dwork-Roth's NumericSparse accuracy for delta > 0 does not cover its own answer noise (sigma(eps_2) = 2 sqrt 2 * 4 sigma(eps_1)). It does **not** drop NumericSparse's 2|Q| queries (an earlier version of this entry said so): Theorem 3.28's log k' + log(4c/beta) at k' = 2|Q| and c = 4 log|X|/a^2 is log|Q| + log(32 log|X|/(a^2 beta)), so Dwork-Roth's 32 = 2 x 16 already counts them (`proofs_checks` `bcmnuw20:lemma7.numericsparse-queries`). The O-form stands. The workbench's PMW (`algorithms/query_release/pmw.py`, module docstring) derives its parameters and the sufficient n afresh: alpha_mw = alpha/8, T = 2 alpha_mw, c = floor(4 ln|X~|/alpha_mw^2) + 1, NumericSparse accuracy by an explicit union bound at beta/2, Hoeffding at beta/2; n_required = max(8 alpha_NS(1)/alpha, 32 ln(4|H~|/beta)/alpha^2) (`pmw_sample_size`). At alpha = 0.5, beta = 0.1, eps = 1, delta = 1e-6, |X~| = 32, |H~| = 33: printed 75,338, corrected 2,976,794 (the answer-noise term dominates).\n- **Verified.** `tests/algorithms/test_pmw.py`: the parameters against a hand computation, the corrected n exceeds the printed one, and at the corrected n the error is <= alpha in >= 1 - beta of seeded runs (Clopper-Pearson), with fewer than c updates and no halt. `python -m proofs_checks`: `bcmnuw20:lemma7.error-budget` (the printed reading's error budget 2 (3 alpha/2) != alpha fails; bounds' optimised shares add up to alpha), `bcmnuw20:lemma7.numericsparse-queries`.",
    ),
    Erratum(
        id='bcmnuw20-lemma7-in-bounds',
        paper='BCMNUW20',
        title='Lemma 7 in `bounds`: one corrected n, shared with the PMW that runs',
        results=('lemma7', 'thm10', 'remark10', 'pmw',),
        location='`bounds/papers/bcmnuw20.py` (`lemma7`, and Theorem 10 / its Remark, which use Lemma 7 at (alpha/2, beta/2)); `baselines:pmw`.',
        printed='the 200 / 128 formula above (both versions).',
        corrected='The derivation above has two free budgets: the error share s of the [0,1] budget alpha/2 given to PMW\'s empirical error 3 alpha_mw (alpha_mw = s alpha/6, the rest (1 - s) alpha/2 to Hoeffding; `algorithms.pmw` fixes s = 3/4, i.e. alpha_mw = alpha/8), and the failure budget (fixed there at beta/2 for NumericSparse, beta/6 per noise family, beta/2 for Hoeffding). `bounds` now solves one union bound over the four families, 2|H~| e^{-n alpha_mw/(4 sigma_1)} + (c+1) e^{-n alpha_mw/(2 sigma_1)} + c e^{-n alpha_mw/sigma_2} + 2|H~| e^{-2 n a_uc^2} <= beta, for the least n, and searches s (never worse than 3/4); `compute` shows s, alpha_mw, a_uc, c, the four failure probabilities it spends, the fixed-split n (`private_samples_fixed_split`, equal to `pmw_sample_size`) and the printed n, with the ratios. README example of Theorem 10 (alpha = 0.1, beta = 0.05, eps = 0.5, delta = 1e-6, d = 3, p = 8): n = 4.277e9 (s* = 0.9973; 10.2 x printed), fixed split 8,455,347,274 (20.2 x), printed 417,675,167; m = 10,126 throughout. So the first correction\'s factor 20.2 is 10.2 (correction: answer noise, 3 alpha, uniform convergence) times 1.98 (slack of the fixed 3:1 split and of the fixed failure shares). Measured over a grid (alpha in {0.01, 0.05, 0.1, 0.3}, beta in {1e-6, 0.01, 0.05, 0.2}, eps in {0.1, 0.5, 0.9}, delta in {1e-9, 1e-6, 1e-3}, |H| in {10, 1e4, 1e8}, |X| in {2^10, 2^30, 2^60}; /tmp script, `bounds.compute("lemma7", ...)`): Lemma 7 optimised/printed 9.1 to 22.7 (median 16.0), fixed/printed 19.5 to 43.4 (median 32.0), fixed/optimised 1.89 to 2.15 (median 2.00). Theorem 10 over a grid (alpha in {0.01, 0.05, 0.1, 0.3}, beta in {1e-6, 0.05, 0.2}, eps in {0.1, 0.5, 0.9}, delta in {1e-9, 1e-6, 1e-3}, d in {1, 3, 10, 50}, p in {1, 8, 100}): optimised/printed 7.1 to 18.8 (median 8.7), fixed/printed 12.8 to 36.0 (median 16.4; the issue\'s independent 12-36, median 15), fixed/optimised 1.77 to 2.09 (median 1.86). At the extreme alpha = beta = 0.5, |H| = |X| = 2, delta = 0.1: 22.8 optimised, 53.3 fixed. PMW example above (eps = 0.999): [[fact:lemma7_pmw_example]]. (The earlier "30-37 x typical" was the fixed split on a narrower grid; "never suffices" is not claimed: the printed n may well suffice for some other analysis, it does not follow from the cited results.)',
        verified="`tests/bounds/test_bcmnuw20.py`: the fixed split by hand with plain `math` and equal to `algorithms.query_release.pmw.pmw_sample_size` at three points; the optimised n is the least integer whose hand-computed union bound at the shown s is <= beta, its four failure probabilities add up to that bound, it is <= the fixed split, and no share on a 400-point hand grid beats it by more than 0.5%; corrected >= printed on random points (hypothesis). A first reading that kept Dwork-Roth Thm 4.15 as printed (a = alpha/12, beta/2; constant 144 (2 + 32 sqrt 2) = 6804.7) was dropped: it inherits Thm 4.15's gaps named above.",
        severity='error', status='erratum',
        details="- **Not optimised.** NumericSparse's own privacy split (eps_1 : eps_2 = sqrt(512) : 2, Dwork-Roth Algorithm 3; the answer noise sigma_2 = 11.3 sigma_1 dominates n) and the threshold T = 2 alpha_mw are parameters of the algorithm that runs (`algorithms.privacy.NumericSparse`, `pmw.py`), not free budgets of this derivation; re-tuning them (a 'tuned instantiation', 3.7-18 x fewer samples than the fixed split) changes the algorithm and is left to its owners.\n- **Experiments.** (Superseded by `bcmnuw20-lemma7-tight`: PMW now takes alpha_mw from the caller.) `algorithms.query_release.pmw` still runs the fixed split (alpha_mw = alpha/8): a run at `private_samples` (optimised) would use fewer samples than that instantiation's own proof needs, so `simulations/experiments/thm10.py` (and the looseness search through it) reads `private_samples_fixed_split`. Once PMW takes alpha_mw (= `mw_accuracy`, [0,1] scale) from its caller, the experiments can run at the optimised n.",
    ),
    Erratum(
        id='bcmnuw20-lemma7-tight',
        paper='BCMNUW20',
        title='Lemma 7 in `bounds`: the tightest n the running PMW supports (answer noise up to T - t_cmp - t_thr)',
        results=('lemma7', 'thm10', 'remark10', 'pmw',),
        location='`bounds/papers/bcmnuw20_lemma7.py` (`lemma7`, Theorem 10 and its Remark at (alpha/2, beta/2), `baselines:pmw`); `algorithms/query_release/pmw.py` (tight split, `mw_accuracy`).',
        printed="the previous correction (`bcmnuw20-lemma7-in-bounds`) held PMW's answer noise within alpha_mw, the comparison and threshold noise within alpha_mw/2 each, and PMW's empirical error at 3 alpha_mw: README point of Theorem 10 n = 4,277,206,748.",
        corrected="The PMW that runs (Dwork-Roth Algorithm 5 over NumericSparse: T = 2 alpha_mw, eta = alpha_mw/2, c = floor(4 ln|X~|/alpha_mw^2) + 1) updates by the *sign* of a_i - q(x^t) only (Algorithm 4). On the event that the comparison noise is within t_cmp, the threshold noise within t_thr, the answer noise within t_ans and Hoeffding within a_uc: a query that fires has |gap| >= T - t_cmp - t_thr; its update moves toward q(s) as long as t_ans < T - t_cmp - t_thr; each update lowers KL(s || x^t) <= ln|X~| by >= alpha_mw^2/4 when T - t_cmp - t_thr >= alpha_mw (Theorem 4.10), so fewer than c updates occur and NumericSparse never halts; queries that do not fire err by < T + t_cmp + t_thr, those that fire by t_ans < T - t_cmp - t_thr. So the steps are: direction t_cmp + t_thr + t_ans <= 2 alpha_mw, update t_cmp + t_thr <= alpha_mw, error 2 alpha_mw + t_cmp + t_thr + a_uc <= alpha/2 (on [0, 1]). The answer noise (sigma_2 = 11.3 sigma_1, the term that sets n) may use what the threshold leaves over the other two noises, not just alpha_mw. README point of Theorem 10: [[fact:lemma7_tight_readme]].",
        encoded="`private_samples` = the least n meeting the three steps (the error step is a quadratic in 1/sqrt n) at failure shares beta_i summing to beta (t = scale ln(count/beta_i)/n, a_uc = sqrt(ln(2|H~|/beta_uc)/(2n))), alpha_mw and the shares chosen in closed form (a few passes; within 0.2% of a Nelder-Mead search over the three free splits at 75 random points, 0.01% at the README point), so a 10^6-point sweep stays vectorised. `compute` shows alpha_mw, c, the shares, the tolerances and PMW's error share, and beside the tight n the previous correction (`private_samples_previous`, by Newton's method on its union bound, within 0.02% of the earlier search), the fixed split (`private_samples_fixed_split`) and the printed value, with their ratios. `pmw(..., mw_accuracy=...)` and `a_pap(..., mw_accuracy=...)` take alpha_mw in (0, alpha/4) from the caller, `pmw_parameters(...).n_required` is then the tight n (a twin of bounds' formula, held equal by `tests/bounds/test_bcmnuw20.py`); `simulations/experiments/thm10.py` and `thm10_looseness.py` run at `private_samples` with PMW at bounds' `mw_accuracy` (per case `pmw_alpha_mw`).",
        verified="`python -m proofs_checks`: `bcmnuw20:lemma7.direction-step` (one exact MW step at its worst admissible noise on 300 seeded histograms: fires, right direction, KL drop >= alpha_mw^2/4; answer noise beyond T - t_cmp - t_thr, or t_cmp + t_thr up to 1.5 alpha_mw, fail), `bcmnuw20:lemma7.tight-n-least` (the three steps hold at bounds' n on a grid plus hypothesis and fail at n/1.02; the shares sum to beta), `bcmnuw20:lemma7.error-budget` (its corrected claim). `tests/bounds/test_bcmnuw20.py`: the three steps by hand with plain `math` at n and not at n - 1, n below the previous correction, the previous correction against a hand grid of its union bound, the closed form against Nelder-Mead, the README values; `tests/algorithms/test_pmw.py`: PMW's tight parameters and n_required. `python -m simulations run thm10 --trials 120` at the tight n: holds (benchmarks/RESULTS.md).",
        checks=('bcmnuw20:lemma7.direction-step', 'bcmnuw20:lemma7.tight-n-least', 'bcmnuw20:lemma7.error-budget'),
        severity='error', status='erratum',
        details="- **Grids.** Theorem 10 (alpha in {0.01, 0.05, 0.1, 0.3}, beta in {1e-6, 0.05, 0.2}, eps in {0.1, 0.5, 0.9}, delta in {1e-9, 1e-6, 1e-3}, d in {1, 3, 10, 50}, p in {1, 8, 100}, p < 2^(d+1): 972 points): tight/printed 4.08 to 7.66 (median 4.27), previous/tight 1.51 to 2.57 (median 1.93), fixed/tight 2.76 to 5.08 (median 3.46). Lemma 7 over the grid of `bcmnuw20-lemma7-in-bounds` (1296 points): tight/printed 5.11 to 8.72 (median 6.53), previous/tight 1.76 to 3.08 (median 2.46).",
    ),
    Erratum(
        id='bcmnuw20-remark10-dual-vc',
        paper='BCMNUW20',
        title='Remark after Theorem 10: sqrt(2^d) where Fact 4 gives p <= 2^(d+1) - 1',
        results=('remark10',),
        location='000 and 003, Remark after Theorem 10.',
        printed='n = O((d log(1/alpha) + log(1/beta))^{3/2} sqrt(2^d log(1/delta))/(eps alpha^2)).',
        corrected='as an O-statement it is right (p < 2^(d+1) = 2 * 2^d, a factor sqrt 2 inside the O); the explicit chain (`remark10`) uses p = 2^(d+1) - 1.',
        verified='`remark10` equals `thm10` at dual VC 2^(d+1) - 1 (test), and its ratio to the O-form settles as alpha, eps, delta -> 0 (generic scaling test).',
        severity='none', status='checked',
    ),
    Erratum(
        id='bcmnuw20-claim3-checked',
        paper='BCMNUW20',
        title='Claim 3: checked and correct',
        results=('claim3',),
        verified='(e|H~|/p~)^p~ needs p~ = VC-dual(H~) <= |H~|, which always holds; with p = VC-dual(H) >= p~ the bound stays valid because k log(eN/k) increases in k <= N. `bounds` uses k = min(p, |H~|) and also the trivial |X~| <= 2^|H~|.',
        severity='none', status='checked',
    ),
    Erratum(
        id='bcmnuw20-thm10-sauer-checked',
        paper='BCMNUW20',
        title='Sauer in the proof of Theorem 10: checked and correct',
        results=('thm10',),
        verified="|H~| <= (em/d)^d needs m_hat >= d distinct public points; the solved m is >= 32d/alpha, and `bounds` uses min(2^m, (em/d')^d') with d' = min(d, m) regardless.",
        severity='none', status='checked',
    ),
    Erratum(
        id='bcmnuw20-lemma11-checked',
        paper='BCMNUW20',
        title='Lemma 11 = ABM19 Lemma 3.3 at (alpha/4, beta/2): checked and correct',
        results=('lemma11',),
        verified="An alpha/4-cover gives |E h - E h~| <= 2 P[h != h~] <= alpha/2 for {+-1}-valued queries, as the proof of Theorem 10 uses; ABM19's tail 2 (2em/d)^{2d} e^{-alpha m/4} is weaker than the double-sample 2 G(2m) 2^{-alpha m/2} and needs m >= 8/alpha, which the least solution (>= 8d/alpha) satisfies. No m with d/2 <= m < 8d/alpha solves the inequality (there 2d log(2em/d) >= 2d >= alpha m/4), so solving from there loses nothing (tested by brute force); below d/2 Sauer's bound does not apply and the formula is not a bound at all, which is why the solver starts at its lower end.",
        severity='none', status='checked',
    ),
    Erratum(
        id='bcmnuw20-thm10-o-form-checked',
        paper='BCMNUW20',
        title="Theorem 10's O-form of n: checked and correct",
        results=('thm10',),
        verified="It hides a log p term (log log|X~| inside Lemma 7's log), O(d) by Fact 4; it is loose in beta (the explicit n grows like log(1/beta) sqrt(log log(1/beta)), the O-form like log(1/beta)^{3/2}), so `bounds` declares no beta-scaling for n.",
        severity='none', status='checked',
    ),
    Erratum(
        id='bcmnuw20-lower-constants',
        paper='BCMNUW20',
        title="Theorems 13, 14, 15 and Lemma 17: constants the papers leave open, derived where the workbench can (not 'correct as printed')",
        results=('thm13', 'thm14', 'thm15', 'lemma17',),
        printed="Omega~ / Omega / O statements with no constants (Dwork et al. 2015 Thm 17 behind Theorem 14; Beimel et al. "
                "2013 Thm 5.5 behind Lemma 17, hence Theorem 15)",
        corrected="the statements are not correct as printed: Theorem 14's high-probability completeness fails for (alpha, "
                  "alpha)-accurate releases (erratum bcmnuw20-thm14-whp; Theorem 13 stands through the expectation form), and "
                  "Lemma 17's reduction needs a release of the labelled class H^+- (erratum bcmnuw20-lemma17-labelled). The "
                  "constants are derived where an explicit form exists: Theorem 13/14 for the workbench's attack (t and r + "
                  "t explicit), Theorem 15's m > 1/(1600 alpha) (C_15 = 1/1600, ABM19 Theorem 4.1 through the corrected "
                  "Lemma 17, with n_priv >= 4); the asymptotic forms keep named constants (C_14r, C_14t, C_15, C_17; "
                  "default 1) and every output says so",
        encoded="bounds/papers/bcmnuw20_lower.py (asymptotic forms, named constants) and bounds/papers/bcmnuw20_explicit.py "
                "(explicit forms)",
        verified="the two errata's checks (bcmnuw20:thm14.* and bcmnuw20:lemma17.*) and bcmnuw20:thm15.labelled-class",
        severity='remark', status='erratum',
    ),
    # --- the lower bounds read as stated: privacy regime, degenerate cases, prose ------------------
    Erratum(
        id="bcmnuw20-thm13-regime",
        paper="BCMNUW20",
        title="Theorem 13's regime: (1, 1/(4n))-DP as stated is what the proof uses (and every eps <= 1): checked",
        results=("thm13",),
        location="000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, Theorem 13 and its proof",
        printed="A satisfies (1, 1/(4n))-differential privacy and is (alpha, alpha)-accurate for S_p; then either n = "
                "Omega~(sqrt(p)/alpha) or m = Omega(1/alpha^2)",
        encoded="bcmnuw20:thm13 states the regime; compute prints it as a caveat",
        verified="the proof's last step ln(n/4) <= eps is taken at eps = 1 (erratum bcmnuw20-thm13-small-n for n <= 10); an "
                 "algorithm at eps <= 1, delta <= 1/(4n) is (1, 1/(4n))-DP, so the statement covers it; larger eps is not "
                 "claimed. m = 0 (no public data) is covered (then n = Omega~(sqrt(p)/alpha)). The prose after it ('if m = "
                 "o(1/alpha^2) the number of private samples must scale proportionally to sqrt(p) as in Theorem 10') "
                 "claims the p-dependence only, which matches Theorem 10's sqrt(log|X~|) = O~(sqrt(p)); in alpha the "
                 "bounds differ (1/alpha here, 1/alpha^2 there)",
        severity="none", status="checked",
    ),
    Erratum(
        id="bcmnuw20-thm15-regime",
        paper="BCMNUW20",
        title="Theorem 15: proven for eps = O(0.1) and delta <= 1/(100 n'^2 log n'); 'regardless of the number of private samples' needs delta shrinking with n",
        results=("thm15", "lemma17"),
        location="000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, Theorem 15, the sentence after it, Lemma 17, Lemma 18 (ABM19 Thm 4.1)",
        printed="any PAP query-release algorithm for H (infinite Littlestone dimension) must have m = Omega(1/alpha); 'this "
                "holds regardless of the number of private samples, which can be arbitrarily large'",
        corrected="the proof is Lemma 17 (a learner at (O(alpha), O(beta), O(eps), O(delta)) with n' = O(n log(1/(alpha "
                  "beta))/(alpha^2 beta)) private samples) followed by ABM19 Theorem 4.1, which covers learners at eps <= 0.1 "
                  "and delta <= 1/(100 n'^2 log n') (record abm19-thm4.1-regime). So the theorem holds for algorithms whose "
                  "eps is at most 0.1 over Lemma 17's constant and whose delta is at most 1/(100 n'^2 log n') over it: "
                  "for any n if delta shrinks like o(1/n'^2), but at a fixed delta only up to n' of about 1/(10 sqrt(delta)), "
                  "not for arbitrarily many private samples",
        encoded="bcmnuw20:thm15 explicit, m > 1/(1600 alpha) (bounds/papers/bcmnuw20_explicit.py: the workbench's "
                "Lemma 17 reduction, excess alpha, same beta, eps, delta, then ABM19 Theorem 4.1 at alpha <= 1/100, beta "
                "<= 1/22, eps <= 0.1, delta <= 1/(100 n^2 log n)); compute prints the regime as a caveat",
        checks=("bcmnuw20:thm15.composition", "bcmnuw20:thm15.parameters"),
        verified="by reading the chain of the proof: every lower bound it uses is ALMM18's at eps = 0.1, delta = "
                 "1/(100 n^2 log n) (ABM19 Theorem 4.3)",
        severity="gap", status="erratum",
    ),
    Erratum(
        id="bcmnuw20-thm15-tight-prose",
        paper="BCMNUW20",
        title="After Theorem 15: 'a tight dependence on alpha' holds up to log(1/alpha) (and d)",
        results=("thm15", "thm10"),
        location="000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, the paragraph after Theorem 15",
        printed="in the light of our upper bound in Section 3, our lower bound on the public sample complexity exhibits a "
                "tight dependence on the accuracy parameter alpha",
        corrected="Theorem 10's m = O((d log(1/alpha) + log(1/beta))/alpha) against Omega(1/alpha): tight up to a factor "
                  "d log(1/alpha) (for fixed d, a log(1/alpha)); 'one cannot hope to attain o(1/alpha)' is right",
        verified="the two statements compared (bcmnuw20:thm10's m and bcmnuw20:thm15's m at the same alpha: the ratio grows "
                 "like log(1/alpha) for fixed d and beta)",
        severity="remark", status="erratum",
    ),
    Erratum(
        id="bcmnuw20-lemma17-statement",
        paper="BCMNUW20",
        title="Lemma 17's statement: constants of Beimel et al. 2013 Thm 5.5 not in the seed papers; form checked",
        results=("lemma17",),
        location="000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, Lemma 17",
        printed="an (alpha, beta, eps, delta) PAP query-release algorithm gives an (O(alpha), O(beta), O(eps), O(delta)) PAP "
                "learner with n' = O(n log(1/(alpha beta))/(alpha^2 beta)) private and m public samples",
        encoded="bcmnuw20:lemma17 with a named constant C_17 (default 1) and m passed on unchanged",
        verified="by reading: the public sample is passed on unchanged (m stays m) and the privacy parameters grow by "
                 "constants, so Theorem 15 inherits the privacy regime of the learner lower bound it invokes (erratum "
                 "bcmnuw20-thm15-regime); the constants are Beimel et al.'s, not in the seed papers, so not checked",
        severity="none", status="checked",
    ),
    Erratum(
        id="bcmnuw20-fact4-checked",
        paper="BCMNUW20",
        title="Fact 4 (Assouad): p < 2^(d+1): checked and correct, encoded as a relation",
        results=("fact4", "thm10"),
        location="000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, Fact 4",
        printed="for every class of VC dimension d, the dual VC dimension p < 2^(d+1)",
        encoded="bcmnuw20:fact4 gives 2^(d+1) - 1; thm10 refuses --dual-vc >= 2^(d+1) with one clear error",
        verified="Assouad 1983 as cited; no regime or degenerate case (d = 0 gives p <= 1, outside the domain d >= 1)",
        severity="none", status="checked",
    ),
    Erratum(
        id="bcmnuw20-thm14-whp",
        paper="BCMNUW20",
        title="Theorem 14: the high-probability completeness fails for (alpha, alpha)-accurate releases",
        results=("thm14", "thm13"),
        location="000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, Theorem 14 (and its use in the proof of Theorem 13)",
        printed="for every (alpha, alpha)-accurate algorithm with s in [t, r + t] samples, P[#{i : T(q, z_i) = IN} >= t/2] "
                ">= 1 - 1/(r+t)^2",
        corrected="false once alpha/2 > 1/(r+t)^2: an accurate release may answer 0 (data-independent) w.p. alpha/2, and on "
                  "that event no attacker sound at level 1/(r+t)^2 traces more than a fresh sample. What holds: E[#IN] >= "
                  "(t+1)/2 for every s <= r + t, which is what Theorem 13's proof needs after its Markov step (the private "
                  "samples carry >= 1/2 of the expected traced count for m < t/2), so Theorem 13 stands with n > r or m >= "
                  "t/2 (n >= 11), and says something only where an (alpha, alpha)-accurate release with at most r + t "
                  "samples exists (with fewer samples than any accurate release needs, Theorem 14's premise is empty and "
                  "Theorem 13 holds vacuously)",
        encoded="bcmnuw20:thm14 and thm13 explicit for the workbench's attack (bounds/papers/bcmnuw20_explicit.py): t of "
                "order 1/(alpha^2 log(p r)) (a log factor from matrix Bernstein), r + t of order sqrt(p)/(alpha sqrt(log)); "
                "t > 0 needs alpha < 0.009, and the region n + m <= r + t holds an (alpha, alpha)-accurate release only from "
                "p ~ 10^13 on (compute prints a regime line)",
        verified="the counter-release against the printed completeness on a grid of (alpha, p, s) where it is accurate; "
                 "every step of the expectation form is a check (score identity, integration by parts, signal floor, "
                 "soundness exact and on the Attacker, counting inequality, tails, assembly at bounds' values)",
        checks=("bcmnuw20:thm14.whp", "bcmnuw20:thm14.soundness", "bcmnuw20:thm14.soundness-attacker",
                "bcmnuw20:thm14.accuracy-slack", "bcmnuw20:thm14.score-identity", "bcmnuw20:thm14.by-parts",
                "bcmnuw20:thm14.signal-floor", "bcmnuw20:thm14.counting", "bcmnuw20:thm14.opnorm",
                "bcmnuw20:thm14.reference", "bcmnuw20:thm14.assembly", "bcmnuw20:thm13.expectation-step"),
        severity="error", status="erratum",
    ),
    Erratum(
        id="bcmnuw20-lemma17-labelled",
        paper="BCMNUW20",
        title="Lemma 17: the reduction releases the labelled class H^+-, not H",
        results=("lemma17", "thm15"),
        location="000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt, Lemma 17 and the paragraph after it",
        printed="a PAP query-release algorithm for H gives a PAP learner for H with n' = O(n log(1/(alpha beta))/(alpha^2 "
                "beta)) (BNS13 Thm 5.5 via Remark 9's proper sanitizer)",
        corrected="answers for H (E_{D_x}[h]) do not determine the labels: the reduction needs a release of H^+- = {(x, y) "
                  "-> h(x) y} on X x {+-1}. With it n' = n, m' = m, excess error alpha (release error on [-1, 1]), the same "
                  "beta, eps, delta. H^+- contains H on the points (x, +1), so its Littlestone dimension is >= that of H and "
                  "Theorem 15 applies to releases of H^+-; for a release of H alone no constant is pinned down",
        encoded="bcmnuw20:lemma17 explicit (the reduction of algorithms/adversaries/query_to_learner.py) beside the printed "
                "O-form at constant 1; bcmnuw20:thm15 explicit m > 1/(1600 alpha) for releases of H^+- at ABM19 Theorem "
                "4.1's parameters (erratum bcmnuw20-thm15-regime)",
        verified="two labelled laws with one marginal and different best hypotheses defeat every learner that reads H's "
                 "answers only; adversarial H^+- releases within a give excess <= a (and exceed a/2); exact Littlestone "
                 "dimensions of H^+- vs H for thresholds on <= 12 points",
        checks=("bcmnuw20:lemma17.from-h", "bcmnuw20:lemma17.excess", "bcmnuw20:lemma17.error-scale",
                "bcmnuw20:thm15.labelled-class"),
        severity="gap", status="erratum",
    ),
)
