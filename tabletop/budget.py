"""Size before allocation, and progress for long work, written once for every game.

**Memory.** A solver or table builder states what it will allocate, from its rules,
before it allocates anything: an :class:`Estimate` (bytes, and seconds where a rate
was measured) naming the knobs that drive it. :func:`check_memory` compares the
bytes with the memory the machine has available (``MemAvailable`` of
``/proc/meminfo``, lowered by a cgroup limit, else ``psutil``) and refuses, with one
line, a call that would not fit. The refusal is a :class:`MemoryError` and says how to
go ahead anyway: the keyword ``allow_large=True`` of the call, or the environment
variable ``TABLETOP_ALLOW_LARGE=1`` for every call of the process.

**Progress and interrupt.** Long numba work runs in chunks that return to Python
between chunks, so that Ctrl-C (``KeyboardInterrupt``) ends it within about a second
and a tqdm bar moves. :func:`progress_bar` is that bar: shown when stderr is a
terminal, hidden otherwise, or as asked (``progress=True/False`` of the call, or
``TABLETOP_PROGRESS=0`` for the process). :class:`Chunks` sizes the chunks so that
each takes about :data:`CHUNK_SECONDS`; chunking never changes a result, since the
kernels visit the same items in the same order whatever the chunk boundaries.
"""

from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

#: Environment variable that lets every call of the process go past the memory check.
ALLOW_ENV = "TABLETOP_ALLOW_LARGE"

#: Environment variable that hides every progress bar of the process when ``0``.
PROGRESS_ENV = "TABLETOP_PROGRESS"

#: Target wall time of one chunk of kernel work, in seconds (the interrupt latency).
CHUNK_SECONDS = 0.25


def _size(nbytes: float) -> str:
    """``nbytes`` in the largest unit that keeps it >= 1 (``'1.3 GB'``)."""
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if abs(nbytes) < 1000 or unit == "PB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1000
    raise AssertionError("unreachable")  # pragma: no cover


def duration(seconds: float) -> str:
    """``seconds`` as ``'40 s'``, ``'12 min'``, ``'3.5 h'`` or ``'2.0 days'``."""
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


@dataclass(frozen=True)
class Estimate:
    """What a call will allocate (and take), computed from its arguments before any work.

    Attributes
    ----------
    what : str
        The call (``'samarra.solve'``).
    nbytes : int
        Peak bytes of the arrays it allocates.
    knobs : dict
        The arguments that drive the size, with their values.
    seconds : float or None
        Wall time on the 2-core reference machine (None: not measured).
    detail : str
        How the size follows from the knobs (``'24.5 M states x 3 bytes'``).
    """

    what: str
    nbytes: int
    knobs: dict[str, int | float | str | bool] = field(default_factory=dict)
    seconds: float | None = None
    detail: str = ""

    def describe(self) -> str:
        """One line: the size, its reason and the time, if known."""
        text = f"{self.what} needs about {_size(self.nbytes)}"
        if self.detail:
            text += f" ({self.detail})"
        if self.seconds is not None:
            text += f" and about {duration(self.seconds)}"
        return text


def _cgroup_free() -> float:
    """Bytes left under a cgroup memory limit (inf when there is none)."""
    for limit, used in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                        ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                         "/sys/fs/cgroup/memory/memory.usage_in_bytes")):  # fmt: skip
        try:
            text = Path(limit).read_text().strip()
            if text == "max":
                return math.inf
            top = int(text)
            if top >= 1 << 60:  # cgroup v1's "no limit"
                return math.inf
            return max(top - int(Path(used).read_text().strip()), 0)
        except (OSError, ValueError):
            continue
    return math.inf


def available_memory() -> float:
    """Bytes the machine can give a new allocation now (``inf`` when unknown).

    ``MemAvailable`` of ``/proc/meminfo`` (else ``psutil``), lowered by a cgroup limit
    and by the process's own address-space limit (``ulimit -v``) less what it maps.

    Examples
    --------
    >>> available_memory() > 0
    True
    """
    free = math.inf
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                free = int(line.split()[1]) * 1024
                break
    except (OSError, ValueError, IndexError):
        pass
    if free == math.inf:
        try:
            import psutil

            free = psutil.virtual_memory().available
        except (ImportError, OSError):  # pragma: no cover - psutil absent
            pass
    return min(free, _cgroup_free(), _address_space_free())


def _address_space_free() -> float:
    """Bytes of address space left under ``RLIMIT_AS`` (``inf`` without a limit)."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        if limit == resource.RLIM_INFINITY:
            return math.inf
        pages = int(Path("/proc/self/statm").read_text().split()[0])
        return max(limit - pages * os.sysconf("SC_PAGE_SIZE"), 0)
    except (ImportError, OSError, ValueError, IndexError):  # not Linux
        return math.inf


def _allowed(allow_large) -> bool:
    from tabletop.validate import check_bool

    if check_bool("allow_large", allow_large):
        return True
    return os.environ.get(ALLOW_ENV, "").strip().lower() in ("1", "true", "yes")


def check_memory(estimate: Estimate, allow_large: bool = False, available: float | None = None,
                 hint: str = "") -> Estimate:  # fmt: skip
    """Refuse ``estimate`` with one line when it exceeds the available memory.

    Parameters
    ----------
    estimate : Estimate
    allow_large : bool
        Go ahead whatever the size (the call's ``allow_large=True``); the environment
        variable ``TABLETOP_ALLOW_LARGE=1`` does the same for every call.
    available : float, optional
        Bytes available (default :func:`available_memory`).
    hint : str
        How to make the call smaller (default: lower the knobs).

    Returns
    -------
    Estimate
        ``estimate``, when it fits or is allowed.

    Raises
    ------
    MemoryError
        One line: the estimate, the knobs that drive it, what is available and how to
        go ahead anyway.

    Examples
    --------
    >>> big = Estimate("demo", 10**18, {"n": 10**17}, detail="n x 10 bytes")
    >>> check_memory(big, available=8e9)
    Traceback (most recent call last):
    ...
    MemoryError: demo needs about 1000.0 PB (n x 10 bytes) but 8.0 GB is available; it \
grows with n=100000000000000000: lower it, or pass allow_large=True (or set \
TABLETOP_ALLOW_LARGE=1) to go ahead anyway
    >>> check_memory(big, allow_large=True, available=8e9).nbytes
    1000000000000000000
    """
    if _allowed(allow_large):
        return estimate
    free = available_memory() if available is None else available
    if estimate.nbytes <= free:
        return estimate
    knobs = ", ".join(f"{k}={v!r}" for k, v in estimate.knobs.items())
    how = hint or ("lower it" if len(estimate.knobs) == 1 else "lower them")
    raise MemoryError(
        f"{estimate.describe()} but {_size(free)} is available; it grows with {knobs}: "
        f"{how}, or pass allow_large=True (or set {ALLOW_ENV}=1) to go ahead anyway"
    )


def show_progress(progress) -> bool:
    """Whether to show a bar: ``progress`` if given (a bool), else when stderr is a
    terminal and ``TABLETOP_PROGRESS`` is not ``0``."""
    from tabletop.validate import check_bool

    if progress is not None:
        return check_bool("progress", progress)
    if os.environ.get(PROGRESS_ENV, "").strip() == "0":
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stderr
        return False


def progress_bar(total: float | None, desc: str, progress=None, unit: str = "it"):
    """A tqdm bar on stderr, hidden unless :func:`show_progress` says so.

    Use it as a context manager and call ``update(k)`` as work is done.
    """
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, disable=not show_progress(progress),
                file=sys.stderr, unit_scale=True, dynamic_ncols=True)  # fmt: skip


def interruptible(items):
    """Yield ``items``, holding Ctrl-C back while the caller works on one and raising
    ``KeyboardInterrupt`` before the next.

    A SIGINT that arrives while a numba kernel runs is noted by Python and acted on at
    the next Python code that runs; when that code is numba's own (a kernel reads its
    constants through Python on the way out), the ``KeyboardInterrupt`` surfaces as a
    ``SystemError`` from inside the kernel. While this generator is iterated in the
    main thread (with Python's default SIGINT handler in place), a SIGINT is only
    recorded, and the ``KeyboardInterrupt`` is raised here, between two items, so that
    the caller's ``try``/``finally`` and context managers unwind as usual. Under any
    other handler (a command line's, which ends the process on any error after a
    Ctrl-C) the items pass through unchanged.

    A kernel's first call with new argument types compiles it first, which is numba's
    compiler running Python code for seconds to a minute (a cold cache): a SIGINT that
    finds the compiler at work (:func:`compiling`) raises ``KeyboardInterrupt`` at the
    next Python call or return outside llvmlite, since no kernel is running. (Not in
    llvmlite itself: LLVM calls some of its Python code back through ctypes, which
    would swallow the exception; should another callback swallow it, the interrupt
    still comes before the next item.)

    A process stopped this way usually ends soon after, and Python's last garbage
    collection at exit would walk every object numba created for the kernels (seconds
    on a loaded machine): the first interrupt registers :func:`gc.freeze` to run at
    exit, before the other libraries' ``atexit`` clean-up, so the final collection
    skips those objects. Nothing changes while the process lives.
    """
    import signal
    import threading

    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):  # fmt: skip
        yield from items
        return
    hit = []

    def note(signum, frame):
        hit.append(signum)
        if compiling(frame):
            sys.setprofile(_interrupt_when_safe)

    signal.signal(signal.SIGINT, note)
    try:
        for item in items:
            if hit:
                break
            yield item
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if hit:
        from tabletop._entry import freeze_at_exit

        freeze_at_exit()
        raise KeyboardInterrupt


#: numba's dispatcher module, whose ``_compile_for_args`` compiles a kernel on a call
#: with argument types it has no compiled code for.
_DISPATCHER = os.path.join("numba", "core", "dispatcher.py")


#: llvmlite's LLVM bindings, whose Python code LLVM calls back through ctypes.
_LLVMLITE = os.path.join("llvmlite", "binding") + os.sep


def _interrupt_when_safe(frame, event, arg):
    """A profile function (:func:`sys.setprofile`) that raises ``KeyboardInterrupt``
    at the first call or return with no llvmlite code on the stack, then removes
    itself."""
    f = frame
    while f is not None:
        if _LLVMLITE in f.f_code.co_filename:
            return
        f = f.f_back
    sys.setprofile(None)
    from tabletop._entry import freeze_at_exit

    freeze_at_exit()
    raise KeyboardInterrupt


def compiling(frame) -> bool:
    """Whether the Python ``frame`` runs inside numba's compiler (a kernel's first call
    with new argument types): that is Python code all the way down, which a
    ``KeyboardInterrupt`` unwinds like any other; a running kernel is not (its call
    goes from Python straight into compiled code)."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "_compile_for_args" and code.co_filename.endswith(_DISPATCHER):
            return True
        frame = frame.f_back
    return False


class Chunks:
    """Chunk sizes for kernel work over ``total`` items, each chunk about ``seconds`` long.

    Iterating yields ``(start, stop)`` ranges covering ``0..total`` in order; the size
    of the next chunk follows the speed of the last one (starting at ``first``, at
    most doubling), so that control returns to Python (Ctrl-C, the bar) several times
    a second whatever the machine. The ranges never change what the work computes.
    A Ctrl-C during a chunk raises ``KeyboardInterrupt`` before the next one
    (:func:`interruptible`).

    Examples
    --------
    >>> list(Chunks(10, first=4, seconds=1e9))
    [(0, 4), (4, 10)]
    """

    def __init__(self, total: int, first: int = 1, seconds: float = CHUNK_SECONDS):
        self.total = int(total)
        self.size = max(1, int(first))
        self.seconds = seconds

    def __iter__(self):
        return interruptible(self._ranges())

    def _ranges(self):
        start = 0
        while start < self.total:
            stop = min(self.total, start + self.size)
            began = time.perf_counter()
            yield start, stop
            spent = time.perf_counter() - began
            done = stop - start
            if spent <= 0:
                self.size = 2 * self.size
            else:
                self.size = max(1, min(2 * self.size, int(done * self.seconds / spent)))
            start = stop


def stop_pool(pool) -> None:
    """End a ``concurrent.futures.ProcessPoolExecutor`` of our own at once: terminate
    the workers that run a task and cancel the tasks that wait. A task inside a compiled
    kernel sees a Ctrl-C only when the kernel returns, and the pool's own shutdown waits
    for it (45 s measured in a sweep of duel solves). Call it on an error or a Ctrl-C;
    :func:`quiet_resource_tracker` before creating the pool keeps the exit to one line."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # no public way before 3.14
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.join(timeout=2)
        if worker.is_alive():  # SIGTERM not acted on yet (a loaded machine): SIGKILL
            worker.kill()
            worker.join()


def quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (once per process) told to ignore its
    warning about semaphores left by terminated workers: it removes them all the same,
    and a command line's Ctrl-C must end in one line (:func:`stop_pool`)."""
    from multiprocessing import resource_tracker

    saved = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = "ignore::UserWarning:multiprocessing.resource_tracker"
    try:
        resource_tracker.ensure_running()  # the tracker reads the variable when it starts
    finally:
        if saved is None:
            del os.environ["PYTHONWARNINGS"]
        else:
            os.environ["PYTHONWARNINGS"] = saved
