"""``kiosk run``/``kiosk demo`` output paths that cannot be written: one clear line before the
game starts, not a traceback after it (the end-of-game screenshot used to fail last)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from kiosk.__main__ import main  # noqa: E402


def _run(tmp_path: Path, *extra: str) -> list[str]:
    return ["run", "--headless", "--frames", "2", "--store", str(tmp_path / "k.sqlite3"), *extra]


@pytest.mark.parametrize(
    ("flag", "where", "message"),
    [
        ("--screenshot", "a_file/last.png", "is not an existing folder"),
        ("--screenshot", "a_folder", "is a folder; give a file name"),
        ("--screenshot-dir", "a_file", "cannot make this folder"),
        ("--screenshot-dir", "a_file/shots", "cannot make this folder"),
        ("--text-log", "a_folder", "cannot write the text log"),
    ],
)
def test_an_output_path_that_cannot_be_written_is_one_line_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, where: str, message: str
) -> None:
    (tmp_path / "a_file").write_text("not a folder\n", encoding="utf-8")
    (tmp_path / "a_folder").mkdir()
    status = main(_run(tmp_path, flag, str(tmp_path / where)))
    err = capsys.readouterr().err
    assert status == 2
    assert message in err and flag in err and "Traceback" not in err
    assert (tmp_path / "a_file").read_text(encoding="utf-8") == "not a folder\n"


def test_kiosk_demo_checks_its_screenshot_path_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    shot = str(tmp_path / "a_file" / "last.png")
    assert main(["demo", "smear", "--headless", "--duration", "0.1", "--screenshot", shot]) == 2
    assert "is not an existing folder" in capsys.readouterr().err


def test_writable_paths_still_get_their_screenshots_and_text_log(tmp_path: Path) -> None:
    shot, shots, text = tmp_path / "last.png", tmp_path / "new" / "shots", tmp_path / "rulings.txt"
    args = _run(tmp_path, "--screenshot", str(shot), "--screenshot-dir", str(shots), "--text-log", str(text))
    assert main(args) == 0
    assert shot.is_file() and any(shots.glob("*.png")) and text.is_file()
