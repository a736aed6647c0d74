"""A thin onnxruntime wrapper: one ``ndarray -> ndarray`` call per network.

It accepts a ready-made :class:`onnxruntime.InferenceSession`, the bytes of a
model, or a path. A path is checked against the sha256 recorded in the
manifest before it is loaded, so a truncated or swapped file gives a clear
:class:`~vision.errors.ModelError` naming the file and how to restore it, not
an onnxruntime traceback. Inference runs on the CPU provider with a fixed
thread count (one by default: the kiosk's other work needs the other cores).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray

from vision.errors import ModelError

__all__ = ["OnnxSession", "RESTORE_HINT", "sha256_of"]

RESTORE_HINT = (
    "restore it with `git checkout -- models/` (or reinstall the package), "
    "or retrain with `python -m vision.training.train --out models/`"
)


def sha256_of(path: Path) -> str:
    """Returns the hex sha256 of a file."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _options(threads: int, layout: bool = True) -> ort.SessionOptions:
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    levels = ort.GraphOptimizationLevel
    so.graph_optimization_level = levels.ORT_ENABLE_ALL if layout else levels.ORT_ENABLE_EXTENDED
    so.log_severity_level = 3
    return so


class OnnxSession:
    """One network: ``session.run(x)`` returns its first output for the input array ``x``.

    ``model`` is an :class:`onnxruntime.InferenceSession`, model bytes, or a path;
    with a path, ``sha256`` (from the manifest) is checked first. ``layout`` turns on
    onnxruntime's layout passes (``ORT_ENABLE_ALL``: channels-last and blocked kernels, with
    transposes and reorders at their edges); without them it optimises the graph as fully
    otherwise (``ORT_ENABLE_EXTENDED``). Which is faster depends on the network (see
    :meth:`vision.recognizer.Recognizer.load`); the outputs are the same.

    Raises :class:`ModelError` for a missing, corrupt or mismatching model.
    """

    def __init__(
        self,
        model: ort.InferenceSession | bytes | str | Path,
        *,
        sha256: str | None = None,
        threads: int = 1,
        layout: bool = True,
    ) -> None:
        self.path: Path | None = None
        if isinstance(model, ort.InferenceSession):
            self.session = model
        else:
            source: Any = model
            if isinstance(model, (str, Path)):
                self.path = Path(model)
                if not self.path.is_file():
                    raise ModelError(f"model file {self.path} is missing; {RESTORE_HINT}")
                if sha256 is not None:
                    actual = sha256_of(self.path)
                    if actual != sha256:
                        raise ModelError(
                            f"model file {self.path} is corrupt or was replaced: "
                            f"its sha256 is {actual[:12]}..., "
                            f"the manifest expects {sha256[:12]}...; {RESTORE_HINT}"
                        )
                source = str(self.path)
            try:
                self.session = ort.InferenceSession(
                    source, _options(threads, layout), providers=["CPUExecutionProvider"]
                )
            except Exception as exc:  # onnxruntime raises several unrelated types for a bad file
                where = self.path if self.path is not None else "the model bytes given"
                raise ModelError(f"cannot load the ONNX model {where}: {exc}; {RESTORE_HINT}") from exc
        inputs = self.session.get_inputs()
        if len(inputs) != 1:
            raise ModelError(f"expected a model with one input, {self._where()} has {len(inputs)}")
        self.input_name: str = inputs[0].name
        self.input_shape: list[Any] = list(inputs[0].shape)

    def _where(self) -> str:
        return str(self.path) if self.path is not None else "the model"

    def run(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        """Runs the network on ``x`` and returns its first output.

        Raises :class:`ModelError` when the input does not fit the model (wrong rank or size).
        """
        try:
            out = self.session.run(None, {self.input_name: x})
        except Exception as exc:
            raise ModelError(
                f"{self._where()} rejected an input of shape {tuple(x.shape)} "
                f"(it expects {self.input_shape}): {exc}"
            ) from exc
        return np.asarray(out[0], dtype=np.float32)
