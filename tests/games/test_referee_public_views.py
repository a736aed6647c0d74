"""Each referee's ``public_view()`` (what everyone at the table can see, ``STYLE.md``) while the
shipped example logs replay partway, and the winners re-decided after a ``score_correction``
(Nerts, Smear, Gnoming)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest

from kiosk.games.cards import Card, GnomeCard, Rank, Suit
from kiosk.games.gnoming_referee_view import GnomingTableView
from kiosk.games.kierki.state import KierkiView
from kiosk.games.nerts_referee_view import NertsTableView
from kiosk.games.referee import Referee, TableEvent
from kiosk.games.rummy_referee_view import RummyTableView
from kiosk.games.smear_referee_view import SmearTableView
from kiosk.replay import referee_for
from kiosk.tablelog import read_table_log

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
V = TypeVar("V")


def example(game: str, **options: Any) -> tuple[Referee, list[TableEvent]]:
    """A fresh referee for an example log (with some options changed) and the log's events."""
    header, events = read_table_log(EXAMPLES / f"{game}_example.jsonl")
    if options:
        header = dataclasses.replace(header, options={**header.options, **options})
    return referee_for(header), events


def fed(game: str, stop: int | None = None, **options: Any) -> tuple[Referee, list[TableEvent]]:
    """The referee after the first ``stop`` events of an example log (all of them by default)."""
    ref, events = example(game, **options)
    ref.feed_all(events[:stop])
    return ref, events


def public(ref: Referee, kind: type[V]) -> V:
    """The referee's public view, checked to be the game's frozen view dataclass."""
    got = ref.public_view()
    assert isinstance(got, kind), f"{type(ref).__name__}.public_view() gave {type(got).__name__}"
    assert not hasattr(got, "__dict__"), "a view has slots"
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(got, dataclasses.fields(cast(Any, got))[0].name, None)
    return got


def index_of(events: list[TableEvent], kind: str, nth: int = 0) -> int:
    return [i for i, e in enumerate(events) if e.type == kind][nth]


def correct(ref: Referee, seat: str, hand: int, score: int) -> None:
    t = ref.events[-1].t_ns + 1_000_000_000
    ref.feed(TableEvent("score_correction", t, seat=seat, data={"hand": hand, "score": score}))


def cards(*texts: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in texts)


# -- Nerts ------------------------------------------------------------------------------------
def test_nerts_view_mid_hand_shows_piles_counts_and_a_tie() -> None:
    ref, _ = fed("nerts", 40)
    view = public(ref, NertsTableView)
    assert (view.hand, view.phase, view.hand_over, view.game_over) == (1, "play", False, False)
    piles = {p.pid: p for p in view.foundations}
    assert len(piles) == 11 and [p.number for p in view.foundations] == list(range(1, 12))
    assert (piles["F2"].suit, piles["F2"].level, piles["F2"].top, piles["F2"].cards) == (
        Suit.CLUBS, 5, Card.parse("5C"), 5)
    # Cal's and Ana's 5♦ landed within the tie window: both stand, so F5 holds 7 cards at level 6.
    assert (piles["F5"].level, piles["F5"].cards, piles["F5"].complete) == (6, 7, False)
    assert view.foundation_counts == (11, 8, 8, 9)
    assert sum(view.foundation_counts) == sum(p.cards for p in view.foundations)
    # Untracked: a Nerts pile is counted down as its cards are seen leaving it (§12).
    assert [s.nerts_count for s in view.seats] == [13, 12, 13, 11]
    assert [s.total for s in view.seats] == [0, 0, 0, 0]


def test_nerts_view_after_the_call_and_after_the_hand() -> None:
    ref, events = fed("nerts")
    call = index_of(events, "call")
    ref, _ = fed("nerts", call + 1)
    view = public(ref, NertsTableView)
    assert (view.phase, view.hand_over, view.caller) == ("called", True, "Cal")
    assert view.seats[2].nerts_count == 0
    assert view.audit, "called, not yet counted: the players spread their cards for the audit"
    ref, _ = fed("nerts", index_of(events, "hand_end"))
    counted = public(ref, NertsTableView)
    assert [s.nerts_count for s in counted.seats] == [10, 8, 0, 2], "the seats' own counts win"
    assert not counted.audit
    ref, _ = fed("nerts", index_of(events, "hand_end") + 1)
    closed = public(ref, NertsTableView)
    assert (closed.phase, closed.hand_over, closed.foundations, closed.caller) == ("deal", True, (), "Cal")
    assert closed.hand_scores == ((-1, -4, 13, 13),)
    assert [s.total for s in closed.seats] == [-1, -4, 13, 13]
    assert all(s.nerts_count is None for s in closed.seats)


def test_nerts_correction_changing_the_leader_changes_the_winner() -> None:
    ref, _ = fed("nerts", target_score=20)
    report = ref.report()
    assert (report.finished, report.winners) == (True, ["Dee"])  # totals -8, -6, 10, 25
    assert public(ref, NertsTableView).game_over
    correct(ref, "Cal", 2, 30)  # Cal: 13 + 30 = 43
    report = ref.report()
    assert report.totals["Cal"] == 43
    shown = public(ref, NertsTableView)
    assert shown.seats[2].total == 43 and shown.hand_scores[1][2] == 30, "the panel shows the correction"
    assert (report.finished, report.winners) == (True, ["Cal"])


def test_nerts_correction_into_a_tie_for_the_lead_plays_on_or_shares() -> None:
    ref, _ = fed("nerts", target_score=20)
    correct(ref, "Cal", 2, 12)  # Cal 25, Dee 25
    assert (ref.report().finished, ref.report().winners) == (False, [])
    shared, _ = fed("nerts", target_score=20, tie_break="shared")
    correct(shared, "Cal", 2, 12)
    assert (shared.report().finished, shared.report().winners) == (True, ["Cal", "Dee"])


def test_nerts_correction_below_the_target_unfinishes_the_game() -> None:
    ref, _ = fed("nerts", target_score=20)
    correct(ref, "Dee", 2, 0)  # Dee 13: nobody reaches 20
    assert (ref.report().finished, ref.report().winners) == (False, [])


# -- Kierki -----------------------------------------------------------------------------------
def test_kierki_view_in_deal_two_shows_trick_tricks_won_and_penalty_hearts() -> None:
    ref, events = fed("kierki")
    second = index_of(events, "deal", 1)
    ref, _ = fed("kierki", second + 47)
    view = public(ref, KierkiView)
    assert (view.deal_number, view.deal_name, view.dealer, view.phase) == (2, "no_hearts", 1, "play")
    assert view.current_trick is not None and view.current_trick.plays == ((0, Card.parse("7H")),)
    assert view.to_play == 1 and view.trick_number == 10
    assert view.last_trick is not None and view.last_trick.cards == cards("6H", "5H", "4H", "3H")
    assert view.tricks_won == (4, 1, 3, 1)
    # N took a trick of four hearts; E took the K♥ on a club trick.
    assert view.penalty_cards == (cards("6H", "5H", "4H", "3H"), cards("KH"), (), ())
    assert view.deal_scores == (-80, -20, 0, 0)
    assert view.sheet == ((-120, -60, -80, 0),) and view.scores == (-120, -60, -80, 0)
    assert view.cards_left == (3, 4, 4, 4)


def test_kierki_view_before_trumps_and_in_fan_tan() -> None:
    ref, events = fed("kierki")
    trump = index_of(events, "trump")
    ref, _ = fed("kierki", trump)
    view = public(ref, KierkiView)
    assert (view.deal_number, view.phase, view.to_play, view.trump, view.current_trick) == (
        8, "name_trump", 3, None, None)
    fan_tan = index_of(events, "deal", 11)
    ref, _ = fed("kierki", fan_tan + 20)
    view = public(ref, KierkiView)
    assert (view.deal_number, view.deal_name, view.phase) == (12, "fan_tan", "fan_tan")
    assert view.layout == "C3-J D- H- S5-Q"
    assert view.cards_left == (8, 10, 8, 9) and view.to_play == 3
    ref, _ = fed("kierki")
    over = public(ref, KierkiView)
    assert (over.phase, over.is_over, over.winners) == ("over", True, (3,))
    assert over.scores == (-165, 65, -210, 310)


# -- Smear ------------------------------------------------------------------------------------
def test_smear_view_mid_trick_and_in_the_next_auction() -> None:
    ref, _ = fed("smear", 14)
    view = public(ref, SmearTableView)
    assert (view.hand, view.dealer, view.phase) == (1, 0, "play")
    assert view.calls == ((1, None), (2, 3), (3, None), (0, None))
    assert (view.bidder, view.bid, view.trump) == (2, 3, Suit.HEARTS)
    assert view.current_trick is not None and view.current_trick.leader == 2
    assert view.current_trick.plays == ((2, Card.parse("KH")), (3, Card.parse("QH")), (0, Card.parse("JH")))
    assert view.to_play == 1 and view.trick_number == 2
    assert view.tricks_won == (0, 0, 1, 0)
    ref, _ = fed("smear", 34)
    view = public(ref, SmearTableView)
    assert (view.hand, view.dealer, view.phase, view.calls, view.to_bid) == (2, 1, "auction", ((2, None),), 3)
    assert view.team_scores == (3, 1) and view.current_trick is None


def smear_team_totals(ref: Referee) -> tuple[int, int]:
    totals = ref.report().totals
    return totals["Ana"], totals["Ben"]


def test_smear_correction_changing_the_leader_changes_the_winners() -> None:
    ref, _ = fed("smear")
    assert ref.report().winners == ["Ana", "Cal"] and smear_team_totals(ref) == (16, -1)
    first = ref.report().hands[0]["Ben"]
    correct(ref, "Dee", 1, first + 20)  # E-W reach 15 in hand 1: they win there
    report = ref.report()
    assert report.totals["Ben"] == report.totals["Dee"] == 19, "partners share the corrected score"
    assert report.hands[0]["Ben"] == report.hands[0]["Dee"] == first + 20
    assert (report.finished, report.winners) == (True, ["Ben", "Dee"])
    assert report.extra["teams"]["Ben & Dee"] == 19


def test_smear_correction_below_the_target_unfinishes_the_game() -> None:
    ref, _ = fed("smear")
    last = len(ref.report().hands)
    correct(ref, "Ana", last, ref.report().hands[-1]["Ana"] - 10)
    report = ref.report()
    assert report.totals["Cal"] == 6
    assert (report.finished, report.winners) == (False, [])


# -- 3-13 -------------------------------------------------------------------------------------
def test_rummy_view_after_draw_shows_the_cadence_and_pile_tops() -> None:
    ref, _ = fed("rummy_3_13", 12)
    view = public(ref, RummyTableView)
    assert (view.hand_number, view.hand_size, view.wild_rank, view.caller) == (1, 3, Rank.THREE, "Ana")
    assert (view.phase, view.final_round, view.next_call) == ("draw", True, "discard")
    # Ben's match stood (he is out and does not draw); Dee drew from Cal's pile but has no
    # discard laid face down yet, so "discard" may not be called.
    assert view.out == (False, True, False, False)
    assert view.waiting == (3,)
    assert (view.cadence.waiting_to_draw, view.cadence.waiting_to_hold) == ((), (3,))
    assert not view.cadence.may_call_discard and not view.cadence.may_call_draw
    assert view.pile_tops == (Card.parse("QC"), Card.parse("JD"), None, Card.parse("2D"))
    assert view.pile_sizes == (2, 1, 0, 1)


def test_rummy_view_before_and_after_the_game() -> None:
    ref, events = fed("rummy_3_13", 2)
    view = public(ref, RummyTableView)
    assert (view.hand_number, view.phase, view.caller, view.wild_rank) == (0, "deal", "Ana", None)
    ref, _ = fed("rummy_3_13")
    view = public(ref, RummyTableView)
    assert (view.hand_number, view.phase, view.wild_rank) == (2, "over", Rank.FOUR)


# -- Gnoming ----------------------------------------------------------------------------------
def test_gnoming_view_mid_round_shows_face_up_cards_piles_and_turn() -> None:
    ref, _ = fed("gnoming", 20)
    view = public(ref, GnomingTableView)
    assert (view.round_number, view.rounds_total, view.stage, view.to_play) == (1, 3, "place", 0)
    maria = view.grids[0]
    assert maria.name == "Maria" and maria.face_down == 5
    g = GnomeCard.parse
    assert maria.cards == (g("G5"), None, None, g("G-4"), g("G-3"), None, g("G-1"), None, None)
    assert [grid.face_down for grid in view.grids] == [5, 7, 7]
    assert (view.pile_a, view.pile_b) == (g("G6"), g("G7"))
    assert view.held == g("G-3"), "the card that came out of Maria's grid is in her hand, face up"
    assert view.finisher is None and view.round_scores == ()


def test_gnoming_view_after_the_game_shows_revealed_grids() -> None:
    ref, _ = fed("gnoming")
    view = public(ref, GnomingTableView)
    assert (view.stage, view.to_play, view.finisher) == ("over", None, 1)
    assert all(grid.face_down == 0 and None not in grid.cards for grid in view.grids)
    assert view.round_scores == ((10, 1, 39), (-17, 7, 14), (9, 21, 23))


def test_gnoming_correction_changing_the_leader_changes_the_winner() -> None:
    ref, _ = fed("gnoming")
    assert ref.report().winners == ["Maria"]  # totals 2, 29, 76
    correct(ref, "Cal", 1, -40)  # Cal: 76 - 39 - 40 = -3
    report = ref.report()
    assert report.totals["Cal"] == -3
    assert report.winners == ["Cal"]


@pytest.mark.parametrize(("round_3", "winners"), [(21, ["Maria"]), (8, ["Ben"])])
def test_gnoming_correction_into_a_tie_goes_to_the_lowest_last_round(
    round_3: int, winners: list[str]
) -> None:
    ref, _ = fed("gnoming")
    # Ben's total becomes Maria's 2; the lower round-3 score (Maria's is 9) breaks the tie (§7).
    correct(ref, "Ben", 1, 2 - 7 - round_3)
    correct(ref, "Ben", 3, round_3)
    report = ref.report()
    assert report.totals["Ben"] == report.totals["Maria"] == 2
    assert report.winners == winners
