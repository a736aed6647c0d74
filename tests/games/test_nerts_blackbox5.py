"""Black-box Nerts tests, round 5 (the variant options of §11 and the rules the earlier rounds
covered thinly): table logs written from ``rules/nerts.md`` and ``docs/table-log.md`` alone, refereed
through ``kiosk replay --json`` as an outsider would run it, and the strict engine's move generator
where an option changes what a seat may do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.games.nerts_actions import Call, Play, Stuck
from kiosk.games.nerts_bots import simulate_hand
from tests.games.replay_logs import replay
from tests.games.test_nerts_spec_audit import NERTS_12, c, dealt


def test_a_compulsory_move_leaves_a_seat_free_to_declare_stuck_and_to_call() -> None:
    """M9: a seat may declare itself stuck at any time, and the referee does not second-guess it
    (§7.2); M11: a seat whose Nerts pile is empty may call at any moment of the hand. Neither moves a
    card, so ``aces_compulsory`` and ``must_fill_from_nerts`` (§11), which put one move before any
    other, leave both open beside it, as the referee accepts them in a table log."""
    aces = dealt({0: "AC 9H 8S KD AH"}, nerts_pile_size=1, aces_compulsory=True)
    aces.apply_action(Play(0, c("AC"), "N", None))  # the Nerts pile is empty; A♥ waits on work pile 4
    assert aces.legal_actions(0) == [Play(0, c("AH"), "4", None), Stuck(0), Call(0)]
    fill = dealt({0: NERTS_12 + " 5S 9H 8S KD AS"}, must_fill_from_nerts=True)
    fill.apply_action(Play(0, c("AS"), "4", None))  # work pile 4 is empty: 5♠ must fill it
    assert Stuck(0) in fill.legal_actions(0)


def test_with_jokers_the_layout_may_take_all_54_cards(tmp_path: Path) -> None:
    """§2: with ``jokers = 2`` each deck holds 54 cards, and the Nerts pile and the work piles are dealt
    from it (§4; ``nerts_pile_size``, ``work_piles``): 50 + 4 leaves an empty stock, as 48 + 4 does
    without jokers, and a Nerts pile of 50 scores −2 a card (§8)."""
    lines = [{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"],
              "options": {"jokers": 2, "nerts_pile_size": 50}},
             {"t": 0, "type": "hand_start"},
             {"t": 1, "type": "foundation_play", "seat": "Ben", "card": "JOKER", "pile": "F1", "as": "AS",
              "from": "nerts"},
             {"t": 2, "type": "stuck", "seat": "Ana"}, {"t": 2, "type": "stuck", "seat": "Ben"},
             {"t": 3, "type": "stuck", "seat": "Ana"}, {"t": 3, "type": "stuck", "seat": "Ben"},
             {"t": 4, "type": "count", "seat": "Ana", "nerts": 50},
             {"t": 4, "type": "hand_end"}]
    report = replay(tmp_path, lines)
    assert report["hands"] == [{"Ana": -100, "Ben": 1 - 2 * 49}]


def test_a_log_that_stops_after_the_call_announces_the_scores_and_the_end_of_the_game(
        tmp_path: Path) -> None:
    """docs/table-log.md: a log may stop after a call or a stalemate without ``hand_end``, and the
    report then scores that hand too; so it gives the rulings a ``hand_end`` gives, the hand's scores
    and, once some total reaches ``target_score``, the ``game_end`` that names the winners (§8.1), or
    the ``tie_for_win`` that plays on."""
    def log(**options: Any) -> list[dict[str, Any]]:
        return [{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": options},
                {"t": 0, "type": "hand_start"},
                {"t": 1, "type": "foundation_play", "seat": "Ana", "card": "AS", "pile": "F1"},
                {"t": 2, "type": "foundation_play", "seat": "Ben", "card": "AH", "pile": "F2"},
                {"t": 3, "type": "call", "seat": "Ana", "nerts_left": 0},
                {"t": 4, "type": "count", "seat": "Ben", "nerts": 0}]

    def ends(report: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
        return [(r["kind"], r["text"], r["seats"]) for r in report["rulings"]
                if r["kind"] in ("hand_end", "game_end", "tie_for_win")]

    shared = replay(tmp_path, log(target_score=1, tie_break="shared"))
    assert (shared["finished"], shared["winners"]) == (True, ["Ana", "Ben"])
    assert ends(shared) == [("hand_end", "hand 1: Ana +1, Ben +1", []),
                            ("game_end", "game over: Ana and Ben share the win with 1", ["Ana", "Ben"])]
    play_on = replay(tmp_path, log(target_score=1))
    assert (play_on["finished"], play_on["winners"]) == (False, [])
    assert ends(play_on) == [("hand_end", "hand 1: Ana +1, Ben +1", []),
                             ("tie_for_win", "Ana and Ben tie for the lead on 1: another hand",
                              ["Ana", "Ben"])]
    going_on = replay(tmp_path, log())
    assert ends(going_on) == [("hand_end", "hand 1: Ana +1, Ben +1", [])]


NERTS_13 = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC KH"


def _deck(first: str) -> str:
    """A full deck order (docs/table-log.md): ``first`` (Nerts pile, work piles, stock top down), then
    the rest of the deck."""
    lead = first.split()
    rest = [f"{r}{s}" for s in "SHDC" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split() if f"{r}{s}" not in lead]
    return " ".join(lead + rest)


def test_a_recycle_after_the_immediate_one_is_judged_on_its_own(tmp_path: Path) -> None:
    """§6 short stock, ``short_stock = recycle_immediately``: the last 1-2 stock cards go on the waste
    and the waste is turned over at once, so a ``recycle`` logged right after that short turn is the same
    recycle (docs). Once the seat has moved a card since, or an all-stuck reset has turned every waste
    onto its stock (§7.2), a ``recycle`` is a move of its own: with cards in the stock it is illegal
    (M2: only an empty stock is recycled), as it is without the short turn."""
    deal = {"Ana": _deck(NERTS_13 + " 10S 9H 8S 5D"), "Ben": _deck(NERTS_13 + " AH 2H 3H 4H")}
    start: list[dict[str, Any]] = [{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"],
                                     "options": {"short_stock": "recycle_immediately"}},
                                    {"t": 0, "type": "hand_start", "deal": deal},
                                    # 35 stock cards: eleven turns of three, then the short turn of two.
                                    *({"t": f"{1 + i / 10:.1f}", "type": "turn", "seat": "Ana"}
                                      for i in range(12))]
    recycle: dict[str, Any] = {"t": 3, "type": "recycle", "seat": "Ana"}

    def breaches(between: list[dict[str, Any]]) -> list[tuple[str, int]]:
        report = replay(tmp_path, [*start, *between, recycle])
        return [(i["kind"], i["line"]) for i in report["infractions"]]

    assert breaches([]) == []
    moved = {"t": 2.5, "type": "move", "seat": "Ana", "card": "9H", "from": "work2", "to": "work1"}
    assert breaches([moved]) == [("illegal_move", 16)]
    stuck = [{"t": 2.5, "type": "stuck", "seat": s} for s in ("Ana", "Ben")]
    assert breaches(stuck) == [("illegal_move", 17)]


def test_simulated_partners_do_not_rotate_a_stock_their_partner_unstuck() -> None:
    """M10: a seat rotates its stock only while it is flagged stuck, and any move of M3-M7 clears the
    flag (M9), a partner's included: one seat, one layout (§10). A bot of a partnership that began a
    rotation before its partner moved a card abandons it, so the simulated hand, which the kiosk's demo
    table referees, breaks no rule."""
    hand = simulate_hand(2, seats=4, partners=(1,))
    assert [i.text for i in hand.report.infractions] == []
