"""``kiosk mat``: the printable mat's files, one-line errors, and the ``[mat]`` size it shares with
the live camera of ``kiosk run``."""

from __future__ import annotations

import struct
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from kiosk.__main__ import main
from kiosk.config import ConfigError, MatSettings, load_config
from vision.calibration import TableMat
from vision.events import CardSighting, Frame


def test_kiosk_mat_writes_the_pdf_and_the_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "new" / "mats"
    argv = ["mat", "--game", "Rummy", "--seats", "Ana,Ben,Cal", "--paper", "a3", "--out", str(out)]
    assert main([*argv, "--dpi", "20", "--png-dpi", "12"]) == 0
    pdf = out / "mat-rummy_3_13-3seats-A3.pdf"
    png = out / "mat-rummy_3_13-3seats-12dpi.png"
    assert pdf.read_bytes().startswith(b"%PDF-1.4") and pdf.read_bytes().count(b"/Type /Page ") == 20
    image = cv2.imread(str(png))
    assert image is not None and image.shape[:2] == (round(878 * 12 / 25.4), round(1560 * 12 / 25.4))
    printed = capsys.readouterr().out
    assert "20 A3 landscape pages, 4 rows x 5 columns" in printed and "print at 100 %" in printed


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--game", "poker"], "unknown game 'poker' (games: nerts, kierki, smear, rummy_3_13, gnoming)"),
        (["--game", "nerts", "--paper", "letter"], "unknown --paper 'letter' (choose A2, A3, A4)"),
        (["--game", "smear", "--seats", "3"], "Smear takes 4 seats on a mat (one per side), got 3"),
        (["--game", "nerts", "--seats", "6"], "Nerts takes 2 to 4 seats on a mat (one per side), got 6"),
        (["--game", "nerts", "--seats", "Ana,,Ben"], "--seats needs a number or different, non-empty names"),
        (["--game", "nerts", "--width-mm", "100"], "--width-mm must be 200 to 5000 mm, got 100"),
        (["--game", "gnoming", "--height-mm", "600"], "the gnoming layout does not fit a 1560 x 600 mm mat"),
        (["--game", "nerts", "--dpi", "2000"], "--dpi must be 10 to 600, got 2000"),
        (
            ["--game", "nerts", "--background", "plaid"],
            "unknown mat background 'plaid' (choose green, white)",
        ),
    ],
)
def test_bad_arguments_are_one_clear_line_and_exit_2(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["mat", *argv, "--out", str(tmp_path), "--dpi" if "--dpi" not in argv else "--png-dpi", "10"])
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kiosk mat: ") and message in err
    assert list(tmp_path.iterdir()) == []


def test_an_out_folder_that_cannot_be_written_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert main(["mat", "--game", "nerts", "--out", str(blocker), "--dpi", "10"]) == 2
    assert capsys.readouterr().err == f"kiosk mat: --out {blocker} is a file; give a folder\n"
    assert main(["mat", "--game", "nerts", "--out", str(blocker / "mats"), "--dpi", "10"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kiosk mat: cannot write into {blocker / 'mats'} (") and err.count("\n") == 1
    assert "choose a folder you can write to" in err and "Traceback" not in err


def test_mat_settings_default_to_the_calibrations_mat() -> None:
    default = TableMat()
    assert (MatSettings().width_mm, MatSettings().height_mm) == (default.width_mm, default.height_mm)
    assert load_config(None).mat_settings == MatSettings()


def test_a_bad_mat_table_in_the_config_names_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "kiosk.toml"
    cfg.write_text('[mat]\nwidth_mm = "wide"\n')
    with pytest.raises(ConfigError, match=r"\[mat\]: key 'width_mm' must be a number of millimetres"):
        load_config(cfg)
    assert main(["mat", "--game", "nerts", "--config", str(cfg), "--out", str(tmp_path / "o")]) == 2
    assert "[mat]: key 'width_mm'" in capsys.readouterr().err


class NoCards:
    def recognize(self, image_bgr: Any) -> list[CardSighting]:
        return []


def test_kiosk_run_calibrates_on_the_mat_kiosk_mat_printed_from_the_same_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mat of another size, set once in ``[mat]``: ``kiosk mat`` prints it, and the live camera
    pipeline ``kiosk run`` builds from the same config finds table millimetres on it."""
    from kiosk.app.live_camera import SessionPipeline
    from kiosk.app.runner import table_mat

    cfg = tmp_path / "kiosk.toml"
    cfg.write_text("game = 'nerts'\n[mat]\nwidth_mm = 1800\nheight_mm = 1000\n")
    assert main(["mat", "--config", str(cfg), "--out", str(tmp_path), "--dpi", "10", "--png-dpi", "20"]) == 0
    assert "note: the nerts layout is made for a 1560 x 878 mm table" in capsys.readouterr().out
    png = tmp_path / "mat-nerts-4seats-20dpi.png"
    data = png.read_bytes()
    ppm = struct.unpack(">I", data[data.index(b"pHYs") + 4 : data.index(b"pHYs") + 8])[0]
    assert ppm == round(20 / 0.0254)
    printed = cv2.imread(str(png))
    assert printed is not None
    s = 20 / 25.4
    assert printed.shape[:2] == (round(1000 * s), round(1800 * s))

    mat = table_mat(load_config(cfg))
    assert (mat.width_mm, mat.height_mm) == (1800.0, 1000.0)
    header = SimpleNamespace(game="nerts", seats=("Ana", "Ben", "Cal", "Dee"), options={})
    app = SimpleNamespace(on_record=[], session=SimpleNamespace(header=header), origin_ns=0)
    camera = SessionPipeline(app, NoCards(), mat=mat)
    # The camera sees the table around the mat too.
    border = 40
    picture = cv2.copyMakeBorder(
        printed, border, border, border, border, cv2.BORDER_CONSTANT, value=(40, 45, 50)
    )
    assert camera(Frame(picture, 0)) == []
    cal = camera.pipeline.calibration
    assert cal is not None and cal.markers == (0, 1, 2, 3)
    # The outer corner of marker 2 (bottom right) lies 20 mm in from the corner of the [mat] size.
    corner_px = (np.array(mat.marker_corners_mm(2)[2]) * s - 0.5 + border).reshape(1, 2)
    ((x, y),) = cal.to_table(corner_px)
    assert abs(x - 1780.0) < 1.0 and abs(y - 980.0) < 1.0
