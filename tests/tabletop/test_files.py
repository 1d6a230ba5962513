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
