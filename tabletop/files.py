"""Atomic file writes: a file is either the old one or the complete new one.

The content goes to a temporary file in the destination's folder, is flushed to
disk, then replaces the destination with :func:`os.replace` (atomic on POSIX and
Windows when both paths are on one file system).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tabletop.validate import check_path


def _default_mode() -> int:
    """Permissions of a newly created file under the process umask (mkstemp uses 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_MODE = _default_mode()


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically, creating parent folders.

    Parameters
    ----------
    path : path-like
        Destination file.
    data : bytes
        Complete new content.

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
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"data must be bytes, got {type(data).__name__}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
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


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; see :func:`atomic_write_bytes`."""
    check_path("path", path)
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    return atomic_write_bytes(path, text.encode("utf-8"))
