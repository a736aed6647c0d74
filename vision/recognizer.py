"""The card recognizer: one camera frame in, one :class:`~vision.events.CardSighting` per card out.

Pipeline (ibaiGorordo's prepare / infer / process split, RapidOCR's layering):
:mod:`vision.preprocess` shrinks the frame for the detector, the detector
(:mod:`vision.session`) finds corner indices and card centres, the classifier
reads each index from the full-resolution frame, and :mod:`vision.postprocess`
joins the indices of each physical card and votes on its identity. A card whose
combined confidence is below the threshold is reported as ``"UNKNOWN"``, never
guessed; a face-down card is ``"BACK"``.

>>> rec = Recognizer.load()                                   # the shipped model under models/
>>> rec.recognize(np.full((720, 1280, 3), 90, np.uint8))      # an empty table
[]
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.closer_look import Corner, closer_scale, corner_of, indices_on, tiles
from vision.closeup import CLOSEUP_SIDES, shrunk, vote
from vision.errors import ModelError
from vision.events import BACK, UNKNOWN, CardSighting
from vision.heads import CLASSIFIER_LABELS, NOT_INDEX
from vision.postprocess import CardDet, Group, IndexDet, decode_cards, decode_indices, group, softmax
from vision.preprocess import CropSpec, IndexPlace, detector_input, detector_scale, index_crops, normalise
from vision.session import RESTORE_HINT, OnnxSession

__all__ = [
    "Recognizer",
    "Thresholds",
    "DEFAULT_MODEL_DIR",
    "VIDEO_MODEL_DIR",
    "MANIFEST",
    "CLOSER_CARDS",
    "VIDEO_CLOSER_EVERY",
]

DEFAULT_MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
"""The shipped model; ``KIOSK_MODEL_DIR`` overrides it."""
VIDEO_MODEL_DIR = DEFAULT_MODEL_DIR / "video"
"""The shipped model for a video of the table from the kiosk's height (:meth:`Recognizer.load_for_video`):
the one above fine-tuned on smaller cards. It reads the camera's 60-px cards better (through the tracker,
more plays and moves found, seat scores nearer the truth) and photographs of larger cards a little worse,
so stills keep the general model (``models/MODEL_CARD.md``)."""
MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Decision thresholds (probabilities)."""

    index: float = 0.3
    """Minimum detector heat for a corner index."""
    card: float = 0.4
    """Minimum detector heat for a card centre."""
    unknown_below: float = 0.6
    """A card whose identity is less certain than this is reported as ``"UNKNOWN"``."""
    not_index: float = 0.5
    """An index crop the classifier calls "not an index" with at least this probability is dropped."""
    full_outline: float = 0.5
    """Minimum probability that a card's whole outline shows for its ``quad`` to be reported."""
    unread_loose: float = 0.0
    """A card seen only as corner indices (no centre) whose reading names no face with at least this
    probability is not reported: ink the classifier cannot read at all is rarely a card (0: report
    every one, as ``UNKNOWN``)."""


DEFAULT_THRESHOLDS = Thresholds()

ALTERNATIVES = 3
"""How many likeliest faces each sighting read from indices carries (:attr:`CardSighting.alternatives`)."""
CLOSEUP_CARD = 0.35
"""A card longer than this fraction of the frame's short side is a close-up, not a card on a table."""
COARSE_CARD = 60.0
"""Cards photographed from close by (a phone photo of a hand: 160-400 px long in a 1280×720 frame)
are larger than any the detector was trained on (27-80 px long in its input), and it reads many of
them wrong or not at all. A frame whose face-up cards the first look found longer than this
(median, in detector-input pixels), or where it found indices or backs but no face-up card, is
looked at again at half the scale (and again while they still look too large, as in a
high-resolution photo), and the look that names most cards is kept. On 100 held-out
scenes with cards 160-430 px long (``python bench/bench_recognizer.py --scenes 100 --card-height 160
430``) fully visible cards read right rose from 91 % to 99 %, corner-only from 45 % to 66 %, recall
from 72 % to 83 %, and false cards fell from 10.6 % to 7.1 % (with the close-up looks of
:mod:`vision.closeup`). A table seen from the kiosk's height (cards about 63 px) never takes it
while the first look finds a face-up card there; a frame of backs or indices alone takes it."""
COARSE_MIN_SIDE = 160
"""The coarse looks go no lower than this detector long side (the last may be at it): a card that
still looks too large there fills much of the frame and is a close-up (:mod:`vision.closeup`)."""
CLOSER_CARDS = 16
"""At most this many small face-up cards found without a sure reading get a closer look per frame
(:mod:`vision.closer_look`), the strongest first: bounds the time a crowded frame takes."""
VIDEO_CLOSER_EVERY = 0
"""Video leaves the closer look off (0: never; n: on one frame in n). A card at rest is seen again
and again and the tracker votes over frames: on two simulated Nerts hands the closer look on one
frame in four found no more foundation plays (23 of 43 either way) for about 2.5 ms more a frame,
which a 60 fps camera's 16.7 ms cannot spare on one core. Nor did a look at two unsure cards on every
frame, shared out so that each card is looked at every few frames (about 1 ms a frame): on 13 held-out
hands it found 2 more of 310 plays and 22 more of 435 work-pile moves, but made 22 false events
against 10 (general model); with the video model, 258 plays against 257, 191 moves against 180,
seat scores 70 points off the truth against 83, but 17 false events against 13, over the one a hand
that the issue allows. Stills (``kiosk recognize``) take it."""


def _manifest_thresholds(manifest: dict[str, Any], path: Path) -> Thresholds:
    """The thresholds tuned for this model (``manifest["thresholds"]``), over the defaults."""
    given = manifest.get("thresholds", {})
    names = {f.name for f in fields(Thresholds)}
    if not isinstance(given, dict) or not all(
        k in names and isinstance(v, (int, float)) and not isinstance(v, bool) and 0.0 <= v <= 1.0
        for k, v in given.items()
    ):
        raise ModelError(
            f"model manifest {path} has invalid thresholds {given!r} (expected probabilities named "
            f"{sorted(names)}); {RESTORE_HINT}"
        )
    return Thresholds(**{k: float(v) for k, v in given.items()})


def _read_manifest(model_dir: Path) -> dict[str, Any]:
    path = model_dir / MANIFEST
    if not path.is_file():
        raise ModelError(f"model manifest {path} is missing; {RESTORE_HINT}")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        for part in ("detector", "classifier"):
            entry = manifest[part]
            if not isinstance(entry["file"], str) or not isinstance(entry["sha256"], str):
                raise TypeError(f"{part}.file and {part}.sha256 must be strings")
        if not isinstance(manifest["classifier"]["labels"], list):
            raise TypeError("classifier.labels must be a list")
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"model manifest {path} is not valid ({exc}); {RESTORE_HINT}") from exc
    return dict(manifest)


class Recognizer:
    """Finds and identifies the cards in camera frames. Load once, call :meth:`recognize` per frame."""

    def __init__(
        self,
        detector: OnnxSession,
        classifier: OnnxSession,
        labels: list[str] | tuple[str, ...] = CLASSIFIER_LABELS,
        thresholds: Thresholds = DEFAULT_THRESHOLDS,
    ) -> None:
        if not labels or labels[-1] != NOT_INDEX:
            raise ModelError(f"classifier labels must end with {NOT_INDEX!r}; got {list(labels)[-3:]}")
        self.detector = detector
        self.classifier = classifier
        self.labels = list(labels)
        self.thresholds = thresholds
        self.model_dir: Path | None = None
        self.faces: frozenset[str] | None = None
        """The faces it may name (:meth:`only`); ``None``: every face it knows."""
        self._face_mask: NDArray[np.float32] | None = None
        self.closer_cards = CLOSER_CARDS
        """Small face-up cards per frame that get a closer look when the detector found no sure
        index on them (0: none; :mod:`vision.closer_look`)."""
        self.closer_every = 1
        """Take the closer look on one frame in this many; 0: never (:data:`VIDEO_CLOSER_EVERY`)."""
        self.detector_side: int | None = None
        """The detector's long side for the first look at a frame; ``None``: half the frame's
        (:data:`~vision.preprocess.DETECTOR_SCALE`), the scale it was trained for and the one the
        shipped figures are measured at. A finer look (960 for a 1280×720 frame) finds more of a far
        table's small cards for about twice the time (``--detector-side`` of the benchmarks)."""
        self._frames = 0

    def only(self, faces: Collection[str] | None) -> Recognizer:
        """This recognizer (same loaded model), naming only ``faces``: the deck of the game in play
        (:func:`vision.game_faces.game_faces`). ``None`` names every face again.

        Each index's reading is renormalised over those faces, as a prior that says no other card is
        on the table: a standard seven is no longer read as the Gnoming 7. Raises
        :class:`ValueError` for a face the model does not know, or an empty set.
        """
        rec = copy.copy(self)
        if faces is None:
            rec.faces, rec._face_mask = None, None
            return rec
        wanted = frozenset(faces)
        unknown = sorted(wanted - set(self.labels[:-1]))
        if unknown or not wanted:
            raise ValueError(
                f"cannot restrict the recognizer to {sorted(wanted)}: "
                + (f"the model does not know {unknown}" if unknown else "no faces given")
            )
        rec.faces = wanted
        rec._face_mask = np.array([label in wanted for label in self.labels[:-1]], np.float32)
        return rec

    @classmethod
    def load_for_video(cls, model_dir: str | Path | None = None, *, threads: int = 1) -> Recognizer:
        """The recognizer that reads a camera's frames: ``model_dir`` when given, else ``KIOSK_MODEL_DIR``
        when set (a deck enrolled by the user), else the shipped video model (:data:`VIDEO_MODEL_DIR`),
        or the general one where that folder is absent. Raises :class:`~vision.errors.ModelError` as
        :meth:`load` does."""
        shipped = model_dir is None and "KIOSK_MODEL_DIR" not in os.environ
        if shipped and (VIDEO_MODEL_DIR / MANIFEST).exists():
            model_dir = VIDEO_MODEL_DIR
        return cls.load(model_dir, threads=threads)

    @classmethod
    def load(
        cls,
        model_dir: str | Path | None = None,
        *,
        threads: int = 1,
        thresholds: Thresholds | None = None,
    ) -> Recognizer:
        """Loads the model in ``model_dir`` (default: the shipped one), checking every file's sha256.

        ``model_dir`` may also name the folder's ``manifest.json`` itself. ``thresholds`` default to the
        ones tuned for the model and recorded in its manifest.

        Raises :class:`~vision.errors.ModelError` naming the file when anything is missing or corrupt.
        """
        folder = (
            Path(model_dir)
            if model_dir is not None
            else Path(os.environ.get("KIOSK_MODEL_DIR", DEFAULT_MODEL_DIR))
        )
        if folder.name == "manifest.json" and folder.is_file():
            folder = folder.parent  # the manifest names the model's files relative to its folder
        manifest = _read_manifest(folder)
        # onnxruntime's layout passes wrap the 8-bit detector's convolutions in transposes of its
        # large feature maps: 0.5 ms a frame more on one core (6.7 against 6.2 ms at 1280×720),
        # while they make the classifier faster (4.3 against 6.7 ms for 60 crops). The outputs are
        # bit for bit the same either way (tests/vision/test_session_layout.py).
        det = OnnxSession(
            folder / manifest["detector"]["file"],
            sha256=manifest["detector"]["sha256"],
            threads=threads,
            layout=False,
        )
        clf = OnnxSession(
            folder / manifest["classifier"]["file"], sha256=manifest["classifier"]["sha256"], threads=threads
        )
        if thresholds is None:
            thresholds = _manifest_thresholds(manifest, folder / MANIFEST)
        rec = cls(det, clf, manifest["classifier"]["labels"], thresholds)
        rec.model_dir = folder
        return rec

    def _detect(
        self, image: NDArray[np.uint8], long_side: int | None, small: NDArray[np.uint8] | None = None
    ) -> tuple[list[CardDet], list[IndexDet]]:
        """Card centres and corner indices in full-frame pixels. ``small``, a shrunk copy of
        ``image``, is resized from instead (several small looks at one frame share its cost)."""
        x, scale = detector_input(image if small is None else small, long_side)
        if small is not None:
            scale *= max(small.shape[:2]) / max(image.shape[:2])
        maps = self.detector.run(x)
        if maps.ndim != 4 or maps.shape[1] < 18:
            raise ModelError(f"the detector returned maps of shape {maps.shape}; expected 1×18×H×W")
        h, w = image.shape[:2]
        cards = [
            c for c in decode_cards(maps[0], scale, self.thresholds.card) if 0 <= c.cx < w and 0 <= c.cy < h
        ]
        idx = [
            i
            for i in decode_indices(maps[0], scale, self.thresholds.index)
            if 0 <= i.cx < w and 0 <= i.cy < h
        ]
        return cards, idx

    def _classify(self, image: NDArray[np.uint8], idx: list[IndexDet]) -> NDArray[np.float32]:
        # The detections themselves say where to cut (an IndexPlace each): a CropSpec copy of each
        # cost about 1 us, some 60 a frame.
        return self._classify_specs(image, idx)

    def _classify_specs(self, image: NDArray[np.uint8], specs: Sequence[IndexPlace]) -> NDArray[np.float32]:
        if not specs:
            return np.zeros((0, len(self.labels)), np.float32)
        logits = self.classifier.run(normalise(index_crops(image, specs)))
        if logits.ndim != 2 or logits.shape[1] != len(self.labels):
            raise ModelError(
                f"the classifier returned {logits.shape}; the manifest lists {len(self.labels)} labels"
            )
        return softmax(logits)

    def recognize(self, image_bgr: NDArray[np.uint8]) -> list[CardSighting]:
        """Returns one sighting per physical card in a BGR frame (H×W×3 uint8), top to bottom.

        Raises :class:`ValueError` for an array that is not such an image.
        """
        image = np.ascontiguousarray(image_bgr)
        self._frames += 1
        cards, idx = self._detect(image, self.detector_side)
        found = self._assemble(image, cards, idx)
        seen, seen_idx, side = cards, idx, self.detector_side
        # Halved again while the cards still look too large (a high-resolution photo of large cards).
        while (side := self.coarse_look(image.shape[:2], seen, seen_idx, side)) is not None:
            seen, seen_idx = self._detect(image, side)
            again = self._assemble(image, seen, seen_idx)
            if _strength(again) > _strength(found):
                found = again
        sides = self.second_look(image.shape[:2], cards, found)
        if sides:
            small = shrunk(image, 2 * max(sides))
            looks = [self._assemble(image, *self._detect(image, side, small)) for side in sides]
            best = max(looks, key=_strength)
            # Several faces named at one scale: large cards, several of them (a photo of a hand),
            # not one close-up. So are several backs the first look found, none too large for a
            # table (face-down cards, perhaps photographed from close by): the vote, one entry per
            # face, would make them one. The look that names more is kept.
            backs = sum(1 for s in found if s.card == BACK) >= 2 and not _closeup(image.shape, cards)
            if backs or len({s.card for s in best if _named(s)}) >= 2:
                # With backs, they count as named faces do: one face a smaller look reads in their
                # pattern must not replace them all.
                if _strength(best, backs=backs) > _strength(found, backs=backs):
                    found = best
            else:
                # The first look saw a card out of the detector's range, or named nothing: what
                # the shrunk frame's looks agree on, a face or a back, replaces it.
                found = vote(looks) or found
        return found

    @staticmethod
    def coarse_look(
        shape: tuple[int, ...], cards: list[CardDet], indices: list[IndexDet], side: int | None = None
    ) -> int | None:
        """The detector's long side for a look at half the scale of the last one (at ``side``;
        ``None``: the first look), or ``None`` for no such look, given what the last look found:
        face-up cards larger than a table's (:data:`COARSE_CARD`), or indices and backs but no
        face-up card at all (the detector finds a card on a table by its centre unless it is
        covered, but misses the centre of a card far larger than it was trained on). Never below
        :data:`COARSE_MIN_SIDE`."""
        h, w = shape[:2]
        scale = detector_scale(h, w) if side is None else side / max(h, w)
        up = [c.long for c in cards if not c.back]
        if up and float(np.median(up)) * scale <= COARSE_CARD:
            return None
        if not up and not indices and not cards:
            return None
        half = round(max(h, w) * scale / 2)
        return half if half >= COARSE_MIN_SIDE else None

    @staticmethod
    def second_look(
        shape: tuple[int, ...], cards: list[CardDet], found: list[CardSighting]
    ) -> tuple[int, ...]:
        """The detector's long sides for a second look at a frame of ``shape`` (empty: no second
        look), given the cards the first look at full scale found and the best reading so far
        (``found``: the first look's, or a coarse look's that named more): a card larger than any on a
        table seen from above, or nothing named at all, is perhaps a close-up (:mod:`vision.closeup`)."""
        h, w = shape[:2]
        if max(h, w) < 640 or (not _closeup(shape, cards) and any(_named(s) for s in found)):
            return ()
        return CLOSEUP_SIDES

    def _assemble(
        self, image: NDArray[np.uint8], cards: list[CardDet], idx: list[IndexDet]
    ) -> list[CardSighting]:
        t = self.thresholds
        probs = self._classify(image, idx)
        keep: list[int] = np.flatnonzero(probs[:, -1] < t.not_index).tolist()
        idx = [idx[k] for k in keep]
        face = self._faces(probs[keep])
        labels = face.argmax(axis=1) if len(face) else np.zeros(0, np.int64)
        h, w = image.shape[:2]
        groups = group(cards, idx, labels)
        closer = {}
        if self.closer_cards and self.closer_every and self._frames % self.closer_every == 0:
            closer = self._look_closer(image, groups, idx, face)
        identity = _identities(
            face, [(g.indices, [row for _, row in closer.get(n, [])]) for n, g in enumerate(groups)]
        )
        # Each card's most likely face and its probability, for all cards at once.
        bests: list[int] = identity.argmax(axis=1).tolist()
        scores: list[float] = identity[np.arange(len(bests)), bests].tolist()
        # And the likeliest few, for the tracker (CardSighting.alternatives).
        top = np.argsort(-identity, axis=1)[:, :ALTERNATIVES]
        top_faces: list[list[int]] = top.tolist()
        top_probs: list[list[float]] = np.take_along_axis(identity, top, axis=1).tolist()
        out: list[CardSighting] = []
        for n, g in enumerate(groups):
            extra = closer.get(n, [])
            corners = tuple(_clip(idx[k].box(), w, h) for k in g.indices) + tuple(
                _clip(_spec_box(spec), w, h) for spec, _ in extra
            )
            quad = None
            if g.card is not None:
                q = g.card.quad()
                (ax, ay), (bx, by), (cx, cy), (dx, dy) = q
                box = _clip(
                    (min(ax, bx, cx, dx), min(ay, by, cy, dy), max(ax, bx, cx, dx), max(ay, by, cy, dy)), w, h
                )
                if g.card.full >= t.full_outline:
                    quad = tuple((float(x), float(y)) for x, y in q)
            else:
                box = (
                    min(c[0] for c in corners),
                    min(c[1] for c in corners),
                    max(c[2] for c in corners),
                    max(c[3] for c in corners),
                )
            if g.card is not None and g.card.back and not g.indices:
                out.append(CardSighting(BACK, g.card.score, box, quad, ()))
                continue
            alternatives: tuple[tuple[str, float], ...] = ()
            if g.indices or extra:
                score = scores[n]
                name = self.labels[bests[n]] if score >= t.unknown_below else UNKNOWN
                alternatives = tuple(
                    (self.labels[k], p) for k, p in zip(top_faces[n], top_probs[n], strict=True)
                )
            else:
                assert g.card is not None
                score, name = g.card.score, UNKNOWN
            if g.card is None and name == UNKNOWN and score < t.unread_loose:
                continue
            out.append(CardSighting(name, score, box, quad, corners, alternatives))
        out.sort(key=lambda s: (round(s.center[1] / 20), s.center[0]))
        return out

    def _faces(self, probs: NDArray[np.float32]) -> NDArray[np.float32]:
        """The classifier's face probabilities (its "not an index" column dropped), renormalised
        over the faces the game's deck holds."""
        face = probs[:, :-1] if self._face_mask is None else probs[:, :-1] * self._face_mask
        out: NDArray[np.float32] = face / np.maximum(face.sum(axis=1, keepdims=True), 1e-9)
        return out

    def _look_closer(
        self, image: NDArray[np.uint8], groups: list[Group], idx: list[IndexDet], face: NDArray[np.float32]
    ) -> dict[int, list[tuple[CropSpec, NDArray[np.float32]]]]:
        """Looks again, at a larger scale, at small face-up cards found without a sure reading
        (:mod:`vision.closer_look`). Returns, for each such group, the crops of the indices found
        on its card in corners it had none in, with their face probabilities."""
        t = self.thresholds
        todo: list[tuple[int, CardDet, set[Corner]]] = []
        for n, g in enumerate(groups):
            c = g.card
            if c is None or c.back or closer_scale(c.long) is None:
                continue
            if g.indices and float(_combine([face[k] for k in g.indices]).max()) >= t.unknown_below:
                continue
            todo.append((n, c, {corner_of(c, idx[k].cx, idx[k].cy) for k in g.indices}))
        # Bounded work per frame: the strongest card centres first.
        todo = sorted(todo, key=lambda job: -job[1].score)[: self.closer_cards]
        if not todo:
            return {}
        h, w = image.shape[:2]
        found: list[IndexDet] = []
        for tile in tiles([c for _, c, _ in todo], w, h):
            x0, y0, x1, y1 = tile.box
            x, scale = detector_input(np.ascontiguousarray(image[y0:y1, x0:x1]), tile.long_side)
            for i in decode_indices(self.detector.run(x)[0], scale, t.index):
                i.cx, i.cy, i.card_cx, i.card_cy = i.cx + x0, i.cy + y0, i.card_cx + x0, i.card_cy + y0
                found.append(i)
        jobs: list[tuple[int, Corner, IndexDet]] = []
        for n, c, have in todo:
            for i in indices_on(c, found):
                corner = corner_of(c, i.cx, i.cy)
                if corner not in have:
                    jobs.append((n, corner, i))
        specs = [CropSpec(i.cx, i.cy, i.up_x, i.up_y, i.width, i.height) for _, _, i in jobs]
        probs = self._classify_specs(image, specs)
        faces = self._faces(probs)
        # Two peaks on one index are one reading, not two independent ones: they are averaged.
        per_corner: dict[tuple[int, Corner], list[int]] = {}
        for k, (n, corner, _) in enumerate(jobs):
            if probs[k, -1] < t.not_index:
                per_corner.setdefault((n, corner), []).append(k)
        out: dict[int, list[tuple[CropSpec, NDArray[np.float32]]]] = {}
        for (n, _), ks in per_corner.items():
            top = max(ks, key=lambda k: jobs[k][2].score)
            out.setdefault(n, []).append((specs[top], faces[ks].mean(axis=0)))
        return out


def _combine(readings: list[NDArray[np.float32]]) -> NDArray[np.float32]:
    """One identity from independent readings of one card's indices: their log-probabilities add."""
    logp = np.log(np.stack(readings) + 1e-6).sum(axis=0)
    return softmax(logp.astype(np.float32))


def _identities(
    face: NDArray[np.float32], cards: list[tuple[list[int], list[NDArray[np.float32]]]]
) -> NDArray[np.float32]:
    """:func:`_combine` for every card at once (one row per card: the rows of ``face`` it has, and
    extra readings), as a whole frame's cards cost a millisecond one at a time. A card without
    readings gets a row of zeros."""
    logface = np.log(face + 1e-6)
    logp = np.zeros((len(cards), face.shape[1]), np.float32)
    # Cards read by the first look alone (all of them with the closer look off): their first rows,
    # then their second rows added, and so on, as a sum over axis 0 adds them (np.add.reduceat
    # does not: it pairs them differently), so the same floats for a frame's cards in a few calls.
    plain = [rows for rows, extra in cards if rows and not extra]
    where = [n for n, (rows, extra) in enumerate(cards) if rows and not extra]
    for depth in range(max(map(len, plain), default=0)):
        deep = [k for k, rows in enumerate(plain) if len(rows) > depth]
        layer = logface[[plain[k][depth] for k in deep]]
        if depth == 0:
            logp[where] = layer
        else:
            logp[[where[k] for k in deep]] += layer
    for n, (rows, extra) in enumerate(cards):
        if extra:
            logp[n] = np.concatenate([logface[rows], np.log(np.stack(extra) + 1e-6)]).sum(axis=0)
    out = softmax(logp)
    out[[not rows and not extra for rows, extra in cards]] = 0.0
    return out


def _spec_box(spec: CropSpec) -> tuple[float, float, float, float]:
    """The axis-aligned box of the index a crop was cut around."""
    s = spec
    return IndexDet(s.cx, s.cy, s.up_x, s.up_y, s.width, s.height, s.cx, s.cy, 0.0).box()


def _strength(found: list[CardSighting], backs: bool = False) -> tuple[int, float]:
    """How convincing a reading of a frame is: named cards (and backs too, with ``backs``) first,
    then the named cards' total confidence."""
    sure = sum(1 for s in found if _named(s) or (backs and s.card == BACK))
    return (sure, sum(s.score for s in found if _named(s)))


def _closeup(shape: tuple[int, ...], cards: list[CardDet]) -> bool:
    """Whether the first look found a card too large for a table seen from above."""
    return max((c.long for c in cards), default=0.0) > CLOSEUP_CARD * min(shape[:2])


def _named(s: CardSighting) -> bool:
    return s.card not in (UNKNOWN, BACK)


def _clip(b: tuple[float, float, float, float], w: int, h: int) -> tuple[float, float, float, float]:
    """``(min(max(b[0], 0.0), w), min(max(b[1], 0.0), h), ...)``: the same values (``max`` keeps its
    first argument unless the second is larger, ``min`` unless it is smaller), without the calls."""
    x0, y0, x1, y1 = b
    x0 = 0.0 if 0.0 > x0 else x0
    y0 = 0.0 if 0.0 > y0 else y0
    x1 = 0.0 if 0.0 > x1 else x1
    y1 = 0.0 if 0.0 > y1 else y1
    return (w if w < x0 else x0, h if h < y0 else y0, w if w < x1 else x1, h if h < y1 else y1)
