"""Black-box Nerts tests, round 16: the worked examples 7 to 11 of ``rules/nerts.md`` §14 (jokers, the
stalemate end, partnerships, the end of the game with a tie, a false call), each varied one fact at a
time, refereed through ``kiosk replay --json`` from logs written from the spec and
``docs/table-log.md`` alone."""

from __future__ import annotations

from pathlib import Path

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox9 import _ev
from tests.games.test_nerts_blackbox10 import _log
from tests.games.test_nerts_blackbox12 import _play


def test_a_joker_more_than_the_deck_holds_starting_a_pile_undeclared_lies_as_an_open_ace(
        tmp_path: Path) -> None:
    """§14 Example 7 with one card more: Cal has already played both his jokers when a third one of his
    starts pile H undeclared. docs/table-log.md (``seen_twice``: "the card lies on the pile all the
    same: it raises the pile, counted for no seat ... so the cards played on it stand") with §12 (a joker
    that starts a foundation leaves its suit open until the next card placed on it shows the suit): it
    lies on H as an Ace of an open suit, so Ben's 2♥ on it stands and fixes the suit, and his 3♥
    follows."""
    events = [_ev(1, "hand_start"), _play(2, "Cal", "JOKER", "X", **{"as": "AS"}),
              _play(3, "Cal", "JOKER", "Y", **{"as": "AD"}), _play(9, "Cal", "JOKER", "H"),
              _play(10, "Ben", "2H", "H"), _play(11, "Ben", "3H", "H"), _ev(20, "call", "Ana", nerts_left=0)]
    report = replay(tmp_path, _log(events, jokers=2))
    assert [(x["kind"], x["seat"]) for x in report["infractions"]] == [("seen_twice", "Cal")]
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 0, "Ben": 2, "Cal": 2}
