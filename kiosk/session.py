"""A game in progress: the event store and the referee, kept in step.

Every event is committed to the store *before* the referee applies it
(DESIGN.md, "The event log is the record of truth"). Opening a session on an
existing store re-folds its events, so the state, scores and pending rulings
after a crash are exactly those before it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from kiosk.games.errors import GameError
from kiosk.games.referee import LogHeader, Referee, RefereeReport, Ruling, TableEvent
from kiosk.replay import referee_for
from kiosk.store import EventStore

__all__ = ["Session"]

log = logging.getLogger(__name__)


class Session:
    """A game being refereed, backed by an :class:`EventStore`.

    ``record()`` is the only way events reach the referee.
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.referee: Referee = referee_for(store.header)
        self.rulings: list[Ruling] = []
        self.skipped: list[tuple[TableEvent, str]] = []
        """Stored events the referee rejected on resume (a crash between write and check)."""
        for event in store.events():
            try:
                self.rulings.extend(self.referee.feed(event))
            except GameError as exc:
                log.warning("skipping stored event %s: %s", event.line, exc)
                self.skipped.append((event, str(exc)))

    @classmethod
    def start(cls, path: str | Path, header: LogHeader) -> Session:
        """Starts a new game in the store at ``path``.

        The header is checked (game, seats, options) before anything is written.
        """
        referee_for(header)
        return cls(EventStore.create(path, header))

    @classmethod
    def resume(cls, path: str | Path) -> Session | None:
        """Reopens the last unfinished game in ``path``, or returns None."""
        store = EventStore.open_last_unfinished(path)
        return None if store is None else cls(store)

    @property
    def header(self) -> LogHeader:
        return self.store.header

    @property
    def seats(self) -> Sequence[str]:
        return self.store.header.seats

    def record(self, event: TableEvent) -> list[Ruling]:
        """Commits ``event`` to the store, then lets the referee judge it.

        A malformed event (InvalidActionError) is removed from the store again
        and re-raised; the game state is unchanged.
        """
        seq = self.store.append(event)
        try:
            rulings = self.referee.feed(event)
        except GameError:
            self.store.remove_last(seq)
            raise
        self.rulings.extend(rulings)
        if self.referee.report().finished:
            self.store.mark_finished()
        return rulings

    def undo(self, t_ns: int) -> list[Ruling]:
        """Takes back the last effective event (logged as an ``undo`` event)."""
        return self.record(TableEvent("undo", t_ns))

    def correct_score(self, t_ns: int, seat: str, hand: int, score: int) -> list[Ruling]:
        """Replaces one seat's score for one hand (logged as ``score_correction``)."""
        data = {"hand": hand, "score": score}
        return self.record(TableEvent("score_correction", t_ns, seat=seat, data=data))

    def report(self) -> RefereeReport:
        return self.referee.report()

    def close(self) -> None:
        self.store.close()
