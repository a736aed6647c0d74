"""Every worked example of kierki.md §14, from input to exact result, and the
whole match replayed on the strict path and through ``kiosk replay``.

The match data (§14.1 to §14.12) is copied verbatim from the spec into
``data/kierki_match.txt``; ``examples/kierki_example.jsonl`` is the table log
of the same match, generated here (set ``KIERKI_REGENERATE=1`` to rewrite it
after an intended change).
"""

from __future__ import annotations

import io
import json
import os
import re
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import pytest

from kiosk.__main__ import main
from kiosk.games.cards import Card, Suit
from kiosk.games.kierki import (
    ChooseDealer,
    Deal,
    KierkiAction,
    KierkiGame,
    KierkiState,
    NameTrump,
    Pass,
    PlayCard,
    find_deal,
    standings,
)
from kiosk.games.kierki.deals import TrickDeal
from kiosk.games.kierki.options import KierkiOptions
from kiosk.games.referee import LogHeader, TableEvent
from kiosk.games.tricks import Trick, parse_hand
from kiosk.tablelog import read_table_log, seconds_to_ns, write_table_log

SEATS = ("N", "E", "S", "W")
ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data" / "kierki_match.txt"
EXAMPLE = ROOT / "examples" / "kierki_example.jsonl"

SHEET = [  # §14.13
    (-120, -60, -80, 0), (-120, -20, -120, 0), (0, -180, 0, -60), (-90, 0, -120, -30),
    (0, 0, 0, -150), (-75, -75, 0, 0), (-535, 0, -40, -725),
    (50, 75, 25, 175), (125, 125, 25, 50), (100, 100, 50, 75), (0, 100, 50, 175), (500, 0, 0, 800),
]
FINAL = (-165, 65, -210, 310)


@dataclass
class WorkedTrick:
    trick: Trick
    winner: int
    score: int | None


@dataclass
class WorkedDeal:
    number: int
    dealer: int
    trump: Suit | None = None
    first_five: list[Card] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=lambda: [[], [], [], []])
    tricks: list[WorkedTrick] = field(default_factory=list)
    turns: list[tuple[int, int, Card | None]] = field(default_factory=list)
    scores: tuple[int, ...] = ()


_TRICK_RE = re.compile(r"^T(\d+)\s+(.*?)\s*->\s*([NESW])(?:\s+[NESW]\s+([+-]?\d+))?")
_TURN_RE = re.compile(r"(\d+)\s+([NESW]):(pass|\w+)")


def load_match() -> list[WorkedDeal]:
    deals: list[WorkedDeal] = []
    in_turns = False
    for raw in DATA.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("deal "):
            words = line.split()
            d = WorkedDeal(int(words[1]), SEATS.index(words[3]))
            if "trump" in words:
                d.trump = Suit.parse(words[words.index("trump") + 1])
                d.first_five = [Card.parse(c) for c in words[words.index("first") + 1:]]
            deals.append(d)
            in_turns = False
        elif line == "turns":
            in_turns = True
        elif line.startswith("scores "):
            vals = line.split()[1:]
            deals[-1].scores = tuple(int(vals[i + 1]) for i in range(0, 8, 2))
        elif in_turns:
            for num, seat, what in _TURN_RE.findall(line):
                card = None if what == "pass" else Card.parse(what)
                deals[-1].turns.append((int(num), SEATS.index(seat), card))
        elif line[:2] in ("N:", "E:", "S:", "W:"):
            deals[-1].hands[SEATS.index(line[0])] = parse_hand(line[2:])
        else:
            m = _TRICK_RE.match(line)
            assert m, line
            d = deals[-1]
            trick = Trick.parse(m.group(2), SEATS, trump=d.trump)
            score = int(m.group(4)) if m.group(4) else None
            d.tricks.append(WorkedTrick(trick, SEATS.index(m.group(3)), score))
    return deals


MATCH = load_match()


def deal_actions(d: WorkedDeal) -> list[KierkiAction]:
    """The strict-path actions of one worked deal."""
    actions: list[KierkiAction] = []
    if d.trump is not None:
        first = [h[:5] for h in d.hands]
        first[d.dealer] = d.first_five
        rest = [[c for c in h if c not in f] for h, f in zip(d.hands, first, strict=True)]
        actions.append(Deal(tuple(tuple(h) for h in first)))
        actions.append(NameTrump(d.dealer, d.trump))
        actions.append(Deal(tuple(tuple(h) for h in rest)))
    else:
        actions.append(Deal(tuple(tuple(h) for h in d.hands)))
    for t in d.tricks:
        actions.extend(PlayCard(s, c) for s, c in t.trick.plays)
    for _, seat, card in d.turns:
        actions.append(Pass(seat) if card is None else PlayCard(seat, card))
    return actions


def play_to(deal_number: int) -> KierkiState:
    """The strict state at the start of ``deal_number`` (dealt, nothing played)."""
    state = KierkiGame().new_initial_state()
    state.apply_action(ChooseDealer(0))
    for d in MATCH[: deal_number - 1]:
        for a in deal_actions(d):
            state.apply_action(a)
    return state


def test_fixture_holds_the_whole_match() -> None:
    assert [d.number for d in MATCH] == list(range(1, 13))
    assert [d.scores for d in MATCH] == SHEET
    for d in MATCH:
        assert sorted(c for h in d.hands for c in h) == sorted({c for h in d.hands for c in h})
        assert all(len(h) == 13 for h in d.hands)


@pytest.mark.parametrize("number", range(1, 12))
def test_trick_deal_from_hands_to_scores(number: int) -> None:
    d = MATCH[number - 1]
    state = play_to(number)
    assert state.dealer == d.dealer
    deal = state.deal
    assert isinstance(deal, TrickDeal)
    actions = deal_actions(d)
    for a in actions[: 3 if d.trump is not None else 1]:
        state.apply_action(a)
    for i, t in enumerate(d.tricks, start=1):
        assert state.tricks is not None
        assert state.tricks.leader == t.trick.leader, f"trick {i}"
        for seat, card in t.trick.plays:
            assert PlayCard(seat, card) in state.legal_actions(), f"trick {i}: {SEATS[seat]}:{card}"
            state.apply_action(PlayCard(seat, card))
        assert t.trick.winner == t.winner, f"trick {i}"
        if t.score is not None:
            assert deal.trick_score(t.trick, i) == t.score, f"trick {i}"
    assert state.sheet[-1] == d.scores
    assert sum(d.scores) == deal.fixed_total


def test_deal_12_fan_tan_turn_by_turn() -> None:
    d = MATCH[11]
    state = play_to(12)
    state.apply_action(deal_actions(d)[0])
    for number, seat, card in d.turns:
        assert state.current_player() == seat, f"turn {number}"
        if card is None:
            assert state.legal_actions() == [Pass(seat)], f"turn {number}: the pass is forced"
            state.apply_action(Pass(seat))
        else:
            state.apply_action(PlayCard(seat, card))
        if number == 60:
            assert state.out == [3] and state.deal_scores == [0, 0, 0, 800]
    assert state.is_terminal()
    assert state.sheet[-1] == (500, 0, 0, 800)


def test_fan_tan_legal_move_snapshots() -> None:
    """§14.15: the legal sets at turns 1, 2, 12 and 14."""
    d = MATCH[11]
    state = play_to(12)
    state.apply_action(deal_actions(d)[0])
    expected = {
        1: ["7S"], 2: ["7C"], 12: ["10S", "7D", "4C"], 14: ["pass"],
    }
    for number, seat, card in d.turns:
        if number in expected:
            got = sorted(str(a).split(":")[1] for a in state.legal_actions())
            assert got == sorted(expected[number]), f"turn {number}"
        if number == 14:
            assert state.layout is not None
            fitting = sorted(str(c) for c in state.layout.fitting_cards())
            assert fitting == sorted(["4S", "JS", "7H", "7D", "4C", "QC"])
            break
        state.apply_action(Pass(seat) if card is None else PlayCard(seat, card))


def test_heart_lead_ban_snapshot_deal_2() -> None:
    """§14.2: S's legal leads at trick 1 are its nine non-hearts; N's heart lead at trick 9 is legal."""
    state = play_to(2)
    d = MATCH[1]
    state.apply_action(deal_actions(d)[0])
    leads = sorted(str(a.card) for a in state.legal_actions() if isinstance(a, PlayCard))
    assert leads == sorted("AS KS 8S 4S JD 9D 8D KC 10C".split())
    for t in d.tricks[:8]:
        for seat, card in t.trick.plays:
            state.apply_action(PlayCard(seat, card))
    assert state.current_player() == 0
    assert PlayCard(0, Card.parse("6H")) in state.legal_actions()


def test_robber_largest_single_trick_penalty() -> None:
    """§14.14: W:QH N:KH E:QS S:QD as trick 13 of deal 7 costs N 495."""
    trick = Trick.parse("W:QH N:KH E:QS S:QD", SEATS)
    robber = find_deal("robber")(KierkiOptions(), number=7)
    assert isinstance(robber, TrickDeal)
    assert SEATS[trick.winner] == "N"
    assert robber.trick_score(trick, 13) == -495
    assert robber.trick_score(Trick.parse("W:6C N:10C E:KH S:7C", SEATS), 5) == -220  # §14.7 trick 5


def test_whole_match_on_the_strict_path() -> None:
    state = play_to(13)
    assert state.is_terminal()
    assert state.sheet == SHEET
    assert tuple(state.returns()) == FINAL
    assert sum(sum(r) for r in state.sheet[:7]) == -2600
    assert sum(sum(r) for r in state.sheet[7:]) == 2600
    assert [SEATS[s] for _, s, _ in standings(state.returns())] == ["W", "E", "N", "S"]
    assert state.winners() == [3]
    view = state.public_view()
    assert view.is_over and view.winners == (3,) and view.scores == FINAL


def _events() -> list[TableEvent]:
    """The table log of the worked match: what the kiosk can know, one event per input."""
    events: list[TableEvent] = []
    t = Decimal("5")

    def add(etype: str, seat: str | None, **data: object) -> None:
        nonlocal t
        events.append(TableEvent(etype, seconds_to_ns(t), 0, seat, data))
        t += Decimal("1.25")

    for d in MATCH:
        add("deal", SEATS[d.dealer], deal=d.number)
        if d.trump is not None:
            add("trump", SEATS[d.dealer], suit=d.trump.letter)
        for wt in d.tricks:
            for seat, card in wt.trick.plays:
                add("play", SEATS[seat], card=str(card))
            add("collect", SEATS[wt.winner])
        played: set[Card] = set()
        for _, seat, turn_card in d.turns:
            if turn_card is None:
                add("pass", SEATS[seat])
            else:
                add("play", SEATS[seat], card=str(turn_card))
                played.add(turn_card)
        if d.turns:
            for seat in range(4):
                left = [str(c) for c in d.hands[seat] if c not in played]
                if left:
                    add("reveal", SEATS[seat], cards=left)
    return events


def _header() -> LogHeader:
    return LogHeader("kierki", SEATS, {}, 1, {"source": "kierki.md §14, the complete worked match"})


def test_example_log_is_the_worked_match() -> None:
    buf = io.StringIO()
    write_table_log(buf, _header(), _events())
    if os.environ.get("KIERKI_REGENERATE"):
        EXAMPLE.write_text(buf.getvalue(), encoding="utf-8")
    assert EXAMPLE.read_text(encoding="utf-8") == buf.getvalue()


def test_kiosk_replay_referees_the_example() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(["replay", str(EXAMPLE), "--json"])
    assert status == 0
    report = json.loads(out.getvalue())
    assert report["infractions"] == []
    assert [tuple(h[s] for s in SEATS) for h in report["hands"]] == SHEET
    assert tuple(report["totals"][s] for s in SEATS) == FINAL
    assert report["finished"] and report["winners"] == ["W"]
    assert [s["seat"] for s in report["extra"]["standings"]] == ["W", "E", "N", "S"]


def test_kiosk_replay_text_report() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["replay", str(EXAMPLE)]) == 0
    text = out.getvalue()
    assert "Infractions: none" in text and "Game over: W wins." in text
    assert "deal 7 (robber): N -535, E 0, S -40, W -725 (total -1300, ok)" in text


def test_example_log_reads_back() -> None:
    header, events = read_table_log(EXAMPLE)
    assert header.game == "kierki" and header.seats == SEATS
    assert sum(1 for e in events if e.type == "play") == 11 * 52 + 50
