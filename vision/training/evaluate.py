"""Scoring the recognizer against labelled synthetic scenes (the benchmark's and the tests' yardstick).

A predicted card is matched to a labelled card when one of its corner boxes
sits on one of that card's visible indices, or, for a prediction without
corners, when its centre lies inside that card's outline and the card's own
centre shows. Matching is one to one, best evidence first.

Categories of labelled card (face up, unless said):

- **fully visible**: the whole outline shows (at least 97 % of the card);
- **corner-only**: the centre is covered but at least one index shows (fans, cascades);
- **present**: any card with a visible index, or a visible centre (face up or down);
  recall counts these;
- a **false card** is a prediction matched to no labelled card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vision.events import BACK, CardSighting
from vision.postprocess import quad_contains
from vision.training.scenes import CardLabel, Scene

__all__ = ["Tally", "score_scene"]


@dataclass(slots=True)
class Tally:
    """Counts over a set of scenes; :meth:`summary` turns them into rates."""

    full_total: int = 0
    full_correct: int = 0
    corner_total: int = 0
    corner_correct: int = 0
    back_total: int = 0
    back_correct: int = 0
    present: int = 0
    found: int = 0
    predictions: int = 0
    false_cards: int = 0
    unknown: int = 0
    misread: int = 0
    """Face-up cards matched to a prediction with a wrong identity (not UNKNOWN): the worst outcome."""
    identified: int = 0
    """Face-up cards matched to a prediction that names a face (right or wrong)."""
    confusions: dict[str, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        for k in (
            "full_total",
            "full_correct",
            "corner_total",
            "corner_correct",
            "back_total",
            "back_correct",
            "present",
            "found",
            "predictions",
            "false_cards",
            "unknown",
            "misread",
            "identified",
        ):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        for k, v in other.confusions.items():
            self.confusions[k] = self.confusions.get(k, 0) + v

    def summary(self) -> dict[str, Any]:
        def rate(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        top = sorted(self.confusions.items(), key=lambda kv: -kv[1])[:10]
        return {
            "fully_visible_correct": rate(self.full_correct, self.full_total),
            "fully_visible_n": self.full_total,
            "corner_only_correct": rate(self.corner_correct, self.corner_total),
            "corner_only_n": self.corner_total,
            "backs_correct": rate(self.back_correct, self.back_total),
            "backs_n": self.back_total,
            "recall": rate(self.found, self.present),
            "present_n": self.present,
            "false_card_rate": rate(self.false_cards, self.predictions),
            "predictions_n": self.predictions,
            "unknown_rate": rate(self.unknown, self.predictions),
            "misread_rate": rate(self.misread, self.identified),
            "top_confusions": [f"{k} x{v}" for k, v in top],
        }


def _present(c: CardLabel) -> bool:
    if c.token == BACK:
        return c.center_visible
    return bool(c.visible_indices()) or c.center_visible


def _evidence(pred: CardSighting, card: CardLabel) -> float:
    if card.token != BACK:
        hits = 0
        for x0, y0, x1, y1 in pred.corners:
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            for idx in card.indices:
                if idx.visible >= 0.5 and quad_contains([tuple(p) for p in idx.quad], cx, cy, margin=0.25):
                    hits += 1
                    break
        if hits:
            return 2.0 + hits
    if card.center_visible:
        px, py = pred.center
        if quad_contains([tuple(p) for p in card.quad], px, py):
            return 1.0
    return 0.0


def score_scene(scene: Scene, preds: list[CardSighting]) -> Tally:
    """Matches predictions to the scene's labelled cards and counts the outcomes."""
    t = Tally()
    cards = [c for c in scene.cards if _present(c)]
    pairs = []
    for i, p in enumerate(preds):
        for j, c in enumerate(cards):
            e = _evidence(p, c)
            if e > 0:
                pairs.append((e, i, j))
    pairs.sort(key=lambda x: -x[0])
    used_p: set[int] = set()
    match: dict[int, int] = {}
    for _, i, j in pairs:
        if i in used_p or j in match:
            continue
        used_p.add(i)
        match[j] = i
    t.predictions = len(preds)
    t.false_cards = len(preds) - len(used_p)
    t.unknown = sum(1 for p in preds if p.card == "UNKNOWN")
    t.present = len(cards)
    t.found = len(match)
    for j, c in enumerate(cards):
        got = preds[match[j]].card if j in match else None
        if got is not None and c.token != BACK and got not in ("UNKNOWN", BACK):
            t.identified += 1
            t.misread += got != c.token
        if c.token == BACK:
            t.back_total += 1
            t.back_correct += got == BACK
            continue
        if c.fully_visible:
            t.full_total += 1
            t.full_correct += got == c.token
        elif not c.center_visible and c.visible_indices():
            t.corner_total += 1
            t.corner_correct += got == c.token
        else:
            continue
        if got != c.token:
            key = f"{c.token}->{got or 'missed'}"
            t.confusions[key] = t.confusions.get(key, 0) + 1
    return t
