"""The tracker on small hand-made tables: one case per fault found in simulated hands.

Each case films a few cards as boxes in table millimetres (a camera at 1 px per mm, global
shutter, 60 fps), moving the way the simulator moves them (``vision.simulator.motion``), and
checks the events the referee would get.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from kiosk.games.nerts_referee_view import NertsTableView
from kiosk.games.referee import LogHeader, TableEvent
from kiosk.replay import referee_for
from tests.vision.flights import flight as _flight
from vision.calibration import Calibration
from vision.events import CardSighting, Frame
from vision.layout import CARD_H_MM, CARD_W_MM, NertsLayout
from vision.nerts_tracker import NertsTracker
from vision.tracker import MOVE_CREEP_NS, REST_CREEP_NS, Landing

SEATS = ["Ana", "Ben", "Cal", "Dee"]
PERIOD = 16_666_667
Box = tuple[float, float, float, float]
Scene = Callable[[int, int], list[CardSighting]]


def _box(x: float, y: float, w: float = CARD_W_MM, h: float = CARD_H_MM) -> Box:
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def _whole(card: str, box: Box) -> CardSighting:
    quad = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
    return CardSighting(card, 0.95, box, quad)


def _part(card: str, box: Box) -> CardSighting:
    return CardSighting(card, 0.5, box)


def _film(
    scene: Scene, frames: int, *, drop: frozenset[int] = frozenset()
) -> tuple[list[TableEvent], NertsTracker]:
    tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0))
    events: list[TableEvent] = []
    for k in range(frames):
        t = k * PERIOD
        events += tracker.feed(Frame(None, t, k), [] if k in drop else scene(k, t))
    events += tracker.flush()
    return events, tracker


def _plays(events: list[TableEvent]) -> list[TableEvent]:
    return [e for e in events if e.type == "foundation_play"]


def _one_play_between(events: list[TableEvent], play: tuple[str, str, str], after: int, by: int) -> None:
    """The events hold one play, ``(seat, card, from)``, whose time and err lie within frames
    ``after`` to ``by``."""
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("from")) for e in plays] == [play]
    assert after * PERIOD <= plays[0].t_ns - plays[0].err_ns
    assert plays[0].t_ns + plays[0].err_ns <= by * PERIOD


def _one_play_landing_within_err(events: list[TableEvent], play: tuple[str, str, str], t_land: int) -> None:
    """The events hold one play, ``(seat, card, from)``, and the true landing time ``t_land`` lies
    within its stated err (the message shows both, in ms)."""
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("from")) for e in plays] == [play]
    assert abs(plays[0].t_ns - t_land) <= plays[0].err_ns, (
        (plays[0].t_ns - t_land) / 1e6,
        plays[0].err_ns / 1e6,
    )


LAYOUT = NertsLayout(SEATS)
F0 = LAYOUT.slots[(None, "foundation", 0)].pose
ANA_WASTE = LAYOUT.slots[("Ana", "waste", 0)].pose
ANA_NERTS = LAYOUT.slots[("Ana", "nerts", 0)].pose
BEN_WASTE = LAYOUT.slots[("Ben", "waste", 0)].pose


def test_a_resting_card_covered_from_several_sides_makes_no_event() -> None:
    # AH lands on a foundation, then a hand passes over it: for a while only a shrinking, then
    # growing part of it shows (its box loses sides on two axes at once).
    t_lift, t_land = 20 * PERIOD, 40 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        x, y = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), t_lift, t_land, t)
        b = _box(x, y)
        if 70 <= k < 90:
            c = min(k - 70, 90 - k, 6)
            return [_part("AH", (b[0] + 3 * c, b[1], b[2] - 4 * c, b[3] - 8 * c))]
        return [_whole("AH", b)]

    events, _ = _film(scene, 130)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in _plays(events)] == [("Ana", "AH", "F1")]
    assert [e for e in events if e.type == "move"] == []


def test_a_fast_throw_with_a_dropped_frame_is_followed_from_the_seat_it_left() -> None:
    # 7S from Ana's waste to the centre in 0.2 s (about 4 m/s at its fastest); a frame is lost mid-flight.
    t_lift, t_land = 30 * PERIOD, 30 * PERIOD + 200_000_000

    def scene(k: int, t: int) -> list[CardSighting]:
        a = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 5 * PERIOD, 15 * PERIOD, t)
        x, y = _flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x + 4, F0.y - 3), t_lift, t_land, t)
        out = [_whole("AS", _box(*a))] if t >= 15 * PERIOD or k < 5 else []
        return out + [_whole("2S", _box(x, y))]

    events, _ = _film(scene, 70, drop=frozenset({34, 35}))
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("from")) for e in plays][-1] == ("Ana", "2S", "waste")
    last = plays[-1]
    assert abs(last.t_ns - t_land) <= max(last.err_ns, 3_000_000)
    # The lift: the card was still at rest in the last frame before t_lift, and moving soon after.
    t_lift_seen = float(last.get("t_lift")) * 1e9
    assert t_lift - PERIOD <= t_lift_seen <= t_lift + PERIOD


@pytest.mark.parametrize("period", [PERIOD, 50_000_000])
def test_a_lift_is_timed_between_the_last_sighting_at_rest_and_the_first_off_it(period: int) -> None:
    # Ana's 2S leaves her waste at 0.5 s and lands on F0 at 0.75 s, filmed at 60 or 20 fps: the lift
    # lies between her last sighting at rest and her first off it, and err_lift says how far apart those
    # are (the referee rules "two cards in flight", and a lift after the call, only beyond it). A card
    # starts slowly: it may have begun to move a frame before it shows.
    t_lift, t_land = 500_000_000 + period // 3, 750_000_000
    tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0))
    events: list[TableEvent] = []
    for k in range(2_000_000_000 // period):
        t = k * period
        box = _box(*_flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y), t_lift, t_land, t))
        events += tracker.feed(Frame(None, t, k), [_whole("2S", box)])
    events += tracker.flush()
    (play,) = _plays(events)
    lift, err = float(play.get("t_lift")) * 1e9, float(play.get("err_lift")) * 1e9
    assert 0 < err <= period
    assert lift - err - period <= t_lift <= lift + err + 1


def test_a_card_read_a_little_larger_at_rest_for_a_while_is_not_lifted_then() -> None:
    # Seed 2 at 20 fps: Ana's 2D lay in her waste, read by boxes a few pixels larger for half a second (the
    # card over it lifted off, a hand at its edge), then left for a pile. Its lift was put where the larger
    # boxes began, 540 ms early, before the landing of the card she had just played, and the referee ruled
    # "two cards in flight". Seen still all that while, it left after it was last seen there.
    t_lift, t_land = 1_100_000_000, 1_400_000_000
    tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0))
    events: list[TableEvent] = []
    for k in range(2_500_000_000 // 50_000_000):
        t = k * 50_000_000
        x, y = _flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y), t_lift, t_land, t)
        box = _box(x, y)
        if 600_000_000 <= t <= t_lift:
            box = (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3)
        events += tracker.feed(Frame(None, t, k), [_part("2D", box)])
    events += tracker.flush()
    (play,) = _plays(events)
    lift, err = float(play.get("t_lift")) * 1e9, float(play.get("err_lift") or 0) * 1e9
    assert abs(lift - t_lift) <= err + 50_000_000, ((lift - t_lift) / 1e6, err / 1e6)


def _ana_4h(t: int, pile: tuple[float, float], covered_at: int) -> list[CardSighting]:
    """Ana's 4H, which starts the pile of the 5H races below: flown from her Nerts pile over the first
    ten frames, then at rest on ``pile`` until a 5H covers it at ``covered_at``."""
    if t < 12 * PERIOD:
        return [_whole("4H", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), pile, 0, 10 * PERIOD, t)))]
    return [_whole("4H", _box(*pile))] if t < covered_at else []


def _ben_5h_then_ana(
    t: int, pile: tuple[float, float], ben: tuple[int, int], ana: tuple[int, int], off: float
) -> tuple[list[CardSighting], Box]:
    """The pile's 4H (:func:`_ana_4h`) and Ben's 5H flown onto it over ``ben`` (lift, landing), seen until
    Ana's lands; and the box of Ana's 5H at ``t``, flown over ``ana`` to ``off`` mm past the pile."""
    out = _ana_4h(t, pile, ben[1])
    if t < 12 * PERIOD:
        return out, _box(ANA_WASTE.x, ANA_WASTE.y)
    if t < ana[1]:
        out.append(_whole("5H", _box(*_flight((BEN_WASTE.x, BEN_WASTE.y), pile, *ben, t))))
    return out, _box(*_flight((ANA_WASTE.x, ANA_WASTE.y), (pile[0] + off, pile[1] + off), *ana, t))


def _assert_5h_race(events: list[TableEvent], ben_land: int, ana_land: int, max_err: int) -> None:
    """Ben's 5H and then Ana's were played, each timed within its stated err (or 2 ms) of the truth."""
    plays = [e for e in _plays(events) if e.get("card") == "5H"]
    assert [e.seat for e in plays] == ["Ben", "Ana"]
    for e, t_true in zip(plays, (ben_land, ana_land), strict=True):
        assert abs(e.t_ns - t_true) <= max(e.err_ns, 2_000_000), (e.seat, (e.t_ns - t_true) / 1e6)
        assert e.err_ns < max_err


def test_a_race_card_landing_on_its_twin_keeps_its_own_track() -> None:
    # Ben's 5H lands on a pile, then Ana's 5H (another deck) lands on it 120 ms later, almost
    # centred on it but turned a little (a larger box): two plays, each at its own time.
    ben = (20 * PERIOD, 20 * PERIOD + 300_000_000)
    ana = (ben[1] - 200_000_000, ben[1] + 120_000_000)
    pile = (F0.x, F0.y)

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("4H", _box(*pile))] if t < ben[1] else []
        b = _box(*_flight((BEN_WASTE.x, BEN_WASTE.y), pile, *ben, t))
        a = _box(*_flight((ANA_WASTE.x, ANA_WASTE.y), pile, *ana, t), 74.0, 95.0)
        if t < ana[1]:
            out.append(_whole("5H", b))
        out.append(_whole("5H", a))
        return out

    def start(k: int, t: int) -> list[CardSighting]:
        # The pile's 4H arrives first (so the pile exists), then the race.
        if t < 12 * PERIOD:
            x, y = _flight((ANA_NERTS.x, ANA_NERTS.y), pile, 0, 10 * PERIOD, t)
            return [_whole("4H", _box(x, y))]
        return scene(k, t)

    events, _ = _film(start, 90)
    plays = [e for e in _plays(events) if e.get("card") == "5H"]
    assert [e.seat for e in plays] == ["Ben", "Ana"]
    for e, t_true in zip(plays, (ben[1], ana[1]), strict=True):
        assert abs(e.t_ns - t_true) <= max(e.err_ns, 3_000_000)
        assert e.err_ns < 20_000_000


@pytest.mark.parametrize("hidden_after", [0, 3])
def test_a_race_loser_that_stops_unseen_under_the_winners_hand_is_timed_by_its_motion(
    hidden_after: int,
) -> None:
    # Ben's 5H lands on the pile; Ana's 5H lands on it 150 ms later, unseen for its last three frames
    # (Ben's hand is still over the pile), and then rests on top, almost where Ben's lies. Its landing
    # was put within a frame of its last sighting (25 ms early, stated err 17 ms); its slowing motion
    # shows when it stopped.
    pile = (F0.x, F0.y)
    ben = (20 * PERIOD, 20 * PERIOD + 300_000_000)
    ana = (ben[1] + 150_000_000 - 280_000_000, ben[1] + 150_000_000)

    def scene(k: int, t: int) -> list[CardSighting]:
        out, a = _ben_5h_then_ana(t, pile, ben, ana, 1.0)
        if t >= 12 * PERIOD and not ana[1] - 3 * PERIOD <= t < ana[1] + hidden_after * PERIOD:
            out.append(_whole("5H", a))
        return out

    events, _ = _film(scene, 100)
    _assert_5h_race(events, ben[1], ana[1], max_err=10_000_000)


def _qd_slid_under_work_pile_1(
    misread: Callable[[int, int], str] = lambda t, t_land: "QD",
    *,
    boxed_with_pile: float | None = None,
    card: str = "QD",
) -> tuple[Scene, tuple[float, float]]:
    """QD (or ``card``) from Ana's waste slid under her work pile 1 (a 9C): at rest only its end beyond the
    pile's base shows. ``misread(t, t_land)`` is what the recogniser calls it in flight. With
    ``boxed_with_pile``, the recognizer boxes it at rest with the 9C over it, the box reaching that many
    mm beyond the 9C's far edge. Returns the scene and where the card's centre comes to rest."""
    slot = LAYOUT.slots[("Ana", "work", 1)]
    base = slot.card_pose(0)
    under = (base.x - slot.fan[0], base.y - slot.fan[1])
    t_lift, t_land = 10 * PERIOD, 10 * PERIOD + 300_000_000
    base_box = _box(base.x, base.y)

    def scene(k: int, t: int) -> list[CardSighting]:
        x, y = _flight((ANA_WASTE.x, ANA_WASTE.y), under, t_lift, t_land, t)
        b = _box(x, y)
        if t < t_land:
            return [_whole("9C", base_box), _whole(misread(t, t_land), b)]
        if boxed_with_pile is not None:
            b0 = base_box
            return [_whole("9C", b0), _part(card, (b0[0], b0[1] - boxed_with_pile, b0[2], b0[3]))]
        return [_whole("9C", base_box), _part(card, (b[0], b[1], b[2], base_box[1]))]

    return scene, under


def test_a_card_slid_under_a_work_pile_is_placed_by_its_fuller_view() -> None:
    # QD from Ana's waste under work pile 1 (M7): at rest only its end beyond the pile's base shows.
    scene, under = _qd_slid_under_work_pile_1()
    events, tracker = _film(scene, 50)
    moves = [e for e in events if e.type == "move"]
    assert [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in moves] == [
        ("Ana", "QD", "waste", "under1")
    ]
    assert _plays(events) == []
    qd = next(tr for tr in tracker.table.tracks if tr.card == "QD")
    assert abs(qd.rest_y - under[1]) < 5.0


def test_a_card_landing_off_centre_goes_on_the_pile_it_fits() -> None:
    # AH starts a pile; 2H lands 55 mm beside it (placed from a partial view, say): it is a play on
    # that pile, not a second pile (only an Ace starts one).
    def scene(k: int, t: int) -> list[CardSighting]:
        a = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 12 * PERIOD, t)
        b = _flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x + 55, F0.y), 30 * PERIOD, 45 * PERIOD, t)
        out = [_whole("AH", _box(*a))] if t < 45 * PERIOD else []
        return out + [_whole("2H", _box(*b))]

    events, tracker = _film(scene, 80)
    assert [(e.get("card"), e.get("pile")) for e in _plays(events)] == [("AH", "F1"), ("2H", "F1")]
    assert len(tracker.piles) == 1


def test_a_card_slid_under_a_pile_it_jostled_goes_under_by_the_rules() -> None:
    # Seed 2's Dee 8C under his 7H: the recognizer boxes the 10H slid under Ana's 9C with the 9C over it,
    # 2 mm beyond the 9C's far edge, so its place says "onto"; only "under" is legal (M5, M7). The hand that
    # slides it hides the 9C (its box jumps 30 mm for two frames, then it is not seen for six) and leaves it
    # 6 mm off, at rest again only after the 10H landed: still the pile the rules read (before, it was left
    # out as a card come to rest there since, and the move went "onto").
    slid, _ = _qd_slid_under_work_pile_1(lambda t, t_land: "10H", boxed_with_pile=2.0, card="10H")
    t_land = 10 * PERIOD + 300_000_000

    def scene(k: int, t: int) -> list[CardSighting]:
        out = slid(k, t)
        b = out[0].box
        if t_land - 8 * PERIOD <= t < t_land - 6 * PERIOD:
            out[0] = _part("9C", (b[0] - 30, b[1] + 15, b[2] - 40, b[3] + 5))
        elif t_land - 6 * PERIOD <= t < t_land:
            out = out[1:]
        elif t >= t_land:
            out[0] = _whole("9C", (b[0] + 6, b[1], b[2] + 6, b[3]))
        return out

    events, _ = _film(scene, 60)
    moves = [e for e in events if e.type == "move"]
    assert [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in moves] == [
        ("Ana", "10H", "waste", "under1")
    ]


def test_a_misread_at_the_landing_spot_does_not_hide_a_slide_under() -> None:
    # As QD comes to rest under work pile 1, the recogniser reads it as 5C for two frames: that
    # fleeting "card" is not part of the pile, so the move is still a slide under.
    scene, _ = _qd_slid_under_work_pile_1(lambda t, t_land: "5C" if t_land - 2 * PERIOD <= t else "QD")
    events, _ = _film(scene, 50)
    moves = [e for e in events if e.type == "move"]
    assert [(e.get("card"), e.get("to")) for e in moves] == [("QD", "under1")]


BLOCK_LIFT, BLOCK_LAND = 20 * PERIOD, 20 * PERIOD + 300_000_000
"""When Ana's block 8C 7D 6C leaves her work pile 2, and when it lands on the 9S of her work pile 3."""


def _block_move(k: int, t: int, *, hide_8c: range = range(0)) -> list[CardSighting]:
    """Ana moves the block 8C 7D 6C from work pile 2 onto the 9S of work pile 3 (M6): in the air only
    the top card shows, at rest the whole run is fanned. The 8C is unseen in the frames ``hide_8c``."""
    src, dst = LAYOUT.slots[("Ana", "work", 2)], LAYOUT.slots[("Ana", "work", 3)]
    block = ["8C", "7D", "6C"]
    d0 = dst.card_pose(0)
    out = [_whole("9S", _box(d0.x, d0.y))]
    for i, card in enumerate(block):
        a, b = src.card_pose(i), dst.card_pose(i + 1)
        x, y = _flight((a.x, a.y), (b.x, b.y), BLOCK_LIFT, BLOCK_LAND, t)
        if BLOCK_LIFT < t < BLOCK_LAND + PERIOD and i < len(block) - 1:
            continue
        if card == "8C" and k in hide_8c:
            continue
        out.append(_whole(card, _box(x, y)))
    return out


def test_a_block_move_is_named_by_its_bottom_card() -> None:
    # The move names the block's bottom card.
    events, _ = _film(_block_move, 140)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "8C", "work2", "work3")]


def _ana_plays_ah_then_2h(t: int) -> list[CardSighting]:
    """Ana's AH from her Nerts pile starts a pile at F0 (lands at frame 12); her 2H from the waste
    covers it (lands at frame 35)."""
    a = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 12 * PERIOD, t)
    b = _flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y), 20 * PERIOD, 35 * PERIOD, t)
    out = [_whole("2H", _box(*b))]
    if t < 35 * PERIOD:
        out.append(_whole("AH", _box(*a)))
    return out


def test_an_old_foundation_card_uncovered_in_the_centre_is_not_a_play() -> None:
    # AH starts a pile and 2H covers it. Later the pile is knocked: a strip of the AH shows again
    # beside the 2H and shifts a little. It comes from no seat and does not fit the pile: no event.
    def scene(k: int, t: int) -> list[CardSighting]:
        out = _ana_plays_ah_then_2h(t)
        if k >= 60:
            # Its strip slides up a little as the cards over it shift.
            up = max(0, 66 - k) * 4.0
            x0 = F0.x - CARD_W_MM / 2 - 12
            out.append(_part("AH", (x0, F0.y - 30 + up, x0 + 14, F0.y + 40 + up)))
        return out

    events, _ = _film(scene, 100)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ana", "AH"), ("Ana", "2H")]


def test_a_resumed_games_piles_keep_their_logged_ids() -> None:
    # After a restart the tracker is told the logged piles (F1 topped by 4H, F2 by 7S) but not where
    # they lie: the 5H that lands on the 4H continues F1, and the next Ace starts F3, not F1 again.
    f1 = LAYOUT.slots[(None, "foundation", 1)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        five = _flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y), 10 * PERIOD, 25 * PERIOD, t)
        ace = _flight((ANA_NERTS.x, ANA_NERTS.y), (f1.x, f1.y + 150), 40 * PERIOD, 55 * PERIOD, t)
        out = [_whole("7S", _box(f1.x, f1.y)), _whole("AD", _box(*ace))]
        return (
            out + ([_whole("4H", _box(F0.x, F0.y))] if t < 25 * PERIOD else []) + [_whole("5H", _box(*five))]
        )

    tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0), piles={"F1": "4H", "F2": "7S"})
    events: list[TableEvent] = []
    for k in range(90):
        events += tracker.feed(Frame(None, k * PERIOD, k), scene(k, k * PERIOD))
    events += tracker.flush()
    assert [(e.get("card"), e.get("pile")) for e in _plays(events)] == [("5H", "F1"), ("AD", "F3")]


def test_a_second_sighting_of_a_piles_top_card_is_not_a_play() -> None:
    # Ana plays AH, then 2H, to a pile. Ben's own 2H rests in his waste until his next waste card
    # covers it. Later a hand uncovers part of the pile and the 2H on top is seen a second time,
    # off to one side, at rest: it must not be taken for Ben's 2H landing there unseen (a race twin
    # ties within a few frames of the other card, in sight).
    def scene(k: int, t: int) -> list[CardSighting]:
        out = _ana_plays_ah_then_2h(t)
        if k < 60:
            out.append(_whole("2H", _box(BEN_WASTE.x, BEN_WASTE.y)))
        if k >= 75:
            out.append(_part("2H", _box(F0.x + 30, F0.y + 8, CARD_W_MM * 0.6, CARD_H_MM * 0.8)))
        return out

    events, _ = _film(scene, 130)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ana", "AH"), ("Ana", "2H")]


@pytest.mark.parametrize("phase_ns", [0, 2_000_000, 10_000_000])
def test_a_partial_view_of_a_card_still_creeping_is_not_a_stop(phase_ns: int) -> None:
    # Cal's 5H slides from his waste onto the 4H of pile F1, seen only in part all the way (the hand
    # carrying it). A hand over the pile hides everything past a line 30 mm short of the 5H's rest,
    # so its leading side halts at that line while the card creeps on under it: two sightings in a row
    # barely moved, a "stop" some 60 ms early, on a box much smaller than the card. Without a race
    # twin near, and with the hand gone once it rests, its landing is the fit to its final rest.
    f1 = LAYOUT.slots[(None, "foundation", 1)].pose
    cal_waste = LAYOUT.slots[("Cal", "waste", 0)].pose
    pile = _box(f1.x, f1.y)
    t_land = 50 * PERIOD + phase_ns
    t_lift = t_land - 310_000_000

    def scene(k: int, t: int) -> list[CardSighting]:
        if t < 12 * PERIOD:
            return [_whole("4H", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (f1.x, f1.y), 0, 10 * PERIOD, t)))]
        out = [_whole("4H", pile)] if t < t_land - 100_000_000 else []
        b = _box(*_flight((cal_waste.x, cal_waste.y), (f1.x, f1.y), t_lift, t_land, t))
        if t <= t_lift or t > t_land + PERIOD:
            return [*out, _whole("5H", b)]
        bottom = min(b[3], pile[3] - 30.0) if t <= t_land else b[3]
        return [*out, _part("5H", (b[0], b[1], b[2], bottom))]

    events, _ = _film(scene, 80)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in _plays(events)] == [
        ("Ana", "4H", "F1"),
        ("Cal", "5H", "F1"),
    ]
    five = _plays(events)[-1]
    assert abs(five.t_ns - t_land) <= max(five.err_ns, 2_000_000), (five.t_ns - t_land) / 1e6
    assert five.err_ns < 20_000_000


@pytest.mark.parametrize("seen_at_rest", [2, 3, 4])
def test_the_first_card_of_a_race_covered_just_after_it_stopped_still_lands(seen_at_rest: int) -> None:
    # Ben's 5H comes to rest on the pile and is seen still for a few frames, fewer than a landing
    # waits for (three at rest, three more to confirm); then Ana's hand, bringing her own 5H, covers
    # it, and her card lands on it 120 ms after his. His landing was lost with the confirmation (and
    # the referee heard only of Ana's card): a card seen at rest and then covered has landed.
    pile = (F0.x, F0.y)
    ben = (20 * PERIOD + 4_000_000, 20 * PERIOD + 304_000_000)
    ana = (ben[1] - 180_000_000, ben[1] + 120_000_000)
    covered_from = ben[1] + seen_at_rest * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        out = _ana_4h(t, pile, ben[1])
        if t < 12 * PERIOD:
            return out
        if t < covered_from:
            out.append(_whole("5H", _box(*_flight((BEN_WASTE.x, BEN_WASTE.y), pile, *ben, t))))
        a = _flight((ANA_WASTE.x, ANA_WASTE.y), (pile[0] + 7, pile[1] - 5), *ana, t)
        return [*out, _whole("5H", _box(*a))]

    events, _ = _film(scene, 90)
    _assert_5h_race(events, ben[1], ana[1], max_err=20_000_000)


def test_a_misread_joined_to_a_nudged_pile_card_that_is_then_covered_is_no_play() -> None:
    # Ana's AH rests on a pile. A stray "AH" is read once elsewhere in the centre; three frames later a
    # hand nudges the pile's AH 10 mm aside (seen in part) and then covers it. The stray reading and the
    # nudged views make a "card" that flew and came to rest, covered before its landing was confirmed:
    # it never flew (one sighting in motion), so it is no play.
    def scene(k: int, t: int) -> list[CardSighting]:
        x, y = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 12 * PERIOD, t)
        if k == 40:
            return [_whole("AH", _box(x, y)), _part("AH", _box(F0.x + 150, F0.y - 90))]
        if 43 <= k < 46:
            return [_part("AH", _box(x - 10, y))]
        if 46 <= k < 60:
            return []
        return [_whole("AH", _box(x, y))]

    events, _ = _film(scene, 90)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ana", "AH")]
    assert [e for e in events if e.type == "move"] == []


@pytest.mark.parametrize("still_frames", [2, 3])
def test_a_race_loser_taken_back_at_once_still_landed(still_frames: int) -> None:
    # Ben's 5H lands on the pile; Ana's lands on it 100 ms later, lies still for a few frames (fewer
    # than a landing waits for) and is taken back to her waste at once (she lost the race, §6.1).
    # The referee must hear of her card to rule on the race: it landed, then it was lifted.
    pile = (F0.x, F0.y)
    ben = (20 * PERIOD + 4_000_000, 20 * PERIOD + 304_000_000)
    ana = (ben[1] - 200_000_000, ben[1] + 100_000_000)
    back = (ana[1] + still_frames * PERIOD, ana[1] + still_frames * PERIOD + 250_000_000)
    ana_rest = (pile[0] + 12, pile[1] + 9)

    def scene(k: int, t: int) -> list[CardSighting]:
        out = _ana_4h(t, pile, ben[1])
        if t < 12 * PERIOD:
            return out
        out.append(_whole("5H", _box(*_flight((BEN_WASTE.x, BEN_WASTE.y), pile, *ben, t))))
        if t < back[0]:
            a = _flight((ANA_WASTE.x, ANA_WASTE.y), ana_rest, *ana, t)
        else:
            a = _flight(ana_rest, (ANA_WASTE.x, ANA_WASTE.y), *back, t)
        return [*out, _whole("5H", _box(*a))]

    events, _ = _film(scene, 100)
    _assert_5h_race(events, ben[1], ana[1], max_err=20_000_000)
    assert [e for e in events if e.type == "move"] == []


# The two 6H of a race as the simulator's camera saw them (seed 16, 24.0-24.6 s; boxes mapped to table
# millimetres): Cal's from his Nerts pile (upright), Dee's from her work pile 2 (sideways), both hidden
# under the hands for six frames as they reach the pile, seen again side by side; then Cal takes his back.
_SEED16_TWO_6H: list[list[tuple[int, int, int, int, bool]]] = [
    [(972, 191, 1038, 282, True), (1404, 481, 1495, 545, True)],
    [(972, 191, 1038, 282, True), (1404, 481, 1495, 545, True)],
    [(972, 191, 1038, 282, True), (1404, 481, 1495, 545, True)],
    [(972, 192, 1038, 282, False), (1404, 481, 1495, 545, True)],
    [(972, 192, 1038, 282, False), (1404, 481, 1495, 545, False)],
    [(971, 192, 1038, 282, False), (1404, 481, 1495, 545, False)],
    [(960, 197, 1027, 287, False), (1404, 481, 1495, 545, False)],
    [(935, 209, 1002, 299, False), (1404, 481, 1494, 545, False)],
    [(898, 226, 966, 317, False), (1404, 481, 1494, 545, False)],
    [(859, 245, 927, 336, False), (1404, 481, 1495, 546, False)],
    [(819, 264, 889, 356, False), (1393, 480, 1484, 545, False)],
    [(779, 284, 850, 375, False), (1328, 474, 1419, 539, False)],
    [(740, 303, 811, 394, False), (1226, 467, 1316, 532, False)],
    [(700, 323, 772, 414, False), (1120, 461, 1211, 526, False)],
    [(660, 342, 733, 433, False), (1014, 456, 1105, 523, False)],
    [(623, 361, 697, 451, False), (906, 453, 998, 520, False)],
    [(590, 377, 664, 467, False), (799, 452, 892, 519, False)],
    [(561, 392, 635, 482, False), (698, 452, 791, 519, False)],
    [(535, 409, 607, 484, False), (614, 453, 707, 521, False)],
    [(514, 419, 584, 489, False), (545, 454, 638, 519, False)],
    [(494, 457, 565, 480, False)],
    [],
    [],
    [],
    [],
    [],
    [],
    [(450, 449, 517, 506, False)],
    [(431, 458, 521, 523, False), (449, 449, 517, 538, False)],
    [(431, 458, 521, 523, False), (447, 449, 517, 538, False)],
    [(431, 458, 521, 527, False), (445, 449, 517, 538, False)],
    [(431, 458, 521, 527, False), (445, 449, 517, 538, False)],
    [(431, 459, 521, 527, False), (445, 448, 517, 538, False)],
    [(431, 462, 464, 527, False), (456, 446, 528, 535, False)],
    [(431, 460, 516, 527, False), (488, 439, 561, 525, False)],
    [(431, 458, 521, 527, False), (536, 424, 609, 509, False)],
    [(431, 458, 521, 527, False), (588, 404, 660, 489, False)],
    [(431, 458, 521, 527, False), (639, 378, 711, 468, False)],
    [(431, 458, 521, 527, False), (690, 355, 761, 445, False)],
    [(431, 458, 521, 527, False), (740, 330, 810, 421, False)],
]


def test_a_race_seen_through_the_hands_makes_both_plays_with_their_seats() -> None:
    # Dee's card stops first and lies still for four frames; Cal's, landing beside it, is taken back
    # at once. The first sightings of Cal's card leaving were joined to Dee's track, still waiting to
    # confirm its rest: her play was lost (the referee heard only of Cal's). A card still for four
    # sightings on a foundation and then moving has landed; it lands, then is lifted.
    f2 = (479.0, 495.0)
    recorded_from = 20

    def scene(k: int, t: int) -> list[CardSighting]:
        x, y = _flight((ANA_NERTS.x, ANA_NERTS.y), f2, 0, 10 * PERIOD, t)
        out = [_whole("5H", _box(x, y))] if k < recorded_from + 20 else []
        i = min(k - recorded_from, len(_SEED16_TWO_6H) - 1)
        for x0, y0, x1, y1, whole in _SEED16_TWO_6H[max(0, i)]:
            if i < len(_SEED16_TWO_6H) - 1 or x0 < 600:
                out.append((_whole if whole else _part)("6H", (x0, y0, x1, y1)))
        return out

    events, _ = _film(scene, recorded_from + len(_SEED16_TWO_6H) + 20)
    plays = [(e.seat, e.get("pile")) for e in _plays(events) if e.get("card") == "6H"]
    assert plays == [("Dee", "F1"), ("Cal", "F1")]


@pytest.mark.parametrize(("line_mm", "shift_mm"), [(20.0, 5.0), (40.0, 8.0)])
def test_a_card_whose_trailing_side_stalls_under_a_hand_is_not_landed_and_lifted(
    line_mm: float, shift_mm: float
) -> None:
    # Ana's AH slides up from her Nerts pile to a pile; for its last ten frames her hand hides all of it
    # below a line (its trailing side stalls there while its leading side moves on: "still" on the side
    # that moved least), and halfway the hand shifts. That is no card lying still and then taken back:
    # it was landed 140-190 ms early (once with a second play), and must land once, when it stops.
    f1 = LAYOUT.slots[(None, "foundation", 1)].pose
    t_land = 40 * PERIOD + 5_000_000
    rest = _box(f1.x, f1.y)

    def scene(k: int, t: int) -> list[CardSighting]:
        b = _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (f1.x, f1.y), t_land - 400_000_000, t_land, t))
        if 30 <= k < 40:
            line = rest[3] + line_mm - (shift_mm if k >= 35 else 0.0)
            return [_part("AH", (b[0], b[1], b[2], min(b[3], line)))]
        return [_whole("AH", b)]

    events, _ = _film(scene, 70)
    plays = _plays(events)
    assert [(e.seat, e.get("card")) for e in plays] == [("Ana", "AH")]
    assert abs(plays[0].t_ns - t_land) <= max(plays[0].err_ns, 2_000_000), (plays[0].t_ns - t_land) / 1e6


@pytest.mark.parametrize(
    ("covered_mm", "phase_ns"),
    [(4.0, 0), (6.0, 7_000_000), (5.0, 12_000_000), (1.8, 4_000_000), (2.0, 10_000_000)],
)
def test_a_card_whose_leading_side_is_covered_at_rest_is_timed_by_its_slowing(
    covered_mm: float, phase_ns: int
) -> None:
    # Ana's 2H slides from her waste onto the AH of a pile (left and up), her hand holding its trailing
    # end (its right and bottom sides hidden in flight). As it stops, another hand covers its leading left
    # edge: at rest the box ends a few mm short of where the card's edge came to. Measured against that
    # resting box, the card seemed to reach its rest frames early (seeds 13, 16: 11-18 ms early with a
    # 4-6 ms err; seed 9's 3H, its edge covered by 2 px, 11 ms early); a side seen in flight past its
    # resting place was covered at rest.
    t_land = 60 * PERIOD + phase_ns
    t_lift = t_land - 380_000_000

    def scene(k: int, t: int) -> list[CardSighting]:
        a = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 12 * PERIOD, t)
        out = [_whole("AH", _box(*a))] if t < t_land - 60_000_000 else []
        b = _box(*_flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y), t_lift, t_land, t))
        if t <= t_lift:
            return [*out, _whole("2H", b)]
        if t <= t_land:
            return [*out, _part("2H", (b[0], b[1], b[2] - 14.0, b[3] - 9.0))]
        return [*out, _part("2H", (b[0] + covered_mm, b[1], b[2], b[3]))]

    events, _ = _film(scene, 100)
    plays = _plays(events)
    assert [(e.seat, e.get("card")) for e in plays] == [("Ana", "AH"), ("Ana", "2H")]
    two = plays[-1]
    assert abs(two.t_ns - t_land) <= max(two.err_ns, 2_000_000), ((two.t_ns - t_land) / 1e6, two.err_ns / 1e6)
    assert two.err_ns < 15_000_000


@pytest.mark.parametrize(("phase_ns", "off_px"), [(3_000_000, 1.5), (9_000_000, 1.8), (6_000_000, 1.3)])
def test_a_sighting_of_a_card_at_rest_read_a_pixel_off_is_not_its_last_motion(
    phase_ns: int, off_px: float
) -> None:
    # Ana's AH slides up from her Nerts pile to a pile and comes to rest; the recogniser's box reads half
    # a pixel back along its path in the frame before it stopped and 1.3-1.8 px back in the frame after
    # (box noise), just past what counts as still. Taken for the card's last motion, it put the landing
    # a frame or two late with a frame's err (seeds 9, 12: 34-38 ms late); its slowing, seen in the
    # sightings before, had brought it to rest before that sighting.
    t_land = 40 * PERIOD + phase_ns
    first_after = t_land // PERIOD + 1

    def scene(k: int, t: int) -> list[CardSighting]:
        x, y = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), t_land - 330_000_000, t_land, t)
        if k == first_after - 1:
            y += 0.5
        if k == first_after:
            y += off_px
        return [_whole("AH", _box(x, y))]

    events, _ = _film(scene, 80)
    plays = _plays(events)
    assert [(e.seat, e.get("card")) for e in plays] == [("Ana", "AH")]
    assert abs(plays[0].t_ns - t_land) <= max(plays[0].err_ns, 2_000_000), (plays[0].t_ns - t_land) / 1e6
    assert plays[0].err_ns < 10_000_000


@pytest.mark.parametrize(("hidden_ns", "cut_mm"), [(120_000_000, 50.0), (100_000_000, 30.0)])
def test_a_card_landing_unseen_and_seen_at_rest_with_one_end_covered_is_timed_by_its_flight(
    hidden_ns: int, cut_mm: float
) -> None:
    # Ana's 2H slides from her waste onto the AH of a pile (left and up) and is hidden by her hand for the
    # last stretch of its slide; at rest her hand still lies over its near (bottom) end, so only its far
    # part shows: its box is shorter, but only along one axis. Its slowing, seen up to the hand, reaches the
    # resting place of its far sides; the fit was refused for the box's other size and the landing put in
    # the middle of the unseen stretch (seeds 3, 6: 40-60 ms early, 59 ms err).
    t_land = 60 * PERIOD + 5_000_000
    t_lift = t_land - 400_000_000

    def scene(k: int, t: int) -> list[CardSighting]:
        a = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 12 * PERIOD, t)
        out = [_whole("AH", _box(*a))] if t < t_land - 200_000_000 else []
        b = _box(*_flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y), t_lift, t_land, t))
        if t <= t_land - hidden_ns:
            return [*out, _whole("2H", b)]
        if t <= t_land + 2 * PERIOD:
            return out
        return [*out, _part("2H", (b[0], b[1], b[2], b[3] - cut_mm))]

    events, _ = _film(scene, 110)
    plays = _plays(events)
    assert [(e.seat, e.get("card")) for e in plays] == [("Ana", "AH"), ("Ana", "2H")]
    two = plays[-1]
    assert abs(two.t_ns - t_land) <= max(two.err_ns, 2_000_000), ((two.t_ns - t_land) / 1e6, two.err_ns / 1e6)
    assert two.err_ns < 35_000_000


def test_a_race_loser_put_back_in_its_layout_and_played_again_at_once_keeps_its_seat() -> None:
    # Ben's 5H wins the race onto the pile; Ana's, 100 ms later, lies there until she takes it back to her
    # waste, where it lies still for three frames (fewer than a landing waits for) and goes on at once to
    # another pile. One track ran from the centre through her waste to that pile with no place it left: the
    # play went to the seat its first sightings pointed at (seed 21's 2D: Ben's, not Cal's). Put down
    # still in a seat's layout and picked up again, it leaves from there.
    pile, other = (F0.x, F0.y), LAYOUT.slots[(None, "foundation", 1)].pose
    ben = (20 * PERIOD + 4_000_000, 20 * PERIOD + 304_000_000)
    ana = (ben[1] - 200_000_000, ben[1] + 100_000_000)
    back = (ana[1] + 10 * PERIOD, ana[1] + 10 * PERIOD + 250_000_000)
    again = (back[1] + 2 * PERIOD, back[1] + 2 * PERIOD + 300_000_000)
    ana_rest = (pile[0] + 12, pile[1] + 9)

    def scene(k: int, t: int) -> list[CardSighting]:
        out = _ana_4h(t, pile, ben[1]) + [_whole("4H", _box(other.x, other.y))]
        if t < 12 * PERIOD:
            return out
        out.append(_whole("5H", _box(*_flight((BEN_WASTE.x, BEN_WASTE.y), pile, *ben, t))))
        if t < back[0]:
            a = _flight((ANA_WASTE.x, ANA_WASTE.y), ana_rest, *ana, t)
        elif t < again[0]:
            a = _flight(ana_rest, (ANA_WASTE.x, ANA_WASTE.y), *back, t)
        else:
            a = _flight((ANA_WASTE.x, ANA_WASTE.y), (other.x, other.y), *again, t)
        return [*out, _whole("5H", _box(*a))]

    events, _ = _film(scene, 140)
    plays = [(e.seat, e.get("from")) for e in _plays(events) if e.get("card") == "5H"]
    assert plays == [("Ben", "waste"), ("Ana", "waste"), ("Ana", "waste")]


def test_a_piles_top_card_taken_for_its_twin_lifted_unseen_from_a_layout_is_no_play() -> None:
    # Ben's AH starts a pile, seen at rest only in part (a hand over its lower right) when its place is
    # fixed. Ana's own AH rests in her work pile 1. Later her hand covers that one, and the pile's AH
    # shows with its top covered instead (at first its left side too): too far off its resting box to be
    # it, so it is taken for Ana's AH, lifted under the hand and landed on the pile unseen (seed 27's
    # 7D). A card whose flight went unseen and that ties with the pile's top is that top card seen
    # again: no play.
    work = LAYOUT.slots[("Ana", "work", 1)].pose
    pile = min(
        (s.pose for k, s in LAYOUT.slots.items() if k[0] is None),
        key=lambda p: (p.x - work.x) ** 2 + (p.y - work.y) ** 2,
    )
    t_lift, t_land = 10 * PERIOD, 10 * PERIOD + 300_000_000
    k_land = t_land // PERIOD + 1

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AH", _box(work.x, work.y))] if k < 70 else []
        b = _box(*_flight((BEN_WASTE.x, BEN_WASTE.y), (pile.x, pile.y), t_lift, t_land, t))
        if k_land <= k < k_land + 12:
            out.append(_part("AH", (b[0], b[1], b[2] - 20, b[3] - 40)))
        elif k >= 70:
            # The hand slides off its left side and stays over its top.
            out.append(_part("AH", (b[0] + 12 * max(0, 72 - k), b[1] + 15, b[2], b[3])))
        else:
            out.append(_whole("AH", b))
        return out

    events, _ = _film(scene, 110)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ben", "AH")]
    assert [e for e in events if e.type == "move"] == []


def test_a_misread_where_a_covered_side_points_does_not_take_a_landing_cards_track() -> None:
    # Ana moves 8C from her waste onto the 9D of work pile 1. As it stops, her hand covers its trailing
    # half: its box loses 30 mm on that side, so its centre jumps 15 mm on. The next frame another card
    # there is read as 8C once, just where that jump, taken for motion, would carry the card (seed 22's
    # block bottom 10S, its top covered by the 9H landing on it). The track follows the card, not the
    # misread: a covered side is no motion.
    dst = LAYOUT.slots[("Ana", "work", 1)]
    d0, d1 = dst.card_pose(0), dst.card_pose(1)
    t_lift, t_land = 20 * PERIOD, 20 * PERIOD + 300_000_000
    k_land = t_land // PERIOD + 1

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("9D", _box(d0.x, d0.y))] if k < k_land else []
        x, y = _flight((ANA_WASTE.x, ANA_WASTE.y), (d1.x, d1.y), t_lift, t_land, t)
        b = _box(x, y)
        if k_land <= k < k_land + 12:
            out.append(_part("8C", (b[0], b[1], b[2] - 30, b[3])))
        else:
            out.append(_whole("8C", b))
        if k == k_land + 1:
            out.append(_part("8C", (b[0] - 15, b[1], b[2] - 45, b[3])))
        return out

    events, _ = _film(scene, 90)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "8C", "waste", "work1")]


# Seed 16's two 6H racing to a pile, as boxes (a camera at 1 px per mm): Dee's, lying sideways, flies in
# fast from the right; Cal's, upright, comes down from above, its last sighting a sliver past the hand.
# Hands hide both for eight frames, in which Dee's lands (frame 19.9) and Cal's on it (frame 22.5).
_DEE_6H = [
    (993.6, 354.0, 1053.9, 399.3),
    (923.6, 348.5, 984.9, 394.0),
    (850.0, 344.1, 912.9, 388.6),
    (777.2, 339.4, 840.0, 385.5),
    (703.2, 336.8, 766.0, 381.9),
    (627.7, 335.6, 691.3, 381.7),
    (556.9, 334.0, 621.9, 381.0),
    (498.3, 333.7, 562.7, 382.1),
    (449.6, 334.8, 514.7, 380.3),
]
_CAL_6H = [
    (742.9, 157.1, 788.8, 220.3),
    (724.7, 165.6, 770.6, 229.4),
    (699.3, 177.4, 745.7, 240.4),
    (671.5, 190.4, 718.5, 254.8),
    (643.4, 203.0, 691.1, 268.1),
    (615.3, 217.0, 664.6, 280.4),
    (587.4, 230.6, 636.5, 294.1),
    (558.9, 243.6, 609.2, 307.0),
    (531.1, 257.3, 582.2, 320.6),
    (505.0, 269.4, 555.7, 333.3),
    (481.1, 281.1, 533.0, 343.4),
    (460.5, 291.0, 512.6, 353.6),
    (442.2, 302.0, 492.9, 356.0),
    (427.3, 309.7, 477.2, 359.1),
    (413.2, 336.1, 462.9, 351.9),
]
_DEE_REST, _CAL_REST = (368.7, 337.0, 432.3, 382.0), (381.3, 330.7, 429.3, 392.0)


def test_two_cards_of_a_race_seen_again_after_hands_hid_both_keep_their_own_tracks() -> None:
    # Seen again at rest, each lies off where its motion puts it, and Cal's sliver points nearer Dee's
    # card than Dee's own overshooting motion does: taking the cheapest pair first swapped the tracks,
    # and Dee's sideways flight, fitted to Cal's upright resting box, was refused for a 75 ms err.
    def scene(k: int, t: int) -> list[CardSighting]:
        out = []
        if 8 <= k < 17:
            out.append(_part("6H", _DEE_6H[k - 8]))
        if 3 <= k < 18:
            out.append(_part("6H", _CAL_6H[k - 3]))
        if k >= 25:
            out += [_part("6H", _DEE_REST), _part("6H", _CAL_REST)]
        return out

    events, tracker = _film(scene, 60)
    landings = sorted((lnd.t_ns, lnd.err_ns) for lnd, _ in tracker.landings if lnd.card == "6H")
    assert len(landings) == 2
    for (t, err), truth in zip(landings, (19.9 * PERIOD, 22.5 * PERIOD), strict=True):
        assert abs(t - truth) <= err < 40_000_000, ((t - truth) / 1e6, err / 1e6)


def test_a_pile_card_fixed_at_rest_in_part_and_seen_whole_later_keeps_its_track() -> None:
    # Ana's AH starts a pile; while it settles a hand covers its lower end, so its resting box is fixed
    # 20 mm short. Seen whole afterwards, then a hand sweeps over it and draws back up, nudging it: first
    # only its lower end shows, growing. Reaching past the short resting box, that view was too far off it and
    # started a new track whose growing box "moved" and landed: a second AH on the pile, a tie
    # (held-out seeds 28's AS and 22's 2S). A later view of the whole card sets how far it reaches.
    t_lift, t_land = 10 * PERIOD, 10 * PERIOD + 300_000_000
    k_land = t_land // PERIOD + 1

    def scene(k: int, t: int) -> list[CardSighting]:
        b = _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), t_lift, t_land, t))
        if k_land <= k < k_land + 10:
            return [_part("AH", (b[0], b[1], b[2], b[3] - 20))]
        if 70 <= k < 76:
            return []
        if k >= 76:
            # The hand draws back over it, nudging it 3 mm aside at first.
            cover, nudge = max(0, 84 - k) * 8.0, 3.0 if k < 78 else 0.0
            return [_part("AH", (b[0] + 8 + nudge, b[1] + cover, b[2] + nudge, b[3]))]
        return [_whole("AH", b)]

    events, _ = _film(scene, 130)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ana", "AH")]


def test_a_pile_card_read_once_far_off_while_a_hand_hides_it_never_left() -> None:
    # As QD slides under work pile 1, the hand hides the pile's 9C for four frames, and in one of them
    # another card in the air is read as 9C. That sighting "lifted" the 9C; back where it rested at once,
    # it was still taken for moving, so it was no card of the pile and the slide under read as a move
    # onto it (held-out seed 26's 4C under Cal's 3H).
    base_scene, _ = _qd_slid_under_work_pile_1()
    base = LAYOUT.slots[("Ana", "work", 1)].card_pose(0)
    t_land = 10 * PERIOD + 300_000_000
    k_land = t_land // PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        out = base_scene(k, t)
        if k_land - 2 <= k < k_land + 2:
            out = [c for c in out if c.card != "9C"]
        if k == k_land - 1:
            out.append(_whole("9C", _box(base.x - 120, base.y - 120)))
        return out

    events, _ = _film(scene, 50)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "QD", "waste", "under1")]


def test_a_block_bottom_read_once_far_off_and_hidden_a_while_keeps_its_track() -> None:
    # Ana moves the block 8C 7D 6C onto the 9S of work pile 3. Resting there, the 8C is hidden by her
    # hand for six frames, and in the first of them another card in the air is read as 8C. That sighting
    # "lifted" it; seen back where it rests a tenth of a second later, it was taken for a new card first
    # seen at rest, one that had left no pile, and the move was named by the 7D (held-out seed 22's QS).
    k_land = BLOCK_LAND // PERIOD + 1
    d1 = LAYOUT.slots[("Ana", "work", 3)].card_pose(1)

    def scene(k: int, t: int) -> list[CardSighting]:
        out = _block_move(k, t, hide_8c=range(k_land + 8, k_land + 14))
        if k == k_land + 8:
            out.append(_whole("8C", _box(d1.x + 20, d1.y - 110)))
        return out

    events, _ = _film(scene, 140)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "8C", "work2", "work3")]


def test_a_card_of_its_face_resting_on_the_next_pile_is_no_race_twin() -> None:
    # Ben's AS lies on a pile; Ana's AS starts the pile beside it, a card's length away, seen in part
    # (boxes noisy by 0.4 mm). Her hand holds its trailing end still for two frames while the card creeps
    # on, so two sightings in a row look still 70 ms before it rests. Only a race twin covering it makes
    # such a stop its landing: Ben's AS, at rest there all along, covered nothing (held-out seed 22's AS,
    # 45 ms early).
    f1 = LAYOUT.slots[(None, "foundation", 1)].pose
    start = (ANA_NERTS.x, ANA_NERTS.y - 40)
    t_lift, t_land = 30 * PERIOD, 30 * PERIOD + 400_000_000
    k_land = t_land // PERIOD
    rng = random.Random(1)

    def scene(k: int, t: int) -> list[CardSighting]:
        ben = _box(*_flight((BEN_WASTE.x, BEN_WASTE.y), (F0.x, F0.y), 0, 12 * PERIOD, t))
        b = _box(*_flight(start, (f1.x, f1.y), t_lift, t_land, t))
        if k_land - 4 <= k <= k_land - 3:
            held = _box(*_flight(start, (f1.x, f1.y), t_lift, t_land, (k_land - 4) * PERIOD))
            b = (b[0], b[1], b[2], held[3])
        noisy = (
            b[0] + rng.gauss(0, 0.4),
            b[1] + rng.gauss(0, 0.4),
            b[2] + rng.gauss(0, 0.4),
            b[3] + rng.gauss(0, 0.4),
        )
        return [_whole("AS", ben), _part("AS", noisy)]

    events, _ = _film(scene, 80)
    plays = _plays(events)
    assert [(e.seat, e.get("card")) for e in plays] == [("Ben", "AS"), ("Ana", "AS")]
    ana = plays[1]
    assert abs(ana.t_ns - t_land) <= max(ana.err_ns, 3_000_000), ((ana.t_ns - t_land) / 1e6, ana.err_ns / 1e6)


@pytest.mark.parametrize(
    ("phase_ns", "covered_ns", "hidden_ns"),
    [(5_000_000, 80_000_000, 40_000_000), (6_000_000, 80_000_000, 45_000_000)],
)
def test_a_card_whose_leading_end_a_hand_covers_as_it_lands_is_timed_by_its_trailing_side(
    phase_ns: int, covered_ns: int, hidden_ns: int
) -> None:
    # Ana's 2H slides from her Nerts pile onto the AH of a pile (up, a little left). For the last stretch
    # of its slide a hand comes over its leading (top) end, further each frame, then hides it for a frame
    # or two; it is seen whole at rest. Those top sides read further from the rest and are left out, so the
    # fit on the leading side ran on from 80-100 ms before the landing (here 9-10 ms late; held-out seed
    # 27's 2H: 41 ms late, err 25 ms), while its trailing (bottom) side was seen slowing right up to it.
    t_land = 60 * PERIOD + phase_ns
    t_lift = t_land - 400_000_000

    def scene(k: int, t: int) -> list[CardSighting]:
        work1 = LAYOUT.slots[("Ana", "work", 1)].pose
        a = _flight((work1.x, work1.y), (F0.x, F0.y), 0, 12 * PERIOD, t)
        out = [_whole("AH", _box(*a))] if t < t_land - 200_000_000 else []
        b = _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), t_lift, t_land, t))
        if t <= t_land - covered_ns or t > t_land:
            return [*out, _whole("2H", b)]
        if t <= t_land - hidden_ns:
            cover = 9.0 * (t - (t_land - covered_ns)) / PERIOD
            return [*out, _part("2H", (b[0], b[1] + cover, b[2], b[3]))]
        return out

    events, _ = _film(scene, 100)
    plays = _plays(events)
    assert [(e.seat, e.get("card")) for e in plays] == [("Ana", "AH"), ("Ana", "2H")]
    two = plays[-1]
    assert abs(two.t_ns - t_land) <= max(two.err_ns, 2_000_000), ((two.t_ns - t_land) / 1e6, two.err_ns / 1e6)
    assert abs(two.t_ns - t_land) <= 8_000_000, ((two.t_ns - t_land) / 1e6, two.err_ns / 1e6)


def _index_of(card: str, b: Box) -> CardSighting:
    """The card named by its top-left corner index alone: the index's box, not the card's."""
    return _part(card, (b[0] + 6, b[1] + 6, b[0] + 18, b[1] + 24))


def test_a_card_whose_track_began_on_another_of_its_face_still_lying_there_is_not_from_there() -> None:
    # Seed 1 at 20 fps (the kiosk's table): Ana's 2C vanishes from her waste under her hand (frame 24).
    # Cal's 2C lies in his waste; his hand slides it a little (its index seen, frames 31-33) just before
    # Ana's 2C shows at rest on the pile (frame 35, on her AC): the pile's card was followed from Cal's
    # waste and credited to him. But his 2C lies in his waste still (from frame 36): the card on the pile
    # is Ana's.
    cal_waste = LAYOUT.slots[("Cal", "waste", 0)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AC", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))]
        if k < 24:
            out.append(_whole("2C", _box(ANA_WASTE.x, ANA_WASTE.y)))
        if k <= 30:
            out.append(_whole("2C", _box(cal_waste.x, cal_waste.y)))
        elif k <= 33:
            out.append(_index_of("2C", _box(cal_waste.x + 8 * (k - 30), cal_waste.y + 8 * (k - 30))))
        if k >= 35:
            out = [_whole("2C", _box(F0.x + 1, F0.y + 2))]
        if k >= 36:
            out.append(_whole("2C", _box(cal_waste.x, cal_waste.y)))
        return out

    events, _ = _film(scene, 130)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ana", "AC"), ("Ana", "2C")]


@pytest.mark.parametrize("every", [2, 3])
def test_a_card_named_by_its_index_alone_as_its_landing_is_judged_is_landed_on_time(every: int) -> None:
    # Ana's AH flies from her Nerts pile to a foundation and rests there from frame 40. A recognizer that
    # sometimes finds only its corner index gives the index's box for it, from frame 42 on in one frame
    # in ``every``: a box well off the card's that must not read as the card moving again while its
    # landing is being judged (it was judged only at a later rest, or never).
    t_lift, t_land = 20 * PERIOD, 40 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        b = _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), t_lift, t_land, t))
        if k >= 42 and (k - 42) % every == 0:
            return [_index_of("AH", b)]
        return [_whole("AH", b)]

    events, _ = _film(scene, 130)
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in plays] == [("Ana", "AH", "F1")]
    assert abs(plays[0].t_ns - t_land) <= max(plays[0].err_ns, 3_000_000)
    assert plays[0].err_ns < 2 * PERIOD
    assert [e for e in events if e.type == "move"] == []


@pytest.mark.parametrize("first_seen", [38, 40])
def test_a_card_still_a_moment_in_its_layout_and_flown_unseen_did_not_land_there(first_seen: int) -> None:
    # Ana's hand drags her AH a little off her waste and holds it still there (frames 20-26), then throws
    # it unseen to a foundation, where it is first seen at rest with a hand still over half of it. That
    # still moment a throw away is no landing (a card stopped where it lands, then covered by a hand or a
    # card of its face, is): the play cannot be timed before the card was last seen in the layout.
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 27:
            d = min(max(k - 19, 0), 4) * 4.0
            return [_whole("AH", _box(ANA_WASTE.x + d, ANA_WASTE.y - d))]
        if k < first_seen:
            return []
        b = _box(F0.x, F0.y)
        return [_part("AH", (b[0], b[1], (b[0] + b[2]) / 2, b[3]))]

    events, _ = _film(scene, 130)
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("from")) for e in plays] == [("Ana", "AH", "waste")]
    assert plays[0].t_ns > 26 * PERIOD
    assert plays[0].t_ns - plays[0].err_ns <= first_seen * PERIOD


def test_a_card_seen_only_on_its_last_stretch_is_the_seat_whose_layout_it_vanished_from() -> None:
    # Ben's AS rests in his waste until his hand takes it (frame 20); its flight goes unseen but for its
    # last 30 mm, slowing to rest on a foundation from the side of Cal's seat (a throw that curved, or a
    # hand that carried it round): so short a stretch does not tell the seat it came from. The face that
    # vanished from a layout just before does: Ben's.
    t_land = 40 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AS", _box(BEN_WASTE.x, BEN_WASTE.y))]
        if k < 34:
            return []
        x, y = _flight((F0.x, F0.y - 30), (F0.x, F0.y), 33 * PERIOD, t_land, t)
        return [_whole("AS", _box(x, y))]

    events, _ = _film(scene, 110)
    assert [(e.seat, e.get("card"), e.get("from")) for e in _plays(events)] == [("Ben", "AS", "waste")]


def test_a_card_misread_until_just_after_it_lands_is_played_as_the_face_it_shows_at_rest() -> None:
    # Ana's AS is read as AC, as a recognizer may misread a card for many frames on end, in her Nerts pile,
    # all through its flight to a foundation and for its first frames at rest; from frame 48 on it is read
    # as what it is. The play is of the face named most in its resting place, AS.
    t_lift, t_land = 20 * PERIOD, 40 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        x, y = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), t_lift, t_land, t)
        return [_whole("AC" if k < 48 else "AS", _box(x, y))]

    events, _ = _film(scene, 130)
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in plays] == [("Ana", "AS", "F1")]
    assert abs(plays[0].t_ns - t_land) <= max(plays[0].err_ns, 3_000_000)


def test_a_card_read_at_rest_as_a_face_its_pile_does_not_take_keeps_the_face_it_flew_in_as() -> None:
    # Ana's AS starts a pile; her 2S flies onto it, read as what it is, and from just after it lands on is
    # read as 4S at rest (a recognizer may misread a card at rest for many frames on end). The pile takes a
    # 2S, not a 4S: the play stays a 2S (renamed to the face read most at rest, seed 3's Dee 6H on a 5H, read
    # 4H, became a false play the referee ruled out).
    def scene(k: int, t: int) -> list[CardSighting]:
        ace = _whole("AS", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))
        x, y = _flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y), 40 * PERIOD, 60 * PERIOD, t)
        two = _whole("2S" if k < 63 else "4S", _box(x, y))
        return [ace] if k < 40 else [two]

    events, _ = _film(scene, 160)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in _plays(events)] == [
        ("Ana", "AS", "F1"),
        ("Ana", "2S", "F1"),
    ]


def test_a_card_flown_unseen_onto_a_pile_whose_last_play_went_unseen_is_still_played() -> None:
    # Ana's AH started a pile unseen (never named: the recognizer could not read it). Her 2H then leaves
    # her waste under her hand and is first seen at rest on that pile. It does not fit the pile as the
    # tracker knows it (none there), but it would after one unseen play: it is a play, not a misread.
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("2H", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 40:
            return []
        return [_whole("2H", _box(F0.x, F0.y))]

    events, _ = _film(scene, 110)
    assert [(e.seat, e.get("card"), e.get("from")) for e in _plays(events)] == [("Ana", "2H", "waste")]


def test_a_card_lifted_in_sight_and_first_seen_again_at_rest_on_a_foundation_is_played() -> None:
    # Ben's AS rests in his waste; his hand slides it a little way off (frames 20-23, seen moving), then its
    # flight goes unseen and it is first seen again already at rest on a foundation. It left his layout in
    # sight, so no card of its face vanished from there at rest; it is his play all the same, timed between
    # its last sighting in his layout and its first on the foundation.
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AS", _box(BEN_WASTE.x, BEN_WASTE.y))]
        if k < 24:
            return [_whole("AS", _box(BEN_WASTE.x + 6.0 * (k - 19), BEN_WASTE.y))]
        if k < 45:
            return []
        return [_whole("AS", _box(F0.x, F0.y))]

    events, _ = _film(scene, 120)
    _one_play_between(events, ("Ben", "AS", "waste"), 23, 45)


def test_a_card_first_seen_on_a_foundation_by_its_index_alone_is_timed_from_a_view_of_the_card() -> None:
    # Ana's AH vanishes from her waste under her hand (frame 20). On a foundation its corner index alone
    # is named from frame 36, still, while the hand hides the rest of the card as it slides its last
    # stretch; it comes to rest at frame 42 and shows whole from frame 44. The index sat still before the
    # card did: a play timed as first seen at rest from it would end before the card landed.
    t_land = 42 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 36:
            return []
        if k < 44:
            return [_index_of("AH", _box(F0.x, F0.y))]
        return [_whole("AH", _box(F0.x, F0.y))]

    events, _ = _film(scene, 120)
    _one_play_landing_within_err(events, ("Ana", "AH", "waste"), t_land)


def test_a_card_named_now_and_then_at_rest_before_its_track_starts_is_timed_from_the_first() -> None:
    # Ben's AS vanishes from his waste under his hand (frame 20) and lands unseen on a foundation. A hand
    # over it, it is named there only in frames 38, 44 and 50 (too far apart to start a track), then in
    # every frame from 60. It was there by frame 38: its landing lies before that, not up to frame 60.
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AS", _box(BEN_WASTE.x, BEN_WASTE.y))]
        if k in (38, 44, 50) or k >= 60:
            return [_whole("AS", _box(F0.x, F0.y))]
        return []

    events, _ = _film(scene, 130)
    _one_play_between(events, ("Ben", "AS", "waste"), 20, 38)


def test_a_card_first_seen_creeping_its_last_millimetres_onto_a_foundation_is_played() -> None:
    # Ana's AH vanishes from her waste under her hand (frame 20) and is first seen on a foundation at frame
    # 40, creeping its last 6 mm to rest there (frames 40-42). Too short a path to count as a flight seen,
    # it is as good as first seen at rest: the face that vanished from her layout just before makes it her
    # play, timed between its last sighting there and its first on the foundation.
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 40:
            return []
        return [_whole("AH", _box(F0.x, F0.y + 3.0 * max(0, 42 - k)))]

    events, _ = _film(scene, 120)
    _one_play_between(events, ("Ana", "AH", "waste"), 20, 42)


def test_a_card_lifted_in_sight_and_seen_once_where_it_lands_is_played() -> None:
    # Ben's AS slides off his waste in sight (frames 20-23), flies unseen and is named once on a foundation
    # (frame 35): that sighting goes on with its track, the card in flight. Hidden again, it is named there
    # from frame 60 on, a track of its own at rest. The card that left his layout is this one: his play,
    # landed after it was last seen off the foundation and by frame 35.
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AS", _box(BEN_WASTE.x, BEN_WASTE.y))]
        if k < 24:
            return [_whole("AS", _box(BEN_WASTE.x + 6.0 * (k - 19), BEN_WASTE.y))]
        if k == 35 or k >= 60:
            return [_whole("AS", _box(F0.x, F0.y))]
        return []

    events, _ = _film(scene, 140)
    _one_play_between(events, ("Ben", "AS", "waste"), 23, 35)


ANA_WORK2 = LAYOUT.slots[("Ana", "work", 2)]


def test_a_card_lifted_from_its_waste_and_first_seen_again_at_rest_on_a_work_pile_is_a_move() -> None:
    # Ana's 9C rests in her waste; her hand slides it a little way off (frames 20-23, seen moving), then
    # carries it, hidden, onto the 10H at the head of her second work pile, fanned one step down from it,
    # where it is first seen at rest at frame 40. Its carry went unseen, but the face that left her waste
    # just before is this card: a move from her waste onto that pile, timed between the two sightings.
    top = _box(ANA_WORK2.pose.x, ANA_WORK2.pose.y)
    step = ANA_WORK2.fan[1]

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 40:
            ten = [_whole("10H", top)]
        else:
            ten = [_part("10H", (top[0], top[1], top[2], top[1] + step))]
        if k < 20:
            return [*ten, _whole("9C", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 24:
            return [*ten, _whole("9C", _box(ANA_WASTE.x, ANA_WASTE.y - 5.0 * (k - 19)))]
        if k < 40:
            return ten
        return [*ten, _whole("9C", _box(ANA_WORK2.pose.x, ANA_WORK2.pose.y + step))]

    events, _ = _film(scene, 130)
    moves = [e for e in events if e.type == "move"]
    assert [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in moves] == [
        ("Ana", "9C", "waste", "work2")
    ]
    assert 23 * PERIOD <= moves[0].t_ns - moves[0].err_ns
    # Its first sighting there may show it still creeping its last pixels: the interval reaches that far.
    assert moves[0].t_ns + moves[0].err_ns <= 40 * PERIOD + MOVE_CREEP_NS
    assert _plays(events) == []


WORK2_NEXT = (ANA_WORK2.pose.x, ANA_WORK2.pose.y + ANA_WORK2.fan[1])
"""Where a card put on the head of Ana's second work pile lies: one fan step down from it."""


def _ten_h(k: int, covered_from: int) -> list[CardSighting]:
    """The 10H at the head of Ana's second work pile at frame ``k``: seen whole, then from frame
    ``covered_from`` only its end above the card put on it."""
    top = _box(ANA_WORK2.pose.x, ANA_WORK2.pose.y)
    if k < covered_from:
        return [_whole("10H", top)]
    return [_part("10H", (top[0], top[1], top[2], top[1] + ANA_WORK2.fan[1]))]


def _one_move_landing_within_err(
    events: list[TableEvent], move: tuple[str, str, str, str], t_land: int
) -> None:
    """The events hold one move, ``(seat, card, from, to)``, and the true landing time ``t_land`` lies within
    its stated err (the message shows both, in ms)."""
    moves = [e for e in events if e.type == "move"]
    assert [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in moves] == [move]
    assert abs(moves[0].t_ns - t_land) <= moves[0].err_ns, (
        (moves[0].t_ns - t_land) / 1e6,
        moves[0].err_ns / 1e6,
    )


def test_a_move_first_seen_at_rest_while_it_still_creeps_is_timed_to_its_stop() -> None:
    # Ana slides her waste's 9C onto the 10H of her second work pile: seen sliding off her waste (frames
    # 20-23), then hidden by her hand. It comes to rest at frame 44, as the simulator slows cards. The
    # recognizer names it at frame 41 (a box without its outline) a millimetre short of where it stops:
    # within the rest tolerance, though it still creeps for 50 ms, unseen again until it rests (seed 6's Ana
    # 9D stopped 51 ms after its first sighting at rest). The move's interval reaches its stop: it ended 35 ms
    # after that first sighting, and began 120 ms after the slide was last seen, a flight to the centre's.
    end = WORK2_NEXT

    def scene(k: int, t: int) -> list[CardSighting]:
        ten = _ten_h(k, 41)
        if k < 20:
            return [*ten, _whole("9C", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 24:
            return [*ten, _whole("9C", _box(ANA_WASTE.x, ANA_WASTE.y - 5.0 * (k - 19)))]
        if k < 41 or k in (42, 43):
            return ten
        x, y = _flight((ANA_WASTE.x, ANA_WASTE.y), end, 20 * PERIOD, 44 * PERIOD, t)
        return [*ten, _part("9C", _box(x, y))]

    events, _ = _film(scene, 130)
    _one_move_landing_within_err(events, ("Ana", "9C", "waste", "work2"), 44 * PERIOD)


def test_a_move_last_seen_on_its_way_may_land_at_once() -> None:
    # Ana lifts her Nerts pile's 9C (seen sliding off, frames 20-23) and her hand carries it, hidden, onto the
    # 10H of her second work pile, where it lands at frame 27, 67 ms after its last sighting on the way. It is
    # named again from frame 45, while her hand draws back off it (its box shrinks by 5 mm on one side). Its
    # landing lies between those two sightings: a card moved within a layout has no flight to the centre
    # still to go when last seen (the interval began 120 ms after that sighting: seed 2's Ana 9S, seen 36 ms
    # before it stopped, was timed after it).
    end = WORK2_NEXT

    def scene(k: int, t: int) -> list[CardSighting]:
        ten = _ten_h(k, 27)
        if k < 24:
            x, y = _flight((ANA_NERTS.x, ANA_NERTS.y), end, 20 * PERIOD, 27 * PERIOD, t)
            return [*ten, _part("9C", _box(x, y))]
        if k < 45:
            return ten
        b = _box(*end)
        grow = max(0.0, 5.0 - 1.25 * (k - 45))
        return [*ten, _part("9C", (b[0], b[1], b[2], b[3] + grow))]

    events, _ = _film(scene, 130)
    _one_move_landing_within_err(events, ("Ana", "9C", "nerts", "work2"), 27 * PERIOD)


def test_a_card_first_named_by_its_index_alone_and_then_seen_whole_at_rest_was_not_seen_flying() -> None:
    # Ana's AH vanishes from her waste under her hand (frame 20) and lands unseen on a foundation, where it
    # is first named by its corner index alone (frame 40), then whole at rest from frame 41. The jump from
    # the index's box to the card's (35 mm between their centres) is no flight: the index lies within the
    # card. First seen at rest, it landed between its last sighting in her layout and frame 41, its first
    # view of the card (it was timed as a flight ending at frame 41: seed 5's Ana 2S, 312 ms late). The
    # index alone at frame 40 does not bound it: the index lies within the card's resting box while the card
    # still slides its last stretch (seed 2's Dee AH, landing 3 ms after its index was seen there).
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 40:
            return []
        b = _box(F0.x, F0.y)
        return [_index_of("AH", b)] if k == 40 else [_whole("AH", b)]

    events, _ = _film(scene, 120)
    _one_play_between(events, ("Ana", "AH", "waste"), 20, 41)


CAL_WASTE = LAYOUT.slots[("Cal", "waste", 0)].pose


def test_a_card_of_its_face_turned_onto_another_seats_waste_is_not_the_card_lost_in_flight() -> None:
    # Ben's AS slides off his waste in sight (frames 20-23) and is lost in flight. Cal turns an AS of his own
    # deck onto his waste (seen sliding 40 mm from frame 40, at rest from frame 46), and Ben's is first seen
    # again at rest on a foundation at frame 50. A card leaves a seat's layout only for the centre or that
    # layout: Cal's AS did not come from Ben's waste, and must not take the track that tells where Ben's did
    # (seed 5's Cal 4D, lost in flight to a foundation, was missed: a 4D coming to rest in Ben's waste took
    # its track).
    def scene(k: int, t: int) -> list[CardSighting]:
        out = []
        if k < 20:
            out.append(_whole("AS", _box(BEN_WASTE.x, BEN_WASTE.y)))
        elif k < 24:
            out.append(_whole("AS", _box(BEN_WASTE.x + 6.0 * (k - 19), BEN_WASTE.y)))
        elif k >= 50:
            out.append(_whole("AS", _box(F0.x, F0.y)))
        if k >= 40:
            start, end = (CAL_WASTE.x + 40, CAL_WASTE.y), (CAL_WASTE.x, CAL_WASTE.y)
            out.append(_whole("AS", _box(*_flight(start, end, 39 * PERIOD, 46 * PERIOD, t))))
        return out

    events, _ = _film(scene, 130)
    _one_play_between(events, ("Ben", "AS", "waste"), 23, 50)
    assert [e for e in events if e.type == "move"] == []


def test_a_card_seen_once_at_rest_and_then_by_a_track_of_its_own_is_timed_by_the_first_sighting() -> None:
    # Ben's AS flies from his waste to a foundation (frames 20-40), seen up to frame 32; it lands at frame
    # 40 and is named there once, then not for over a quarter of a second (a hand over it), too long to go
    # on with its track. From frame 60 a track of its own sees its box creep 9 mm as the hand draws back
    # (the recognizer's box takes in part of the hand), still from frame 66. A fit on that creep ends at
    # frame 66, but the card lay there at frame 40: it landed after frame 32 and by 40 (seed 5's Cal 2C,
    # 657 ms late: a false play and a miss).
    t_lift, t_land = 20 * PERIOD, 40 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AS", _box(BEN_WASTE.x, BEN_WASTE.y))]
        if k <= 32:
            return [_whole("AS", _box(*_flight((BEN_WASTE.x, BEN_WASTE.y), (F0.x, F0.y), t_lift, t_land, t)))]
        if k == 40:
            return [_part("AS", _box(F0.x, F0.y))]
        if k >= 60:
            return [_part("AS", _box(F0.x, F0.y + 1.5 * max(0, 66 - k)))]
        return []

    events, _ = _film(scene, 140)
    _one_play_between(events, ("Ben", "AS", "waste"), 31, 41)
    play = _plays(events)[0]
    assert abs(play.t_ns - t_land) <= play.err_ns


def test_a_card_first_seen_under_a_hand_where_it_rests_is_as_good_as_first_seen_at_rest() -> None:
    # Ana's AH vanishes from her waste under her hand (frame 20) and lands unseen on a foundation. It is
    # first seen there at frame 40 under the hand: its box shifts a millimetre a frame for five frames (the
    # box takes in part of the hand) and the hand covers its top end now and then (frames 41 and 43), so
    # its centre moves over 8 mm, though every box lies within the rest tolerance of where it rests. No
    # flight was seen: its landing lies between its last sighting in her layout and frame 40 (a fit on that
    # creep ended at frame 48; seed 5's Ana 8H, a move 189 ms late), or a little after it: boxes without an
    # outline within the rest tolerance may show the card still sliding its last pixels (REST_CREEP_NS).
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 40:
            return []
        b = _box(F0.x, F0.y + 1.2 * max(0, 45 - k))
        if k in (41, 43):
            return [_part("AH", (b[0], b[1] + 10.0, b[2], b[3]))]
        return [_part("AH", b)]

    events, _ = _film(scene, 130)
    _one_play_between(events, ("Ana", "AH", "waste"), 20, 40 + REST_CREEP_NS // PERIOD + 1)


def test_a_card_slid_under_a_pile_none_of_whose_cards_is_named_goes_under() -> None:
    # Ana slides the 5H from her waste under her second work pile (M7), whose cards the recognizer never
    # names, so none of them is known at rest there. At rest, the 5H shows only its end beyond the pile's
    # base, a step further out along the fan than the base's far edge (on the slot): under the pile, not
    # onto it (seed 4's Ben KD: a false move onto his pile, and a missed one under it).
    pose, step = ANA_WORK2.pose, ANA_WORK2.fan[1]
    end = (pose.x, pose.y - step)
    t_lift, t_land = 20 * PERIOD, 40 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        b = _box(*_flight((ANA_WASTE.x, ANA_WASTE.y), end, t_lift, t_land, t))
        if k <= 36:
            return [_whole("5H", b)]
        return [_part("5H", (b[0], b[1], b[2], b[1] + step))]

    events, _ = _film(scene, 130)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "5H", "waste", "under2")]


def test_a_card_named_by_its_index_alone_on_its_last_stretch_is_timed_from_a_view_of_the_card() -> None:
    # Ana's AH vanishes from her waste under her hand (frame 20). Its flight to a foundation goes unseen but
    # for one sighting of its corner index alone (frame 38), two frames before it comes to rest (frame 40),
    # already within a few millimetres of where it rests; the card itself shows from frame 41 on, its box
    # without an outline (a recognizer's). The index does not say the card had landed: the play is not
    # timed as ending there.
    t_land = 40 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        x, y = _flight((F0.x - 60, F0.y), (F0.x, F0.y), 30 * PERIOD, t_land, t)
        if k == 38:
            return [_index_of("AH", _box(x, y))]
        if k <= 40:
            return []
        return [_part("AH", _box(x, y))]

    events, _ = _film(scene, 120)
    _one_play_landing_within_err(events, ("Ana", "AH", "waste"), t_land)


def test_a_card_seen_whole_only_in_a_box_shrinking_off_the_hand_is_not_timed_by_the_shrinking() -> None:
    # Ana's AH flies from her Nerts pile to a foundation (lands at frame 40). A recognizer names it in flight
    # by its corner index alone; from frame 41 on it finds the card, but its box (no outline) takes in the
    # hand still over the card, and shrinks to the card's as the hand draws back (frames 41-46), drifting
    # as it shrinks. That reads as the card still moving: the play's err reaches back over it.
    t_lift, t_land = 20 * PERIOD, 40 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        b = _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), t_lift, t_land, t))
        if k < 20:
            return [_whole("AH", b)]
        if k < 39:
            return [_index_of("AH", b)]
        if k < 41:
            return []
        f = max(0, 46 - k) / 5
        return [_part("AH", (b[0] + 5 * f, b[1] - 7 * f, b[2] + 20 * f, b[3] + 5 * f))]

    events, _ = _film(scene, 130)
    _one_play_landing_within_err(events, ("Ana", "AH", "nerts"), t_land)


def test_a_card_first_seen_without_its_outline_still_sliding_its_last_pixels_is_timed_to_cover_them() -> None:
    # Ana's AH vanishes from her waste under her hand (frame 20) and is first seen on a foundation at frame
    # 38, in boxes without an outline (a recognizer's), already within the rest tolerance of where it rests
    # (under 4 mm off), but still sliding: it comes to rest at frame 40. The play's err reaches past the
    # first sighting there.
    t_land = 40 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 38:
            return []
        return [_part("AH", _box(*_flight((F0.x - 60, F0.y), (F0.x, F0.y), 30 * PERIOD, t_land, t)))]

    events, _ = _film(scene, 120)
    _one_play_landing_within_err(events, ("Ana", "AH", "waste"), t_land)


def test_a_card_seen_in_flight_by_its_index_and_first_seen_whole_still_sliding_is_timed_to_cover_it() -> None:
    # Ana's AH flies from her Nerts pile to a foundation, landing at frame 44. A recognizer names it in flight
    # by its corner index alone (to frame 35); a hand hides it from frame 36, and from frame 41 it shows in
    # boxes without an outline, within the rest tolerance of where it rests but still sliding its last
    # pixels. The play's err reaches past its first sightings there.
    t_lift, t_land = 20 * PERIOD, 44 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        b = _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), t_lift, t_land, t))
        if k < 20:
            return [_whole("AH", b)]
        if k < 36:
            return [_index_of("AH", b)]
        if k < 41:
            return []
        return [_part("AH", b)]

    events, _ = _film(scene, 130)
    _one_play_landing_within_err(events, ("Ana", "AH", "nerts"), t_land)


def _2h_over_an_unseen_ah(k: int, t: int, *, ah_in: tuple[Box, ...], ah_until: int) -> list[CardSighting]:
    """AHs rest at ``ah_in`` until frame ``ah_until`` and are never seen again (a hand takes one, the
    recognizer never reads it on the pile); Ana's 2H then flies in sight from her Nerts pile to F0,
    landing at frame 60."""
    out = [_whole("AH", b) for b in ah_in] if k < ah_until else []
    x, y = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 45 * PERIOD, 60 * PERIOD, t)
    return [*out, _whole("2H", _box(x, y))]


def test_a_play_skipping_a_rank_credits_the_unseen_card_to_the_layout_it_vanished_from() -> None:
    # A 2H lands on a pile the tracker never saw start: its AH went there unseen. The only AH that
    # vanished from a layout shortly before is Ana's (her waste, last seen at frame 19): it is her play,
    # timed between that sighting and the 2H's landing, and her 2H follows it on the same pile.
    events, _ = _film(
        lambda k, t: _2h_over_an_unseen_ah(k, t, ah_in=(_box(ANA_WASTE.x, ANA_WASTE.y),), ah_until=20), 140
    )
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in plays] == [
        ("Ana", "AH", "F1"),
        ("Ana", "2H", "F1"),
    ]
    ah, two = plays
    # Between the AH's last sighting in her waste and the latest the 2H could have landed (its err
    # included), to the nanosecond (the midpoint rounds down).
    assert 19 * PERIOD - 1 <= ah.t_ns - ah.err_ns and ah.t_ns + ah.err_ns <= two.t_ns + two.err_ns + 1
    assert two.t_ns - two.err_ns <= 60 * PERIOD <= two.t_ns + two.err_ns
    assert ah.t_ns < two.t_ns


@pytest.mark.parametrize("case", ["two seats", "still in sight", "never seen"])
def test_an_unseen_play_whose_face_could_be_either_seats_is_credited_to_no_seat(case: str) -> None:
    # Two AHs vanish, Ana's and Ben's: whose went to the pile is unknown. An AH still resting in Ana's
    # waste when the 2H lands was not played, but another seat's was (each seat has a deck). Or no AH was
    # ever read. Either way the 2H proves an AH under it: an unseen play credited to no seat, so that the
    # referee stands the 2H (and every card after it) instead of refusing it.
    rest: tuple[Box, ...]
    if case == "two seats":
        rest, until = (_box(ANA_WASTE.x, ANA_WASTE.y), _box(BEN_WASTE.x, BEN_WASTE.y)), 20
    elif case == "still in sight":
        rest, until = (_box(ANA_WASTE.x, ANA_WASTE.y),), 1000
    else:
        rest, until = (), 0
    events, _ = _film(lambda k, t: _2h_over_an_unseen_ah(k, t, ah_in=rest, ah_until=until), 140)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ana", "2H")]
    unseen = [e for e in events if e.type == "unseen_play"]
    assert [(e.seat, e.get("card"), e.get("pile")) for e in unseen] == [(None, "AH", "F1")]
    # Bounded by the 2H's landing (frame 60).
    assert unseen[0].t_ns + unseen[0].err_ns <= 60 * PERIOD
    referee = referee_for(LogHeader("nerts", tuple(SEATS), {}))
    for e in [TableEvent("hand_start", 0, 0, None, {}), *events]:
        referee.feed(e)
    assert referee.report().infractions == []
    view = referee.public_view()
    assert isinstance(view, NertsTableView)
    assert [(s.seat, s.foundation_count) for s in view.seats if s.foundation_count] == [("Ana", 1)]


def test_an_unseen_play_goes_to_the_one_seat_whose_card_of_its_face_was_seen_leaving() -> None:
    # Two AHs lie still, Ana's and Ben's; Ana's is last seen at frame 20 (buried in her waste), Ben's
    # slides off his waste in sight (frames 30-33) and is not seen again. The 2H landing on F0 proves an
    # AH went there unseen: Ben's, seen leaving, not the one last seen lying still (seed 6's Ben 5S,
    # lifted off his Nerts pile, against a 5S not seen for 6 s in Dee's waste: before, no seat's).
    def scene(k: int, t: int) -> list[CardSighting]:
        out = _2h_over_an_unseen_ah(k, t, ah_in=(_box(ANA_WASTE.x, ANA_WASTE.y),), ah_until=20)
        if k < 30:
            out.append(_whole("AH", _box(BEN_WASTE.x, BEN_WASTE.y)))
        elif k < 34:
            out.append(_whole("AH", _box(BEN_WASTE.x + 6.0 * (k - 29), BEN_WASTE.y)))
        return out

    events, _ = _film(scene, 140)
    assert [e for e in events if e.type == "unseen_play"] == []
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in plays] == [
        ("Ben", "AH", "F1"),
        ("Ana", "2H", "F1"),
    ]
    # After it was last seen at rest there, before the 2H landed.
    assert 29 * PERIOD - 1 <= plays[0].t_ns - plays[0].err_ns and plays[0].t_ns < plays[1].t_ns


def test_a_card_first_seen_at_rest_on_a_pile_brings_the_unseen_play_under_it() -> None:
    # Ana's AH flies onto F0. Ben's 2H rests in his waste until his hand takes it (frame 40); Cal's 3H in
    # his until frame 70. The 3H is next seen at rest on the pile (frame 80), its flight unseen: it fits
    # the pile but for the 2H, which went there unseen from Ben's layout. Both plays are reported (the
    # seed 2 hand at 60 fps: Ben's 5H on Ana's unseen 4H was refused, as was every card after it).
    ben_waste = LAYOUT.slots[("Ben", "waste", 0)].pose
    cal_waste = LAYOUT.slots[("Cal", "waste", 0)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AH", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))]
        if k < 40:
            out.append(_whole("2H", _box(ben_waste.x, ben_waste.y, CARD_H_MM, CARD_W_MM)))
        if k < 70:
            out.append(_whole("3H", _box(cal_waste.x, cal_waste.y)))
        if k >= 80:
            out = [_whole("3H", _box(F0.x + 1, F0.y + 2))]
        return out

    events, _ = _film(scene, 160)
    plays = _plays(events)
    assert [(e.seat, e.get("card")) for e in plays] == [("Ana", "AH"), ("Ben", "2H"), ("Cal", "3H")]
    two, three = plays[1:]
    assert 39 * PERIOD <= two.t_ns - two.err_ns and two.t_ns + two.err_ns <= 81 * PERIOD
    # The 3H's flight went unseen, so it landed somewhere between frames 70 and 80; the 2H went on
    # before it did, which may be as late as the 3H could have landed (seed 7 at 20 fps: a 2D bounded
    # by its 3D's earliest time was put 320 ms early, its err well short of its landing).
    assert two.t_ns + two.err_ns >= three.t_ns - 1
    assert two.t_ns < three.t_ns


def test_a_card_landing_off_a_pile_it_follows_but_for_an_unseen_play_goes_on_that_pile() -> None:
    # Seed 9 at 20 fps: Ana's AS lies on F0; Ben's 3S (its 2S went unseen) lands 46 mm off it, beyond
    # the radius a pile claims its cards in. A 3S starts no pile: it goes on the AS pile, over the unseen
    # 2S (before, it made a pile of its own, which the referee refused with every spade after it).
    at = (F0.x + 36, F0.y + 28)

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AS", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))]
        if k >= 40:
            out[0] = _part("AS", (F0.x - 29, F0.y - 44, F0.x, F0.y - 10))
            flown = _flight((BEN_WASTE.x, BEN_WASTE.y), at, 40 * PERIOD, 60 * PERIOD, t)
            out.append(_whole("3S", _box(*flown)))
        return out

    events, tracker = _film(scene, 140)
    assert [(e.type, e.seat, e.get("card"), e.get("pile")) for e in events if "play" in e.type] == [
        ("foundation_play", "Ana", "AS", "F1"),
        ("unseen_play", None, "2S", "F1"),
        ("foundation_play", "Ben", "3S", "F1"),
    ]
    assert len(tracker.piles) == 1


def test_a_card_seen_only_at_the_end_of_its_flight_onto_a_pile_past_an_unseen_play_is_played() -> None:
    # Seed 9 at 20 fps: a 3D seen only in the last frames of its flight (from 60 mm off, in the centre)
    # onto an AD whose 2D went unseen. It does not fit the pile as the tracker knows it, but no 3D lies on
    # any pile: it is no old foundation card uncovered, but a play (before, it was dropped as one, and
    # every diamond after it with it).
    start = (F0.x + 40, F0.y + 45)

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AD", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))]
        if 56 <= k:
            out = [_whole("3D", _box(*_flight(start, (F0.x + 1, F0.y + 1), 56 * PERIOD, 60 * PERIOD, t)))]
        return out

    events, _ = _film(scene, 140)
    plays = [(e.type, e.get("card"), e.get("pile")) for e in events if "play" in e.type]
    assert plays == [
        ("foundation_play", "AD", "F1"),
        ("unseen_play", "2D", "F1"),
        ("foundation_play", "3D", "F1"),
    ]


def test_a_play_first_seen_in_the_centre_is_the_seat_whose_layout_its_face_just_vanished_from() -> None:
    # Cal's AS rests in his waste until his hand takes it (frame 20). It is next seen in the centre,
    # 100 mm from the pile on the side of Ben's seat (a throw that curved, a hand carrying it round),
    # and flies from there to F0 (landing at frame 45): the direction points at Ben, but no AS left
    # Ben's layout, and Cal's vanished 0.4 s before it landed. It is Cal's play.
    start = (F0.x + 100 * math.cos(math.radians(120)), F0.y + 100 * math.sin(math.radians(120)))
    cal_waste = LAYOUT.slots[("Cal", "waste", 0)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AS", _box(cal_waste.x, cal_waste.y))]
        if k < 30:
            return []
        return [_whole("AS", _box(*_flight(start, (F0.x, F0.y), 30 * PERIOD, 45 * PERIOD, t)))]

    events, _ = _film(scene, 120)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Cal", "AS")]


def test_a_card_lifted_from_a_layout_and_seen_again_only_at_rest_on_a_pile_is_played() -> None:
    # Ana's AH rests in her waste until her hand takes it (frame 20); its flight goes unseen, and from
    # frame 45 it is seen only by its corner index, at rest in the centre 200 mm off (a recognizer that finds
    # the index but not the card's outline). Its track rejoins it there, over a card's length from where it
    # lay: a play, landed between the shortest flight after it left and its first sighting there (before, a
    # card seen again at rest was taken for one seen first at rest, and nothing was played).
    x, y = ANA_WASTE.x - 130, ANA_WASTE.y - 160
    index = (x - CARD_W_MM / 2 + 2, y - CARD_H_MM / 2 + 2, x - CARD_W_MM / 2 + 12, y - CARD_H_MM / 2 + 24)

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 45:
            return []
        return [_part("AH", index)]

    events, _ = _film(scene, 120)
    # Up to REST_CREEP_NS past its first sighting there: a corner index alone does not show the card stopped.
    assert REST_CREEP_NS <= 3 * PERIOD
    _one_play_between(events, ("Ana", "AH", "waste"), 19, 48)


ABOUT_2H = (("2H", 0.5), ("3H", 0.2), ("2D", 0.1))
"""An unsure reading of a 2H: named first, not sure enough to be named."""


def _unsure(box: Box, alternatives: tuple[tuple[str, float], ...]) -> CardSighting:
    return CardSighting("UNKNOWN", alternatives[0][1], box, None, (), alternatives)


@pytest.mark.parametrize("read", ["named", "unsure"])
def test_an_unsure_card_on_a_pile_read_as_the_card_the_pile_takes_next_is_played(read: str) -> None:
    # Ana's AH starts a pile (lands at frame 12); her 2H leaves her waste unseen (frame 20) and from frame 45
    # rests on the AH, where the recognizer reads it unsure every time, 2H first. The pile takes a 2H next and
    # the readings there say so: it is her 2H (before, no play; the same with the 2H named, for reference).
    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AH", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 12 * PERIOD, t)))]
        if k < 20:
            return out + [_whole("2H", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 45:
            return out
        b = _box(F0.x + 2, F0.y + 1)
        return [_whole("2H", b) if read == "named" else _unsure(b, ABOUT_2H)]

    events, _ = _film(scene, 130)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in _plays(events)] == [
        ("Ana", "AH", "F1"),
        ("Ana", "2H", "F1"),
    ]


def test_a_card_read_only_unsure_in_its_layout_and_first_seen_by_the_pile_may_have_landed_unseen() -> None:
    # Seed 6 at 20 fps: Cal's 2H is read unsure in his waste until his hand takes it (frame 40), never
    # named there; it lands unseen (frame 60) and is first seen at frame 70 beside the pile in boxes a
    # hand still shifts (15 mm), at rest from frame 74. Its flight went unseen: it may have landed any
    # time after it left his waste, which its first boxes do not bound (before, timed by them, 200 ms
    # late with an err of a frame or two).
    cal_waste = LAYOUT.slots[("Cal", "waste", 0)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AH", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))]
        if k < 40:
            out.append(_unsure(_box(cal_waste.x, cal_waste.y), ABOUT_2H))
        elif k >= 70:
            shift = max(0, 74 - k) * 15 / 4
            out = [_part("2H", _box(F0.x + 1, F0.y + 2 + shift))]
        return out

    events, _ = _film(scene, 160)
    plays = _plays(events)
    assert [(e.seat, e.get("card")) for e in plays] == [("Ana", "AH"), ("Cal", "2H")]
    two = plays[1]
    assert two.t_ns - two.err_ns <= 60 * PERIOD <= two.t_ns + two.err_ns


def test_an_unsure_reading_across_the_table_just_before_a_card_appears_is_not_where_it_came_from() -> None:
    # As above, Cal's 2H is read unsure in his waste until frame 40 and first seen by the pile at frame 70;
    # at frames 65-66 a card in Dee's waste, 850 mm from the pile, is read unsure as a 2H too. No card
    # crosses the table in 70 ms: the 2H came from Cal's waste (seed 4's Dee AC, credited to Ben's Nerts
    # pile by a misread there 60 ms before it appeared on the pile).
    cal_waste = LAYOUT.slots[("Cal", "waste", 0)].pose
    dee_waste = LAYOUT.slots[("Dee", "waste", 0)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AH", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))]
        if k < 40:
            out.append(_unsure(_box(cal_waste.x, cal_waste.y), ABOUT_2H))
        elif k in (65, 66):
            out.append(_unsure(_box(dee_waste.x, dee_waste.y), ABOUT_2H))
        elif k >= 70:
            shift = max(0, 74 - k) * 15 / 4
            out = [_part("2H", _box(F0.x + 1, F0.y + 2 + shift))]
        return out

    events, _ = _film(scene, 160)
    assert [(e.seat, e.get("card"), e.get("from")) for e in _plays(events)] == [
        ("Ana", "AH", None),
        ("Cal", "2H", "waste"),
    ]


def test_an_unsure_reading_of_a_card_lying_still_on_a_pile_makes_no_play() -> None:
    # The AH on the pile is read unsure from frame 30 on, 2H first (a misread), while Ana's 2H still lies
    # in her waste: no 2H left any layout and nothing slid onto the pile, so no play.
    def scene(k: int, t: int) -> list[CardSighting]:
        b = _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 12 * PERIOD, t))
        pile = _whole("AH", b) if k < 30 else _unsure(b, ABOUT_2H)
        return [pile, _whole("2H", _box(ANA_WASTE.x, ANA_WASTE.y))]

    events, _ = _film(scene, 130)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ana", "AH")]


def test_a_card_followed_as_two_tracks_makes_one_play() -> None:
    # Ana's AH leaves her waste unseen (frame 20) and is next seen in flight 200 mm off, too far to be
    # joined to it, sliding onto a pile from her side (landing at frame 48); from frame 50 the recognizer
    # also reports its corner index alone, 40 mm from the card's centre, as a second card. The card
    # that vanished from her waste lands, and so does the card seen in flight, credited to her by its
    # direction: a seat holds one card of each face, so this is one play, from her waste (before, two, the
    # second an infraction: "already on a foundation").
    x, y = ANA_WASTE.x - 130, ANA_WASTE.y - 160
    index = (x - CARD_W_MM / 2 + 2, y - CARD_H_MM / 2 + 2, x - CARD_W_MM / 2 + 12, y - CARD_H_MM / 2 + 24)
    t_land = 48 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        out = []
        if k >= 36:
            out.append(_whole("AH", _box(*_flight((x - 200, y + 170), (x, y), 36 * PERIOD, t_land, t))))
        if k >= 50:
            out.append(_part("AH", index))
        return out

    events, _ = _film(scene, 140)
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("from")) for e in plays] == [("Ana", "AH", "waste")]
    assert abs(plays[0].t_ns - t_land) <= plays[0].err_ns


def test_a_pile_placed_from_its_aces_index_moves_to_where_the_ace_shows_whole() -> None:
    # Ana's AH flies onto a foundation and lands at frame 40, then rests seen by its corner index alone
    # (35 mm off the card's centre) until frame 60, whole after: the pile it started is placed at the
    # index, then moved to the card. Ben's 2H, lifted from his waste under his hand at frame 90, is seen
    # at rest from frame 110 only as unsure readings whose likeliest face is 2H, 36 mm from the ace's
    # centre the other way: read as the pile's next card only near the pile (seed 9's Dee 2D, 70 mm
    # from a pile left at its ace's index, and missed).
    t_land = 40 * PERIOD
    two = _box(F0.x + 25, F0.y + 25)

    def scene(k: int, t: int) -> list[CardSighting]:
        ace = _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 20 * PERIOD, t_land, t))
        out = [_index_of("AH", ace) if 40 < k < 60 else _whole("AH", ace)]
        if k < 90:
            out.append(_whole("2H", _box(BEN_WASTE.x, BEN_WASTE.y)))
        elif k >= 110:
            out.append(CardSighting("UNKNOWN", 0.5, two, None, (), (("2H", 0.5), ("7H", 0.2), ("AH", 0.1))))
        return out

    events, tracker = _film(scene, 200)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in _plays(events)] == [
        ("Ana", "AH", "F1"),
        ("Ben", "2H", "F1"),
    ]
    assert math.hypot(tracker.piles[0].x - F0.x, tracker.piles[0].y - F0.y) < 40


def test_a_block_move_whose_bottom_card_goes_unseen_is_not_named_by_its_top_card() -> None:
    # Ana moves the block 8C 7D 6C onto the 9S of work pile 3, and only the 6C on top is ever named at
    # its new place (the hand, then the recognizer, miss the 8C and 7D): which card the block starts
    # with is not known, and a move named by the 6C would be a false move (four of the six false moves
    # on held-out seeds 2-14). No event; the camera-level referee needs none to score the hand.
    def scene(k: int, t: int) -> list[CardSighting]:
        return [s for s in _block_move(k, t) if t < BLOCK_LIFT or s.card in ("9S", "6C")]

    events, _ = _film(scene, 140)
    assert [e for e in events if e.type == "move"] == []


def test_a_single_card_moved_onto_another_work_pile_is_a_move() -> None:
    # Ana moves the 8H alone from her work pile 2 onto the 9S of work pile 3 (M5): it lies one step
    # down the fan from a card that rested there before, one rank higher, so it is the whole block.
    src, dst = LAYOUT.slots[("Ana", "work", 2)], LAYOUT.slots[("Ana", "work", 3)]
    a, d0, b = src.card_pose(0), dst.card_pose(0), dst.card_pose(1)

    def scene(k: int, t: int) -> list[CardSighting]:
        x, y = _flight((a.x, a.y), (b.x, b.y), BLOCK_LIFT, BLOCK_LAND, t)
        return [_whole("9S", _box(d0.x, d0.y)), _whole("8H", _box(x, y))]

    events, _ = _film(scene, 140)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "8H", "work2", "work3")]


def test_a_card_slid_under_a_work_pile_and_boxed_with_the_pile_goes_under() -> None:
    # QD from Ana's waste slid under her work pile 1 (a 9C). At rest the recognizer boxes it with the 9C
    # over it (the card's outline it finds is the 9C's, its index lies in the strip beyond): a box that
    # reaches only 8 mm, not a whole step, beyond the 9C's far edge. Still further out than every card
    # of the pile: under it, not onto it (seven of the held-out seeds' false moves onto a work pile).
    scene, _ = _qd_slid_under_work_pile_1(boxed_with_pile=8.0)
    events, _ = _film(scene, 60)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "QD", "waste", "under1")]


def test_a_card_boxed_with_the_pile_it_went_under_is_under_when_only_that_side_is_legal() -> None:
    # As above, but the card slid under the 9C is a 10D, and its box reaches only 3 mm beyond the 9C's far
    # edge: by its edges it would lie on the pile. A 10D may go under a 9C (M7: one rank higher, the other
    # colour), not onto it (M5): under it (seed 2's Cal 6D slid under a 5S, its box 3 mm beyond).
    scene, _ = _qd_slid_under_work_pile_1(lambda t, t_land: "10D", boxed_with_pile=3.0, card="10D")
    events, _ = _film(scene, 60)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "10D", "waste", "under1")]


@pytest.mark.parametrize(("out", "to"), [(0.9, "under1"), (0.5, "work1")])
def test_a_card_boxed_whole_at_a_work_pile_none_of_whose_cards_is_seen_is_under_it_a_step_out(
    out: float, to: str
) -> None:
    # Ana's work pile 1 is never seen at rest (a hand over it). Her waste's 10D comes to rest boxed whole (a
    # recognizer's box that takes in the pile over it), its far edge ``out`` fan steps beyond the slot's.
    # Nine tenths of a step out, it was slid under the pile (seed 12's Cal JS, 17 mm out, was reported put
    # on it); half a step out, it is a card put on the empty slot whose box reaches beyond it.
    slot = LAYOUT.slots[("Ana", "work", 1)]
    base = slot.card_pose(0)
    rest = (base.x - out * slot.fan[0], base.y - out * slot.fan[1])
    t_lift, t_land = 10 * PERIOD, 10 * PERIOD + 300_000_000

    def scene(k: int, t: int) -> list[CardSighting]:
        x, y = _flight((ANA_WASTE.x, ANA_WASTE.y), rest, t_lift, t_land, t)
        return [_whole("10D", _box(x, y))] if t < t_land else [_part("10D", _box(x, y))]

    events, _ = _film(scene, 60)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "10D", "waste", to)]


def test_a_card_put_on_a_pile_whose_box_reaches_beyond_its_base_is_on_it_when_only_that_is_legal() -> None:
    # Ana puts her waste's 8D on her work pile 1 (a 9C), one fan step down. A hand over the pile swells the
    # 8D's box back beyond the 9C's far edge by 10 mm: by its edges it went under. An 8D may go on a 9C (M5),
    # not under it (M7): on it (seed 11's Dee 10S, put on a JD, was reported slid under it).
    slot = LAYOUT.slots[("Ana", "work", 1)]
    base = slot.card_pose(0)
    on = (base.x + slot.fan[0], base.y + slot.fan[1])
    base_box = _box(base.x, base.y)
    t_lift, t_land = 10 * PERIOD, 10 * PERIOD + 300_000_000

    def scene(k: int, t: int) -> list[CardSighting]:
        x, y = _flight((ANA_WASTE.x, ANA_WASTE.y), on, t_lift, t_land, t)
        b = _box(x, y)
        if t < t_land:
            return [_whole("9C", base_box), _whole("8D", b)]
        nine = _part("9C", (base_box[0], base_box[1], base_box[2], b[1]))
        return [nine, _part("8D", (b[0], base_box[1] - 10.0, b[2], b[3]))]

    events, _ = _film(scene, 60)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "8D", "waste", "work1")]


def _3h_named_once_over_cals_zone(ana_until: int, *, from_ana: bool) -> Scene:
    """Ana's 3H rests in her work pile 2, seen until frame ``ana_until``. Cal lifts his 3H from his work
    pile 3 under his hand (frame 78): it is named once, in the air over his zone (frame 82). From frame 92 a
    3H slides its last stretch onto a foundation (at rest from frame 96): Cal's, or with ``from_ana``, Ana's,
    lifted when last seen."""
    cal, ana = LAYOUT.slots[("Cal", "work", 3)].pose, ANA_WORK2.pose
    t_land = 96 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("3H", _box(ana.x, ana.y))] if k <= ana_until else []
        if k == 82:
            out.append(_whole("3H", _box(*_flight((cal.x, cal.y), (F0.x, F0.y), 78 * PERIOD, t_land, t))))
        if k >= 92:
            start, t_lift = (
                ((ana.x, ana.y), ana_until * PERIOD) if from_ana else ((cal.x, cal.y), 78 * PERIOD)
            )
            out.append(_whole("3H", _box(*_flight(start, (F0.x, F0.y), t_lift, t_land, t))))
        return out

    assert (
        LAYOUT.seat_of_point(*_flight((cal.x, cal.y), (F0.x, F0.y), 78 * PERIOD, t_land, 82 * PERIOD))
        == "Cal"
    )
    return scene


def test_a_card_seen_once_in_flight_in_a_seats_zone_and_lost_is_that_seats_play() -> None:
    # Cal's 3H is named once over his zone, then lost until its last stretch onto a foundation; Ana's 3H was
    # last seen in her layout at frame 20 (a card put on it since). The card lost over Cal's zone is the one:
    # Cal's play, not Ana's (seed 4's Cal 3H, credited to Ana).
    events, _ = _film(_3h_named_once_over_cals_zone(20, from_ana=False), 180)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Cal", "3H")]


def test_a_card_of_its_face_vanishing_from_a_layout_after_one_seen_over_a_zone_is_the_one_played() -> None:
    # As above, but Ana's 3H was seen in her layout until frame 86, after the sighting over Cal's zone: the
    # card that left a layout last is the likelier one (seed 6's Ben AS, credited to Ana when a card seen now
    # and then at Ana's waste was taken for one lifted there).
    events, _ = _film(_3h_named_once_over_cals_zone(86, from_ana=True), 180)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ana", "3H")]


def test_a_card_read_only_unsure_in_its_layout_and_seen_at_rest_on_a_foundation_is_that_seats_play() -> None:
    # Ben's AD lies on his waste, where the recognizer never names it: its readings there are unsure
    # (``UNKNOWN``, likeliest AD at 0.68). Lifted under his hand at frame 40, it is next seen already at rest
    # on a foundation, named, from frame 58. The card read there is the one that left: Ben's play from his
    # waste, landed between its last reading there and its first sighting at rest (seed 7's Ben 4D, missed).
    unsure = (("AD", 0.68), ("AH", 0.08), ("4D", 0.05))
    t_land = 55 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 40:
            return [CardSighting("UNKNOWN", 0.68, _box(BEN_WASTE.x, BEN_WASTE.y), None, (), unsure)]
        if k >= 58:
            return [_whole("AD", _box(F0.x, F0.y))]
        return []

    events, _ = _film(scene, 150)
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("from")) for e in plays] == [("Ben", "AD", "waste")]
    assert abs(plays[0].t_ns - t_land) <= plays[0].err_ns


def test_a_card_read_only_unsure_in_its_layout_and_seen_only_on_its_last_stretch_is_that_seats_play() -> None:
    # As the case of Ben's AS seen only on its last 30 mm, but the recognizer never names it in his waste:
    # its readings there are unsure (likeliest AS at 0.6). Those readings tell the seat it came from.
    unsure = (("AS", 0.6), ("AC", 0.2), ("4S", 0.05))

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [CardSighting("UNKNOWN", 0.6, _box(BEN_WASTE.x, BEN_WASTE.y), None, (), unsure)]
        if k < 34:
            return []
        x, y = _flight((F0.x, F0.y - 30), (F0.x, F0.y), 33 * PERIOD, 40 * PERIOD, t)
        return [_whole("AS", _box(x, y))]

    events, _ = _film(scene, 110)
    assert [(e.seat, e.get("card"), e.get("from")) for e in _plays(events)] == [("Ben", "AS", "waste")]


def test_a_card_seen_only_in_the_air_over_a_seats_zone_and_then_at_rest_on_a_foundation_is_played() -> None:
    # Ben's AS is never seen at rest in his layout: the recognizer first names it in the air over his zone
    # (frames 30-32, his hand carrying it), then loses it for 300 ms, and next sees it already at rest on a
    # foundation (frame 50 on). The card lost over Ben's zone is the one: Ben's play, landed between its last
    # sighting in the air and its first at rest (the Smear benchmark's Ben 7D, never played).
    t_lift, t_land = 28 * PERIOD, 46 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        if 30 <= k <= 32 or k >= 50:
            return [_whole("AS", _box(*_flight((BEN_WASTE.x, BEN_WASTE.y), (F0.x, F0.y), t_lift, t_land, t)))]
        return []

    assert LAYOUT.seat_of_point(
        *_flight((BEN_WASTE.x, BEN_WASTE.y), (F0.x, F0.y), t_lift, t_land, 32 * PERIOD)
    )
    events, _ = _film(scene, 140)
    plays = _plays(events)
    assert [(e.seat, e.get("card")) for e in plays] == [("Ben", "AS")]
    assert abs(plays[0].t_ns - t_land) <= plays[0].err_ns


def test_a_card_held_still_short_of_its_rest_is_timed_from_where_it_rests() -> None:
    # Seed 5's Cal 5S: first seen held still under the hand 34 mm short of where it came to rest, and
    # played from that stop (166 ms early, with an err that did not reach its landing); then seen again
    # resting farther on, a landing of the pile's top card seen only at rest (a second sighting, no
    # play) whose pixels timed it with a smaller err. That view, over a quarter of a card's width on,
    # times the play; one about where the play lies (a second sighting of a card at rest) does not.
    def landed(track: int, t_ms: int, err_ms: int, dy: float, moving: bool) -> Landing:
        return Landing(
            track,
            "AH",
            t_ms * 1_000_000,
            err_ms * 1_000_000,
            F0.x,
            F0.y + dy,
            ("Ana", "waste", 0),
            (ANA_WASTE.x, ANA_WASTE.y),
            None,
            ((ANA_WASTE.x, ANA_WASTE.y),),
            seen_moving=moving,
        )

    for dy, t_want in ((34.0, 1_160), (6.0, 1_000)):
        tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0))
        tracker.feed(Frame(None, 0, 0), [])
        for landing in (landed(1, 1_000, 90, 0.0, False), landed(2, 1_160, 16, dy, False)):
            event = tracker._interpret(landing)
            if event is not None:
                tracker._add(event, landing)
        plays = _plays(tracker.flush())
        assert [(e.seat, e.get("card"), e.t_ns // 1_000_000) for e in plays] == [("Ana", "AH", t_want)], dy


def test_a_piles_top_card_seen_again_long_after_with_a_side_covered_is_not_a_play() -> None:
    # Ana's AH starts a pile at F0 (frame 12) and rests there. Two seconds on, a hand comes over it: its
    # corner index and a view of the card are named apart in the same frames (the index goes to its
    # resting track, the view starts a track of its own), the view's box reaching 20 mm past the card
    # and drawing back to it as the hand leaves: its centre shifts 11 mm and it is still again. First
    # seen on the pile and from no seat's layout, that track is the pile's top card seen again, not a
    # second AH played (seed 14's Dee AS, two seconds after Ana's).
    x0, y0, x1, y1 = _box(F0.x, F0.y)

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 140:
            return [_whole("AH", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 12 * PERIOD, t)))]
        f = max(0, 146 - k) / 6
        view = _part("AH", (x0 + 8.0 * f, y0 + 4.0 * f, x1 + 20.0 * f, y1 + 8.0 * f))
        return [_index_of("AH", (x0, y0, x1, y1)), view] if k < 143 else [view]

    events, _ = _film(scene, 240)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ana", "AH")]


ANA_NERTS = LAYOUT.slots[("Ana", "nerts", 0)].pose


def _nerts_tops(events: list[TableEvent]) -> list[tuple[str | None, object, int]]:
    return [(e.seat, e.get("card"), e.t_ns) for e in events if e.type == "nerts_top"]


def test_a_new_card_on_top_of_a_nerts_pile_is_reported_even_when_the_one_before_left_unseen() -> None:
    # Ana's 7D rests on her Nerts pile; a hand hides the pile (frames 60-79) while 7D leaves for a work
    # pile out of sight; then QH shows on top. The referee counts 7D as gone from the new top alone.
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 60:
            return [_whole("7D", _box(ANA_NERTS.x, ANA_NERTS.y))]
        if k < 80:
            return []
        return [_whole("QH", _box(ANA_NERTS.x + 1.0, ANA_NERTS.y))]

    events, _ = _film(scene, 140)
    assert [(seat, card) for seat, card, _ in _nerts_tops(events)] == [("Ana", "7D"), ("Ana", "QH")]
    assert _nerts_tops(events)[1][2] == 80 * PERIOD


@pytest.mark.parametrize("every", [3, 6])
def test_a_nerts_top_misread_now_and_then_is_no_new_top(every: int) -> None:
    # 7D read as 7H in one frame in ``every``, for two seconds: still one card, 7D, on top.
    def scene(k: int, t: int) -> list[CardSighting]:
        card = "7H" if k % every == 0 and k > 20 else "7D"
        return [_whole(card, _box(ANA_NERTS.x, ANA_NERTS.y))]

    events, _ = _film(scene, 140)
    assert [(seat, card) for seat, card, _ in _nerts_tops(events)] == [("Ana", "7D")]


def test_a_card_carried_over_a_nerts_pile_is_no_new_top() -> None:
    # Ana's waste card 5S crosses her Nerts pile on its way to the centre and is held still over 7D for a
    # fifth of a second while she looks for where to play it.
    def scene(k: int, t: int) -> list[CardSighting]:
        if not 40 <= k < 70:
            return [_whole("7D", _box(ANA_NERTS.x, ANA_NERTS.y))]
        step = min(k, 52) - 46 + max(0, k - 64)
        return [_whole("5S", _box(ANA_NERTS.x + 4.0 * step, ANA_NERTS.y - 3.0 * step))]

    events, _ = _film(scene, 140)
    assert [(seat, card) for seat, card, _ in _nerts_tops(events)] == [("Ana", "7D")]


def test_a_card_resting_by_its_index_is_placed_where_the_index_rests_not_by_a_box_seen_on_its_way() -> None:
    # Ana moves QD from her Nerts pile onto work pile 3. At rest only its corner index is read; on its
    # way, five frames before it stops, the recognizer boxed it once wrongly, a box sharing two sides
    # with where the index comes to rest but reaching toward work pile 2. That box is no view of the card
    # at rest: the index moved on after it.
    start = LAYOUT.slots[("Ana", "nerts", 0)].pose
    end = (LAYOUT.slots[("Ana", "work", 3)].pose.x, LAYOUT.slots[("Ana", "work", 3)].pose.y + 42.0)

    def index_at(x: float, y: float) -> CardSighting:
        return _part("QD", (x - 23.0 - 7.0, y - 32.0 - 4.0, x - 23.0 + 7.0, y - 32.0 + 4.0))

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 10:
            return [_whole("QD", _box(start.x, start.y))]
        u = min(1.0, (k - 10) / 15)
        x, y = start.x + u * (end[0] - start.x), start.y + u * (end[1] - start.y)
        if k == 20:
            ix1, iy0 = end[0] - 23.0 + 7.0, end[1] - 32.0 - 4.0
            return [_part("QD", (ix1 - CARD_W_MM, iy0, ix1, iy0 + CARD_H_MM))]
        return [index_at(x, y)]

    events, _ = _film(scene, 120)
    moves = [(e.seat, e.get("card"), e.get("from"), e.get("to")) for e in events if e.type == "move"]
    assert moves == [("Ana", "QD", "nerts", "work3")]


def test_a_card_in_the_centre_sooner_than_a_flight_after_a_twin_left_its_layout_is_not_that_twin() -> None:
    # Ana lifts her AS from her waste under her hand (frame 30); Ben lifts his from his waste at frame 48.
    # An AS comes to rest on a foundation 318 mm from Ben's waste from frame 50, 50 ms after Ben's was last
    # seen there: no card is carried so fast (6 m/s), so it is Ana's (lifted 0.33 s before), not Ben's.
    ben_waste = LAYOUT.slots[("Ben", "waste", 0)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        out = []
        if k < 30:
            out.append(_whole("AS", _box(ANA_WASTE.x, ANA_WASTE.y)))
        if k < 48:
            out.append(_whole("AS", _box(ben_waste.x, ben_waste.y, CARD_H_MM, CARD_W_MM)))
        if k >= 50:
            out.append(_whole("AS", _box(F0.x, F0.y)))
        return out

    events, _ = _film(scene, 150)
    assert [(e.seat, e.get("card"), e.get("from")) for e in _plays(events)] == [("Ana", "AS", "waste")]


def test_a_card_lifted_under_the_hand_and_first_seen_at_rest_on_a_foundation_has_no_lift_time() -> None:
    # Ana's 2H lies on her waste, last seen at frame 40 before her hand covers it. Her AH, carried in sight
    # from work pile 2, lands on a foundation at frame 70; her 2H is first seen there, at rest on it, from
    # frame 110. When the 2H left the waste is not known (some time after frame 40, under the hand): a lift
    # time guessed as frame 40 would tell the referee she had two cards in flight at once.
    work2 = ANA_WORK2.pose

    def scene(k: int, t: int) -> list[CardSighting]:
        out = []
        if k < 40:
            out.append(_whole("2H", _box(ANA_WASTE.x, ANA_WASTE.y)))
        if k < 50:
            out.append(_whole("AH", _box(work2.x, work2.y)))
        else:
            out.append(
                _whole("AH", _box(*_flight((work2.x, work2.y), (F0.x, F0.y), 50 * PERIOD, 70 * PERIOD, t)))
            )
        if k >= 110:
            out.append(_whole("2H", _box(F0.x, F0.y + 2.0)))
        return out

    events, _ = _film(scene, 200)
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("from")) for e in plays] == [
        ("Ana", "AH", "work2"),
        ("Ana", "2H", "waste"),
    ]
    assert "t_lift" not in plays[1].data


def _as_seen_first_at_rest_jittering(first: Callable[[Box], CardSighting]) -> Scene:
    """Ben's AS leaves his waste under his hand (frame 20) and lands unseen on a foundation at frame 40. A
    recognizer then sees it at rest, first as ``first(box)`` (frame 41), then by boxes without an outline
    that jitter 3 mm from frame to frame (frames 42-49, too much for a rest, little for a card length: as a
    recognizer's boxes do on a small card), still from frame 50 on."""
    rest = _box(F0.x, F0.y)

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AS", _box(BEN_WASTE.x, BEN_WASTE.y))]
        if k <= 40:
            return []
        if k == 41:
            return [first(rest)]
        d = 3.0 * (k % 2) if k < 50 else 0.0
        return [_part("AS", (rest[0] + d, rest[1], rest[2] + d, rest[3]))]

    return scene


@pytest.mark.parametrize(
    "first",
    [
        pytest.param(lambda b: _index_of("AS", b), id="its-index-inside-its-rest"),
        pytest.param(lambda b: _part("AS", (b[0] - 14, b[1], b[2] + 10, b[3] - 14)), id="a-swollen-box"),
    ],
)
def test_a_card_first_seen_at_rest_by_its_index_or_a_swollen_box_landed_before_it(
    first: Callable[[Box], CardSighting],
) -> None:
    # Its first sighting on the foundation is its corner index, inside the box it rests in, or a box grown
    # on one side and cut on two others (a hand taken into it): neither is the card still moving, so it
    # landed before (its flight unseen), not when the jittering boxes settle. A fit on those boxes put the
    # landing after the card was first seen there, err and all (seen in simulated hands, 170-320 ms late).
    events, _ = _film(_as_seen_first_at_rest_jittering(first), 130)
    _one_play_landing_within_err(events, ("Ben", "AS", "waste"), 40 * PERIOD)
    assert _plays(events)[0].t_ns <= 41 * PERIOD


def test_a_card_played_and_seen_again_by_a_new_track_from_no_layout_is_one_play() -> None:
    # Ana's AH flies from her Nerts pile to a foundation and lands at frame 40, seen from then on by its
    # corner index alone (a hand over the rest of it). Half a second later a recognizer finds the whole card
    # there, its first box 12 mm off towards Ben (a hand's shadow taken into it), jittering before it
    # settles: a new track, from no seat's layout, whose seat only its path suggests. It is Ana's card seen
    # again, not a second AH played by Ben (a race twin flies in from its seat, and lands within moments),
    # and the play keeps its time (the new view settled long after the card landed).
    t_lift, t_land = 20 * PERIOD, 40 * PERIOD
    ux, uy = BEN_WASTE.x - F0.x, BEN_WASTE.y - F0.y
    n = math.hypot(ux, uy)
    ux, uy = ux / n, uy / n

    def scene(k: int, t: int) -> list[CardSighting]:
        b = _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), t_lift, t_land, t))
        if k < 40:
            return [_whole("AH", b)]
        if k < 70:
            return [_index_of("AH", b)]
        d = 12.0 if k == 70 else 3.0 * (k % 2) if k < 78 else 0.0
        return [_part("AH", (b[0] + d * ux, b[1] + d * uy, b[2] + d * ux, b[3] + d * uy))]

    events, _ = _film(scene, 160)
    _one_play_landing_within_err(events, ("Ana", "AH", "nerts"), t_land)


def test_a_card_buried_on_a_waste_is_not_the_one_seen_flying_nearby() -> None:
    # Ana's AH lies on her waste until a 10D comes to rest on it (frame 30: she turned cards over it). Cal's
    # AH leaves his waste under his hand (frame 80) and is seen only on its last stretch, 60 mm before it
    # lands on the foundation nearest Ana's waste (frames 100-110), within a lift's reach of her buried AH.
    # A card buried for over a second cannot be lifted from under the 10D: the play is Cal's.
    cal_waste = LAYOUT.slots[("Cal", "waste", 0)].pose
    pile = LAYOUT.slots[(None, "foundation", 13)].pose
    ux, uy = cal_waste.x - pile.x, cal_waste.y - pile.y
    n = math.hypot(ux, uy)
    start = (pile.x + 60.0 * ux / n, pile.y + 60.0 * uy / n)
    t_land = 110 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AH" if k < 30 else "10D", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 80:
            out.append(_whole("AH", _box(cal_waste.x, cal_waste.y)))
        elif k >= 100:
            out.append(_whole("AH", _box(*_flight(start, (pile.x, pile.y), 99 * PERIOD, t_land, t))))
        return out

    events, _ = _film(scene, 200)
    assert [(e.seat, e.get("card"), e.get("from")) for e in _plays(events)] == [("Cal", "AH", "waste")]


def test_a_card_lifted_off_a_waste_revealing_the_one_under_it_is_still_followed() -> None:
    # The other side of the case above: Ana lifts her AH off her waste (frame 40, under her hand), which shows
    # the 10D under it at rest (frame 44), and the AH is seen again in the air 130 ms later, on its way to a
    # foundation: a card that came to rest there only as the AH left does not bury it. The play is Ana's.
    pile = LAYOUT.slots[(None, "foundation", 13)].pose
    start = (ANA_WASTE.x + (pile.x - ANA_WASTE.x) / 2, ANA_WASTE.y + (pile.y - ANA_WASTE.y) / 2)

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 40:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        out = [_whole("10D", _box(ANA_WASTE.x, ANA_WASTE.y))] if k >= 44 else []
        if k >= 52:
            out.append(_whole("AH", _box(*_flight(start, (pile.x, pile.y), 51 * PERIOD, 62 * PERIOD, t))))
        return out

    events, _ = _film(scene, 150)
    assert [(e.seat, e.get("card"), e.get("from")) for e in _plays(events)] == [("Ana", "AH", "waste")]


def test_two_cards_of_a_face_flying_to_the_centre_at_once_keep_their_own_tracks() -> None:
    # Ana's AC and Dee's AC fly to two foundations at once. Ana's is seen only now and then (frames 64 and
    # 67), then lost; Dee's is first seen at frame 70, 200 mm off where Ana's motion puts hers, within
    # reach of a fast card but nowhere near its way. It is not Ana's card gone astray: each play keeps its
    # seat, its pile and its landing time.
    dee_waste = LAYOUT.slots[("Dee", "waste", 0)].pose
    ana_pile = LAYOUT.slots[(None, "foundation", 12)].pose
    dee_pile = LAYOUT.slots[(None, "foundation", 5)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        out = []
        if k < 60:
            out.append(_whole("AC", _box(ANA_WASTE.x, ANA_WASTE.y)))
        elif k in (64, 67) or k >= 72:
            ana = _flight((ANA_WASTE.x, ANA_WASTE.y), (ana_pile.x, ana_pile.y), 60 * PERIOD, 78 * PERIOD, t)
            out.append(_whole("AC", _box(*ana)))
        if k < 55:
            out.append(_whole("AC", _box(dee_waste.x, dee_waste.y)))
        elif k >= 70:
            dee = _flight((dee_waste.x, dee_waste.y), (dee_pile.x, dee_pile.y), 55 * PERIOD, 76 * PERIOD, t)
            out.append(_whole("AC", _box(*dee)))
        return out

    events, tracker = _film(scene, 180)
    where = {p.pid: (p.x, p.y) for p in tracker.piles}
    plays = {e.seat: (where[e.get("pile")], e.t_ns, e.err_ns) for e in _plays(events)}
    assert set(plays) == {"Ana", "Dee"}
    for seat, pile, t_land in (("Ana", ana_pile, 78 * PERIOD), ("Dee", dee_pile, 76 * PERIOD)):
        (x, y), t, err = plays[seat]
        assert math.hypot(x - pile.x, y - pile.y) < CARD_W_MM / 2, seat
        assert abs(t - t_land) <= max(err, 3_000_000), seat


def test_a_card_first_seen_at_rest_in_the_centre_with_jittering_boxes_is_no_new_play() -> None:
    # Dee's AC was played unseen long before (its flight and its first seconds on the foundation hidden), and
    # is first seen at rest there at frame 150, its boxes jittering 3 mm from frame to frame for ten frames
    # (as a recognizer's do on a small card) before they settle: no card of its face left any place for it
    # just before. It is a card uncovered where it lay, as one seen still from the start is: a play now,
    # timed to a few milliseconds, with a seat guessed from the jitter, would be false.
    dee_waste = LAYOUT.slots[("Dee", "waste", 0)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 6:
            return [_whole("AC", _box(dee_waste.x, dee_waste.y))]
        if k < 150:
            return []
        rest = _box(F0.x, F0.y)
        d = 3.0 * ((k + 1) % 2) if k < 160 else 0.0
        return [_part("AC", (rest[0] + d, rest[1] - d, rest[2] + d, rest[3] - d))]

    events, _ = _film(scene, 260)
    assert _plays(events) == []


def test_a_new_nerts_top_is_reported_when_the_card_before_it_is_seen_leaving_after_it_showed() -> None:
    # Ana slides her Nerts top 7D off towards work pile 1 (frames 60-80) and tucks it under that pile
    # out of sight; QH, uncovered, lies still on the pile from frame 60 on while 7D is still seen on its
    # way. 7D seen moving is 7D leaving, not 7D still on the pile: QH is the new top (seed 13's Dee 5C).
    work = LAYOUT.slots[("Ana", "work", 1)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 60:
            return [_whole("7D", _box(ANA_NERTS.x, ANA_NERTS.y))]
        top = _whole("QH", _box(ANA_NERTS.x, ANA_NERTS.y))
        if k >= 80:
            return [top]
        f = (k - 59) / 40
        x, y = ANA_NERTS.x + f * (work.x - ANA_NERTS.x), ANA_NERTS.y + f * (work.y - ANA_NERTS.y)
        return [top, _part("7D", _box(x, y))]

    events, _ = _film(scene, 160)
    assert [(seat, card) for seat, card, _ in _nerts_tops(events)] == [("Ana", "7D"), ("Ana", "QH")]


def test_a_race_card_last_seen_gliding_onto_its_twin_claims_no_landing_within_a_frame() -> None:
    # Ben's 5H lies on the pile; Ana's 5H, carried under her hand (only its near half shows), glides onto
    # it and is hidden for the last 60 ms of its slide, still moving when last seen. No fit of its
    # motion (no view of the whole card) and no stop seen: it landed somewhere in the glide after its
    # last sighting, and was put within a frame of that sighting (err 17 ms; seed 6's Dee 2H, last seen
    # 153 ms before it stopped, was put 145 ms early).
    pile = (F0.x, F0.y)
    ben = (20 * PERIOD, 20 * PERIOD + 300_000_000)
    ana = (ben[1] + 120_000_000 - 400_000_000, ben[1] + 120_000_000)

    def scene(k: int, t: int) -> list[CardSighting]:
        out, a = _ben_5h_then_ana(t, pile, ben, ana, 2.0)
        if t < 12 * PERIOD:
            return out
        if t < ana[1] - 60_000_000:
            out.append(_part("5H", (a[0], a[1], a[2], a[1] + 0.6 * (a[3] - a[1]))))
        elif t >= ana[1] + 10 * PERIOD:
            out.append(_whole("5H", a))
        return out

    events, _ = _film(scene, 110)
    plays = [e for e in _plays(events) if e.get("card") == "5H"]
    assert [e.seat for e in plays] == ["Ben", "Ana"]
    ana_play = plays[1]
    assert abs(ana_play.t_ns - ana[1]) <= ana_play.err_ns, (
        (ana_play.t_ns - ana[1]) / 1e6,
        ana_play.err_ns / 1e6,
    )


def test_a_nerts_top_played_away_within_half_a_second_is_still_reported() -> None:
    # Ana turns up QH on her Nerts pile and plays it on at once: it lies there for 0.35 s (21 frames)
    # before she lifts it off towards the centre, uncovering 5C. QH was a top and has left (seed 11's Cal
    # 4H, on top for 0.40 s, was not reported, and the referee never learnt the 7D before it had gone).
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 60:
            return [_whole("7D", _box(ANA_NERTS.x, ANA_NERTS.y))]
        if k < 81:
            return [_whole("QH", _box(ANA_NERTS.x, ANA_NERTS.y))]
        lift = _part("QH", _box(ANA_NERTS.x + 6.0 * (k - 80), ANA_NERTS.y - 8.0 * (k - 80)))
        return [_whole("5C", _box(ANA_NERTS.x, ANA_NERTS.y))] + ([lift] if k < 90 else [])

    events, _ = _film(scene, 180)
    assert [(seat, card) for seat, card, _ in _nerts_tops(events)] == [
        ("Ana", "7D"),
        ("Ana", "QH"),
        ("Ana", "5C"),
    ]


def test_a_move_seen_only_at_rest_after_its_lift_is_not_timed_by_its_boxes_settling() -> None:
    # Ana's Nerts pile's 9C is seen sliding off (frames 20-21); her hand carries it, hidden, onto the 10H of
    # her second work pile, where it lands at frame 30. It is named again from frame 50, its boxes (without
    # its outline) shifting by a few millimetres as her hand draws back, then still: all within the rest
    # tolerance of where it lies. Those shifts are no motion of the card: the move landed between its last
    # sighting on the way and its first at rest. (A fit to those boxes timed it after its first sighting
    # there: seed 2's Cal 5D was timed 60 ms after its first sighting at rest, 220 ms after it landed, with a
    # 92 ms err.)
    end = WORK2_NEXT
    drift = (-6.0, -3.0, -5.0, -2.0, -1.0)

    def scene(k: int, t: int) -> list[CardSighting]:
        ten = _ten_h(k, 30)
        if k < 20:
            return [*ten, _part("9C", _box(ANA_NERTS.x, ANA_NERTS.y))]
        if k < 22:
            return [*ten, _part("9C", _box(ANA_NERTS.x, ANA_NERTS.y - 4.0 * (k - 19)))]
        if k < 50:
            return ten
        d = drift[k - 50] if k - 50 < len(drift) else 0.0
        return [*ten, _part("9C", _box(end[0], end[1] + d))]

    events, _ = _film(scene, 150)
    _one_move_landing_within_err(events, ("Ana", "9C", "nerts", "work2"), 30 * PERIOD)


def test_a_move_is_not_timed_before_the_card_is_seen_on_its_way_again() -> None:
    # Ana slides her waste's 9C onto the 10H of her second work pile (frames 20-44), seen now and then under
    # her hand: on its way (frames 20-24 and 34-36), and at frame 27 by a box where it will rest, well ahead
    # of the card (a box swelled over the pile it goes to). It was seen on its way after that box: it landed
    # after frame 36 (such a box timed seed 13's Ben 9D 228 ms early, with a 5 ms err).
    end = WORK2_NEXT
    seen = {20, 21, 22, 23, 24, 34, 35, 36}

    def scene(k: int, t: int) -> list[CardSighting]:
        ten = _ten_h(k, 20)
        if k < 20:
            return [*ten, _whole("9C", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k == 27:
            return [*ten, _part("9C", _box(*end))]
        if k in seen or k >= 44:
            x, y = _flight((ANA_WASTE.x, ANA_WASTE.y), end, 20 * PERIOD, 44 * PERIOD, t)
            return [*ten, _part("9C", _box(x, y))]
        return ten

    events, _ = _film(scene, 150)
    _one_move_landing_within_err(events, ("Ana", "9C", "waste", "work2"), 44 * PERIOD)


def test_an_ace_misread_in_its_suit_is_named_by_the_two_played_on_it() -> None:
    # Ana plays her AH onto the table, read AD in flight and at rest but for one frame (frame 30). Her 2H
    # lands on it half a second later. A 2H does not go on an AD: the Ace, read once as the face the 2H
    # takes, was that face, misread in its suit. Both plays are hearts (seed 2's Ben AH, read AD: Ana's 2H
    # on it was dropped, and three later hearts on the pile ruled the wrong suit).
    def scene(k: int, t: int) -> list[CardSighting]:
        ace = _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 12 * PERIOD, t))
        two = _flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y), 35 * PERIOD, 50 * PERIOD, t)
        if k < 35:
            return [_whole("AH" if k == 30 else "AD", ace)]
        return [_whole("2H", _box(*two))]

    events, _ = _film(scene, 150)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in _plays(events)] == [
        ("Ana", "AH", "F1"),
        ("Ana", "2H", "F1"),
    ]


def test_a_second_landing_where_the_played_card_already_lay_does_not_retime_the_play() -> None:
    # Ana's AH lands on the table at frame 20 and lies there, its play still queued. A second track of its
    # face then "lands" at the same place at frame 50, with a smaller err (a box that jumped off the card and
    # back, joined to a card of its face that vanished from a layout). The card already lay there: the play
    # keeps the time it landed (seed 13's Cal 5C, at rest from 11.76 s, was timed at 12.24 s, 8 ms err).
    tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0))
    for k in range(50):
        x, y = _flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 5 * PERIOD, 20 * PERIOD, k * PERIOD)
        assert tracker.feed(Frame(None, k * PERIOD, k), [_whole("AH", _box(x, y))]) == []
    pile = tracker.piles[0]
    queued = [e for e in tracker._pending if e.type == "foundation_play"]
    assert len(queued) == 1 and abs(queued[0].t_ns - 20 * PERIOD) <= queued[0].err_ns
    again = Landing(999, "AH", 50 * PERIOD, 1_000_000, F0.x, F0.y, ("Cal", "waste", 0), (0.0, 0.0), None, ())
    assert tracker._merge_play(pile, again)
    (play,) = [e for e in tracker._pending if e.type == "foundation_play"]
    assert abs(play.t_ns - 20 * PERIOD) <= play.err_ns


def test_a_play_first_seen_at_rest_after_an_unseen_flight_is_not_timed_by_its_first_box() -> None:
    # Ana's AH vanishes from her waste under her hand (frame 20) and lands unseen on the table at frame 30.
    # It is first named there at frame 45, its first box 8 mm off the card (the hand over it), then where it
    # lies. That jump is no motion of the card: its landing may lie anywhere from its last sighting in her
    # layout on (seed 5's Ana 2S, first seen at rest 245 ms after it landed, was timed 261 ms late with a
    # 25 ms err by a 6-pixel jump of its first box).
    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k < 45:
            return []
        return [_part("AH", _box(F0.x, F0.y - (8.0 if k == 45 else 0.0)))]

    events, _ = _film(scene, 150)
    _one_play_landing_within_err(events, ("Ana", "AH", "waste"), 30 * PERIOD)


def _cal_and_dee_3c(k: int, t: int, dee_land: int) -> list[CardSighting]:
    """A race for F0's 3C (the pile's AC and 2C played first by Ana): Cal's 3C, lying along in his Nerts
    pile, flown unseen and first seen at rest on the 2C in frames 69-71 (its box jittering a few pixels);
    Dee's 3C, lying across in hers, flown unseen and seen from frame 75 on its last stretch from her side,
    landing over Cal's at frame ``dee_land`` (a strip of Cal's showing from frame 84) and taken back after
    frame 100; then Cal's shows again."""
    cal, dee = LAYOUT.slots[("Cal", "nerts", 0)].pose, LAYOUT.slots[("Dee", "nerts", 0)].pose
    out: list[CardSighting] = []
    if k < 32:
        out.append(_whole("AC", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t))))
    if 12 <= k < 68:
        out.append(
            _whole(
                "2C", _box(*_flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y), 12 * PERIOD, 30 * PERIOD, t))
            )
        )
    if k < 50:
        out.append(_whole("3C", _box(cal.x, cal.y)))
    elif 69 <= k <= 71:
        out.append(_whole("3C", _box(F0.x + 2 * (k - 69), F0.y)))
    elif 84 <= k <= 100:
        # A strip of it between Dee's card and her hand.
        b = _box(F0.x + 2, F0.y)
        out.append(_part("3C", (b[0] + 17, b[1], b[0] + 45, b[3])))
    elif k > 102:
        out.append(_whole("3C", _box(F0.x + 2, F0.y)))
    if k < 55 or k > 106:
        out.append(_whole("3C", _box(dee.x, dee.y, CARD_H_MM, CARD_W_MM)))
    elif 75 <= k <= 100:
        x, y = _flight((F0.x + 260, F0.y + 30), (F0.x + 3, F0.y + 4), 62 * PERIOD, dee_land * PERIOD, t)
        out.append(_whole("3C", _box(x, y, CARD_H_MM, CARD_W_MM)))
    return out


def test_a_race_card_turned_across_its_stopped_twin_is_another_card() -> None:
    # Seed 14 (candidate video model): Dee's 3C took the track of Cal's, seen still three frames before;
    # Cal's play was timed at Dee's landing, 220 ms late, and each play went to the other's seat. A card
    # that stopped does not turn a quarter; and each card lost in flight is matched with the one lying
    # as it lay.
    events, _ = _film(lambda k, t: _cal_and_dee_3c(k, t, 82), 130)
    plays = [e for e in _plays(events) if e.get("card") == "3C"]
    assert [e.seat for e in plays] == ["Cal", "Dee"]
    assert plays[0].t_ns + plays[0].err_ns <= 69 * PERIOD + REST_CREEP_NS
    assert abs(plays[1].t_ns - 82 * PERIOD) <= max(plays[1].err_ns, 3_000_000)


def test_a_card_seen_still_on_a_foundation_then_replaced_by_its_twin_landed_at_its_stop() -> None:
    # Seed 5 (candidate video model): Cal's 2C, its flight unseen but for two frames of its last 12 mm,
    # is seen still on the pile's AC for five frames; then it is taken back (a race loser) and Ana's 2C,
    # which had landed under it, shows 20 mm off. Both boxes were taken for one card still moving, and
    # Cal's play was timed at the second stop, 270 ms late. A card-sized box still for five frames in the
    # centre is a card that landed.
    cal_nerts = LAYOUT.slots[("Cal", "nerts", 0)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AC", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))]
        if k < 30:
            out.append(_whole("2C", _box(cal_nerts.x, cal_nerts.y)))
        if k < 25:
            out.append(_whole("2C", _box(ANA_WASTE.x, ANA_WASTE.y)))
        if 48 <= k <= 49:
            out.append(_whole("2C", _box(F0.x + 3 * (50 - k) ** 2, F0.y)))
        elif 50 <= k <= 54:
            out.append(_whole("2C", _box(F0.x, F0.y + (k % 2))))
        elif k >= 57:
            out.append(_whole("2C", _box(F0.x + 9, F0.y + 18)))
        return out

    events, _ = _film(scene, 120)
    cal = [e for e in _plays(events) if e.get("card") == "2C" and e.seat == "Cal"]
    assert len(cal) == 1
    assert 30 * PERIOD <= cal[0].t_ns - cal[0].err_ns
    assert cal[0].t_ns + cal[0].err_ns <= 50 * PERIOD + REST_CREEP_NS


def test_a_card_first_seen_blurred_about_where_it_stops_is_timed_to_cover_its_slide() -> None:
    # Seed 8 (candidate video model): Dee's 3S, its flight unseen, was first seen 43 ms before it stopped,
    # its box grown on every side by the blur of its last slide; its play was bounded by that sighting
    # (plus the 35 ms an outline-less view may still creep) and stated 8 ms short of its landing. The
    # blurred box does not show the card where it rests; the next box, within the rest tolerance, does.
    t_land = 46 * PERIOD + 20_000_000
    rest = _box(F0.x, F0.y)

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_whole("AH", _box(ANA_WASTE.x, ANA_WASTE.y))]
        if k == 45:
            return [_part("AH", (rest[0] - 6, rest[1] - 10, rest[2] + 8, rest[3] + 12))]
        if k == 46:
            return [_part("AH", _box(F0.x + 2, F0.y))]
        if k > 46:
            return [_part("AH", rest)]
        return []

    events, _ = _film(scene, 110)
    _one_play_landing_within_err(events, ("Ana", "AH", "waste"), t_land)


def test_a_card_in_the_air_lying_across_is_not_one_lifted_from_a_layout_where_it_lay_along() -> None:
    # Seed 2 (shipped general model): Ben's 2S, never read in his layout, was first seen in the air 250 mm
    # from Ana's Nerts pile, where a 2S lay; it was taken for hers, lifted, and the two seats' plays of 2S
    # were swapped. Ben's card lies across (his seat is at the table's side), Ana's along: a card does not
    # turn a quarter between its layout and the air.
    ben_waste = LAYOUT.slots[("Ben", "waste", 0)].pose
    pile = LAYOUT.slots[(None, "foundation", 8)].pose
    t_lift, t_land = 30 * PERIOD, 30 * PERIOD + 300_000_000

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AS", _box(*_flight((ANA_WASTE.x, ANA_WASTE.y), (pile.x, pile.y), 0, 15 * PERIOD, t)))]
        if not 35 <= k < 40:
            # (Ana's hand over it a moment.)
            out.append(_whole("2S", _box(ANA_NERTS.x, ANA_NERTS.y)))
        if t >= t_lift + 100_000_000:
            x, y = _flight((ben_waste.x, ben_waste.y), (pile.x, pile.y), t_lift, t_land, t)
            out.append(_whole("2S", _box(x, y, CARD_H_MM, CARD_W_MM)))
        return out

    events, _ = _film(scene, 90)
    assert [(e.seat, e.get("card")) for e in _plays(events)] == [("Ana", "AS"), ("Ben", "2S")]


def test_a_move_seen_only_by_jittering_boxes_where_it_rests_was_not_seen_sliding() -> None:
    # Seed 2 (candidate video model): Ana's 9S, moved from her Nerts pile to her work pile 3 under her hand,
    # was seen only where it rests, by unsure boxes jumping 5-8 px from frame to frame. Their jitter added up
    # to 38 mm of "motion", a flight seen, and the move was timed by a fit to them: 207 ms after it landed,
    # err 17 ms. Seen only within a few millimetres of its rest, the card's slide went unseen.
    work3 = LAYOUT.slots[("Ana", "work", 3)].pose
    jitter = {
        40: (0, -7, 1, -10),
        41: (2, -4, 2, -3),
        42: (5, 3, 1, 9),
        43: (-2, 0, 1, 0),
        44: (1, -6, 1, -8),
    }

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 20:
            return [_part("9S", _box(ANA_NERTS.x, ANA_NERTS.y))]
        if k < 40:
            return []
        d = jitter.get(k, (k % 2, 0, k % 2, 0))
        b = _box(work3.x, work3.y)
        return [_part("9S", (b[0] + d[0], b[1] + d[1], b[2] + d[2], b[3] + d[3]))]

    # It stopped at frame 38, under the hand, and was first seen two frames later.
    events, _ = _film(scene, 110)
    _one_move_landing_within_err(events, ("Ana", "9S", "nerts", "work3"), 38 * PERIOD)


def test_an_unseen_play_is_not_bounded_by_a_sighting_in_a_layout_after_its_card_lay_on_the_pile() -> None:
    # Seed 12 (video model): Ben's 6S, its play unseen, was seen at rest on the pile from 8.5 s; when the 7S
    # landed on it at 18 s the 6S was inferred played (M3), bounded by a misread 6S in Ben's waste at 12.8 s:
    # put at 15.6 s, 7 s late. A card seen lying on the pile was played before it was first seen there,
    # and a sighting of its face in a layout after that is another card.
    ben_waste = LAYOUT.slots[("Ben", "waste", 0)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        out = []
        if k < 52:
            out.append(
                _whole("AS", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))
            )
        if 50 <= k < 100:
            out.append(_whole("2S", _box(F0.x, F0.y)))
        if 70 <= k < 76:
            out.append(_whole("2S", _box(ben_waste.x, ben_waste.y, CARD_H_MM, CARD_W_MM)))
        out.append(
            _whole(
                "3S", _box(*_flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y), 80 * PERIOD, 100 * PERIOD, t))
            )
        )
        return out

    events, _ = _film(scene, 150)
    plays = [(e.seat, e.get("card")) for e in _plays(events)]
    assert plays[0] == ("Ana", "AS") and plays[-1] == ("Ana", "3S")
    late = [e for e in _plays(events) if e.get("card") == "2S" and e.t_ns - e.err_ns > 50 * PERIOD]
    assert late == []


def test_a_card_first_seen_on_a_pile_lying_across_is_not_one_that_vanished_lying_along() -> None:
    # A 2H lying across (Ben's: his seat is at the table's side; never read in his layout) is first seen
    # at rest on the AH; Cal's 2H, lying along in his waste, was hidden by his hand just before. The card
    # on the pile is not Cal's: a card slid from a layout keeps about the way it lay (the held-out hands'
    # seed 6 gains a play with the video model, and with the one before).
    cal_waste = LAYOUT.slots[("Cal", "waste", 0)].pose

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AH", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))]
        if not 30 <= k < 70:
            out.append(_whole("2H", _box(cal_waste.x, cal_waste.y)))
        if k >= 50:
            out.append(_whole("2H", _box(F0.x + 2, F0.y + 1, CARD_H_MM, CARD_W_MM)))
        return out

    events, _ = _film(scene, 130)
    assert ("Cal", "2H") not in [(e.seat, e.get("card")) for e in _plays(events)]


SEED10_7C = {
    # Frame (60 fps from 1.000 s): the video model's box of Ana's 7C in pixels, as read in seed 10.
    33: (589, 438, 630, 496),
    34: (593, 444, 602, 460),
    35: (594, 444, 602, 460),
    36: (594, 445, 603, 462),
    37: (596, 448, 604, 463),
    38: (599, 441, 641, 501),
    39: (600, 448, 644, 509),
    40: (601, 451, 641, 508),
    41: (604, 458, 644, 515),
    42: (608, 470, 615, 485),
    43: (611, 471, 619, 486),
    44: (616, 475, 623, 490),
    45: (622, 472, 628, 486),
    47: (631, 473, 638, 488),
    53: (644, 446, 686, 506),
}
"""Seed 10's sightings of Ana's 7C moved from her work pile 3 to 4 (lifted at frame 34, stopped at 54); at
rest before in (589, 435, 633, 497), after in (643, 448, 685, 509)."""


def test_a_move_whose_corner_index_is_seen_moving_did_not_land_before_that() -> None:
    # Seed 10 (video model): Ana's 7C, moved from her work pile 3 to 4, was seen as a card early in its
    # slide, then by its corner index alone, moving on, then at rest; in that hand a fit to its boxes timed
    # it 183 ms before it stopped, with an 88 ms err (an index that moves is a card still on its way). The
    # sightings are the recognizer's, mapped from pixels to this table's millimetres as that hand's
    # calibration does; without that hand's frame timing the fit is not misled here, so this case guards
    # the move's naming and timing on such sightings rather than reproducing the fault.

    def mm(b: tuple[int, int, int, int]) -> Box:
        return (1.45 * b[0] - 109, 1.45 * b[1] - 36, 1.45 * b[2] - 109, 1.45 * b[3] - 36)

    base = LAYOUT.slots[("Ana", "work", 4)].card_pose(0)

    def scene(k: int, t: int) -> list[CardSighting]:
        # The 8H it goes onto, the base of work pile 4, shows its end beyond the 7C.
        out = [_part("8H", _box(base.x, base.y))]
        if k < 33:
            out.append(_part("7C", mm((589, 435, 633, 497))))
        elif k in SEED10_7C:
            out.append(_part("7C", mm(SEED10_7C[k])))
        elif k > 63 and k % 3:
            out.append(_part("7C", mm((643, 448, 685, 509))))
        return out

    events, _ = _film(scene, 130)
    _one_move_landing_within_err(events, ("Ana", "7C", "work3", "work4"), 54 * PERIOD)


def _race_lost_unseen(k: int, t: int, *, both_seen: bool, way_back_seen: bool = True) -> list[CardSighting]:
    """Ana plays her AS to F0 (frames 0-10); her 2S, then on her Nerts pile, and Dee's 2S, on his work
    pile 1, race for it. Ana's leaves at frame 40 and lands at frame 58 hidden by hands (``both_seen``:
    in sight); Dee's, in sight, lands on it at frame 61, lies there and goes back to his work pile
    (frames 70-86), seen only in the last frames of the way back (``way_back_seen``; else only once it
    lies there). Ana's new Nerts top is the 9H."""
    dee_work = LAYOUT.slots[("Dee", "work", 1)].card_pose(0)
    ana_rest, dee_rest = (F0.x - 2, F0.y + 3), (F0.x + 1, F0.y + 2)
    out = [_whole("AS", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 10 * PERIOD, t)))]
    if k >= 12:
        out.append(_whole("2S" if k < 40 else "9H", _box(ANA_NERTS.x, ANA_NERTS.y)))
    if both_seen and 40 < k < 70:
        out.append(
            _whole("2S", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), ana_rest, 40 * PERIOD, 58 * PERIOD, t)))
        )
    elif k >= 70:
        out.append(_whole("2S", _box(*ana_rest)))
    if k < 44:
        out.append(_whole("2S", _box(dee_work.x, dee_work.y)))
    elif k < 70:
        out.append(
            _whole("2S", _box(*_flight((dee_work.x, dee_work.y), dee_rest, 44 * PERIOD, 61 * PERIOD, t)))
        )
    elif k >= (82 if way_back_seen else 87):
        out.append(
            _whole("2S", _box(*_flight(dee_rest, (dee_work.x, dee_work.y), 70 * PERIOD, 86 * PERIOD, t)))
        )
    return out


@pytest.mark.parametrize("way_back_seen", [True, False])
def test_a_race_loser_seen_going_back_gives_the_play_to_the_card_that_stays(way_back_seen: bool) -> None:
    # Seed 1 at 20 fps (the kiosk's table): the camera saw only Dee's 4S land on the pile, 45 ms after
    # Ana's, and credited the play to him. His card went back to his work pile, hers stayed; his later
    # play of it was refused as "already on a foundation". Back where it came from while the pile still
    # shows its face, his card is the one taken back: the play is Ana's, from her Nerts pile, timed
    # between her card leaving and his landing.
    events, _ = _film(lambda k, t: _race_lost_unseen(k, t, both_seen=False, way_back_seen=way_back_seen), 160)
    plays = _plays(events)
    assert [(e.seat, e.get("card")) for e in plays] == [("Ana", "AS"), ("Ana", "2S")]
    two = plays[-1]
    assert two.get("from") == "nerts"
    assert abs(two.t_ns - 58 * PERIOD) <= two.err_ns, ((two.t_ns - 58 * PERIOD) / 1e6, two.err_ns / 1e6)
    referee = referee_for(LogHeader("nerts", tuple(SEATS), {}))
    for e in [TableEvent("hand_start", 0, 0, None, {}), *events]:
        referee.feed(e)
    assert referee.report().infractions == []


def test_a_race_seen_whole_keeps_both_plays_when_the_loser_goes_back() -> None:
    # The same race with both cards seen landing: both plays are logged, and the referee rules the race.
    events, _ = _film(lambda k, t: _race_lost_unseen(k, t, both_seen=True), 160)
    plays = [(e.seat, e.get("card")) for e in _plays(events)]
    assert plays == [("Ana", "AS"), ("Ana", "2S"), ("Dee", "2S")]


def test_a_card_seen_by_its_index_alone_over_the_centres_edge_beside_its_layout_starts_no_pile() -> None:
    # The kiosk's table (seed 1, 20 fps): Cal's 7S slid from his waste under his work pile 4, whose top
    # end reaches toward the centre; only its corner index showed, just over the centre's edge. Taken for
    # a card landing in the centre, it started a pile, and the referee refused it: "only an Ace can". Its
    # centre lies up to half a card's diagonal off its index, in the layout it came from.
    index_rest = (850.0, 530.0)

    def scene(k: int, t: int) -> list[CardSighting]:
        if k < 10:
            return [_whole("7S", _box(ANA_WASTE.x, ANA_WASTE.y))]
        x, y = _flight((ANA_WASTE.x - 20, ANA_WASTE.y - 30), index_rest, 10 * PERIOD, 25 * PERIOD, t)
        return [_part("7S", (x - 6, y - 9, x + 6, y + 9))]

    events, _ = _film(scene, 120)
    assert _plays(events) == []
    referee = referee_for(LogHeader("nerts", tuple(SEATS), {}))
    for e in [TableEvent("hand_start", 0, 0, None, {}), *events]:
        referee.feed(e)
    assert referee.report().infractions == []


_CAL_8D_WASTE: list[Box] = [(602, 191, 671, 281)]
_CAL_8D_REST: list[Box] = [(706, 340, 774, 431)]
KIOSK_CAL_8D: list[list[Box]] = [
    *[_CAL_8D_WASTE] * 7,
    [],
    [(664, 223, 736, 324)],
    [(688, 270, 753, 361), (696, 295, 758, 382)],
    [(701, 318, 765, 407)],
    [(697, 327, 767, 421)],
    [(707, 329, 778, 425)],
    [(709, 339, 772, 427)],
    [(705, 335, 777, 427)],
    [(699, 343, 763, 430), (760, 405, 775, 422)],
    [],
    [],
    [],
    [(699, 343, 759, 426)],
    [(711, 342, 771, 426)],
    *[_CAL_8D_REST] * 30,
]
"""The recognizer's boxes of Cal's 8D, 50 ms apart, on the kiosk's own table (seed 1 at 20 fps, from 24.0 s),
in table millimetres: lying in his waste, lifted at 0.28 s, landing on a pile at 0.60 s, still for two
frames, then Ana's 8D landing on it and taken back (a box 12 mm aside, its index, hands over the pile)."""


def test_a_card_seen_still_where_it_rests_then_jostled_landed_when_it_first_lay_there() -> None:
    # Its play was timed by the last jolt, 458 ms late; it landed when it first lay where it rests.
    events: list[TableEvent] = []
    # As that camera saw them: about 1.45 mm a pixel.
    tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.45))
    for k, boxes in enumerate(KIOSK_CAL_8D):
        px = [(b[0] / 1.45, b[1] / 1.45, b[2] / 1.45, b[3] / 1.45) for b in boxes]
        events += tracker.feed(Frame(None, k * 50_000_000, k), [_part("8D", b) for b in px])
    events += tracker.flush()
    (play,) = _plays(events)
    assert (play.seat, play.get("from")) == ("Cal", "waste")
    assert abs(play.t_ns - 599_000_000) <= 60_000_000, ((play.t_ns - 599_000_000) / 1e6, play.err_ns / 1e6)


def _recorded(name: str) -> list[TableEvent]:
    """The events of the recognizer's own sightings of a few cards of a simulated hand, kept in
    ``data/NAME.json`` (boxes mapped to table millimetres, frames at their times), without pixels."""
    data = json.loads((Path(__file__).parent / "data" / f"{name}.json").read_text())
    tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0))
    events: list[TableEvent] = []
    for k, (t, seen) in enumerate(data["frames"]):
        sightings = [
            CardSighting(
                card,
                score,
                (box[0], box[1], box[2], box[3]),
                tuple((x, y) for x, y in quad) if quad else None,
                tuple((c[0], c[1], c[2], c[3]) for c in corners),
            )
            for card, score, box, quad, corners in seen
        ]
        events += tracker.feed(Frame(None, t, k), sightings)
    return events + tracker.flush()


def _rulings(events: list[TableEvent]) -> list[str]:
    referee = referee_for(LogHeader("nerts", tuple(SEATS), {}))
    for e in [TableEvent("hand_start", 0, 0, None, {}), *events]:
        referee.feed(e)
    return [r.text for r in referee.report().rulings]


def test_a_race_loser_never_seen_at_rest_on_the_winner_and_back_home_is_played_and_lost() -> None:
    # Seed 9 (the recognizer's sightings of its AC and 2Cs, 9.4-11.6 s): Cal's 2C lands on Ben's AC; Ben's 2C
    # lands on it 288 ms later, askew, under his hand, named there only now and then (a frame's one 2C there
    # is often Cal's), and goes back into his work pile 3. Its track never came to rest on the pile, so its
    # play went unlogged and the referee never ruled the race it lost (§6.1).
    events = _recorded("seed9_2c_race")
    plays = [(e.seat, e.get("card"), e.get("from")) for e in _plays(events)]
    assert plays == [("Ben", "AC", "waste"), ("Cal", "2C", "work4"), ("Ben", "2C", "work3")]
    ben_2c = _plays(events)[-1]
    assert abs(ben_2c.t_ns - 10_858_000_000) <= ben_2c.err_ns
    rulings = _rulings(events)
    assert any(r.startswith("Cal first by") and "Ben, take back 2♣" in r for r in rulings), rulings


def test_the_earlier_of_two_race_plays_that_flew_too_fast_takes_the_later_ones_seat() -> None:
    # Seed 13's 2Ds (diagnose_nerts_tracker.py --sightings recognizer, with the frames' pixels): the two
    # cards' tracks crossed under the hands near the pile, so the play landing at 5.680 s came with Ana's lift
    # (71 ms before: no card flies that fast) and the one at 5.951 s with Dee's (616 ms before). Exchanged,
    # each flight is a real one: Dee's landed first, and Ana's lost the race (§6.1). The rule alone, on the
    # tracker's own queue of held-back plays and its pile as it stands when the later play is made.
    from decimal import Decimal

    from vision.nerts_tracker import _Pile

    tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0))
    pile = _Pile("F3", 500.0, 400.0, cards=[("AD", "Cal"), ("2D", "Ana"), ("2D", "Dee")])

    def play(t: int, seat: str, src: str, lift: str) -> TableEvent:
        data = {
            "card": "2D",
            "pile": "F3",
            "from": src,
            "t_lift": Decimal(lift),
            "err_lift": Decimal("0.008"),
        }
        return TableEvent("foundation_play", t, 3_000_000, seat, data)

    first = play(5_680_000_000, "Ana", "work3", "5.609")
    tracker._pending = [first]
    tracker._where[id(first)] = (500.0, 400.0, 1)
    second = tracker._untangled(pile, play(5_951_000_000, "Dee", "nerts", "5.335"))
    assert [(e.t_ns, e.seat, e.get("from"), e.get("t_lift")) for e in (*tracker._pending, second)] == [
        (5_680_000_000, "Dee", "nerts", Decimal("5.335")),
        (5_951_000_000, "Ana", "work3", Decimal("5.609")),
    ]
    assert pile.cards == [("AD", "Cal"), ("2D", "Dee"), ("2D", "Ana")]
    # Two flights that are both possible as logged stay as they are.
    pile.cards = [("AD", "Cal"), ("2D", "Dee"), ("2D", "Ana")]
    first = play(5_680_000_000, "Dee", "nerts", "5.362")
    tracker._pending = [first]
    tracker._where[id(first)] = (500.0, 400.0, 1)
    later = play(5_949_000_000, "Ana", "work3", "5.544")
    assert tracker._untangled(pile, later) is later and tracker._pending == [first]
    assert pile.cards == [("AD", "Cal"), ("2D", "Dee"), ("2D", "Ana")]


def _index(card: str, x: float, y: float, score: float = 0.9) -> CardSighting:
    """A card at ``(x, y)`` read surely by its top-left corner index alone (the recognizer found no
    outline)."""
    x0, y0 = x - CARD_W_MM / 2, y - CARD_H_MM / 2
    return CardSighting(card, score, (x0 + 2, y0 + 2, x0 + 12, y0 + 24))


@pytest.mark.parametrize("alternatives", [(), (("4H", 0.4), ("2H", 0.2), ("2D", 0.1))])
def test_a_card_read_in_flight_and_never_at_rest_on_its_pile_is_played(
    alternatives: tuple[tuple[str, float], ...],
) -> None:
    # Seed 4's Cal 5S, of a design the model was not trained on: read by its corner index as it flew to
    # the 4S on a pile, then never once at rest there (unsure, another face likeliest or none named). Here
    # Ana's 2H flies to her AH on F0 (lands at frame 50), read by its index until 5 frames before, unsure
    # as it slides on and lies there: the pile takes a 2H next and one just flew in, so the unsure card
    # lying there is it (before, no play), landed when it stopped.
    t_land = 50 * PERIOD

    def scene(k: int, t: int) -> list[CardSighting]:
        out = [_whole("AH", _box(*_flight((ANA_NERTS.x, ANA_NERTS.y), (F0.x, F0.y), 0, 12 * PERIOD, t)))]
        x, y = _flight((ANA_WASTE.x, ANA_WASTE.y), (F0.x + 3, F0.y + 2), 30 * PERIOD, t_land, t)
        if k < 30:
            return out + [_whole("2H", _box(x, y))]
        if k < 45:
            return out + [_index("2H", x, y)]
        score = alternatives[0][1] if alternatives else 0.7
        return out + [CardSighting("UNKNOWN", score, _box(x, y), None, (), alternatives)]

    events, _ = _film(scene, 150)
    plays = _plays(events)
    assert [(e.seat, e.get("card"), e.get("pile")) for e in plays] == [
        ("Ana", "AH", "F1"),
        ("Ana", "2H", "F1"),
    ]
    assert plays[1].get("from") == "waste"
    assert abs(plays[1].t_ns - t_land) <= plays[1].err_ns, (
        (plays[1].t_ns - t_land) / 1e6,
        plays[1].err_ns / 1e6,
    )


def test_a_race_loser_whose_views_on_the_pile_went_to_the_winner_is_played_when_the_winner_lands_again() -> (
    None
):
    # Seed 9's Dee 6D: it slid onto Ben's on the pile at 14.565 s and went back to his work pile 3; the
    # recognizer named it on the pile, but its views went to Ben's resting track, which "landed" again on its
    # own pile at 14.564 s, timed from the pixels to 2 ms, while Dee's card was away. Back where it came
    # from, Dee's card lost a race: played at that landing (before, no play). A landing of the top before
    # the card left is none of its doing. The rule alone, on the landings as the tracker judges them (Ana's
    # AH and Ben's here).
    def landed(
        track: int,
        t_ms: int,
        err_ms: int,
        where: tuple[float, float],
        origin: tuple[str | None, str, int],
        lift: int | None,
    ) -> Landing:
        return Landing(
            track,
            "AH",
            t_ms * 1_000_000,
            err_ms * 1_000_000,
            where[0],
            where[1],
            origin,
            None,
            None if lift is None else lift * 1_000_000,
            (where,),
        )

    for relanded_ms, want in (
        (1_200, [("Ana", "AH", 1_000), ("Ben", "AH", 1_200)]),
        (850, [("Ana", "AH", 1_000)]),
    ):
        tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0))
        tracker.feed(Frame(None, 0, 0), [])
        for landing in (
            landed(1, 1_000, 3, (F0.x, F0.y), ("Ana", "waste", 0), 620),
            landed(1, relanded_ms, 2, (F0.x + 3, F0.y + 5), (None, "F1", 0), None),
            landed(2, 1_600, 10, (BEN_WASTE.x, BEN_WASTE.y), ("Ben", "waste", 0), 900),
        ):
            event = tracker._interpret(landing)
            if event is not None:
                tracker._add(event, landing)
        plays = _plays(tracker.flush())
        assert [(e.seat, e.get("card"), e.t_ns // 1_000_000) for e in plays] == want, relanded_ms


def test_a_pile_s_top_landing_again_long_after_its_play_is_no_second_play() -> None:
    # A fresh hand, seed 16: Ben's 2S, played on a pile at 9.4 s, was followed by a new track from 10.56 s (a
    # hand over it shifted its boxes) that "landed" on the pile at 10.94 s from Ben's side: a second play of
    # the card by the seat whose card of that face is the pile's top. A seat holds one card of each face, and
    # one taken back after losing a race cannot go on a card of its face: the card seen again, whenever.
    # The rule alone, on the landings as the tracker judges them.
    def landed(
        track: int, t_ms: int, where: tuple[float, float], origin: tuple[str | None, str, int]
    ) -> Landing:
        return Landing(
            track, "AH", t_ms * 1_000_000, 5_000_000, where[0], where[1], origin, None, None, (where,)
        )

    for again_ms in (1_400, 2_500, 6_000):
        tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0))
        tracker.feed(Frame(None, 0, 0), [])
        for landing in (
            landed(1, 1_000, (F0.x, F0.y), ("Ana", "waste", 0)),
            landed(2, again_ms, (F0.x + 4, F0.y + 6), ("Ana", "zone", 0)),
        ):
            event = tracker._interpret(landing)
            if event is not None:
                tracker._add(event, landing)
        plays = _plays(tracker.flush())
        assert [(e.seat, e.get("card"), e.t_ns // 1_000_000) for e in plays] == [("Ana", "AH", 1_000)], (
            again_ms
        )


def test_a_race_loser_back_home_after_a_later_card_covered_the_winner_is_played() -> None:
    # A fresh hand, seed 19: Ana's 5C lay on Ben's on the pile from 14.81 s to 14.96 s and went back to her
    # Nerts pile; Dee's 6C landed on Ben's 5C at 15.10 s, before hers was home at 15.21 s. The race lost is
    # judged by the pile's top when her card got there, not by its top when it is back (before, no play).
    # The rule alone, on the landings as the tracker judges them.
    def landed(
        track: int, card: str, t_ms: int, where: tuple[float, float], origin: tuple[str | None, str, int]
    ) -> Landing:
        return Landing(
            track, card, t_ms * 1_000_000, 5_000_000, where[0], where[1], origin, None, None, (where,)
        )

    home, pile = (ANA_WASTE.x, ANA_WASTE.y), (F0.x, F0.y)
    there = tuple((t * 1_000_000, pile[0] + 2, pile[1] + 1) for t in (1_300, 1_350, 1_400, 1_450))
    route = ((1_150_000_000, *home), *there, (1_700_000_000, *home))
    back = replace(landed(3, "AH", 1_700, home, ("Ana", "waste", 0)), lift_t_ns=1_100_000_000, route=route)
    tracker = NertsTracker(NertsLayout(SEATS), Calibration.from_scale(1.0))
    tracker.feed(Frame(None, 0, 0), [])
    for landing in (
        landed(1, "AH", 1_000, pile, ("Ben", "waste", 0)),
        landed(2, "2H", 1_500, (pile[0] + 3, pile[1] - 2), ("Cal", "waste", 0)),
        back,
    ):
        event = tracker._interpret(landing)
        if event is not None:
            tracker._add(event, landing)
    plays = _plays(tracker.flush())
    assert [(e.seat, e.get("card"), e.t_ns // 1_000_000) for e in plays] == [
        ("Ben", "AH", 1_000),
        ("Ana", "AH", 1_300),
        ("Cal", "2H", 1_500),
    ]
