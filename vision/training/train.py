"""Trains the card recognizer's two networks on synthetic scenes, on the CPU.

    python -m vision.training.train --out models/            # train (or resume) and export
    python -m vision.training.train --out models/ --steps 300 --init CKPT   # fine-tune

Scenes are rendered by worker processes (:mod:`vision.training.data`) from the
``train`` designs plus randomised procedural ones; held-out designs never
appear. Each step trains the detector on a batch of scenes and the classifier
on a batch of index crops, drawn from a buffer of recent samples, so the
networks keep learning while the renderer catches up. Progress goes to stdout;
a checkpoint is written every few minutes to the work folder and training
resumes from it when run again with the same work folder. At the end both
networks are exported to ONNX in ``--out`` with ``manifest.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import NDArray

from vision.cardart.typefaces import typeface_files
from vision.heads import (
    BACK_HEAT,
    CARD_AXIS,
    CARD_FULL,
    CARD_LOGSIZE,
    CARD_SUB,
    IDX_HEAT,
    IDX_LOGSIZE,
    IDX_SUB,
    IDX_TO_CARD,
    IDX_UP,
)
from vision.training.data import Sample, SampleStream
from vision.training.model import Classifier, Detector
from vision.training.scenes import SceneConfig

__all__ = ["main", "train", "TrainConfig"]

DEFAULT_WORK = Path.home() / ".cache" / "card-table-kiosk" / "train"


class TrainConfig:
    """Settings of one training run (all have defaults that reproduce the shipped model)."""

    def __init__(self, **kw: Any) -> None:
        self.steps: int = kw.get("steps", 4000)
        self.batch: int = kw.get("batch", 8)
        self.crops: int = kw.get("crops", 128)
        self.lr: float = kw.get("lr", 2e-3)
        self.seed: int = kw.get("seed", 0)
        self.workers: int = kw.get("workers", 1)
        self.threads: int = kw.get("threads", 2)
        self.canvas: int = kw.get("canvas", 512)
        self.buffer: int = kw.get("buffer", 300)
        self.checkpoint_minutes: float = kw.get("checkpoint_minutes", 5.0)
        self.scene: SceneConfig = kw.get("scene", SceneConfig(layouts=(2, 3, 3, 4, 5)))
        self.classifier_only: bool = kw.get("classifier_only", False)
        """Train only the classifier (the detector's weights stay as initialised): a second stage."""
        self.detector_only: bool = kw.get("detector_only", False)
        """Train only the detector (the classifier's weights stay as initialised)."""
        self.minutes: float | None = kw.get("minutes")
        """A time budget: when set, the learning-rate schedule follows elapsed time and training stops
        when it runs out (steps are then an upper bound)."""

    def to_json(self) -> dict[str, Any]:
        d = {k: v for k, v in vars(self).items() if k != "scene"}
        d["scene"] = {
            "split": self.scene.split,
            "random_designs": self.scene.random_designs,
            "designs": [x.name for x in self.scene.designs],
            "card_height": self.scene.card_height,
            "closeup": self.scene.closeup,
            "hands": self.scene.hands,
            "gnoming": self.scene.gnoming,
            "loose_crops": self.scene.loose_crops,
            "hands_on_cards": self.scene.hands_on_cards,
            "amodal_under_hands": self.scene.amodal_under_hands,
            "card_motion": self.scene.card_motion,
            "typefaces": self.scene.typefaces,
        }
        return d


def _focal(logits: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on heat maps."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = (target >= 0.999).float()
    neg = 1.0 - pos
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p**2 * (1 - target) ** 4 * neg * weight
    n = pos.sum().clamp(min=1.0)
    return (pos_loss.sum() + neg_loss.sum()) / n


def _masked_l1(pred: torch.Tensor, target: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return (F.smooth_l1_loss(pred, target, reduction="none", beta=0.1).sum(1) * w).sum() / w.sum().clamp(
        min=1.0
    )


def detector_loss(
    pred: torch.Tensor, heat: torch.Tensor, heat_w: torch.Tensor, reg: torch.Tensor, reg_w: torch.Tensor
) -> tuple[torch.Tensor, dict[str, float]]:
    l_idx = _focal(pred[:, IDX_HEAT], heat[:, 0], heat_w[:, 0])
    l_card = _focal(pred[:, 1 : BACK_HEAT + 1], heat[:, 1:], heat_w[:, 1:])
    wi, wc = reg_w[:, 0], reg_w[:, 1]
    l_up = _masked_l1(pred[:, IDX_UP], reg[:, IDX_UP], wi)
    l_isz = _masked_l1(pred[:, IDX_LOGSIZE], reg[:, IDX_LOGSIZE], wi)
    l_off = _masked_l1(pred[:, IDX_TO_CARD], reg[:, IDX_TO_CARD], wi) + _masked_l1(
        pred[:, IDX_SUB], reg[:, IDX_SUB], wi
    )
    l_cgeo = (
        _masked_l1(pred[:, CARD_AXIS], reg[:, CARD_AXIS], wc)
        + _masked_l1(pred[:, CARD_LOGSIZE], reg[:, CARD_LOGSIZE], wc)
        + _masked_l1(pred[:, CARD_SUB], reg[:, CARD_SUB], wc)
    )
    bce = F.binary_cross_entropy_with_logits(pred[:, CARD_FULL], reg[:, CARD_FULL], reduction="none")
    l_full = (bce * wc).sum() / wc.sum().clamp(min=1.0)
    total = l_idx + l_card + 2.0 * l_up + l_isz + 2.0 * l_off + l_cgeo + 0.5 * l_full
    parts = {
        "idx": l_idx.item(),
        "card": l_card.item(),
        "up": l_up.item(),
        "isz": l_isz.item(),
        "off": l_off.item(),
        "cgeo": l_cgeo.item(),
        "full": l_full.item(),
    }
    return total, parts


def _to_tensor(images: NDArray[np.uint8]) -> torch.Tensor:
    x = torch.from_numpy(images).permute(0, 3, 1, 2).float() * (1.0 / 127.5) - 1.0
    return x.contiguous(memory_format=torch.channels_last)


def _augment_crops(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    n = x.shape[0]
    gain = torch.empty(n, 1, 1, 1).uniform_(0.7, 1.3, generator=gen)
    bias = torch.empty(n, 1, 1, 1).uniform_(-0.2, 0.2, generator=gen)
    chan = torch.empty(n, 3, 1, 1).uniform_(0.9, 1.1, generator=gen)
    return (x * gain * chan + bias).clamp(-1.5, 1.5)


def _lr_at(step: int, cfg: TrainConfig, elapsed_min: float) -> float:
    warm = min(100, cfg.steps // 10)
    if step < warm:
        return cfg.lr * (step + 1) / warm
    if cfg.minutes:
        p = elapsed_min / cfg.minutes
    else:
        p = (step - warm) / max(1, cfg.steps - warm)
    return cfg.lr * (0.03 + 0.97 * 0.5 * (1 + math.cos(math.pi * min(1.0, p))))


def _save(path: Path, state: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)


def train(
    cfg: TrainConfig, work: Path, out: Path | None, init: Path | None = None, log: Any = sys.stdout
) -> dict[str, Any]:
    """Runs (or resumes) training in ``work`` and exports to ``out``; returns the run summary."""
    torch.manual_seed(cfg.seed)
    random.seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    work.mkdir(parents=True, exist_ok=True)
    ckpt_path = work / "checkpoint.pt"
    det, cls = Detector(), Classifier()
    det = det.to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    cls = cls.to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    opt_d = torch.optim.AdamW(det.parameters(), lr=cfg.lr, weight_decay=1e-4)
    opt_c = torch.optim.AdamW(cls.parameters(), lr=cfg.lr, weight_decay=1e-4)
    step, scenes_seen, elapsed = 0, 0, 0.0
    if ckpt_path.exists():
        st = torch.load(ckpt_path, map_location="cpu", weights_only=False)
        det.load_state_dict(st["det"])
        cls.load_state_dict(st["cls"])
        opt_d.load_state_dict(st["opt_d"])
        opt_c.load_state_dict(st["opt_c"])
        step, scenes_seen, elapsed = st["step"], st["scenes_seen"], st["elapsed"]
        print(
            f"resumed from {ckpt_path} at step {step} ({scenes_seen} scenes, {elapsed / 60:.1f} min)",
            file=log,
        )
    elif init is not None:
        st = torch.load(init, map_location="cpu", weights_only=False)
        det.load_state_dict(st["det"])
        cls.load_state_dict(st["cls"])
        print(f"initialised from {init}", file=log)
    scene_cfg = replace(cfg.scene, width=cfg.canvas, height=cfg.canvas)
    # Scene seeds continue where a resumed run stopped, so no scene is trained on twice by accident.
    stream = SampleStream(scene_cfg, first_seed=cfg.seed * 10_000_000 + scenes_seen, workers=cfg.workers)
    buf: deque[Sample] = deque(maxlen=cfg.buffer)
    crop_buf: deque[tuple[NDArray[np.uint8], NDArray[np.int64]]] = deque(maxlen=max(8, cfg.buffer // 2))
    gen = torch.Generator().manual_seed(cfg.seed + step)
    rng = random.Random(cfg.seed + step)
    t_ckpt = time.monotonic()
    t_log = time.monotonic()
    run_start = time.monotonic() - elapsed
    hist: dict[str, float] = {}
    try:
        while step < cfg.steps and not (cfg.minutes and (time.monotonic() - run_start) / 60 >= cfg.minutes):
            while True:
                s = stream.get(block=len(buf) < min(cfg.batch, cfg.buffer), timeout=600)
                if s is None:
                    break
                buf.append(s)
                crop_buf.append((s.crops, s.crop_labels))
                scenes_seen += 1
                if len(buf) >= cfg.batch and stream.queue.empty():
                    break
            lr = _lr_at(step, cfg, (time.monotonic() - run_start) / 60)
            for g in opt_d.param_groups + opt_c.param_groups:
                g["lr"] = lr
            parts: dict[str, float] = {}
            if not cfg.classifier_only:
                batch = rng.sample(list(buf), cfg.batch)
                x = _to_tensor(np.stack([b.image for b in batch]))
                heat = torch.from_numpy(np.stack([b.heat for b in batch]).astype(np.float32))
                heat_w = torch.from_numpy(np.stack([b.heat_weight for b in batch]).astype(np.float32))
                reg = torch.from_numpy(np.stack([b.reg for b in batch]).astype(np.float32))
                reg_w = torch.from_numpy(np.stack([b.reg_weight for b in batch]).astype(np.float32))
                det.train()
                pred = det(x)
                loss_d, parts = detector_loss(pred, heat, heat_w, reg, reg_w)
                opt_d.zero_grad(set_to_none=True)
                loss_d.backward()  # type: ignore[no-untyped-call]
                torch.nn.utils.clip_grad_norm_(det.parameters(), 5.0)
                opt_d.step()
            if not cfg.detector_only:
                crops = np.concatenate([c for c, _ in crop_buf])
                labels = np.concatenate([lab for _, lab in crop_buf])
                pick = np.array(rng.sample(range(len(labels)), min(cfg.crops, len(labels))))
                xc = _augment_crops(_to_tensor(crops[pick]), gen)
                xc = xc.contiguous(memory_format=torch.channels_last)
                cls.train()
                loss_c = F.cross_entropy(cls(xc), torch.from_numpy(labels[pick]), label_smoothing=0.05)
                opt_c.zero_grad(set_to_none=True)
                loss_c.backward()  # type: ignore[no-untyped-call]
                opt_c.step()
                parts["cls"] = loss_c.item()
            step += 1
            for k, v in parts.items():
                hist[k] = 0.95 * hist.get(k, v) + 0.05 * v
            now = time.monotonic()
            if now - t_log > 30 or step == cfg.steps:
                # Progress every half minute: losses are running means over recent steps.
                t_log = now
                losses = " ".join(f"{k}={v:.3f}" for k, v in hist.items())
                print(
                    f"step {step}/{cfg.steps} lr={lr:.2e} scenes={scenes_seen} buf={len(buf)} "
                    f"t={(now - run_start) / 60:.1f}min {losses}",
                    file=log,
                    flush=True,
                )
            last = step == cfg.steps or bool(cfg.minutes and (now - run_start) / 60 >= cfg.minutes)
            if now - t_ckpt > cfg.checkpoint_minutes * 60 or last:
                t_ckpt = now
                _save(
                    ckpt_path,
                    {
                        "det": det.state_dict(),
                        "cls": cls.state_dict(),
                        "opt_d": opt_d.state_dict(),
                        "opt_c": opt_c.state_dict(),
                        "step": step,
                        "scenes_seen": scenes_seen,
                        "elapsed": now - run_start,
                        "config": cfg.to_json(),
                    },
                )
                print(f"checkpoint {ckpt_path} at step {step}", file=log, flush=True)
    finally:
        stream.close()
    summary = {
        "steps": step,
        "scenes_seen": scenes_seen,
        "minutes": round((time.monotonic() - run_start) / 60, 1),
        "config": cfg.to_json(),
        "final_losses": {k: round(v, 4) for k, v in hist.items()},
    }
    (work / "summary.json").write_text(json.dumps(summary, indent=2))
    if out is not None:
        from vision.training.export import export

        export(det, cls, out, summary)
        print(f"exported to {out}", file=log, flush=True)
    return summary


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.training.train", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=Path("models"), help="where to export the ONNX models")
    p.add_argument("--work", type=Path, default=DEFAULT_WORK, help="checkpoint folder (resumes from it)")
    p.add_argument("--steps", type=int, default=4000)
    p.add_argument("--minutes", type=float, default=None, help="time budget (LR schedule follows time)")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="scene-rendering processes")
    p.add_argument("--threads", type=int, default=2, help="torch threads")
    p.add_argument(
        "--init", type=Path, default=None, help="start from this checkpoint's weights (fine-tuning)"
    )
    p.add_argument(
        "--classifier-only",
        action="store_true",
        help="second stage: train only the classifier, keeping --init's detector",
    )
    p.add_argument(
        "--detector-only",
        action="store_true",
        help="train only the detector, keeping --init's classifier",
    )
    p.add_argument(
        "--hands",
        type=float,
        default=None,
        metavar="SHARE",
        help="share of scenes with arms and hands over the cards (default 0.35)",
    )
    p.add_argument(
        "--hands-on-cards",
        type=float,
        default=None,
        metavar="SHARE",
        help="share of those hands that hold a card by its near end (default 0)",
    )
    p.add_argument(
        "--amodal-under-hands",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="teach the centre of a card whose centre a hand hides when at least this share of it shows "
        "(default 0: never)",
    )
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--crops", type=int, default=128, help="classifier crops per step")
    p.add_argument(
        "--card-height",
        type=float,
        nargs=2,
        metavar=("LOW", "HIGH"),
        default=None,
        help="card heights in the 1280x720 scenes, pixels (default 55 160; a table filmed from "
        "1.4 m shows cards about 70 px tall)",
    )
    p.add_argument(
        "--loose-crops",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share of classifier crops cut as loosely as the detector places small indices (default 0)",
    )
    p.add_argument(
        "--card-motion",
        type=float,
        default=None,
        metavar="SHARE",
        help="share of cards drawn moving, each smeared 2-10 px along its own direction as by the camera's "
        "exposure (default 0)",
    )
    p.add_argument(
        "--typefaces",
        action="store_true",
        help="randomised designs also print in the installed typefaces (install_decks installs them)",
    )
    args = p.parse_args(argv)
    if not 0.0 <= args.loose_crops <= 1.0:
        p.error("--loose-crops needs a share between 0 and 1")
    if args.classifier_only and args.detector_only:
        p.error("--classifier-only and --detector-only leave nothing to train together")
    for name in ("hands", "hands_on_cards", "amodal_under_hands", "card_motion"):
        value = getattr(args, name)
        if value is not None and not 0.0 <= value <= 1.0:
            p.error(f"--{name.replace('_', '-')} needs a share between 0 and 1")
    if args.card_height is not None and not 10 <= args.card_height[0] < args.card_height[1]:
        p.error("--card-height needs 10 <= LOW < HIGH")
    cfg = TrainConfig(
        steps=args.steps,
        batch=args.batch,
        seed=args.seed,
        workers=args.workers,
        threads=args.threads,
        minutes=args.minutes,
        classifier_only=args.classifier_only,
        detector_only=args.detector_only,
        lr=args.lr,
        crops=args.crops,
    )
    if args.card_height is not None:
        cfg.scene = replace(cfg.scene, card_height=tuple(args.card_height))
    if args.loose_crops:
        cfg.scene = replace(cfg.scene, loose_crops=args.loose_crops)
    if args.typefaces:
        if not typeface_files():
            # Without fonts the run would silently train on the Hershey designs alone.
            p.error(
                "--typefaces: no usable typeface is installed; run `python -m vision.training.install_decks` "
                "as root first (it installs the font packages)"
            )
        cfg.scene = replace(cfg.scene, typefaces=True)
    if args.hands is not None:
        cfg.scene = replace(cfg.scene, hands=args.hands)
    if args.hands_on_cards is not None:
        cfg.scene = replace(cfg.scene, hands_on_cards=args.hands_on_cards)
    if args.amodal_under_hands:
        cfg.scene = replace(cfg.scene, amodal_under_hands=args.amodal_under_hands)
    if args.card_motion:
        cfg.scene = replace(cfg.scene, card_motion=args.card_motion)
    train(cfg, args.work, args.out, init=args.init)
    return 0


if __name__ == "__main__":
    sys.exit(main())
