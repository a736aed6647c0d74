"""Variant options written in a table log's header the way the rules specs spell them
(``rules/<game>.md``, the variant-options table), replayed through ``kiosk replay --json``.

docs/table-log.md: the header's ``options`` are the spec's; a bad value is a malformed log
(one error line, exit status 2, no traceback)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.__main__ import main
from tests.games.replay_logs import replay_in_process, replay_main, write_log
from tests.games.test_kierki_blackbox import SEATS, Log, kinds, spec_tricks
from tests.games.test_kierki_blackbox4 import DEAL5_HEART_REVOKE
from tests.games.test_rummy_blackbox import ACES, _hand


def _refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, seats: list[str],
             options: dict[str, Any]) -> str:
    """The one error line of ``kiosk replay --json`` on a header-only log (exit status 2)."""
    log = write_log(tmp_path / "bad.jsonl",
                    [{"table_log": 1, "game": game, "seats": seats, "options": options}])
    status = main(["replay", str(log), "--json"])
    out = capsys.readouterr()
    assert status == 2, out
    assert out.out == "" and len(out.err.strip().splitlines()) == 1, out.err
    assert "Traceback" not in out.err
    return out.err


def _kierki_deal5(tmp_path: Path, capsys: pytest.CaptureFixture[str], bans: Any) -> dict[str, Any]:
    """Deals 1-4 of the spec's example, then a deal 5 in which E leads 9H holding other suits."""
    log = Log({"heart_lead_ban_deals": bans})
    for k in range(1, 5):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    log.ev("deal", seat="N", deal=5).tricks(DEAL5_HEART_REVOKE)
    return log.replay(tmp_path, capsys)


@pytest.mark.parametrize("bans", ["2, 7", "2,7", "[2, 7]"])
def test_kierki_heart_lead_ban_deals_as_a_comma_string(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], bans: str) -> None:
    """kierki.md §12 ``heart_lead_ban_deals`` (default ``[2, 5, 7]``, any subset of 1..7): the
    subset written as a comma string means the same deals as the JSON list. Without deal 5 in
    the ban, E's heart lead in trick 3 of deal 5 is legal; only W's revoke is reported."""
    as_list = _kierki_deal5(tmp_path, capsys, [2, 7])
    assert kinds(as_list) == ["revoke"]
    assert _kierki_deal5(tmp_path, capsys, bans) == as_list
    # With the default ban the same lead is an infraction: the option has an effect.
    assert kinds(_kierki_deal5(tmp_path, capsys, "2, 5, 7")) != kinds(as_list)


def _rummy_two_hands(tmp_path: Path, capsys: pytest.CaptureFixture[str], hands: Any) -> dict[str, Any]:
    seats = ["Ana", "Ben"]
    events = _hand(0, 3, "Ana", {"Ben": ["9H", "JH", "2C"]}, seats=seats)
    events += _hand(100, 4, "Ben", {"Ana": ACES[:4]}, seats=seats)
    header = {"table_log": 1, "game": "rummy_3_13", "seats": seats, "options": {"hands": hands}}
    return replay_main(tmp_path, [header, *events], capsys)


@pytest.mark.parametrize("hands", ["3, 4", "3,4", "[3, 4]"])
def test_rummy_hands_as_a_comma_string(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], hands: str) -> None:
    """rummy_3_13.md §10 ``hands`` (default ``3..13``, the sizes played in increasing order): a
    list of sizes written as a comma string means the same sizes as the JSON list, so the game
    ends after the hands of 3 and 4 cards."""
    as_list = _rummy_two_hands(tmp_path, capsys, [3, 4])
    assert as_list["finished"] and as_list["totals"] == {"Ana": 0, "Ben": 21}
    assert _rummy_two_hands(tmp_path, capsys, hands) == as_list


@pytest.mark.parametrize(("game", "seats", "options", "name"), [
    ("kierki", list(SEATS), {"fan_tan_prizes": "800,\u00b2"}, "fan_tan_prizes"),
    ("kierki", list(SEATS), {"heart_lead_ban_deals": "2,\u00b2"}, "heart_lead_ban_deals"),
    ("rummy_3_13", ["Ana", "Ben"], {"hands": "\u00b2..7"}, "hands"),
    ("rummy_3_13", ["Ana", "Ben"], {"hands": "3,\u00b2"}, "hands"),
])
def test_a_digit_like_character_is_a_one_line_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, seats: list[str],
        options: dict[str, Any], name: str) -> None:
    """docs/table-log.md (Errors): a bad option value is one error line with exit status 2.
    A superscript two passes ``str.isdigit`` but is no number ``int`` reads: it must not
    escape as a traceback."""
    assert name in _refused(tmp_path, capsys, game, seats, options)


@pytest.mark.parametrize(("options", "name"), [
    ({"heart_lead_ban_deals": "2, 9"}, "heart_lead_ban_deals"),
    ({"heart_lead_ban_deals": "two"}, "heart_lead_ban_deals"),
])
def test_kierki_bad_ban_strings_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], options: dict[str, Any], name: str) -> None:
    """kierki.md §12: deals outside 1..7, or a string that is no list of deal numbers. (An empty string
    is the empty subset, no ban: ``test_kierki_blackbox_r8.py``.)"""
    assert name in _refused(tmp_path, capsys, "kierki", list(SEATS), options)


def _gnoming_reveals(tmp_path: Path, options: dict[str, Any]) -> dict[str, Any]:
    """A round whose three grids are revealed at once: gnoming.md §10 examples 5, 7 and 8."""
    def grid(text: str) -> list[str]:
        names = {"M": "MULLIGAN", "H": "HAZARD"}
        return [names.get(c, "G" + c) for c in text.split()]
    seats = ["Ana", "Bob", "Cy"]
    events: list[dict[str, Any]] = [
        {"t": 1, "type": "round_start", "round": 1, "first": "Ana", "piles": {"A": "G3", "B": "G4"}}]
    for n, (seat, cards) in enumerate(zip(seats, ["4 4 M 3 -2 8 5 6 8", "3 3 3 3 3 3 3 3 3",
                                                    "M 6 6 M 5 5 4 7 8"], strict=True)):
        events.append({"t": 2 + n, "type": "reveal", "seat": seat, "grid": grid(cards)})
    header = {"table_log": 1, "game": "gnoming", "seats": seats, "options": options}
    return replay_in_process(tmp_path / "gnoming.jsonl", header, events).to_json()


@pytest.mark.parametrize("deck", ["publisher counts", "publisher_counts", "Publisher counts", None])
def test_gnoming_deck_spelled_as_the_spec_default(tmp_path: Path, deck: Any) -> None:
    """gnoming.md §11 ``deck``, default "publisher counts": spelling the default out means the
    publisher's 110 cards (14 threes, so example 7's grid of nine 3s is possible)."""
    default = _gnoming_reveals(tmp_path, {})
    assert default["hands"] == [{"Ana": 0, "Bob": -18, "Cy": 23}]
    assert _gnoming_reveals(tmp_path, {"deck": deck}) == default


def test_gnoming_unknown_deck_word_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """gnoming.md §11 ``deck``: any other word is no deck (one line, exit status 2)."""
    assert "deck" in _refused(tmp_path, capsys, "gnoming", ["Ana", "Bob", "Cy"], {"deck": "standard"})


@pytest.mark.parametrize("prizes", [[1000, 500], "1000, 500", "1000,500", "[1000, 500]"])
def test_kierki_fan_tan_prizes_spellings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], prizes: Any) -> None:
    """kierki.md §12 ``fan_tan_prizes`` (default ``800, 500``, two positive integers): the pair as a
    JSON list or a comma string; prizes that break the zero sum are warned about in the notes."""
    header = {"table_log": 1, "game": "kierki", "seats": list(SEATS), "options": {"fan_tan_prizes": prizes}}
    report = replay_main(tmp_path, [header], capsys)
    assert report["notes"] == [
        "Fan Tan prizes 1000 and 500 over 1 round(s) pay 1500, not 1300: the match is no longer zero-sum"]


def test_a_whole_number_option_written_with_a_decimal_point_is_that_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # JSON writers put 30.0 for 30; rules/nerts.md's tie_window_ms is a whole number of milliseconds.
    from kiosk.games.base import build_options
    from kiosk.games.nerts_options import NertsOptions

    options = {"tie_window_ms": 30.0, "target_score": 100.0}
    built = build_options(NertsOptions, options)
    assert (built.tie_window_ms, built.target_score) == (30, 100)
    assert isinstance(built.tie_window_ms, int)
    header = {"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": options}
    replay_main(tmp_path, [header], capsys)
    # A fraction is not a whole number: a one-line error, not a silent rounding.
    err = _refused(tmp_path, capsys, "nerts", ["Ana", "Ben"], {"tie_window_ms": 30.5})
    assert "must be a whole number" in err
