"""Exports the trained networks to ONNX and writes ``manifest.json`` beside them.

python -m vision.training.export --checkpoint CKPT --out models/
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import torch

from vision.heads import CHANNELS, CLASSIFIER_LABELS, STRIDE
from vision.preprocess import CROP_CONTEXT, CROP_SIZE, DETECTOR_SCALE, MAX_DETECTOR_SIDE, PAD_TO
from vision.training.model import Classifier, Detector

__all__ = ["export", "DETECTOR_FILE", "CLASSIFIER_FILE", "WEIGHTS_FILE"]

DETECTOR_FILE = "cards_detector.onnx"
CLASSIFIER_FILE = "cards_classifier.onnx"
WEIGHTS_FILE = "cards_weights.pt"


def _onnx_bytes(
    model: torch.nn.Module, example: torch.Tensor, input_name: str, output_name: str, dynamic: dict[int, str]
) -> bytes:
    model.eval()
    f = io.BytesIO()
    torch.onnx.export(
        model,
        (example,),
        f,  # type: ignore[arg-type]
        dynamo=False,
        opset_version=17,
        input_names=[input_name],
        output_names=[output_name],
        dynamic_axes={input_name: dynamic, output_name: {0: "n"}},
    )
    return f.getvalue()


def _data_summary() -> dict[str, Any]:
    from vision.cardart import list_designs

    return {
        "kind": "synthetic overhead table scenes (vision/training/scenes.py), rendered while training",
        "train_designs": [d.name for d in list_designs(split="train")],
        "heldout_designs": [d.name for d in list_designs(split="heldout")],
        "also": "a freshly randomised procedural design for 40% of card groups",
        "faces": "53 standard faces (52 + joker) and 12 Gnoming A Round faces; backs",
    }


def export(det: Detector, cls: Classifier, out: Path, training: dict[str, Any]) -> dict[str, Any]:
    """Writes both ONNX files and the manifest to ``out``; returns the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    det_bytes = _onnx_bytes(
        det.to(memory_format=torch.contiguous_format),  # type: ignore[call-overload]
        torch.zeros(1, 3, 384, 640),
        "image",
        "maps",
        {0: "n", 2: "height", 3: "width"},
    )
    cls_bytes = _onnx_bytes(cls, torch.zeros(2, 3, CROP_SIZE, CROP_SIZE), "crops", "logits", {0: "n"})
    (out / DETECTOR_FILE).write_bytes(det_bytes)
    (out / CLASSIFIER_FILE).write_bytes(cls_bytes)
    # The PyTorch weights ride along (not used at run time) so a deck can be enrolled without retraining.
    buf = io.BytesIO()
    torch.save({"det": det.state_dict(), "cls": cls.state_dict()}, buf)
    (out / WEIGHTS_FILE).write_bytes(buf.getvalue())
    manifest = {
        "name": "card-recognizer",
        "format": 1,
        "detector": {
            "file": DETECTOR_FILE,
            "sha256": hashlib.sha256(det_bytes).hexdigest(),
            "bytes": len(det_bytes),
            "input": {
                "name": "image",
                "shape": [1, 3, "height", "width"],
                "layout": "NCHW, BGR",
                "normalise": "x / 127.5 - 1",
                "frame_scale": DETECTOR_SCALE,
                "max_side": MAX_DETECTOR_SIDE,
                "pad_to": PAD_TO,
            },
            "output": {"name": "maps", "channels": CHANNELS, "stride": STRIDE},
        },
        "classifier": {
            "file": CLASSIFIER_FILE,
            "sha256": hashlib.sha256(cls_bytes).hexdigest(),
            "bytes": len(cls_bytes),
            "input": {
                "name": "crops",
                "shape": ["n", 3, CROP_SIZE, CROP_SIZE],
                "layout": "NCHW, BGR",
                "normalise": "x / 127.5 - 1",
                "context": CROP_CONTEXT,
            },
            "output": {"name": "logits"},
            "labels": list(CLASSIFIER_LABELS),
        },
        "weights": {
            "file": WEIGHTS_FILE,
            "sha256": hashlib.sha256((out / WEIGHTS_FILE).read_bytes()).hexdigest(),
            "use": "fine-tuning only (python -m vision.training.enrol)",
        },
        "training": training,
        "data": _data_summary(),
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.training.export", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", type=Path, required=True)
    p.add_argument("--out", type=Path, default=Path("models"))
    p.add_argument(
        "--classifier-checkpoint",
        type=Path,
        default=None,
        help="take the classifier from this checkpoint (a --classifier-only second stage)",
    )
    args = p.parse_args(argv)
    st = torch.load(args.checkpoint, map_location="cpu", weights_only=False)
    det, cls = Detector(), Classifier()
    det.load_state_dict(st["det"])
    if args.classifier_checkpoint is None:
        cls.load_state_dict(st["cls"])
    stages = []
    if args.classifier_checkpoint is not None:
        st2 = torch.load(args.classifier_checkpoint, map_location="cpu", weights_only=False)
        cls.load_state_dict(st2["cls"])
        stages.append(
            {
                "classifier_stage": {
                    "steps": st2["step"],
                    "scenes_seen": st2["scenes_seen"],
                    "minutes": round(st2["elapsed"] / 60, 1),
                    "config": st2.get("config", {}),
                }
            }
        )
    summary = {
        "steps": st["step"],
        "scenes_seen": st["scenes_seen"],
        "minutes": round(st["elapsed"] / 60, 1),
        "config": st.get("config", {}),
        "stages": stages,
    }
    export(det, cls, args.out, summary)
    print(f"exported step {st['step']} to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
