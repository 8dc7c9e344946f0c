"""Section plugins of the report, one module per result or experiment (see :mod:`reports.builder`).

Each module defines ``ORDER`` (float) and ``build(ctx) -> list[reports.model.Section]``; the builder
finds them by listing this package, so adding a section is adding a module here."""
