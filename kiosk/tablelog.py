"""Reading and writing the table log: JSON Lines, a header then one event a line.

The format is documented in ``docs/table-log.md``. Times are written as exact
decimal seconds from the session start and read back into whole nanoseconds
(never through a float), so a race at exactly the tie window's edge compares
exactly.

>>> header, events = parse_table_log([
...     '{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": {}}',
...     '{"t": 12.48, "err": 0.002, "type": "call", "seat": "Ana"}',
... ])
>>> header.game, events[0].t_ns, events[0].err_ns, events[0].seat
('nerts', 12480000000, 2000000, 'Ana')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import IO, Any

from kiosk.games.referee import NS_PER_S, LogHeader, TableEvent

__all__ = [
    "LogFormatError",
    "parse_header",
    "parse_event",
    "parse_table_log",
    "read_table_log",
    "iter_table_log",
    "iter_table_log_file",
    "dump_header",
    "dump_event",
    "write_table_log",
    "seconds_to_ns",
]


class LogFormatError(ValueError):
    """A table log line that cannot be read; the message names the line."""

    def __init__(self, line: int | None, message: str, *, path: str | None = None) -> None:
        where = f"{path}: " if path else ""
        where += f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{message}")
        self.line = line
        self.path = path
        self.problem = message


def seconds_to_ns(value: Any, what: str = "t") -> int:
    """Converts decimal seconds (a Decimal, int or numeric string) to whole nanoseconds.

    >>> seconds_to_ns(Decimal("0.0305")), seconds_to_ns(2)
    (30500000, 2000000000)
    """
    # Fast paths first: a replay reads two times a line.
    if type(value) is Decimal:
        if value.is_finite():
            return int((value * NS_PER_S).to_integral_value())
        raise ValueError(f"{what!r} must be a finite number of seconds, got {value!r}")
    if type(value) is int:
        return value * NS_PER_S
    if isinstance(value, bool) or not isinstance(value, (int, Decimal, str, float)):
        raise ValueError(f"{what!r} must be a number of seconds, got {value!r}")
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"{what!r} must be a number of seconds, got {value!r}") from None
    if not d.is_finite():
        raise ValueError(f"{what!r} must be a finite number of seconds, got {value!r}")
    return int((d * NS_PER_S).to_integral_value())


_DECODER = json.JSONDecoder(parse_float=Decimal)

MAX_T_S = 1e9
"""The largest time a log may hold, in seconds (about 31 years from the session start)."""
MAX_T_NS = int(MAX_T_S) * NS_PER_S


def _loads(text: str, line: int) -> dict[str, Any]:
    try:
        obj = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise LogFormatError(line, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise LogFormatError(line, f"expected a JSON object, got {type(obj).__name__}")
    return obj


TIME_FIELDS = ("t_", "err_")
"""Prefixes of the data fields that are seconds (``t_lift``, ``err_lift``), kept as exact Decimals."""


def _plain(value: Any) -> Any:
    """Decimals from the parser back to int/float for option and data values."""
    t = type(value)
    if t is Decimal:
        return int(value) if value == value.to_integral_value() and "." not in str(value) else float(value)
    if t is list:
        return [_plain(v) for v in value]
    if t is dict:
        return {k: (v if type(v) in _SCALARS else _plain(v)) for k, v in value.items()}
    return value


_SCALARS = frozenset({str, int, bool, type(None)})


def parse_header(text: str, line: int = 1) -> LogHeader:
    """Parses the header line; raises LogFormatError naming the problem."""
    obj = _loads(text, line)
    if "table_log" not in obj:
        raise LogFormatError(
            line,
            'the first line must be the header, e.g. {"table_log": 1, "game": "nerts", '
            '"seats": ["Ana", "Ben"], "options": {}}',
        )
    version = obj.pop("table_log")
    if version != 1 or isinstance(version, bool):
        raise LogFormatError(line, f"unsupported table_log version {version!r} (this kiosk reads 1)")
    game = obj.pop("game", None)
    if not isinstance(game, str):
        raise LogFormatError(line, "header needs a 'game' name")
    seats = obj.pop("seats", None)
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) and s for s in seats):
        raise LogFormatError(line, "header needs 'seats': a list of seat names")
    if len(set(seats)) != len(seats):
        raise LogFormatError(line, f"seat names must differ: {seats}")
    options = obj.pop("options", {})
    if not isinstance(options, dict):
        raise LogFormatError(line, "header 'options' must be an object")
    return LogHeader(game, tuple(seats), _plain(options), 1, _plain(obj))


def parse_event(text: str, line: int) -> TableEvent:
    """Parses one event line; raises LogFormatError naming the problem."""
    obj = _loads(text, line)
    if "table_log" in obj:
        raise LogFormatError(line, "a second header line")
    etype = obj.pop("type", None)
    if not isinstance(etype, str) or not etype:
        raise LogFormatError(line, "event needs a 'type'")
    if "t" not in obj:
        raise LogFormatError(line, f"{etype!r} event needs a time 't' (seconds from the start)")
    try:
        t_ns = seconds_to_ns(obj.pop("t"), "t")
        err_ns = seconds_to_ns(obj.pop("err", 0), "err")
    except ValueError as exc:
        raise LogFormatError(line, str(exc)) from None
    if err_ns < 0:
        raise LogFormatError(line, "'err' must not be negative")
    if abs(t_ns) > MAX_T_NS or err_ns > MAX_T_NS:
        # Decimal takes 1e999 as finite; no session lasts years, and the report would print inf.
        raise LogFormatError(
            line, f"'t' and 'err' must be seconds from the session start (at most {MAX_T_S:.0f})"
        )
    seat = obj.pop("seat", None)
    if seat is not None and not isinstance(seat, str):
        raise LogFormatError(line, f"'seat' must be a seat name, got {seat!r}")
    # Times in the data (``t_lift``, ``err_lift``) stay Decimal, exact to the nanosecond as ``t`` is: a float
    # loses nanoseconds past about 8.4e6 s, and a lift a nanosecond before a call is then after it.
    data = {k: v if type(v) is Decimal and k.startswith(TIME_FIELDS) else _plain(v) for k, v in obj.items()}
    return TableEvent(etype, t_ns, err_ns, seat, data, line)


def iter_table_log(lines: Iterable[str]) -> Iterator[LogHeader | TableEvent]:
    """Yields the header, then each event; blank lines and ``#`` comments are skipped."""
    seen_header = False
    for n, raw in enumerate(lines, start=1):
        # A log saved by Windows Notepad starts with a byte order mark; it is not part of the JSON.
        text = (raw.removeprefix("\ufeff") if n == 1 else raw).strip()
        if not text or text.startswith("#"):
            continue
        if not raw.isascii():
            _check_utf8(raw, n if seen_header else None)
        if not seen_header:
            seen_header = True
            yield parse_header(text, n)
        else:
            yield parse_event(text, n)
    if not seen_header:
        raise LogFormatError(None, "the log is empty: it has no header line")


def parse_table_log(lines: Iterable[str]) -> tuple[LogHeader, list[TableEvent]]:
    """Parses a whole table log from lines of text."""
    it = iter_table_log(lines)
    header = next(it)
    assert isinstance(header, LogHeader)
    events = [e for e in it if isinstance(e, TableEvent)]
    return header, events


def _check_utf8(text: str, line: int | None) -> None:
    """Raises LogFormatError if ``text`` holds bytes that are not UTF-8 (read as lone surrogates, see
    :func:`iter_table_log_file`): on a line after the header it names that line, as for any malformed
    line (a log cut off inside a character, or one line saved in another encoding); before the
    header the file is no text at all."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        if line is None:
            raise LogFormatError(None, "not a text file (UTF-8 expected)") from None
        byte = ord(text[exc.start]) - 0xDC00
        raise LogFormatError(
            line, f"not UTF-8 text (byte 0x{byte:02X} at column {exc.start + 1}): save the log as UTF-8"
        ) from None


def iter_table_log_file(path: str | Path) -> Iterator[LogHeader | TableEvent]:
    """Yields a table log file's header, then each event, as the lines are read; LogFormatError
    (with the path) if the file is unreadable or a line is malformed. A reader that judges each
    event as it comes stops at the first malformed line in file order (docs/table-log.md, Errors)."""
    p = Path(path)
    try:
        # Bytes that are not UTF-8 are kept (as lone surrogates) so the line holding them is named.
        with p.open(encoding="utf-8", errors="surrogateescape") as f:
            yield from iter_table_log(f)
    except LogFormatError as exc:
        raise LogFormatError(exc.line, exc.problem, path=str(p)) from None
    except FileNotFoundError:
        raise LogFormatError(None, "no such file; check the path", path=str(p)) from None
    except IsADirectoryError:
        raise LogFormatError(None, "is a directory, not a table log", path=str(p)) from None
    except PermissionError:
        raise LogFormatError(None, "permission denied", path=str(p)) from None


def read_table_log(path: str | Path) -> tuple[LogHeader, list[TableEvent]]:
    """Reads a table log file; LogFormatError (with the path) if unreadable or malformed."""
    it = iter_table_log_file(path)
    header = next(it)
    assert isinstance(header, LogHeader)
    return header, [e for e in it if isinstance(e, TableEvent)]


class _DecimalEncoder(json.JSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, Decimal):
            return float(o)
        return super().default(o)


def _dumps(obj: dict[str, Any]) -> str:
    # Decimals are written verbatim so times stay exact.
    parts = []
    for k, v in obj.items():
        val = str(v) if isinstance(v, Decimal) else json.dumps(v, ensure_ascii=False, cls=_DecimalEncoder)
        parts.append(f"{json.dumps(k)}: {val}")
    return "{" + ", ".join(parts) + "}"


def dump_header(header: LogHeader) -> str:
    """The header as one JSON line."""
    return _dumps(header.to_json())


def dump_event(event: TableEvent) -> str:
    """An event as one JSON line, with exact decimal times."""
    return _dumps(event.to_json())


def write_table_log(out: IO[str], header: LogHeader, events: Iterable[TableEvent]) -> None:
    """Writes a whole table log."""
    out.write(dump_header(header) + "\n")
    for e in events:
        out.write(dump_event(e) + "\n")
