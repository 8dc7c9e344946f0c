"""Audit targets, one module per mechanism family; each module defines ``TARGETS``, a tuple of
:class:`simulations.audit.AuditTarget`. :func:`simulations.audit.targets` imports every module here,
so adding a target (e.g. A_PAP's, in ``pap.py``) needs no edit of the engine."""
