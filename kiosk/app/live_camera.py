"""A real camera's pipeline: the live vision pipeline of whatever game the kiosk is playing.

The camera thread starts with the kiosk, before anyone has chosen a game; the game, its seats
and its house options come from the session (a resumed one, or the one the seating screen
starts). :class:`SessionPipeline` makes a :class:`vision.pipeline.LivePipeline` for the session
in play, and a fresh one when a new game starts (the new table is calibrated again from the
mat's markers); the card recognizer is loaded once, by the kiosk, and serves every game.

The kiosk's own events (a deal, trumps, the caller's words) reach it through the app's
``on_record`` hooks, moved from the session's clock to the monotonic one the frames carry, so
the tracker hears them as their time comes.
"""

from __future__ import annotations

import logging
import queue
from typing import Any

from kiosk.games.referee import TableEvent

__all__ = ["SessionPipeline", "logged_piles"]

log = logging.getLogger(__name__)


class SessionPipeline:
    """Frames -> table events for the app's current game; :class:`kiosk.app.camera.Pipeline`."""

    def __init__(self, app: Any, recognizer: Any, *, mat: Any = None) -> None:
        self.app = app
        self.recognizer = recognizer
        self.mat = mat
        """The printed mat (:class:`vision.calibration.TableMat`, from ``[mat]``); None: the default."""
        self.pipeline: Any = None
        """The live pipeline of the session in play (None before a game starts)."""
        self._session: Any = None
        self._heard: queue.SimpleQueue[tuple[Any, TableEvent]] = queue.SimpleQueue()
        app.on_record.append(self.heard)

    def heard(self, event: TableEvent) -> None:
        """An event the app logged (on the session's clock; called on the app's thread)."""
        session = self.app.session
        mono = TableEvent(event.type, event.t_ns + self.app.origin_ns, event.err_ns, event.seat, event.data)
        self._heard.put((session, mono))

    def __call__(self, frame: Any) -> list[TableEvent]:
        session = self.app.session
        if session is not self._session:
            self._session = session
            self.pipeline = self._build(session)
        while True:
            try:
                owner, event = self._heard.get_nowait()
            except queue.Empty:
                break
            if owner is session and self.pipeline is not None:
                self.pipeline.button(event)
        if self.pipeline is None:
            return []
        events: list[TableEvent] = self.pipeline(frame)
        return events

    def flush(self) -> list[TableEvent]:
        """The events still held back, at the end of a video file."""
        if self.pipeline is None:
            return []
        events: list[TableEvent] = self.pipeline.flush()
        return events

    def pile_position(self, pile: Any) -> tuple[float, float] | None:
        """Where the tracker found foundation pile ``pile`` (table mm), for the slap pads."""
        if self.pipeline is None:
            return None
        at: tuple[float, float] | None = self.pipeline.pile_position(pile)
        return at

    def _build(self, session: Any) -> Any:
        if session is None:
            return None
        from vision.pipeline import PipelineError, build_pipeline

        header = session.header
        try:
            return build_pipeline(
                header.game,
                list(header.seats),
                options=dict(header.options),
                recognizer=self.recognizer,
                mat=self.mat,
                piles=logged_piles(session),
            )
        except PipelineError as exc:
            log.warning("no camera tracking for this game: %s", exc)
            return None


def logged_piles(session: Any) -> dict[str, str]:
    """A resumed game's foundation piles (id -> top card, as the camera names faces) from the
    referee's public view, so the new tracker continues them instead of numbering from F1 again."""
    referee = getattr(session, "referee", None)
    if referee is None:  # a session without a referee yet has logged no piles
        return {}
    view = referee.public_view()
    foundations = getattr(view, "foundations", ()) or ()
    return {pile.pid: pile.top.face_str() for pile in foundations}
