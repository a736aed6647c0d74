"""``kiosk recognize`` / ``kiosk detect``: the JSON contract, annotations and error handling."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.__main__ import main
from tests.vision.tiny_models import write_model_dir
from vision.cardart import list_designs
from vision.cardart.tokens import GNOMING_TOKENS
from vision.training.scenes import SceneConfig, render_scene


@pytest.fixture()
def images(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "table.png"
    cv2.imwrite(str(good), np.full((360, 640, 3), 100, np.uint8))
    broken = tmp_path / "broken.png"
    broken.write_text("this is not a PNG")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    return {"good": good, "broken": broken, "empty": empty, "missing": tmp_path / "missing.jpg"}


def test_json_document_with_per_image_errors(
    tmp_path: Path, images: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    model = write_model_dir(tmp_path / "model")
    paths = [str(images[k]) for k in ("good", "missing", "broken", "empty")]
    status = main(["recognize", *paths, "--json", "--model", str(model)])
    doc = json.loads(capsys.readouterr().out)
    assert status == 1  # some images failed, the others were still processed
    entries = doc["images"]
    assert [e["path"] for e in entries] == paths
    good, missing, broken, empty = entries
    assert good == {"path": paths[0], "width": 640, "height": 360, "error": None, "cards": []}
    assert missing["error"] == f"no such file: {paths[1]}" and missing["width"] is None
    assert "cannot decode" in broken["error"] and broken["cards"] == []
    assert "cannot decode" in empty["error"]


def test_detect_alias_and_text_table(
    tmp_path: Path, images: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    model = write_model_dir(tmp_path / "model")
    assert main(["detect", str(images["good"]), "--model", str(model)]) == 0
    out = capsys.readouterr().out
    assert f"{images['good']} (640x360): 0 card(s)" in out


def test_missing_model_is_one_clear_line(
    tmp_path: Path, images: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["recognize", str(images["good"]), "--model", str(tmp_path / "nowhere")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("kiosk recognize: model manifest ") and "restore it" in err
    assert len(err.strip().splitlines()) == 1


def test_shipped_model_cards_follow_the_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    designs = tuple(d for d in list_designs(split="heldout") if d.kind == "procedural")
    scene = render_scene(424242, SceneConfig(split="heldout", designs=designs, hands=0.0, layouts=(2,)))
    img = tmp_path / "scene.jpg"
    cv2.imwrite(str(img), scene.image)
    status = main(["recognize", str(img), "--json", "--annotate", str(tmp_path / "ann")])
    doc = json.loads(capsys.readouterr().out)
    assert status == 0
    (entry,) = doc["images"]
    assert (entry["width"], entry["height"], entry["error"]) == (1280, 720, None)
    assert entry["cards"], "the shipped model found no card in a scene with cards"
    for c in entry["cards"]:
        assert set(c) == {"card", "score", "box", "quad", "corners"}
        assert isinstance(c["card"], str) and 0.0 <= c["score"] <= 1.0
        assert len(c["box"]) == 4 and c["box"][0] <= c["box"][2] and c["box"][1] <= c["box"][3]
        assert c["quad"] is None or (len(c["quad"]) == 4 and all(len(p) == 2 for p in c["quad"]))
        assert all(len(b) == 4 for b in c["corners"])
    assert (tmp_path / "ann" / "scene.annotated.png").is_file()


def test_game_option_names_only_that_decks_faces(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    designs = tuple(d for d in list_designs(split="heldout") if d.kind == "procedural")
    scene = render_scene(424243, SceneConfig(split="heldout", designs=designs, hands=0.0, layouts=(3,)))
    img = tmp_path / "scene.png"
    cv2.imwrite(str(img), scene.image)
    assert main(["recognize", str(img), "--json", "--game", "gnoming"]) == 0
    cards = [c["card"] for c in json.loads(capsys.readouterr().out)["images"][0]["cards"]]
    assert cards and all(c in GNOMING_TOKENS or c in ("UNKNOWN", "BACK") for c in cards), cards
    with pytest.raises(SystemExit):
        main(["recognize", str(img), "--game", "poker"])
    assert "invalid choice: 'poker'" in capsys.readouterr().err


def test_calibrate_adds_table_millimetres(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from vision.cardart import get_design, render_face
    from vision.simulator.camera import CameraModel
    from vision.simulator.render import TableRenderer

    cam = CameraModel(width=1280, height=720)
    img = TableRenderer(cam, rng=random.Random(4)).background.copy()
    ((px, py),) = cam.project(np.array([[780.0, 439.0]]))  # the mat's centre, in image pixels
    card = render_face("KH", get_design("heldout-jumbo"), 110)
    h, w = card.shape[:2]
    y, x = int(py) - h // 2, int(px) - w // 2
    a = card[..., 3:4].astype(np.float32) / 255
    region = img[y : y + h, x : x + w]
    region[:] = (region * (1 - a) + card[..., :3] * a).astype(np.uint8)
    path = tmp_path / "mat.png"
    cv2.imwrite(str(path), img)
    assert main(["recognize", str(path), "--json", "--calibrate"]) == 0
    cards = json.loads(capsys.readouterr().out)["images"][0]["cards"]
    near = [c for c in cards if abs((c["box"][0] + c["box"][2]) / 2 - px) < w]
    assert near, f"the card on the mat was not found: {cards}"
    tx, ty = near[0]["table_mm"]
    assert abs(tx - 780.0) < 25 and abs(ty - 439.0) < 25
