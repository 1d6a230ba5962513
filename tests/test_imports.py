"""Importing a package is cheap: pandas, scipy's subpackages and tqdm load where used.

Structural, not timed: each package is imported in a fresh interpreter and the
modules it loaded are read from ``sys.modules``. numba (which every game's kernels
need) imports the top ``scipy`` package itself, so the test allows exactly the
scipy modules that ``import numba`` alone loads. ``benchmarks/bench_import.py``
prints the times.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGES = ("tabletop", "panache", "citadel", "samarra", "commander")
LAZY = ("pandas", "tqdm", "matplotlib", "dask")
ROOT = Path(__file__).resolve().parent.parent

_PROBE = """
import json, sys
import numba
before = {m for m in sys.modules if m == "scipy" or m.startswith("scipy.")}
import %s
print(json.dumps({"loaded": sorted(sys.modules), "numba_scipy": sorted(before)}))
"""


def _loaded(package: str) -> tuple[set[str], set[str]]:
    out = subprocess.run([sys.executable, "-c", _PROBE % package], capture_output=True,
                         text=True, check=True, cwd=ROOT)  # fmt: skip
    data = json.loads(out.stdout)
    return set(data["loaded"]), set(data["numba_scipy"])


@pytest.mark.parametrize("package", PACKAGES)
def test_import_loads_no_heavy_dependency(package):
    loaded, numba_scipy = _loaded(package)
    heavy = sorted(m for m in loaded if m.split(".")[0] in LAZY)
    assert not heavy, f"import {package} loads {heavy[:5]}"
    scipy = sorted(m for m in loaded if m.split(".")[0] == "scipy" and m not in numba_scipy)
    assert not scipy, f"import {package} loads {scipy[:5]}"


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_imports(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None, name
