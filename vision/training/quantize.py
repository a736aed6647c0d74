"""Makes the 8-bit model the kiosk runs from the trained float networks, and records it in the manifest.

    python -m vision.training.quantize --model models/ --scenes 60

Both networks are quantized statically (onnxruntime's QDQ format: weights int8 per output
channel, activations uint8 with ranges measured on calibration data), which makes them about
1.6 times faster on one CPU core and four times smaller. Each network's output layer stays in
float: the detector's maps and the classifier's logits are compared with thresholds, and 8 bits
across their whole range cost a few false cards (measured: `models/MODEL_CARD.md`).

Calibration data are freshly rendered scenes of the **training** designs (seeds from
710,000,000, never the benchmark's held-out designs; every fourth one a close-up): the
detector's input for each scene, and for the recognizer's second look at a shrunk frame where
it takes one, and the corner-index crops the float model's detector finds in them.

The float files stay in the folder and in the manifest (``float_file``): running this again
starts from them, so retraining, then ``quantize``, then ``tune`` is the whole recipe.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import ModelError
from vision.preprocess import CropSpec, detector_input, index_crops, normalise
from vision.recognizer import MANIFEST, Recognizer, _manifest_thresholds, _read_manifest
from vision.session import OnnxSession
from vision.training.scenes import SceneConfig, render_scene

__all__ = ["quantize_model", "main", "FIRST_SEED"]

FIRST_SEED = 710_000_000
CROP_BATCH = 64
"""Calibration crops go to the classifier in batches of this size (its ranges need equal batches)."""


def _float_entry(entry: dict[str, Any]) -> tuple[str, str]:
    """The float network's file and sha256 for a manifest entry, quantized already or not."""
    source = entry.get("float")
    if isinstance(source, dict):
        return str(source["file"]), str(source["sha256"])
    return str(entry["file"]), str(entry["sha256"])


def _int8_name(float_file: str) -> str:
    stem = float_file[: -len(".onnx")] if float_file.endswith(".onnx") else float_file
    return f"{stem}.int8.onnx"


def _output_node(model_path: Path) -> str:
    """The name of the node that writes the network's (first) output: kept in float."""
    import onnx

    graph = onnx.load(str(model_path)).graph
    out = graph.output[0].name
    for node in graph.node:
        if out in node.output:
            return str(node.name)
    raise ModelError(f"{model_path} has no node writing its output {out!r}")


def calibration_data(
    rec: Recognizer, scenes: int, progress: bool = True
) -> tuple[list[NDArray[np.float32]], list[NDArray[np.float32]]]:
    """Detector inputs and classifier crop batches from ``scenes`` rendered training scenes."""
    det_in: list[NDArray[np.float32]] = []
    crops: list[NDArray[np.uint8]] = []
    t0 = time.monotonic()
    for k in range(scenes):
        # Every fourth scene is a close-up: the recognizer's second look at a shrunk frame sees
        # cards far larger than on a table, and its activations need their own ranges.
        cfg = SceneConfig(split="train", closeup=1.0 if k % 4 == 3 else 0.0)
        image = render_scene(FIRST_SEED + k, cfg).image
        det_in.append(detector_input(image)[0])
        cards, idx = rec._detect(image, None)
        looks = [idx]
        for side in rec.second_look(image.shape, cards, rec._assemble(image, cards, idx)):
            det_in.append(detector_input(image, side)[0])
            looks.append(rec._detect(image, side)[1])
        for found in looks:
            if found:
                specs = [CropSpec(i.cx, i.cy, i.up_x, i.up_y, i.width, i.height) for i in found]
                crops.append(index_crops(image, specs))
        if progress and (time.monotonic() - t0 > 30 or k == scenes - 1):
            t0 = time.monotonic()
            print(f"calibration scenes {k + 1}/{scenes}", flush=True)
    if not crops:
        raise ModelError("the float detector found no corner index in the calibration scenes")
    every = np.concatenate(crops)
    if len(every) < CROP_BATCH:
        every = np.concatenate([every] * (CROP_BATCH // len(every) + 1))
    every = every[: len(every) // CROP_BATCH * CROP_BATCH]
    batches = [normalise(b) for b in every.reshape(-1, CROP_BATCH, *every.shape[1:])]
    return det_in, batches


class _Reader:
    """Feeds calibration inputs to onnxruntime's quantizer, one at a time."""

    def __init__(self, name: str, xs: list[NDArray[np.float32]]) -> None:
        self._it: Iterator[dict[str, NDArray[np.float32]]] = iter([{name: x} for x in xs])

    def get_next(self) -> dict[str, NDArray[np.float32]] | None:
        return next(self._it, None)


def _quantize(source: Path, target: Path, input_name: str, xs: list[NDArray[np.float32]]) -> None:
    from onnxruntime.quantization import (
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quant_pre_process,
        quantize_static,
    )

    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        # Folds batch norms etc. first; the symbolic shape pass cannot follow the dynamic sizes.
        quant_pre_process(str(source), str(pre), skip_symbolic_shape=True)
        quantize_static(
            str(pre),
            str(target),
            _Reader(input_name, xs),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=[_output_node(pre)],
        )


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def quantize_model(model_dir: Path, scenes: int = 60, progress: bool = True) -> dict[str, Any]:
    """Writes the int8 networks into ``model_dir`` and points its manifest at them; returns the manifest.

    Raises :class:`~vision.errors.ModelError` when the folder's model is missing or corrupt.
    """
    path = model_dir / MANIFEST
    manifest = _read_manifest(model_dir)
    float_files = {key: _float_entry(manifest[key]) for key in ("detector", "classifier")}
    # The float model, whatever the manifest points at now, reads the calibration scenes.
    sessions = {key: OnnxSession(model_dir / file, sha256=sha) for key, (file, sha) in float_files.items()}
    rec = Recognizer(
        sessions["detector"],
        sessions["classifier"],
        manifest["classifier"]["labels"],
        _manifest_thresholds(manifest, path),
    )
    det_in, crops = calibration_data(rec, scenes, progress)
    for key, xs, input_name in (("detector", det_in, "image"), ("classifier", crops, "crops")):
        file, sha = float_files[key]
        target = model_dir / _int8_name(file)
        if progress:
            print(f"quantizing the {key} ({file} -> {target.name})", flush=True)
        _quantize(model_dir / file, target, input_name, xs)
        entry = manifest[key]
        entry["file"], entry["sha256"], entry["bytes"] = target.name, _sha256(target), target.stat().st_size
        entry["float"] = {"file": file, "sha256": sha}
        entry["quantized"] = {
            "format": "onnxruntime QDQ: int8 weights per output channel, uint8 activations",
            "calibration": f"MinMax over {scenes} training-design scenes (seeds from {FIRST_SEED:,})",
            "float_layers": "the output layer",
            "command": f"python -m vision.training.quantize --model {model_dir} --scenes {scenes}",
        }
    path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m vision.training.quantize", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--model", type=Path, default=Path("models"), help="model folder (with manifest.json)")
    p.add_argument("--scenes", type=int, default=60, help="calibration scenes to render")
    args = p.parse_args(argv)
    if args.scenes < 1:
        print("error: --scenes must be at least 1", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    try:
        manifest = quantize_model(args.model, args.scenes)
    except ModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for key in ("detector", "classifier"):
        e = manifest[key]
        print(f"{key}: {e['file']} ({e['bytes']:,} bytes), from {e['float']['file']}")
    print("now retune its thresholds: python -m vision.training.tune --model", args.model, "--write")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
