"""Tiny ONNX stand-ins for the recognizer's two networks, built with ``onnx.helper``.

They have the real models' inputs and outputs, so the real loading and
inference code runs in tests without the real weights.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from vision.heads import CHANNELS, CLASSIFIER_LABELS


def detector_bytes(heat_bias: float = -10.0) -> bytes:
    """A detector whose maps are constant: no heat anywhere (with the default bias)."""
    w = np.zeros((CHANNELS, 3, 1, 1), np.float32)
    b = np.zeros(CHANNELS, np.float32)
    b[:3] = heat_bias
    nodes = [
        helper.make_node("AveragePool", ["image"], ["pooled"], kernel_shape=[4, 4], strides=[4, 4]),
        helper.make_node("Conv", ["pooled", "w", "b"], ["maps"]),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny_detector",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, "h", "w"])],
        [helper.make_tensor_value_info("maps", TensorProto.FLOAT, [1, CHANNELS, "oh", "ow"])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString())


def classifier_bytes(n_labels: int = len(CLASSIFIER_LABELS)) -> bytes:
    """A classifier that always favours the last label ("not an index")."""
    w = np.zeros((3, n_labels), np.float32)
    b = np.zeros(n_labels, np.float32)
    b[-1] = 5.0
    nodes = [
        helper.make_node("GlobalAveragePool", ["crops"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "w", "b"], ["logits"]),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny_classifier",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, 32, 32])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", n_labels])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString())


def write_model_dir(
    folder: Path, det: bytes | None = None, cls: bytes | None = None, labels: list[str] | None = None
) -> Path:
    """Writes a model folder (two ONNX files and a manifest with their sha256) and returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    det = det if det is not None else detector_bytes()
    cls = cls if cls is not None else classifier_bytes()
    (folder / "det.onnx").write_bytes(det)
    (folder / "cls.onnx").write_bytes(cls)
    manifest = {
        "name": "tiny",
        "detector": {"file": "det.onnx", "sha256": hashlib.sha256(det).hexdigest()},
        "classifier": {
            "file": "cls.onnx",
            "sha256": hashlib.sha256(cls).hexdigest(),
            "labels": labels if labels is not None else list(CLASSIFIER_LABELS),
        },
    }
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder
