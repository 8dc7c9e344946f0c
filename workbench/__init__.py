"""Commands above every layer of the workbench: they import all the registries (bounds, algorithms, simulations,
proofs_checks, reports) and write what the lower layers read as data (``python -m workbench.where --write``
writes bounds/where.json). Nothing of the project imports this package."""
