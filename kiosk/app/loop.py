"""The main loop: drain the one queue, log and referee events, redraw when something changed.

After lordmauve/pgzero's ``game.py``: each pass reads the display's own
events (keyboard, touch; pygame wants them read on this thread), drains the
app's queue (buttons, the microcontroller bridge, the camera thread's table
events and camera status), releases the events of a replayed table whose time
has come, lets the current mode react to time, and draws only if any of that
changed something. Between passes it sleeps on the queue, so a button press
wakes it at once.

Time is passed in (``clock``, nanoseconds on the monotonic clock); draw code
never reads a clock. Every event goes through :class:`kiosk.session.Session`,
which commits it to the event store before the referee judges it.
"""

from __future__ import annotations

import logging
import queue
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, TextIO

from kiosk.app.commands import Command, Key
from kiosk.app.feeds import LogFeed
from kiosk.app.messages import CalibrationView, CameraStatus, SeenEvent
from kiosk.app.mode import Mode
from kiosk.app.paint import Painter
from kiosk.app.slap_join import SlapJoin
from kiosk.app.sound import SoundCues
from kiosk.app.theme import Layout, Palette, palette
from kiosk.config import KioskConfig
from kiosk.games.errors import GameError
from kiosk.games.referee import LogHeader, RefereeReport, Ruling, TableEvent, format_seconds
from kiosk.games.registry import find_game
from kiosk.session import Session
from kiosk.store import StoreError
from kiosk.tablelog import seconds_to_ns

__all__ = ["App", "Banner"]

log = logging.getLogger(__name__)

NS_PER_MS = 1_000_000
NS_PER_S = 1_000_000_000


@dataclass(frozen=True, slots=True)
class Banner:
    """A message across the top of every screen (a lost camera, a rejected input)."""

    text: str
    until_ns: int | None = None
    """When it disappears on its own; None keeps it until it is cleared."""
    alarm: bool = True


class App:
    """The kiosk application: one current mode, one session, one queue."""

    def __init__(
        self,
        config: KioskConfig,
        *,
        painter: Painter,
        events: queue.SimpleQueue[Any] | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        sounds: SoundCues | None = None,
        store_path: str | Path,
        present: Callable[[], None] = lambda: None,
        poll: Callable[[], Iterable[Command]] = lambda: (),
        translate: Callable[[Any], Command | None] | None = None,
        text_log: TextIO | None = None,
        slaps: SlapJoin | None = None,
    ) -> None:
        self.config = config
        self.painter = painter
        self.events: queue.SimpleQueue[Any] = events if events is not None else queue.SimpleQueue()
        self.clock = clock
        self.sounds = sounds if sounds is not None else SoundCues(muted=config.muted, enabled=False)
        self.store_path = Path(store_path)
        self.present = present
        self.poll = poll
        self.translate = translate
        self.text_log = text_log
        self.slaps = slaps
        """Gives the camera's foundation plays their slap pads' times before they are logged
        (:mod:`kiosk.app.slap_join`); None ignores slaps."""
        self.on_record: list[Callable[[TableEvent], None]] = []
        """Called with each event once it is logged and refereed (the live camera pipeline hears
        the kiosk's buttons this way: :mod:`kiosk.app.live_camera`)."""
        self.layout = Layout(painter.width, painter.height, config.px_per_mm)
        self.palette: Palette = palette(config.four_colour_deck)
        self.session: Session | None = None
        self.feed: LogFeed | None = None
        self.calibration: CalibrationView | None = None
        """The latest picture from the camera thread, for the calibrate screen."""
        self.camera_ok = True
        self.banner: Banner | None = None
        self.mode: Mode = Mode()
        self.quit = False
        self.frames = 0
        self.latencies_ns: deque[int] = deque(maxlen=10_000)
        """Input-to-frame times: from each command's input time to the end of the frame that shows it."""
        self.last_rulings: list[Ruling] = []
        self._infractions_logged = 0
        """How many of the game's infractions the text log holds (they show on screen, not as rulings)."""
        self.button_map: dict[int, int] = {}
        """Seat button number (0-based) -> seat index, as set on the seating screen."""
        self._origin_ns = 0
        self._last_t: int | None = None
        self._dirty = True
        self._shown: list[int] = []
        self._held: list[Any] = []
        self._last_draw_ns: int | None = None

    @property
    def needs_redraw(self) -> bool:
        """True while something changed that the screen does not show yet."""
        return self._dirty

    @property
    def events_waiting(self) -> bool:
        """True while an event waits to be taken: on the queue, or already taken off it by
        :meth:`wait` for the next pass. A run that stops when its source is done must check this,
        not the queue alone, or the last event of a video is lost."""
        return bool(self._held) or not self.events.empty()

    # -- time -----------------------------------------------------------------------
    @property
    def origin_ns(self) -> int:
        """The monotonic time at which the session's clock reads zero."""
        return self._origin_ns

    def session_time(self, mono_ns: int) -> int:
        """Converts a monotonic time to the session's time (nanoseconds from its start)."""
        return mono_ns - self._origin_ns

    def now(self) -> int:
        return self.clock()

    # -- modes -----------------------------------------------------------------------
    def set_mode(self, mode: Mode) -> None:
        """Makes ``mode`` the current screen."""
        self.mode.leave()
        self.mode = mode
        mode.enter(self)
        self._dirty = True

    def show_banner(self, text: str, *, seconds: float | None = 4.0, alarm: bool = True) -> None:
        until = None if seconds is None else self.clock() + int(seconds * 1e9)
        self.banner = Banner(text, until, alarm)
        self._dirty = True
        self._write_log(f"banner: {text}")

    # -- the session -------------------------------------------------------------------
    def start_session(self, header: LogHeader, *, origin_ns: int | None = None) -> Session:
        """Starts a new game in the store (its time starts now, or at ``origin_ns``)."""
        if self.session is not None:
            self.session.close()
        self.session = Session.start(self.store_path, header)
        self.button_map = self._buttons_from_header(header)
        self._origin_ns = self.clock() if origin_ns is None else origin_ns
        self._last_t = None
        self.last_rulings = []
        self._infractions_logged = 0
        self._write_log(f"new game: {header.game}, seats {', '.join(header.seats)}")
        self._dirty = True
        return self.session

    def resume_session(self) -> Session | None:
        """Reopens the last unfinished game in the store, its clock carried on from its last event."""
        if not self.store_path.exists():
            return None
        session = Session.resume(self.store_path)
        if session is None:
            return None
        self.session = session
        self.button_map = self._buttons_from_header(session.header)
        stored = session.store.events()
        last_t = max((e.t_ns for e in stored), default=0)
        self._last_t = last_t if stored else None
        self._origin_ns = self.clock() - last_t - NS_PER_MS
        self.last_rulings = list(session.rulings[-8:])
        # Those found before the restart were logged then.
        self._infractions_logged = len(session.report().infractions)
        self._write_log(f"resumed: {session.header.game}, {len(stored)} events")
        self._dirty = True
        return session

    def game_title(self) -> str:
        """The name people use for the game in progress (``"Nerts"``)."""
        if self.session is None:
            return ""
        try:
            return find_game(self.session.header.game).title
        except GameError:
            return self.session.header.game

    def _buttons_from_header(self, header: LogHeader) -> dict[int, int]:
        buttons = header.meta.get("buttons", {})
        out: dict[int, int] = {}
        if isinstance(buttons, dict):
            for number, seat in buttons.items():
                if str(number).isdigit() and seat in header.seats:
                    out[int(number) - 1] = header.seats.index(seat)
        return out

    def report(self) -> RefereeReport | None:
        return self.session.report() if self.session is not None else None

    def attach_feed(self, feed: LogFeed) -> None:
        """Replays a table log into the session (the stand-in for the camera)."""
        self.feed = feed
        if self.session is not None:
            feed.skip_recorded(self.session.store.events())
        feed.start(self.clock())
        if feed.position == 0:
            self._origin_ns = self.clock()

    def record(
        self,
        etype: str,
        mono_ns: int,
        *,
        seat: str | None = None,
        err_ns: int = 0,
        data: dict[str, Any] | None = None,
    ) -> list[Ruling]:
        """Logs and referees one event that happened at monotonic time ``mono_ns``."""
        return self.record_event(TableEvent(etype, self.session_time(mono_ns), err_ns, seat, data or {}))

    def record_event(self, event: TableEvent) -> list[Ruling]:
        """Logs and referees an event already on the session's time.

        An input stamped before the last logged event (it waited in a queue while
        a camera event with a later stamp was logged) is logged at that last time
        with its uncertainty widened by the difference, since the log's time must
        not go backwards. An event the referee rejects shows a banner and changes
        nothing.
        """
        if self.session is None:
            self.show_banner("no game in progress: choose a game first")
            return []
        last = self._last_t
        if last is not None and event.t_ns < last:
            event = TableEvent(
                event.type, last, event.err_ns + (last - event.t_ns), event.seat, event.data, event.line
            )
        try:
            rulings = self.session.record(event)
        except GameError as exc:
            self.show_banner(f"not accepted: {exc}")
            return []
        except StoreError as exc:
            # Not in the store (a full disk), so not refereed either: the game stays as the store has it.
            self.show_banner(f"NOT SAVED: {exc}", seconds=None)
            return []
        self._last_t = event.t_ns
        for hook in self.on_record:
            hook(event)
        self._after_rulings(rulings)
        return rulings

    def undo(self, mono_ns: int) -> list[Ruling]:
        """Takes back the last ruling's event (logged as an ``undo`` event)."""
        return self.record("undo", mono_ns)

    def correct_score(self, mono_ns: int, seat: str, hand: int, score: int) -> list[Ruling]:
        """Replaces one seat's score for one hand (logged as ``score_correction``)."""
        return self.record("score_correction", mono_ns, seat=seat, data={"hand": hand, "score": score})

    def _after_rulings(self, rulings: list[Ruling]) -> None:
        self._dirty = True
        if rulings:
            self.last_rulings = (self.last_rulings + rulings)[-8:]
            for r in rulings:
                self._write_log(f"{format_seconds(r.t_ns)} s  {r.text}")
        self.sounds.for_rulings(rulings, self.session.header.game if self.session is not None else "")
        self._dirty |= self.mode.on_rulings(rulings)
        report = self.report()
        if report is not None:
            self._log_infractions(report)
        if report is not None and report.finished and getattr(self.mode, "name", "") != "game_over":
            from kiosk.screens.game_over import GameOverMode

            self.sounds.play("game_over")
            self.set_mode(GameOverMode())

    def _log_infractions(self, report: RefereeReport) -> None:
        """Writes the infractions the referee found since the last event to the text log, as the screen
        shows them (an undo that takes one back is logged as the undo)."""
        found = report.infractions
        self._infractions_logged = min(self._infractions_logged, len(found))
        for i in found[self._infractions_logged :]:
            who = f"{i.seat}: " if i.seat and not i.text.startswith(i.seat) else ""
            # To the millisecond: a tracked landing's nanoseconds say nothing to a reader.
            ms = (i.t_ns + 500_000) // 1_000_000 * 1_000_000
            self._write_log(f"{format_seconds(ms)} s  infraction: {who}{i.text}")
        self._infractions_logged = len(found)

    def _write_log(self, line: str) -> None:
        log.info("%s", line)
        if self.text_log is not None:
            self.text_log.write(line + "\n")
            self.text_log.flush()

    # -- the queue ---------------------------------------------------------------------
    def dispatch(self, command: Command) -> bool:
        """Gives one command to the current mode (mute and quit work everywhere)."""
        if command.key is Key.QUIT:
            self.quit = True
            return False
        if command.key is Key.MUTE:
            muted = self.sounds.toggle_mute()
            self.show_banner("sound off" if muted else "sound on", seconds=1.5, alarm=False)
            changed = True
        else:
            changed = self.mode.handle(command)
        if changed and command.t_ns:
            self._shown.append(command.t_ns)
        return changed

    def _take(self, item: Any) -> bool:
        if isinstance(item, Command):
            return self.dispatch(item)
        if isinstance(item, SeenEvent):
            event = item.event if self.slaps is None else self.slaps.join(item.event, item.at)
            self.record_event(self._on_session_clock(event))
            return True
        if isinstance(item, CameraStatus):
            return self._camera_status(item)
        if isinstance(item, CalibrationView):
            self.calibration = item
            return getattr(self.mode, "name", "") == "calibrate"
        if self.slaps is not None and self.slaps.offer(item):
            return False
        if self.translate is not None:
            command = self.translate(item)
            if command is not None:
                return self.dispatch(command)
            return False
        log.warning("ignored queue item %r", item)
        return False

    def _on_session_clock(self, event: TableEvent) -> TableEvent:
        """A vision event moved from the monotonic clock to the session's: its time, and the
        times in its fields (``t_lift``), which are written as seconds; Decimal seconds
        become floats, which the log stores and reads back to the same nanosecond."""
        data: dict[str, Any] = {}
        for key, value in event.data.items():
            if (
                key.startswith("t_")
                and isinstance(value, (Decimal, int, float, str))
                and not isinstance(value, bool)
            ):
                value = self.session_time(seconds_to_ns(value, key)) / NS_PER_S
            elif isinstance(value, Decimal):
                value = float(value)
            data[key] = value
        return TableEvent(event.type, self.session_time(event.t_ns), event.err_ns, event.seat, data)

    def _camera_status(self, status: CameraStatus) -> bool:
        if status.ok == self.camera_ok and status.ok:
            return False
        self.camera_ok = status.ok
        if status.ok:
            self.banner = None
            self._write_log(f"camera: {status.message}")
        else:
            self.show_banner(f"CAMERA LOST: {status.message}. Retrying; the game is kept.", seconds=None)
        return True

    # -- one pass ----------------------------------------------------------------------
    def step(self) -> bool:
        """Runs one pass of the loop; returns True if it drew a frame."""
        now = self.clock()
        changed = self._dirty
        for command in self.poll():
            changed |= self.dispatch(command)
        items, self._held = self._held, []
        for item in items:
            changed |= self._take(item)
        while True:
            try:
                item = self.events.get_nowait()
            except queue.Empty:
                break
            changed |= self._take(item)
        if self.feed is not None and self.session is not None:
            for event in self.feed.due(now):
                self.record_event(event)
                changed = True
        changed |= self.mode.tick(now)
        if self.banner is not None and self.banner.until_ns is not None and now >= self.banner.until_ns:
            self.banner = None
            changed = True
        if not changed:
            return False
        min_gap = 1_000_000_000 // self.config.fps
        if self._last_draw_ns is not None and now - self._last_draw_ns < min_gap:
            self._dirty = True
            return False
        self.draw()
        return True

    def draw(self) -> None:
        """Draws the current mode and the banner, presents the frame, and notes the latency."""
        p = self.painter
        p.begin()
        self.mode.draw(p)
        self._draw_banner(p)
        self.present()
        done = self.clock()
        for t in self._shown:
            self.latencies_ns.append(done - t)
        self._shown = []
        self._dirty = False
        self._last_draw_ns = done
        self.frames += 1

    def _draw_banner(self, p: Painter) -> None:
        if self.banner is None:
            return
        import pygame

        px = self.layout.px("body")
        h = p.fonts.get(px).get_linesize() + 2 * self.layout.margin
        rect = pygame.Rect(0, 0, p.width, h)
        bg = self.palette.banner if self.banner.alarm else self.palette.selected
        p.box(rect, bg)
        p.fit(
            self.banner.text,
            rect.inflate(-2 * self.layout.margin, 0),
            px,
            self.palette.text,
            "center",
            min_px=self.layout.px("label"),
        )

    def wait(self, max_s: float) -> None:
        """Sleeps until something arrives on the queue, a replayed event is due, or ``max_s`` passes."""
        timeout = max_s
        if self.feed is not None:
            due = self.feed.next_due_ns()
            if due is not None:
                timeout = min(timeout, max(0.0, (due - self.clock()) / 1e9))
        if self._dirty and self._last_draw_ns is not None:
            timeout = min(
                timeout, max(0.0, (self._last_draw_ns + 1e9 / self.config.fps - self.clock()) / 1e9)
            )
        if timeout <= 0:
            return
        try:
            self._held.append(self.events.get(timeout=timeout))
        except queue.Empty:
            pass

    def run(self, *, until: Callable[[App], bool] = lambda app: False, idle_s: float = 0.02) -> None:
        """Runs passes until quit or ``until(app)``; sleeps on the queue between them.

        ``idle_s`` bounds the sleep so the display's own events (keyboard, touch)
        are read at least that often.
        """
        while not self.quit and not until(self):
            if not self.step():
                self.wait(idle_s)
