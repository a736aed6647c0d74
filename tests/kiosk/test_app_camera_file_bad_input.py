"""``kiosk run --camera FILE`` with a file OpenCV cannot read: one line and status 2 at the start.
It used to run on, retrying the "camera" every two seconds, and a headless run ended with status 0
and no rulings."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from kiosk.__main__ import main  # noqa: E402


@pytest.mark.parametrize("name", ["random.mp4", "a_folder"])
def test_a_camera_file_that_is_not_a_video_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    (tmp_path / "random.mp4").write_bytes(os.urandom(4096))
    (tmp_path / "a_folder").mkdir()
    camera = str(tmp_path / name)
    status = main(["run", "--headless", "--frames", "5", "--store", str(tmp_path / "k.sqlite3")]
                  + ["--camera", camera])
    err = capsys.readouterr().err
    assert status == 2
    assert f"camera {camera!r}: cannot be read as a video" in err and "Traceback" not in err
