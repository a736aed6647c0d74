"""The 8-bit model made from the float networks (:mod:`vision.training.quantize`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from vision.errors import ModelError
from vision.events import BACK, UNKNOWN
from vision.recognizer import DEFAULT_MODEL_DIR, MANIFEST, Recognizer
from vision.training.quantize import main, quantize_model
from vision.training.scenes import SceneConfig, render_scene


@pytest.fixture(scope="module")
def float_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped model's float networks alone, as training leaves them."""
    folder = tmp_path_factory.mktemp("float")
    manifest = json.loads((DEFAULT_MODEL_DIR / MANIFEST).read_text(encoding="utf-8"))
    for key in ("detector", "classifier"):
        entry = manifest[key]
        source = entry.pop("float", None) or {"file": entry["file"], "sha256": entry["sha256"]}
        entry.pop("quantized", None)
        entry["file"], entry["sha256"] = source["file"], source["sha256"]
        shutil.copy(DEFAULT_MODEL_DIR / source["file"], folder / source["file"])
    (folder / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def _named(rec: Recognizer, seed: int) -> list[tuple[str, float, float]]:
    scene = render_scene(seed, SceneConfig(split="heldout", random_designs=0.0))
    return [(s.card, *s.center) for s in rec.recognize(scene.image) if s.card not in (UNKNOWN, BACK)]


def test_the_int8_model_is_smaller_and_reads_as_the_float_one(float_model: Path, tmp_path: Path) -> None:
    folder = tmp_path / "m"
    shutil.copytree(float_model, folder)
    manifest = quantize_model(folder, scenes=4, progress=False)
    for key in ("detector", "classifier"):
        entry = manifest[key]
        assert entry["file"].endswith(".int8.onnx")
        assert entry["bytes"] * 2.5 < (folder / entry["float"]["file"]).stat().st_size
    assert json.loads((folder / MANIFEST).read_text(encoding="utf-8")) == manifest
    quantized, plain = Recognizer.load(folder), Recognizer.load(float_model)
    same = total = 0
    for seed in (700_011, 700_013, 700_016):
        got = _named(quantized, seed)
        for card, x, y in _named(plain, seed):
            total += 1
            same += any(c == card and abs(x - gx) + abs(y - gy) < 12 for c, gx, gy in got)
    assert total >= 12 and same >= 0.8 * total, (same, total)


def test_quantizing_again_starts_from_the_float_networks(float_model: Path, tmp_path: Path) -> None:
    folder = tmp_path / "m"
    shutil.copytree(float_model, folder)
    first = quantize_model(folder, scenes=1, progress=False)
    second = quantize_model(folder, scenes=1, progress=False)
    for key in ("detector", "classifier"):
        assert second[key]["float"] == first[key]["float"]
        assert second[key]["file"] == first[key]["file"]


def test_a_folder_without_a_model_gets_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--model", str(tmp_path), "--scenes", "1"]) == 2
    assert "manifest" in capsys.readouterr().err
    with pytest.raises(ModelError, match="manifest"):
        quantize_model(tmp_path)
