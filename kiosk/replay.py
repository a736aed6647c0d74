"""Re-refereeing a table log: the fold behind ``kiosk replay`` and resume."""

from __future__ import annotations

from collections.abc import Iterable

from kiosk.games.errors import GameError
from kiosk.games.referee import LogHeader, Referee, RefereeReport, TableEvent
from kiosk.games.registry import find_game
from kiosk.tablelog import LogFormatError

__all__ = ["referee_for", "replay_events", "format_report"]


def referee_for(header: LogHeader) -> Referee:
    """Builds the referee a header asks for; LogFormatError (line 1) if the game,
    seats or options are wrong."""
    try:
        game = find_game(header.game)(dict(header.options), seats=header.seats)
        return game.referee()
    except GameError as exc:
        raise LogFormatError(1, str(exc)) from None


def replay_events(header: LogHeader, events: Iterable[TableEvent]) -> RefereeReport:
    """Feeds every event to a fresh referee and returns its report.

    A malformed event raises LogFormatError naming its line and the problem.
    """
    referee = referee_for(header)
    for e in events:
        try:
            referee.feed(e)
        except GameError as exc:
            raise LogFormatError(e.line, str(exc)) from None
    return referee.report()


def _fmt_t(t: str) -> str:
    return f"{float(t):9.3f} s"


def format_report(report: RefereeReport) -> str:
    """A readable text report: rulings, infractions, scores per hand and totals."""
    lines = [f"{report.game}: {', '.join(report.seats)}"]
    if report.rulings:
        lines.append("")
        lines.append("Rulings:")
        for r in report.rulings:
            j = r.to_json()
            lines.append(f"  {_fmt_t(j['t'])}  {r.text}")
    lines.append("")
    if report.infractions:
        lines.append("Infractions:")
        for i in report.infractions:
            j = i.to_json()
            where = f" (line {i.line})" if i.line else ""
            lines.append(f"  {_fmt_t(j['t'])}  {i.text}{where}")
    else:
        lines.append("Infractions: none")
    lines.append("")
    width = max(8, *(len(s) for s in report.seats))
    lines.append("Scores:")
    lines.append("  " + "hand".ljust(6) + "".join(s.rjust(width + 2) for s in report.seats))
    for n, hand in enumerate(report.hands, start=1):
        lines.append("  " + str(n).ljust(6) + "".join(str(hand.get(s, 0)).rjust(width + 2)
                                                    for s in report.seats))
    lines.append("  " + "total".ljust(6) + "".join(str(report.totals.get(s, 0)).rjust(width + 2)
                                                   for s in report.seats))
    lines.append("")
    if report.finished:
        verb = "win" if len(report.winners) > 1 else "wins"
        lines.append(f"Game over: {' and '.join(report.winners)} {verb}.")
    else:
        lines.append("Game not finished.")
    for note in report.notes:
        lines.append(f"Note: {note}")
    return "\n".join(lines)


