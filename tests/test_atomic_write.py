"""A file is written whole or not at all (goldenlens.atomic_write): replaced only once its new
content is complete and on the disk; a failure, or a process killed while writing, leaves the
old file as it was."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from goldenlens.atomic_write import write_text_whole, write_whole


def test_the_new_content_replaces_the_old_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    out = tmp_path / "settings.json"
    out.write_text("old", encoding="utf-8")

    def write(temporary: Path) -> int:
        assert temporary.parent == tmp_path  # beside the target: the rename is atomic
        assert temporary.name.startswith(".~settings.")
        assert out.read_text(encoding="utf-8") == "old"  # the target is untouched meanwhile
        return temporary.write_text("new", encoding="utf-8")

    assert write_whole(out, write) == 3  # what write returned
    assert out.read_text(encoding="utf-8") == "new"
    write_text_whole(out, "naïve ✓")
    assert out.read_text(encoding="utf-8") == "naïve ✓"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_a_failing_write_keeps_the_old_file_and_raises_its_own_error(tmp_path: Path) -> None:
    out = tmp_path / "settings.json"
    out.write_text("old", encoding="utf-8")

    def half_then_full(temporary: Path) -> None:
        temporary.write_text('{"reviewer": "A', encoding="utf-8")  # half a file really is on disk
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError, match="No space left") as caught:
        write_whole(out, half_then_full)
    assert caught.value.errno == errno.ENOSPC
    assert out.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
    # A new file that fails is not created at all.
    with pytest.raises(OSError, match="No space left"):
        write_whole(tmp_path / "new.json", half_then_full)
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


_KILLED_WRITER = """
import sys, time
from pathlib import Path
from goldenlens.atomic_write import write_whole

def write(temporary):
    with temporary.open("w", encoding="utf-8") as handle:
        handle.write("half of the new ")
        handle.flush()
        print("writing", flush=True)
        time.sleep(60)
        handle.write("content")

write_whole(Path(sys.argv[1]), write)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_process_killed_while_writing_leaves_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "preferences.json"
    out.write_text('{"reviewer": "Ana"}', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    child = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WRITER, str(out)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "writing\n"
        [temporary] = [p for p in tmp_path.iterdir() if p.name.startswith(".~")]
        assert temporary.read_text(encoding="utf-8") == "half of the new "
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert out.read_text(encoding="utf-8") == '{"reviewer": "Ana"}'
    # The next write replaces the file as usual (the hidden leftover does not stand in its way).
    write_text_whole(out, '{"reviewer": "Ben"}')
    assert out.read_text(encoding="utf-8") == '{"reviewer": "Ben"}'
