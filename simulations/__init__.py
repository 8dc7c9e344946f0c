"""Monte-Carlo validation of the results: distributions, experiments, runner, store, statistics, audit.

- :mod:`simulations.distributions`  exact distributions over {0..N-1}, labeled versions, Renyi divergences
- :mod:`simulations.experiments`    one module per validated result; the experiment shape and the registry
- :mod:`simulations.runner`         ``run`` / ``resume`` / ``status``: seeded trials on serial, process-pool or Dask
backends
- :mod:`simulations.store`          the run directory (manifest.json, records.jsonl, summary.json)
- :mod:`simulations.stats`          Clopper-Pearson and Wilson intervals, the holds / violated / inconclusive verdict
- :mod:`simulations.audit`          empirical privacy auditing (epsilon lower bounds); targets in
:mod:`simulations.audit_targets`

Command line: ``python -m simulations list | run | resume | status | audit``.
"""
