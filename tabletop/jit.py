"""Numba options, defined once for every kernel of every game.

``cache=True`` writes compiled machine code next to the sources so that a second
process (a test run, a notebook kernel, CI's second step) does not compile again.
``nopython`` is numba's default: a kernel that would need object mode fails loudly.

Numba keys a cached kernel by its own file only, although the machine code holds every
kernel it calls and every global it reads, from whichever module they come (numba's
"Cache invalidation fails to recognize changes in functions defined in a different
file"). After an update that changed ``tabletop/_simplex.py`` alone, the Citadel
kernels cached beside ``citadel/_kernels.py`` would still run the old simplex. Here a
project kernel's cache is stamped with its file and every project module it imports,
directly or not (:func:`imports_digest`): any change among them compiles it again.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

import numba
from numba.core import caching

#: The project's packages (name: folder) whose kernels carry the imports' stamp.
PACKAGE_DIRS: dict[str, Path] = {
    name: Path(__file__).resolve().parent.parent / name
    for name in ("tabletop", "panache", "citadel", "samarra", "commander")
}

#: ``import a.b`` or ``from a.b import c, d`` / ``from a.b import (c,\n d)``.
_IMPORT = re.compile(
    r"^\s*(?:import\s+(?P<module>[\w.]+)"
    r"|from\s+(?P<source>[\w.]+)\s+import\s+(?:\((?P<group>[^)]*)\)|(?P<names>[^\n]*)))",
    re.MULTILINE)  # fmt: skip


@functools.cache
def _module_file(module: str) -> Path | None:
    """The source file of a project module named ``module`` (None if not the project's)."""
    package, _, rest = module.partition(".")
    folder = PACKAGE_DIRS.get(package)
    if folder is None:
        return None
    base = folder.joinpath(*rest.split(".")) if rest else folder
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate.resolve()
    return None


@functools.cache
def _direct_imports(path: Path) -> tuple[Path, ...]:
    """The project files ``path``'s text imports: ``import a.b`` and ``from a.b import
    c`` (``c`` too when it is a module)."""
    found = []
    for match in _IMPORT.finditer(path.read_text(encoding="utf-8")):
        module = match["module"] or match["source"]
        names = match["group"] or match["names"] or ""
        for name in [module] + [f"{module}.{name}" for name in re.findall(r"\w+", names)]:
            file = _module_file(name)
            if file is not None:
                found.append(file)
    return tuple(found)


def project_imports(path: str | Path) -> list[Path]:
    """Every project source file that ``path`` imports, directly or not, with ``path``
    itself, sorted.

    Every name a kernel module binds, and so every global its kernels read and every
    kernel they call, comes from one of these files. (A package's ``__init__.py`` runs
    on the way but binds nothing in the module.)

    Examples
    --------
    >>> names = [p.name for p in project_imports(PACKAGE_DIRS["citadel"] / "_kernels.py")]
    >>> names
    ['_kernels.py', '_oracle.py', '_simplex.py', 'draws.py', 'jit.py']
    """
    seen: set[Path] = set()
    todo = [Path(path).resolve()]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(_direct_imports(current))
    return sorted(seen)


@functools.cache
def _file_digest(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


@functools.cache
def imports_digest(path: str) -> str:
    """SHA-256 over the names and contents of :func:`project_imports` of ``path``
    (hex); each file is read once per process."""
    digest = hashlib.sha256()
    for file in project_imports(path):
        digest.update(f"{file.parent.name}/{file.name}\0".encode())
        digest.update(_file_digest(file))
    return digest.hexdigest()


def _in_project(py_file: str) -> bool:
    resolved = Path(py_file).resolve()
    return any(resolved.is_relative_to(folder) for folder in PACKAGE_DIRS.values())


def _stamped(locator: type) -> type:
    """``locator``, for project files only, with :func:`imports_digest` in its stamp."""

    class ProjectLocator(locator):
        @classmethod
        def from_function(cls, py_func, py_file):
            if not _in_project(py_file):
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return super().get_source_stamp(), imports_digest(str(self._py_file))

    ProjectLocator.__name__ = ProjectLocator.__qualname__ = f"Project{locator.__name__}"
    return ProjectLocator


def _install_locators() -> None:
    """Put a stamped twin before numba's user-folder and in-tree locators (once)."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # numba < 0.61
    classes = impl._locator_classes
    if any(getattr(cls, "_project_stamp", False) for cls in classes):
        return
    for name in ("InTreeCacheLocator", "UserProvidedCacheLocator"):
        plain = getattr(caching, name, None) or getattr(caching, f"_{name}")
        twin = _stamped(plain)
        twin._project_stamp = True
        classes.insert(classes.index(plain), twin)


_install_locators()

#: Serial kernels.
jit = functools.partial(numba.njit, cache=True, nogil=True)

#: Kernels with ``numba.prange`` loops.
parallel_jit = functools.partial(numba.njit, cache=True, nogil=True, parallel=True)
