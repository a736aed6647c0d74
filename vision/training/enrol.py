"""Deck enrolment: teach the recognizer an unusual deck from one photograph per card.

    python -m vision.training.enrol PHOTOS/ --out models/ [--steps 600]

``PHOTOS/`` holds one photograph per card, named by its token (``QS.jpg``,
``10H.png``, ``JOKER.jpg``, ``G-3.jpg``, ``HAZARD.jpg``; ``BACK.jpg`` for the
back). Each photograph is rectified to the card's outline and drawn into
synthetic table scenes (the same renderer as training: perspective, fans,
hands, glare, blur, noise, JPEG), mixed with scenes of the training decks so
the model does not forget them; the shipped weights
(``models/cards_weights.pt``) are fine-tuned on those scenes, exported
back to ``--out`` and quantized to the 8-bit networks the kiosk runs
(:mod:`vision.training.quantize`). Cards without a photograph keep their stand-in art. Needs
the ``train`` extra (PyTorch). See ``docs/deck-enrolment.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from vision.cardart import list_designs
from vision.cardart.designs import CardDesign
from vision.cardart.enrolled import enrolled_design, load_card_photo
from vision.training.quantize import quantize_model
from vision.training.scenes import SceneConfig
from vision.training.train import TrainConfig, train

__all__ = ["main", "enrol"]

WEIGHTS = "cards_weights.pt"


def enrol(
    photos: Path,
    out: Path,
    *,
    steps: int = 600,
    work: Path | None = None,
    base: Path | None = None,
    share: float = 0.6,
    threads: int = 2,
) -> dict[str, object]:
    """Fine-tunes the model in ``base`` (default: ``out``) on scenes made from ``photos``; exports to ``out``.

    Raises :class:`ValueError` naming the folder or file when the photographs cannot be used.
    """
    if not photos.is_dir():
        raise ValueError(f"{photos} is not a folder of card photographs")
    design = enrolled_design(photos, name=f"enrolled:{photos.name}")
    assert isinstance(design, CardDesign)
    for _token, path in design.photos:
        load_card_photo(Path(path))  # fails early, naming the file, if one cannot be read
    base = base or out
    weights = base / WEIGHTS
    if not weights.is_file():
        raise ValueError(
            f"{weights} is missing: enrolment fine-tunes the shipped weights; restore models/ "
            "or retrain with `python -m vision.training.train --out models/`"
        )
    others = list_designs(split="train")
    # Repeating the enrolled design sets its share of the scenes' card groups.
    n_rep = max(1, round(share / (1 - share) * len(others)))
    designs: tuple[CardDesign, ...] = (design,) * n_rep + tuple(others)
    scene = replace(SceneConfig(layouts=(2, 3, 3, 4, 5)), designs=designs, random_designs=0.0)
    cfg = TrainConfig(steps=steps, lr=5e-4, scene=scene, threads=threads, seed=7, checkpoint_minutes=5.0)
    work = work or out / ".enrol-work"
    summary = train(cfg, work, out, init=weights)
    summary["enrolled"] = {"folder": str(photos), "cards": [t for t, _ in design.photos]}
    # The kiosk runs the 8-bit networks (about 1.6x faster on one core): make them from the new ones.
    quantize_model(out)
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["training"]["enrolled"] = summary["enrolled"]
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    return summary


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.training.enrol", description=__doc__.split("\n\n")[0])
    p.add_argument("photos", type=Path, help="folder with one photograph per card, named by token (QS.jpg)")
    p.add_argument("--out", type=Path, default=Path("models"), help="model folder to update")
    p.add_argument("--steps", type=int, default=600, help="fine-tuning steps (about 2 s each on 2 cores)")
    p.add_argument("--work", type=Path, default=None, help="checkpoint folder (resumes from it)")
    args = p.parse_args(argv)
    try:
        enrol(args.photos, args.out, steps=args.steps, work=args.work)
    except ValueError as exc:
        print(f"enrol: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
