"""Audit targets, one module per mechanism family (mechanisms, sparse_vector, pmw, pap, ...).

The interface (kept backward compatible; extend, don't break):

* A module here defines ``TARGETS``, a tuple of :class:`simulations.audit.AuditTarget`
  ``(name, source, description, make, expect_private=True, default_eps=1.0, default_delta=0.0,
  default_samples=200_000)``. ``name`` is unique across modules; ``source`` cites the claim audited
  ("BCMNUW20 Thm 10", with " (broken)" for a deliberately broken variant); ``expect_private=False``
  marks a broken variant the auditor must catch at ``default_samples``.
* ``make(eps, delta)`` returns a :class:`simulations.audit.AuditCase`
  ``(mechanism, statistic, private_pair, public, eps, delta=0.0, batched=False)``:
  ``mechanism(private_data, public, rng)`` -> one output (and, if ``batched``, ``size=B`` -> B outputs
  stacked on axis 0); ``statistic`` maps one output (or, if batched, the stack) to a float (NaN and
  +-inf are allowed and treated as values of their own), to a vector (a row per output), or is ``None``
  to use the outputs themselves. Numeric vectors are searched coordinate by coordinate; outputs with
  at most ``simulations.audit.MAX_CATEGORIES`` distinct values are also treated as categories ordered
  by their likelihood ratio. ``eps``/``delta`` in the case are the guarantee the mechanism declares
  (e.g. its ``Release.guarantee``), which may differ from the arguments of ``make``. Optional keywords
  (defaults keep older targets unchanged): ``profile``/``profile_name`` (the whole privacy curve declared),
  ``rho`` (a zCDP claim: adds the Renyi audit), ``neighbours``/``mutate``/``starts`` (let the auditor search
  the pair), ``pair_loss`` (the exact loss of a pair, which says whose a gap is; with ``neighbours`` the auditor
  also ranks pairs by it), ``transcript``/``log_ratio`` (the whole released transcript and the declared law's
  exact log-ratio: the divergence objective).
* Randomness only from the ``rng`` argument; no files, no network.

Discovery: :func:`simulations.audit.targets` imports every module of this package whose name does not
start with ``_`` (``pkgutil.iter_modules``) and registers its ``TARGETS``; a module that fails to import
is reported by :func:`simulations.audit.target_errors` (and by ``python -m simulations list``) without
hiding the others. ``python -m simulations audit --all`` audits every registered target at its defaults
with one family-wise confidence (Bonferroni over the targets); adding a module here adds it to ``--all``
with no edit of the engine. tests/simulations/test_audit.py runs small versions of the broken variants
(its ``CI_SAMPLES``); the default sample counts are what ``audit --all`` uses.
"""
