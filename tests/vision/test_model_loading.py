"""Loading the recognizer's model: every way the files can be wrong gives a clear error."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from tests.vision.tiny_models import classifier_bytes, detector_bytes, write_model_dir
from vision.errors import ModelError, VisionError
from vision.recognizer import DEFAULT_MODEL_DIR, VIDEO_MODEL_DIR, Recognizer, Thresholds
from vision.session import OnnxSession


def test_tiny_model_runs_the_full_path_and_finds_nothing(tmp_path: Path) -> None:
    rec = Recognizer.load(write_model_dir(tmp_path / "m"))
    assert rec.recognize(np.full((720, 1280, 3), 120, np.uint8)) == []
    # A small frame takes the same path (padding to the detector's stride).
    assert rec.recognize(np.zeros((50, 70, 3), np.uint8)) == []


def test_a_model_is_named_by_its_folder_or_its_manifest(tmp_path: Path) -> None:
    folder = write_model_dir(tmp_path / "m")
    by_manifest = Recognizer.load(folder / "manifest.json")
    assert by_manifest.model_dir == Recognizer.load(folder).model_dir == folder
    assert Recognizer.load_for_video(str(folder / "manifest.json")).model_dir == folder


def test_session_accepts_a_ready_inference_session() -> None:
    sess = ort.InferenceSession(classifier_bytes(), providers=["CPUExecutionProvider"])
    s = OnnxSession(sess)
    out = s.run(np.zeros((2, 3, 32, 32), np.float32))
    assert out.shape == (2, 66)


def test_missing_manifest_names_the_file_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"manifest\.json is missing; restore it"):
        Recognizer.load(tmp_path)


def test_missing_model_file(tmp_path: Path) -> None:
    folder = write_model_dir(tmp_path / "m")
    (folder / "det.onnx").unlink()
    with pytest.raises(ModelError, match=r"det\.onnx is missing; restore it with `git checkout"):
        Recognizer.load(folder)


def test_corrupt_model_file_fails_its_checksum(tmp_path: Path) -> None:
    folder = write_model_dir(tmp_path / "m")
    data = (folder / "cls.onnx").read_bytes()
    (folder / "cls.onnx").write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelError, match=r"cls\.onnx is corrupt or was replaced"):
        Recognizer.load(folder)


def test_garbage_with_a_matching_checksum_cannot_load(tmp_path: Path) -> None:
    folder = write_model_dir(tmp_path / "m", det=b"not an onnx model")
    with pytest.raises(VisionError, match=r"cannot load the ONNX model .*det\.onnx"):
        Recognizer.load(folder)


def test_invalid_manifest(tmp_path: Path) -> None:
    folder = write_model_dir(tmp_path / "m")
    (folder / "manifest.json").write_text("{not json")
    with pytest.raises(ModelError, match="is not valid"):
        Recognizer.load(folder)
    (folder / "manifest.json").write_text(json.dumps({"detector": {"file": "det.onnx"}}))
    with pytest.raises(ModelError, match="is not valid"):
        Recognizer.load(folder)


def test_label_count_must_match_the_classifier(tmp_path: Path) -> None:
    folder = write_model_dir(tmp_path / "m", cls=classifier_bytes(10))
    rec = Recognizer.load(folder)
    rec.thresholds = type(rec.thresholds)(index=0.0)
    with pytest.raises(ModelError, match="the manifest lists 66 labels"):
        # Heat everywhere: every cell is a candidate index, so the classifier runs.
        Recognizer(OnnxSession(detector_bytes(heat_bias=10.0)), rec.classifier, rec.labels).recognize(
            np.zeros((64, 64, 3), np.uint8)
        )


def test_labels_must_end_with_not_index(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="must end with 'NOT_INDEX'"):
        Recognizer.load(write_model_dir(tmp_path / "m", labels=["QS", "KS"]))


def test_wrong_image_is_a_value_error(tmp_path: Path) -> None:
    rec = Recognizer.load(write_model_dir(tmp_path / "m"))
    with pytest.raises(ValueError, match="expected an H×W×3 uint8 BGR image"):
        rec.recognize(np.zeros((10, 10), np.float32))


def test_thresholds_tuned_for_the_model_come_from_its_manifest(tmp_path: Path) -> None:
    folder = write_model_dir(tmp_path / "m")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["thresholds"] = {"unknown_below": 0.7, "not_index": 0.35}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    rec = Recognizer.load(folder)
    assert (rec.thresholds.unknown_below, rec.thresholds.not_index) == (0.7, 0.35)
    assert rec.thresholds.index == Thresholds().index  # the others keep their defaults
    # A caller's own thresholds win over the manifest's.
    assert Recognizer.load(folder, thresholds=Thresholds()).thresholds == Thresholds()


@pytest.mark.parametrize("bad", [{"unknown_below": 1.5}, {"confidence": 0.5}, {"index": "high"}, [0.5]])
def test_invalid_thresholds_in_the_manifest_name_the_problem(tmp_path: Path, bad: object) -> None:
    folder = write_model_dir(tmp_path / "m")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["thresholds"] = bad
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ModelError, match=r"manifest\.json has invalid thresholds .*restore it"):
        Recognizer.load(folder)


def test_video_reads_with_the_shipped_video_model_unless_told_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kiosk track, the live kiosk and the simulated table read frames with the model tuned for the
    # camera's small cards; a folder given, or KIOSK_MODEL_DIR (a deck the user enrolled), wins.
    monkeypatch.delenv("KIOSK_MODEL_DIR", raising=False)
    assert Recognizer.load_for_video().model_dir == VIDEO_MODEL_DIR
    assert Recognizer.load().model_dir == DEFAULT_MODEL_DIR
    tiny = write_model_dir(tmp_path / "m")
    assert Recognizer.load_for_video(tiny).model_dir == tiny
    monkeypatch.setenv("KIOSK_MODEL_DIR", str(tiny))
    assert Recognizer.load_for_video().model_dir == tiny


def test_a_corrupt_video_model_names_its_file(tmp_path: Path) -> None:
    folder = tmp_path / "video"
    folder.mkdir()
    for f in VIDEO_MODEL_DIR.iterdir():
        if f.suffix in (".json", ".onnx"):
            (folder / f.name).write_bytes(f.read_bytes())
    detector = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["detector"]["file"]
    (folder / detector).write_bytes(b"not a model")
    with pytest.raises(ModelError, match=detector.replace(".", r"\.")):
        Recognizer.load_for_video(folder)
