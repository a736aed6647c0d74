"""Black-box Nerts tests, round 5 (the variant options of §11 and the rules the earlier rounds
covered thinly): table logs written from ``rules/nerts.md`` and ``docs/table-log.md`` alone, refereed
through ``kiosk replay --json`` as an outsider would run it, and the strict engine's move generator
where an option changes what a seat may do."""

from __future__ import annotations

from kiosk.games.nerts_actions import Call, Play, Stuck
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
