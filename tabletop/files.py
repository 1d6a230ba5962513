"""Atomic file writes: a file is either the old one or the complete new one.

The content goes to a temporary file in the destination's folder, is flushed to
disk, then replaces the destination with :func:`os.replace` (atomic on POSIX and
Windows when both paths are on one file system).

**Temporaries left by a killed write.** A process killed mid-write (SIGKILL, power
loss) cannot remove its temporary. Temporaries are therefore named so that they can be
recognised and their writer found again::

    .<destination name>.tabletop-<machine tag>-<pid>-<random>.tmp

where the machine tag is a hash of the host name and of the PID namespace (two
containers on one host have different tags). Each write into a folder, and each cache
read that calls :func:`remove_stale_temporaries`, removes the temporaries of that
folder that can no longer be finished:

* those with this machine's tag whose process is gone (``os.kill(pid, 0)`` fails with
  ``ProcessLookupError``): the PID is read in the writer's own PID namespace, so a
  live writer is never taken for a dead one; a PID reused by another process only
  delays the removal;
* any of them older than :data:`STALE_SECONDS` (an hour, by modification time),
  whatever wrote it: a write takes seconds, and a folder shared between machines has
  no other way to tell.

No other file is touched: a name that does not have the form above is never removed.

**Caches that cannot be written.** A cache is a convenience: a result computed at
length is returned even when its cache folder cannot be written (read-only, full,
a path through a file). :func:`warn_if_unwritable` turns the ``OSError`` of such a
write into a :class:`CacheWarning` that names the folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import socket
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

from tabletop.validate import check_bool, check_path

#: Age (seconds since the last write) after which any temporary of an atomic write is removed.
STALE_SECONDS = 3600.0

_TEMPORARY = re.compile(r"^\..+\.tabletop-(?P<tag>[0-9a-f]{8})-(?P<pid>\d+)-[A-Za-z0-9_]+\.tmp$")


class CacheWarning(UserWarning):
    """A result could not be stored in its cache folder; it was returned all the same."""


class FolderGivenError(IsADirectoryError, ValueError):
    """A file path names a folder: a bad argument (``ValueError``) and the ``OSError``
    the operating system would raise, so callers that catch either see it."""


class FileMissingError(FileNotFoundError, ValueError):
    """A file or folder the user names does not exist: a bad argument (``ValueError``)
    and the ``OSError`` the operating system would raise."""


class FileInPathError(NotADirectoryError, ValueError):
    """A file path lies under a file, not a folder: a bad argument (``ValueError``) and
    the ``OSError`` the operating system would raise."""


def cache_root(kind: str) -> Path:
    """The folder of one kind of disk cache: ``$TABLETOP_CACHE_DIR/<kind>`` if that
    variable is set, else ``~/.cache/tabletop/<kind>``.

    Examples
    --------
    >>> cache_root("cards").name
    'cards'
    """
    root = os.environ.get("TABLETOP_CACHE_DIR")
    return (Path(root) if root else Path.home() / ".cache" / "tabletop") / kind


def read_user_text(path: str | os.PathLike) -> str:
    """The text (UTF-8) of a file the user names. A missing file or a folder is a bad
    ``path``: :class:`FileMissingError` or :class:`FolderGivenError`, each a
    ``ValueError`` and the ``OSError`` the system would raise.

    Examples
    --------
    >>> read_user_text("/nonexistent/cards.csv")
    Traceback (most recent call last):
    ...
    tabletop.files.FileMissingError: path '/nonexistent/cards.csv': No such file or directory
    """
    check_path("path", path)
    path = Path(path)
    if path.is_dir():
        raise FolderGivenError(f"path {str(path)!r} is a folder: a file path is needed")
    if not path.exists():
        raise FileMissingError(f"path {str(path)!r}: No such file or directory")
    return path.read_text(encoding="utf-8")


def _default_mode() -> int:
    """Permissions of a newly created file under the process umask (mkstemp uses 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_MODE = _default_mode()


def _machine_tag() -> str:
    """8 hex digits naming this host and PID namespace (where a PID means one process)."""
    try:
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:  # not Linux: the host name alone
        namespace = ""
    return hashlib.sha256(f"{socket.gethostname()}\0{namespace}".encode()).hexdigest()[:8]


_TAG = _machine_tag()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process, or a PID we cannot ask about: keep it
    return True


def temporary_prefix(name: str) -> str:
    """The start of the name of this process's temporaries for destination ``name``.

    Examples
    --------
    >>> temporary_prefix("table.npz").startswith(".table.npz.tabletop-")
    True
    """
    return f".{name}.tabletop-{_TAG}-{os.getpid()}-"


def is_stale_temporary(name: str, age: float) -> bool:
    """True when ``name`` is a temporary of an atomic write that can no longer finish
    (see the module docstring); ``age`` is seconds since its last modification.

    Examples
    --------
    >>> is_stale_temporary("notes.tmp", 10**6)
    False
    >>> is_stale_temporary(temporary_prefix("x.json") + "abc.tmp", 0.0)
    False
    """
    match = _TEMPORARY.match(name)
    if match is None:
        return False
    if age > STALE_SECONDS:
        return True
    return match["tag"] == _TAG and not _alive(int(match["pid"]))


def remove_stale_temporaries(folder: str | os.PathLike) -> list[Path]:
    """Remove the temporaries in ``folder`` left by atomic writes that were killed.

    A folder that does not exist or cannot be read is left alone; a temporary that
    cannot be removed stays (the next call tries again).

    Parameters
    ----------
    folder : path-like
        The folder to tidy (not its subfolders).

    Returns
    -------
    list of pathlib.Path
        The temporaries removed.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> remove_stale_temporaries(pathlib.Path(tempfile.mkdtemp()))
    []
    """
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(".") and name.endswith(".tmp")):
            continue
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
            if entry.is_file(follow_symlinks=False) and is_stale_temporary(name, age):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:  # gone already, or not ours to remove
            continue
    return removed


def atomic_write_bytes(path: str | os.PathLike, data: bytes, *, tidy: bool = True) -> Path:
    """Write ``data`` to ``path`` atomically, creating parent folders.

    Parameters
    ----------
    path : path-like
        Destination file.
    data : bytes
        Complete new content.
    tidy : bool
        First remove the stale temporaries of the destination's folder (see the module
        docstring). A writer of many files into one folder tidies it once instead
        (listing a folder of 10 000 files takes milliseconds).

    Returns
    -------
    pathlib.Path
        The destination.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a" / "b.txt"
    >>> atomic_write_bytes(p, b"hello").read_bytes()
    b'hello'
    """
    check_path("path", path)
    tidy = check_bool("tidy", tidy)
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"data must be bytes, got {type(data).__name__}")
    path = Path(path)
    if path.is_dir():
        raise FolderGivenError(f"path {str(path)!r} is a folder: a file path is needed")
    blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise FileInPathError(f"path {str(path)!r} lies under {str(blocking)!r}, "
                              "which is a file, not a folder")  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    if tidy:
        remove_stale_temporaries(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=temporary_prefix(path.name), suffix=".tmp")
    try:
        os.chmod(tmp, _MODE)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def atomic_write_text(path: str | os.PathLike, text: str, *, tidy: bool = True) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; see :func:`atomic_write_bytes`.

    Parameters
    ----------
    path : path-like
        Destination file.
    text : str
        Complete new content, written as UTF-8.
    tidy : bool
        First remove the stale temporaries of the destination's folder.

    Returns
    -------
    pathlib.Path
        The destination.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "c.txt"
    >>> atomic_write_text(p, "h\u00e9").read_bytes()
    b'h\xc3\xa9'
    """
    check_path("path", path)
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    return atomic_write_bytes(path, text.encode("utf-8"), tidy=tidy)


@contextlib.contextmanager
def warn_if_unwritable(path: str | os.PathLike, what: str) -> Iterator[None]:
    """Turn an ``OSError`` raised while storing ``what`` at ``path`` into a
    :class:`CacheWarning` naming the folder: the caller returns its result uncached.

    Examples
    --------
    >>> import tempfile, pathlib, warnings
    >>> blocked = pathlib.Path(tempfile.mkstemp()[1]) / "cache" / "t.json"  # under a file
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     with warn_if_unwritable(blocked, "the table"):
    ...         atomic_write_text(blocked, "{}")
    >>> caught[0].category.__name__
    'CacheWarning'
    """
    try:
        yield
    except OSError as exc:
        folder = Path(path).parent
        reason = exc.strerror or str(exc) or type(exc).__name__
        warnings.warn(
            f"{what} was not stored: cannot write to the cache folder {folder} ({reason}); "
            "it is returned but will be computed again next time",
            CacheWarning,
            stacklevel=3,
        )


@contextlib.contextmanager
def computing_once(path: str | os.PathLike) -> Iterator[None]:
    """Hold an exclusive lock for computing the file at ``path``, so that processes that
    need the same cached result compute it once: the first computes and stores it, the
    others wait here and then find it in the cache.

    The lock is :func:`fcntl.flock` on ``.<name>.lock`` beside ``path``; the system
    releases it when its holder ends, killed or not, so a crash never leaves a stale
    lock. Where the folder cannot be written or ``fcntl`` does not exist, there is no
    lock (each process computes for itself, as without one). The lock file itself is
    left in place: removing it would let a third process lock a new file while a
    second still waits on the old one.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "table.npz"
    >>> with computing_once(target):
    ...     _ = atomic_write_text(target, "solved")
    >>> target.read_text()
    'solved'
    """
    try:
        import fcntl
    except ImportError:  # no flock on this system: no lock
        yield
        return
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path.parent / f".{path.name}.lock", "a+b")  # noqa: SIM115
    except OSError:  # an unwritable folder: compute without the lock
        yield
        return
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield
