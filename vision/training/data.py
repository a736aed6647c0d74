"""Background scene generation for training: worker processes render scenes and put
ready-made samples (detector input, targets, classifier crops) on a queue."""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import random
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.training.scenes import SceneConfig, render_scene
from vision.training.targets import CELL, classifier_samples, detector_targets

__all__ = ["Sample", "make_sample", "SampleStream"]


@dataclass(slots=True)
class Sample:
    image: NDArray[np.uint8]
    """Detector input before normalisation: H×W×3 (the frame at half size)."""
    heat: NDArray[np.float16]
    heat_weight: NDArray[np.float16]
    reg: NDArray[np.float16]
    reg_weight: NDArray[np.float16]
    crops: NDArray[np.uint8]
    crop_labels: NDArray[np.int64]


def make_sample(seed: int, cfg: SceneConfig) -> Sample:
    """Renders scene ``seed`` and turns it into a training sample."""
    scene = render_scene(seed, cfg)
    h, w = scene.image.shape[:2]
    small = cv2.resize(scene.image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    t = detector_targets(scene, int(h / CELL), int(w / CELL))
    crops, labels = classifier_samples(scene, random.Random(seed ^ 0x5EED), loose=cfg.loose_crops)
    return Sample(
        np.asarray(small, np.uint8),
        t.heat.astype(np.float16),
        t.heat_weight.astype(np.float16),
        t.reg.astype(np.float16),
        t.reg_weight.astype(np.float16),
        crops,
        labels,
    )


def _worker(q: mp.Queue, start: int, step: int, cfg: SceneConfig) -> None:  # type: ignore[type-arg]
    os.environ["OMP_NUM_THREADS"] = "1"
    cv2.setNumThreads(1)
    parent = os.getppid()
    seed = start
    # Stops when the trainer is gone (killed without a chance to stop its workers).
    while os.getppid() == parent:
        try:
            q.put(make_sample(seed, cfg), timeout=60)
        except queue.Full:
            continue
        seed += step


class SampleStream:
    """Scenes numbered ``first_seed``, ``first_seed + 1``, ... rendered by ``workers`` processes."""

    def __init__(self, cfg: SceneConfig, first_seed: int, workers: int = 1, maxsize: int = 64) -> None:
        ctx = mp.get_context("fork")
        self.queue: mp.Queue = ctx.Queue(maxsize=maxsize)  # type: ignore[type-arg]
        self.procs = [
            ctx.Process(target=_worker, args=(self.queue, first_seed + i, workers, cfg), daemon=True)
            for i in range(workers)
        ]
        for p in self.procs:
            p.start()

    def get(self, block: bool = True, timeout: float | None = None) -> Sample | None:
        try:
            s: Sample = self.queue.get(block=block, timeout=timeout)
            return s
        except queue.Empty:
            return None

    def close(self) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            p.join(timeout=5)
