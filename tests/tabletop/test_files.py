import pytest

from tabletop.files import atomic_write_bytes, atomic_write_text


def test_atomic_write_replaces_whole_file(tmp_path):
    target = tmp_path / "sub" / "out.txt"
    atomic_write_text(target, "first")
    atomic_write_text(target, "second")
    assert target.read_text() == "second"
    assert [p.name for p in target.parent.iterdir()] == ["out.txt"]  # no temporary left


def test_failed_write_leaves_old_file(tmp_path):
    target = tmp_path / "out.bin"
    atomic_write_bytes(target, b"old")
    with pytest.raises(TypeError, match="bytes"):
        atomic_write_bytes(target, "not bytes")
    assert target.read_bytes() == b"old"
    assert len(list(tmp_path.iterdir())) == 1


def test_written_files_are_readable_by_others(tmp_path):
    import os
    import stat

    mask = os.umask(0o022)
    os.umask(mask)
    path = atomic_write_text(tmp_path / "r.md", "x")
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask


# ---- temporaries of killed writes ------------------------------------------------------


def _dead_pid() -> int:
    import subprocess

    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _temporary(folder, name: str, pid: int, tag: str | None = None, age: float = 0.0):
    import os
    import time

    from tabletop import files

    path = folder / f".{name}.tabletop-{tag or files._TAG}-{pid}-x1y2z3.tmp"
    path.write_bytes(b"half a file")
    if age:
        then = time.time() - age
        os.utime(path, (then, then))
    return path


def test_temporaries_have_a_recognisable_name(tmp_path, monkeypatch):
    import os

    from tabletop.files import is_stale_temporary, temporary_prefix

    seen = []

    def spy(fd):
        seen.extend(p.name for p in tmp_path.iterdir() if p.name != "out.bin")

    monkeypatch.setattr(os, "fsync", spy)
    atomic_write_bytes(tmp_path / "out.bin", b"data")
    assert len(seen) == 1
    assert seen[0].startswith(temporary_prefix("out.bin")) and seen[0].endswith(".tmp")
    assert f"-{os.getpid()}-" in seen[0]
    assert not is_stale_temporary(seen[0], 0.0)  # this process is alive


def test_the_next_write_removes_temporaries_of_dead_writers_only(tmp_path):
    import os

    from tabletop.files import STALE_SECONDS

    dead = _temporary(tmp_path, "a.json", _dead_pid())
    mine = _temporary(tmp_path, "b.json", os.getpid())
    elsewhere = _temporary(tmp_path, "c.json", _dead_pid(), tag="0123abcd")  # another host
    old = _temporary(tmp_path, "d.json", 1, tag="0123abcd", age=STALE_SECONDS + 60)
    others = [tmp_path / n for n in (".notes.tmp", "x.tmp", ".a.json.1234.tmp", "a.json")]
    for path in others:
        path.write_text("not ours")
        os.utime(path, (0, 0))  # however old
    atomic_write_text(tmp_path / "e.json", "{}")
    left = {p.name for p in tmp_path.iterdir()}
    assert dead.name not in left and old.name not in left
    assert {mine.name, elsewhere.name, "e.json"} | {p.name for p in others} == left


def test_tidy_false_and_reading_sides(tmp_path):
    from tabletop.files import remove_stale_temporaries

    dead = _temporary(tmp_path, "a.json", _dead_pid())
    atomic_write_text(tmp_path / "b.json", "{}", tidy=False)
    assert dead.exists()
    assert remove_stale_temporaries(tmp_path) == [dead]
    assert not dead.exists()
    assert remove_stale_temporaries(tmp_path / "missing") == []


def test_unwritable_cache_folder_warns_naming_it(tmp_path):
    from tabletop.files import CacheWarning, warn_if_unwritable

    (tmp_path / "file").write_text("a file, not a folder")
    target = tmp_path / "file" / "cache" / "table.npz"
    expected = rf"the table was not stored: cannot write to the cache folder {target.parent} \("
    with pytest.warns(CacheWarning, match=expected), warn_if_unwritable(target, "the table"):
        atomic_write_bytes(target, b"x")
    with pytest.raises(ValueError, match="other"), warn_if_unwritable(target, "the table"):
        raise ValueError("other errors pass through")


def test_computing_once_makes_a_second_caller_wait_for_the_first(tmp_path):
    import threading
    import time

    from tabletop.files import computing_once

    target = tmp_path / "cache" / "table.txt"
    inside, seen = threading.Event(), []

    def first():
        with computing_once(target):
            inside.set()
            time.sleep(0.5)  # computing
            atomic_write_text(target, "solved")

    def second():
        inside.wait()
        with computing_once(target):  # blocks until the first has stored its result
            seen.append(target.read_text() if target.exists() else None)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert seen == ["solved"]


def test_computing_once_without_a_writable_folder_runs_unlocked(tmp_path):
    from tabletop.files import computing_once

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    ran = []
    with computing_once(blocker / "sub" / "table.npz"):  # a folder under a file
        ran.append(True)
    assert ran == [True]


def test_a_path_that_cannot_be_a_file_is_named_and_nothing_is_written(tmp_path):
    blocker = tmp_path / "plain.txt"
    blocker.write_text("x")
    cases = [
        (lambda: atomic_write_text(tmp_path, "a"), IsADirectoryError, "is a folder"),
        (lambda: atomic_write_text("", "a"), ValueError, "path must not be empty"),
        (lambda: atomic_write_bytes(blocker / "x.bin", b"a"), NotADirectoryError,
         "which is a file, not a folder"),
        (lambda: atomic_write_text(str(tmp_path / "a\0b"), "a"), ValueError, "NUL byte"),
    ]  # fmt: skip
    for call, error, message in cases:
        with pytest.raises(error, match=message):
            call()
        with pytest.raises(ValueError, match=message):  # a bad argument, whatever else
            call()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.txt"]
