"""kg2tool.common.files: outputs written whole or not at all, and OS write errors made into exit-4 OutputErrors that
name the path, what was written and the free space left."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest

from kg2tool.common.errors import OutputError
from kg2tool.common.files import (
    atomic_path,
    free_space,
    is_output_fault,
    output_error,
    write_atomic,
    write_lines,
    writing,
)


def test_output_error_names_path_what_reason_and_free_space(tmp_path):
    err = output_error(tmp_path / "a.json", OSError(errno.ENOSPC, "No space left on device"), "the summary")
    msg = str(err)
    assert err.exit_code == 4
    assert msg.startswith(f"{tmp_path / 'a.json'}: cannot write the summary: No space left on device")
    assert "the disk is full" in msg and "free there" in msg
    assert "read-only" in str(output_error(tmp_path, OSError(errno.EROFS, "Read-only file system")))
    assert "no permission" in str(output_error(tmp_path, PermissionError(errno.EACCES, "Permission denied")))
    # pyarrow and numpy report a short write without an errno: the message is enough to tell a full disk
    assert "the disk is full" in str(output_error(tmp_path, OSError("IOError: No space left on device")))


def test_free_space_of_a_path_not_yet_made(tmp_path):
    assert free_space(tmp_path / "a" / "b" / "c.txt") == pytest.approx(shutil.disk_usage(tmp_path).free, rel=0.01)


def test_is_output_fault():
    assert is_output_fault(OSError(errno.ENOSPC, "x")) and is_output_fault(OSError(errno.EDQUOT, "x"))
    assert is_output_fault(OSError(errno.EROFS, "x"))
    assert not is_output_fault(OSError(errno.ENOENT, "x")) and not is_output_fault(ValueError("x"))


def test_atomic_path_leaves_nothing_on_a_full_disk(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("before")
    with pytest.raises(OutputError, match=r"out.txt: cannot write the report: No space left on device"):
        with atomic_path(target, what="the report") as tmp:
            tmp.write_text("half")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert target.read_text() == "before"  # the earlier file is untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]  # no temporary left


def test_atomic_folder_leaves_nothing_on_a_full_disk(tmp_path):
    target = tmp_path / "folder"
    with pytest.raises(OutputError, match="cannot write the store"):
        with atomic_path(target, folder=True, what="the store") as tmp:
            (tmp / "a").write_text("x")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert list(tmp_path.iterdir()) == []


def test_write_helpers_and_writing(tmp_path, monkeypatch):
    write_atomic(tmp_path / "a.txt", "hi")
    assert write_lines(tmp_path / "b.txt", ["x", "y"]) == 2
    assert (tmp_path / "a.txt").read_text() == "hi" and (tmp_path / "b.txt").read_text() == "x\ny\n"

    def full(self, *a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(OutputError, match="a.txt: cannot write the greeting"):
        write_atomic(tmp_path / "a.txt", "changed", what="the greeting")
    monkeypatch.undo()
    assert (tmp_path / "a.txt").read_text() == "hi"
    with pytest.raises(OutputError, match=r"d: cannot write the folder: .*read-only"):
        with writing(tmp_path / "d", "the folder"):
            raise OSError(errno.EROFS, "Read-only file system")
    with pytest.raises(ValueError):  # only OS errors are output errors
        with writing(tmp_path / "d"):
            raise ValueError("a bug")


def test_atomic_folder_replaces_a_folder_whole(tmp_path):
    target = tmp_path / "folder"
    target.mkdir()
    (target / "old.txt").write_text("old")
    with atomic_path(target, folder=True) as tmp:
        (tmp / "new.txt").write_text("new")
    assert [p.name for p in target.iterdir()] == ["new.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["folder"]  # neither the temporary nor the old folder is left


def test_atomic_folder_keeps_the_old_folder_when_the_new_cannot_move_in(tmp_path, monkeypatch):
    import os

    target = tmp_path / "folder"
    target.mkdir()
    (target / "old.txt").write_text("old")
    real = os.replace

    def replace(src, dst):
        if ".tmp-" in str(src):  # moving the new folder in fails
            raise OSError(errno.EIO, "Input/output error")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OutputError, match="cannot write the store: Input/output error"):
        with atomic_path(target, folder=True, what="the store") as tmp:
            (tmp / "new.txt").write_text("new")
    assert [p.name for p in target.iterdir()] == ["old.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["folder"]
