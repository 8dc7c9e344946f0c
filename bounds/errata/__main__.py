"""python -m bounds.errata [--write]: print (or write to docs/ERRATA.md) the page generated from the records."""
import sys

from .page import main

sys.exit(main())
