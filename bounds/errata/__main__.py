"""python -m bounds.errata [--write]: print (or write to docs/ERRATA.md) the page generated from the records."""
import sys

from . import main

sys.exit(main())
