"""Differential-privacy mechanisms with declared guarantees, and their accounting.

Convention: every mechanism and algorithm returns ``Release(value, guarantee)`` (a NamedTuple
from ``accounting``), where ``guarantee`` is a ``PureDP``, ``ApproxDP`` or ``ZCDP`` value
covering everything the computation read from the private data. See ``accounting`` for the
composition and conversion rules and ``Accountant`` for a labelled ledger of spends.
"""

from .accounting import *  # noqa: F401,F403
from .accounting import __all__ as _acct_all
from .mechanisms import *  # noqa: F401,F403
from .mechanisms import __all__ as _mech_all
from .sparse_vector import *  # noqa: F401,F403
from .sparse_vector import __all__ as _svt_all
from .stability import *  # noqa: F401,F403
from .stability import __all__ as _stab_all

__all__ = list(_acct_all) + list(_mech_all) + list(_svt_all) + list(_stab_all)
