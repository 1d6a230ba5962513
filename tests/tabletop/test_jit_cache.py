"""A cached kernel compiles again when a project module it imports changes, not only
when its own file does (numba alone keys the cache by the kernel's own file)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

HELPERS = """
    from tabletop.jit import jit

    STEP = {step}


    @jit
    def bonus():
        return {bonus}
"""

KERNELS = """
    from tabletop.jit import jit
    from toygame.helpers import STEP, bonus


    @jit
    def total(n):
        return n * STEP + bonus()
"""

RUN = """
    import sys
    from pathlib import Path

    import tabletop.jit

    tabletop.jit.PACKAGE_DIRS["toygame"] = Path(sys.argv[1]) / "toygame"
    sys.path.insert(0, sys.argv[1])
    from toygame._kernels import total

    print(total(3), len(total.stats.cache_hits))
"""


def _run(folder: Path) -> tuple[int, int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-c", textwrap.dedent(RUN), str(folder)]
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True,
                         timeout=300).stdout  # fmt: skip
    value, hits = out.split()
    return int(value), int(hits)


def _write(folder: Path, step: int, bonus: int) -> None:
    package = folder / "toygame"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text(textwrap.dedent(HELPERS.format(step=step, bonus=bonus)))
    (package / "_kernels.py").write_text(textwrap.dedent(KERNELS))


def test_a_kernel_compiles_again_when_a_module_it_imports_changes(tmp_path):
    _write(tmp_path, step=10, bonus=1)
    assert _run(tmp_path) == (31, 0)  # compiled, then written to the cache
    assert _run(tmp_path) == (31, 1)  # read back from the cache
    _write(tmp_path, step=20, bonus=2)  # _kernels.py itself is unchanged
    assert _run(tmp_path) == (62, 0)  # compiled again: the old code is not reused
    assert _run(tmp_path) == (62, 1)


def test_the_stamp_covers_the_kernels_imports():
    from tabletop.jit import PACKAGE_DIRS, imports_digest, project_imports

    files = project_imports(PACKAGE_DIRS["citadel"] / "members.py")
    names = {f"{file.parent.name}/{file.name}" for file in files}
    assert {"citadel/_kernels.py", "tabletop/_simplex.py", "tabletop/_oracle.py",
            "citadel/rules.py"} <= names  # fmt: skip
    assert "citadel/__init__.py" not in names and "panache/_kernels.py" not in names
    assert imports_digest(str(PACKAGE_DIRS["citadel"] / "_kernels.py")) != imports_digest(
        str(PACKAGE_DIRS["panache"] / "_kernels.py"))  # fmt: skip
