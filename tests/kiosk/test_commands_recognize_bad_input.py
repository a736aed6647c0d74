"""``kiosk recognize --annotate DIR`` where DIR cannot be made or a drawing cannot be written: one
line naming it (a folder under a file was a traceback; a failed write was silent, status 0)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.__main__ import main
from tests.vision.tiny_models import write_model_dir


@pytest.fixture
def image(tmp_path: Path) -> Path:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((120, 160, 3), 80, np.uint8))
    return path


def test_annotate_under_a_file_is_one_line(
    tmp_path: Path, image: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = write_model_dir(tmp_path / "model")
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    where = tmp_path / "a_file" / "drawn"
    status = main(["recognize", str(image), "--model", str(model), "--annotate", str(where)])
    err = capsys.readouterr().err
    assert status == 2 and f"--annotate {where}: cannot make this folder" in err and "Traceback" not in err


def test_a_drawing_that_cannot_be_written_is_reported_and_fails_the_run(
    tmp_path: Path, image: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = write_model_dir(tmp_path / "model")
    drawn = tmp_path / "drawn"
    (drawn / "table.annotated.png").mkdir(parents=True)  # in the way of the drawing
    status = main(["recognize", str(image), "--model", str(model), "--annotate", str(drawn)])
    captured = capsys.readouterr()
    assert status == 1 and "could not write" in captured.err
    assert "table.png (160x120)" in captured.out, "the image itself is still reported"
