"""The embedded default: a simulated Nerts table, filmed, recognised, tracked, refereed.

Bots play a hand of Nerts on the simulator's table (:mod:`vision.simulator.nerts`);
the simulator renders what the overhead camera would film, frame by frame; the
camera thread calibrates on the mat's markers (:func:`vision.calibration.calibrate`),
reads each frame through the card recognizer (:class:`vision.recognizer.Recognizer`)
and the tracker (:class:`vision.nerts_tracker.NertsTracker`), and puts the table events
on the app's queue, where they are logged and refereed like a real camera's.

What a camera cannot see comes from the bots' buttons, as at a real table: the
"Go", stuck declarations, the "Nerts!" call and the end of the hand. The end-of-hand
audit is filmed (rules §12, :mod:`vision.simulator.audit`): once the hand is over the
table is cleared, each seat spreads its foundation cards face down, then its Nerts
cards, and the camera counts them (:class:`vision.audit.AuditWatcher`); the end of
the hand is pressed after it. A press goes into the log just before the first tracked event that
happened after it, or :data:`BUTTON_DELAY_NS` after its time at the latest (the
tracker reports a landing a while after it, once the hand has left the card), so
the log stays in time order.

When the recognizer's model is not installed, the simulator's own sightings (what
a perfect recognizer would report) stand in for it, and the kiosk says so.

The table's clock runs at the pace frames can be rendered, never faster than real
time: on a slow machine the hand plays in slow motion, with every time exact.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from kiosk.games.referee import LogHeader, TableEvent

__all__ = ["SimulatedTable", "SimulatedGame", "BUTTON_EVENTS", "BUTTON_DELAY_NS", "load_recognizer"]

log = logging.getLogger(__name__)

BUTTON_EVENTS = frozenset({"hand_start", "stuck", "call", "count", "hand_end"})
"""Events a camera does not make: they come from the seats' buttons (the end-of-hand counts too, when the
table is read with the simulator's own sightings: the filmed audit needs the recognizer)."""
HAND_END_AFTER_NS = 300_000_000
"""From the audit's end to the press that ends the hand."""
BUTTON_DELAY_NS = 2_500_000_000
"""How long a button event waits behind the frames: the tracker reports a landing once the hand
that carried the card has left it, up to about 1.5 s later, and every landing before a button
press must reach the log before the press does."""


class SimulatedTable:
    """One simulated hand as a frame source and a pipeline for :class:`kiosk.app.camera.CameraWorker`.

    ``base_ns`` maps the table's time onto the host's monotonic clock (the app's
    session origin), so the events the pipeline emits carry monotonic times.
    """

    def __init__(
        self,
        seed: int,
        *,
        seats: Sequence[str] = ("Ana", "Ben", "Cal", "Dee"),
        size: tuple[int, int] = (1280, 720),
        fps: float = 20.0,
        pace: float = 1.0,
        recognizer: Any = None,
        offset_ns: int = 0,
        clock: Callable[[], int] = time.monotonic_ns,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        from vision.simulator.camera import CameraModel
        from vision.simulator.nerts import ground_truth_log, simulate_nerts
        from vision.simulator.render import TableRenderer

        self.name = "simulated table"
        self.sim = simulate_nerts(seed, seats=list(seats))
        self.header, truth = ground_truth_log(self.sim)
        self.header = LogHeader(
            self.header.game,
            self.header.seats,
            dict(self.header.options),
            meta={"source": "simulator", "seed": seed},
        )
        # A kiosk is not told the deal: the hand is refereed at camera level, as a real one is.
        self.buttons = [
            TableEvent(e.type, e.t_ns, e.err_ns, e.seat, {k: v for k, v in e.data.items() if k != "deal"})
            for e in truth
            if e.type in BUTTON_EVENTS
        ]
        self.renderer = TableRenderer(CameraModel(width=size[0], height=size[1], fps=fps))
        self.recognizer = recognizer
        self.audit: Any = None
        """The filmed end-of-hand audit (:class:`vision.simulator.audit.AuditFilm`), or None when the
        table is read with the simulator's own sightings (the counts are then pressed)."""
        if recognizer is not None:
            self._film_audit(truth, seed)
        self._watcher: Any = None
        self._auditing = False
        self.piles: dict[str, str] = {}
        """Foundation piles already logged when a hand in play is carried on (id -> top card): the
        tracker continues them instead of numbering new piles from F1 again."""
        self.pace = pace
        self.base_ns = 0
        """The monotonic time at which the session's clock reads zero."""
        self.offset_ns = offset_ns
        """Where this hand's own time zero lies on the session's clock (later hands start later)."""
        self.clock = clock
        self.sleep = sleep
        self._frames: Iterator[Any] | None = None
        self._timings: dict[int, Any] = {}
        self._tracker: Any = None
        self._next_button = 0
        self._start_ns = 0
        self.finished = False
        """True once every frame and button event has been handed out."""
        self.note = ""
        """What the kiosk should say about this table (e.g. that no recognizer model is installed)."""

    def _film_audit(self, truth: Sequence[TableEvent], seed: int) -> None:
        """Films the audit after the hand: the counts it shows are the refereed hand's; the count
        buttons go, and the end of the hand is pressed once the audit is over."""
        import random

        from vision.simulator.audit import AUDIT_AFTER_NS, AuditFilm, audit_counts
        from vision.simulator.nerts import ground_truth_log

        header, _ = ground_truth_log(self.sim)
        counts = audit_counts(header, truth)
        start = self.sim.scene.end_ns + AUDIT_AFTER_NS
        self.audit = AuditFilm(self.sim.layout, self.sim.designs, counts, start, random.Random(seed))
        end = self.audit.end_ns + HAND_END_AFTER_NS
        self.buttons = [
            TableEvent(e.type, end, e.err_ns, e.seat, e.data) if e.type == "hand_end" else e
            for e in self.buttons
            if e.type != "count"
        ]

    @property
    def end_ns(self) -> int:
        """When the table has shown all it will (the hand, its audit, the last press's delay)."""
        last = self.buttons[-1].t_ns if self.buttons else 0
        return max(self.sim.scene.end_ns, last) + 2 * BUTTON_DELAY_NS

    @property
    def uses_recognizer(self) -> bool:
        return self.recognizer is not None

    def resume_from(self, t_ns: int) -> None:
        """Carries on a hand already logged up to table time ``t_ns`` (after a crash): the camera
        starts filming there, and the buttons already pressed are not pressed again."""
        self._start_ns = max(0, t_ns)
        while self._next_button < len(self.buttons) and self.buttons[self._next_button].t_ns <= t_ns:
            self._next_button += 1

    # -- the frame source ------------------------------------------------------------------
    def open(self) -> None:
        if self._frames is None:
            self._frames = self._generate()

    def _generate(self) -> Iterator[Any]:
        import random

        scene = self.sim.scene
        scene.reset()
        start = self.clock()
        for timing in self.renderer.camera.timings(start_ns=self._start_ns, rng=random.Random(1)):
            if timing.t_ns > self.end_ns:
                return
            if self.audit is not None and timing.t_ns >= self.audit.start_ns:
                frame = self.audit.render(self.renderer, timing)[1]
            else:
                frame = scene.render(self.renderer, timing)
            self._timings[frame.index] = timing
            # Never run ahead of real time (scaled by the pace).
            wait = (start + (timing.t_ns - self._start_ns) / self.pace - self.clock()) / 1e9
            if wait > 0:
                self.sleep(wait)
            yield frame

    def read(self) -> Any:
        from vision.events import Frame

        if self._frames is None:
            return None
        frame = next(self._frames, None)
        if frame is None:
            self.finished = True
            return None
        return Frame(frame.image, self._mono(frame.t_ns), frame.index, frame.row_time_ns, frame.exposure_ns)

    def _mono(self, t_ns: int) -> int:
        """A time of this hand on the host's monotonic clock."""
        return self.base_ns + self.offset_ns + t_ns

    def close(self) -> None:
        """The simulated camera cannot be unplugged; closing keeps the hand where it is."""

    # -- the pipeline ----------------------------------------------------------------------
    def _sightings(self, frame: Any) -> list[Any]:
        if self.recognizer is not None:
            # A label outside this game's decks (a Gnoming card, a joker in a game without
            # jokers) is a misread: the tracker gets it as an unknown card.
            return [
                sg if self._in_deck(sg.card) else _unknown(sg)
                for sg in self.recognizer.recognize(frame.image)
            ]
        timing = self._timings.pop(frame.index)
        truth: list[Any] = self.sim.scene.ground_truth_sightings(self.renderer, timing)
        return truth

    def _in_deck(self, label: str) -> bool:
        from kiosk.games.cards import Card
        from kiosk.games.errors import GameError
        from vision.events import BACK, UNKNOWN

        if label in (BACK, UNKNOWN):
            return True
        try:
            card = Card.parse(label)
        except (GameError, ValueError):
            return False
        return not card.is_joker or int(self.header.options.get("jokers", 0)) > 0

    def _ensure_tracker(self, frame: Any) -> None:
        if self._tracker is not None:
            return
        from vision.calibration import calibrate
        from vision.nerts_tracker import NertsTracker

        self._tracker = NertsTracker(self.sim.layout, calibrate(frame.image), piles=self.piles)

    def __call__(self, frame: Any) -> list[TableEvent]:
        """One frame in, the table events it completes out (monotonic times, in time order)."""
        self._ensure_tracker(frame)
        sightings = self._sightings(frame)
        if self.recognizer is not None:
            self._timings.pop(frame.index, None)
        seen: list[TableEvent] = []
        scene_t = frame.t_ns - self._mono(0)
        if self.audit is not None and scene_t >= self.audit.start_ns:
            made = self._audit_step(frame, sightings)
        else:
            made = self._tracker.feed(frame, sightings)
        for event in sorted(made, key=lambda e: e.t_ns):
            # A press before a landing goes into the log before it.
            self._press_until(event.t_ns - self._mono(0), seen)
            seen.append(event)
        self._press_until(scene_t - BUTTON_DELAY_NS, seen)
        if scene_t > self.end_ns - BUTTON_DELAY_NS:
            self._press_until(1 << 62, seen)
        return seen

    def _audit_step(self, frame: Any, sightings: list[Any]) -> list[TableEvent]:
        """A frame of the audit: the tracker's last events once (the hand is over), then the watcher's
        counts when it has them."""
        out: list[TableEvent] = []
        if not self._auditing:
            from vision.audit import AuditWatcher

            self._auditing = True
            out += self._tracker.flush()
            self._watcher = AuditWatcher(self.sim.layout, self._tracker.table.calibration)
        out += self._watcher.feed(frame, sightings)
        return out

    def pile_position(self, pile: Any) -> tuple[float, float] | None:
        """Where the tracker found foundation pile ``pile`` (table mm), or None (for the slap pads)."""
        for p in getattr(self._tracker, "piles", ()):
            if p.pid == pile:
                return (float(p.x), float(p.y))
        return None

    def _press_until(self, t_ns: int, out: list[TableEvent]) -> None:
        """Releases the button events up to table time ``t_ns`` into ``out``, in order."""
        while self._next_button < len(self.buttons) and self.buttons[self._next_button].t_ns <= t_ns:
            e = self.buttons[self._next_button]
            out.append(TableEvent(e.type, self._mono(e.t_ns), e.err_ns, e.seat, e.data))
            self._next_button += 1

    @property
    def done(self) -> bool:
        """Every button event has been handed out (the hand is over on the table)."""
        return self._next_button >= len(self.buttons)


def _unknown(sighting: Any) -> Any:
    import dataclasses

    from vision.events import UNKNOWN

    return dataclasses.replace(sighting, card=UNKNOWN)


class SimulatedGame:
    """Hand after hand of the simulated table in one game: hand ``k`` is played by bots seeded
    ``seed + k - 1`` and starts a few seconds after the last event of the log."""

    GAP_NS = 3_000_000_000
    """Between the end of one hand and the next hand's first frame."""

    def __init__(self, seed: int, *, pace: float = 1.0, recognizer: Any = None, **table_options: Any) -> None:
        self.seed = seed
        self.pace = pace
        self.recognizer = recognizer
        self.table_options = table_options
        self.note = ""
        """What the kiosk should say about the game's tables (e.g. no recognizer model)."""
        first = self._table(1, 0)
        self.header = LogHeader(
            first.header.game,
            first.header.seats,
            dict(first.header.options),
            meta={"source": "simulator", "seed": seed},
        )

    def _table(self, hand: int, offset_ns: int) -> SimulatedTable:
        return SimulatedTable(
            self.seed + hand - 1,
            pace=self.pace,
            recognizer=self.recognizer,
            offset_ns=offset_ns,
            **self.table_options,
        )

    def is_mine(self, header: LogHeader) -> bool:
        """True for a stored game this simulated game can carry on."""
        return (
            header.meta.get("source") == "simulator"
            and header.meta.get("seed") == self.seed
            and tuple(header.seats) == tuple(self.header.seats)
        )

    def next_table(
        self, stored: Sequence[TableEvent], piles: Mapping[str, str] | None = None
    ) -> SimulatedTable:
        """The table that carries on the game logged in ``stored``: the hand in play, filmed from
        where the log stops (its logged foundation ``piles``, id -> top card, kept), or else the next
        hand."""
        starts = [e for e in stored if e.type == "hand_start"]
        ends = [e for e in stored if e.type == "hand_end"]
        last_t = max((e.t_ns for e in stored), default=0)
        if starts and (not ends or ends[-1].t_ns < starts[-1].t_ns):
            first = self._table(len(starts), 0)
            go = first.buttons[0].t_ns if first.buttons else 0
            table = self._table(len(starts), starts[-1].t_ns - go)
            table.resume_from(last_t - table.offset_ns)
            table.piles = dict(piles or {})
            return table
        offset = last_t + self.GAP_NS if stored else 0
        return self._table(len(starts) + 1, offset)


def load_recognizer() -> tuple[Any, str]:
    """The shipped card recognizer, or None and why not (no model installed, no module)."""
    try:
        from vision.errors import ModelError
        from vision.recognizer import VIDEO_CLOSER_EVERY, Recognizer
    except ImportError as exc:
        return None, f"the card recognizer is not in this build ({exc.name})"
    try:
        recognizer = Recognizer.load_for_video()
    except (ModelError, OSError) as exc:
        return None, f"no recognizer model ({exc})"
    # Frames of a video: the closer look at small cards as video takes it (see the constant).
    recognizer.closer_every = VIDEO_CLOSER_EVERY
    return recognizer, ""
