"""Every public function and class has a numpydoc docstring with its sections.

A function needs ``Parameters`` (when it takes any), ``Returns`` (or ``Yields``) and
``Examples``; a class needs ``Attributes`` (or, for a rules dataclass whose fields are
its constructor's arguments, ``Parameters``) and ``Examples``. Constants (``AGENTS``,
``DIRECTIONS``, ``HUMAN_POLICIES``) carry no docstring of their own and are skipped.
The examples themselves run as doctests (``--doctest-modules``).
"""

import importlib
import inspect
import re

import pytest

PACKAGES = ("tabletop", "panache", "citadel", "samarra", "commander")

# Exported names, written "package.name", that still lack a section (each defined in a
# module that was being changed elsewhere when this test was written). This set may
# only shrink: document a name, then delete it here (test_to_document_is_exact fails
# until you do). Never add a name to it; a new public name is documented when written.
TO_DOCUMENT = frozenset(
    {
        "citadel.DuelCheck",
        "citadel.DuelGameSolution",
        "citadel.check_solution",
        "citadel.exploitability",
        "citadel.regret_matching",
        "panache.ThreeSolution",
        "panache.solve_three",
    }
)

_HEADING = re.compile(r"^(\w[\w ]*)\n-{3,}[ \t]*$", re.MULTILINE)


def _sections(obj):
    """The numpydoc section headings of ``obj``'s docstring."""
    return set(_HEADING.findall(inspect.cleandoc(obj.__doc__ or "")))


def _missing(obj):
    """The sections ``obj``'s docstring should have but lacks (sorted)."""
    have = _sections(obj)
    if inspect.isclass(obj):
        need = {"Examples"}
        if "Parameters" not in have:
            need.add("Attributes")
    else:
        need = {"Examples"}
        if "Yields" not in have:
            need.add("Returns")
        if inspect.signature(obj).parameters:
            need.add("Parameters")
    return sorted(need - have)


def _exported():
    """``("package.name", object)`` for every function and class in the five ``__all__``."""
    out = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                out.append((f"{package}.{name}", obj))
    return out


EXPORTED = _exported()


_CHECKED = [(n, o) for n, o in EXPORTED if n not in TO_DOCUMENT]


@pytest.mark.parametrize(("name", "obj"), _CHECKED, ids=[n for n, _ in _CHECKED])
def test_public_docstring_has_sections(name, obj):
    assert _missing(obj) == [], f"{name} ({obj.__module__}) lacks numpydoc sections {_missing(obj)}"


def test_to_document_is_exact():
    """Every name in TO_DOCUMENT is exported and still lacks a section."""
    exported = dict(EXPORTED)
    unknown = sorted(TO_DOCUMENT - exported.keys())
    assert unknown == [], f"TO_DOCUMENT names nothing exported under {unknown}"
    done = sorted(n for n in TO_DOCUMENT if not _missing(exported[n]))
    assert done == [], f"already documented, delete from TO_DOCUMENT: {done}"


def test_checker_sees_missing_sections():
    """The section reader finds headings and reports what is absent."""

    def documented(x):
        """One line.

        Parameters
        ----------
        x : int

        Returns
        -------
        int

        Examples
        --------
        >>> documented(1)
        1
        """
        return x

    def bare(x):
        """One line."""
        return x

    assert _missing(documented) == []
    assert _missing(bare) == ["Examples", "Parameters", "Returns"]


# Names renamed to the vocabulary of README.md ("Names and signatures"): the earlier name
# stays importable and is the same object. (new module path, new name, old name)
RENAMED = [
    ("samarra.horizon", "HorizonSolution", "HorizonGame"),
]


@pytest.mark.parametrize(("module", "new", "old"), RENAMED)
def test_renamed_alias_is_the_same_object(module, new, old):
    mod = importlib.import_module(module)
    package = importlib.import_module(module.partition(".")[0])
    assert getattr(mod, old) is getattr(mod, new)
    if old in package.__all__:
        assert getattr(package, old) is getattr(mod, new)
