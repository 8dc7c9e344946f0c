"""Checks by declaration: proofs_checks/checks.json lists the registry exactly, ``--list`` reads it without importing
numpy or a paper's module, and one paper's run imports only the modules that declare its checks."""
from __future__ import annotations

import json
import subprocess
import sys

from proofs_checks import declared
from proofs_checks.core import PAPERS, all_checks


def test_checks_json_is_the_registry():
    """Regenerate with ``python -m proofs_checks.declare --write`` after adding or changing a check. Generated in a
    fresh interpreter: the registry's own order is the order its modules are imported in."""
    fresh = subprocess.run([sys.executable, "-m", "proofs_checks.declare"], capture_output=True, text=True,
                           check=True).stdout
    assert list(declared.declarations()) == json.loads(fresh)
    assert [r["id"] for r in declared.declarations()] == [c.id for c in all_checks()]


def test_list_imports_no_numpy_and_no_paper_module():
    code = ("import sys, io, contextlib\nimport proofs_checks.__main__ as m\nbuf = io.StringIO()\n"
            "with contextlib.redirect_stdout(buf):\n    rc = m.main(['--list', '--json'])\n"
            "print(rc, 'numpy' in sys.modules, any(k.startswith('proofs_checks.') and k.split('.')[1] in "
            "('bcmnuw20', 'abm19', 'lvsuw21', 'nb20', 'core') for k in sys.modules), "
            "len(__import__('json').loads(buf.getvalue())))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "False", "False", str(len(all_checks()))]


def test_one_paper_imports_only_its_modules_in_paper_order():
    code = ("import sys\nfrom proofs_checks.core import all_checks\nids = [c.id for c in all_checks('lvsuw21')]\n"
            "print(' '.join(ids)); print('proofs_checks.nb20' in sys.modules, 'proofs_checks.bcmnuw20' in sys.modules)")
    lines = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert lines[0].split() == [c.id for c in all_checks() if c.paper == "LVSUW21"]
    assert lines[1] == "False False"


def test_the_command_line_knows_the_same_papers():
    import proofs_checks.__main__ as m

    assert m.PAPERS == PAPERS
    json.dumps(list(declared.declarations()))
