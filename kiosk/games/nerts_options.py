"""The variant options of Nerts (``rules/nerts.md`` §11), with the spec's defaults.

>>> NertsOptions().tie_window_ms, NertsOptions().tie_policy, NertsOptions().target_score
(30, 'both_stay', 100)
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.games.base import Options, option
from kiosk.games.errors import InvalidActionError

__all__ = ["NertsOptions", "check_options"]


@dataclass(frozen=True, slots=True)
class NertsOptions(Options):
    """Every variant option of ``rules/nerts.md`` §11."""

    jokers: int = option(0, "0: no jokers; 2: each deck adds its two jokers as wild cards (§9)",
                         choices=(0, 2))
    nerts_pile_size: int = option(13, "cards in each Nerts pile, the top one face up")
    work_piles: int = option(4, "number of work piles per seat")
    stock_turn_count: int = option(3, "cards turned from the stock per turn (1 is an easier variant)")
    short_stock: str = option(
        "turn_remainder",
        "turn_remainder: the last 1-2 stock cards are turned and playable; "
        "recycle_immediately: they go on the waste and the waste is turned over at once",
        choices=("turn_remainder", "recycle_immediately"),
    )
    move_partial_runs: bool = option(True, "any block may move between work piles (false: whole piles only)")
    allow_slide_under: bool = option(True, "a card may be slid under the base of a work pile (M7)")
    must_fill_from_nerts: bool = option(
        False, "an empty work pile must be filled at once from the Nerts pile while it has cards")
    aces_compulsory: bool = option(
        False, "an available Ace must be played to the centre before any other move")
    one_hand_rule: bool = option(True, "one card or block in flight per player")
    tie_policy: str = option(
        "both_stay",
        "both_stay: obvious ties keep every tied card; first_only: only the earliest landing stays",
        choices=("both_stay", "first_only"))
    tie_window_ms: int = option(
        30, "largest gap in ms between two landings that still counts as a tie, before uncertainties")
    solo_rotation: bool = option(True, "a stuck seat may move its top stock card to the bottom (M10)")
    stalemate_after_resets: int = option(
        1, "resets with no progress after which an all-stuck table ends the hand")
    false_call_penalty: int = option(
        0, "points deducted for calling Nerts! with cards still in the Nerts pile")
    target_score: int = option(100, "the game ends after a hand in which some total reaches this")
    tie_break: str = option(
        "play_on", "play_on: play more hands until one seat alone leads; shared: tied leaders share the win",
        choices=("play_on", "shared"))
    attribution_source: str = option(
        "audit_if_available",
        "audit_if_available: end-of-hand back counts override live tracking; tracking_only: live tracking",
        choices=("audit_if_available", "tracking_only"))


def check_options(opts: NertsOptions) -> None:
    """Checks the ranges the types cannot express; InvalidActionError names the option.

    >>> check_options(NertsOptions(work_piles=0))
    Traceback (most recent call last):
    ...
    kiosk.games.errors.InvalidActionError: option 'work_piles' must be at least 1, got 0
    """
    minimums = {
        "nerts_pile_size": 1, "work_piles": 1, "stock_turn_count": 1, "tie_window_ms": 0,
        "stalemate_after_resets": 0, "false_call_penalty": 0, "target_score": 1,
    }
    for name, low in minimums.items():
        value = getattr(opts, name)
        if value < low:
            raise InvalidActionError(f"option {name!r} must be at least {low}, got {value}", input=str(value))
    # The layout is dealt from one deck: 52 cards, or 54 with its two jokers (§2, §4 step 4).
    deck = 52 + opts.jokers
    if opts.nerts_pile_size + opts.work_piles > deck:
        raise InvalidActionError(
            f"nerts_pile_size + work_piles must leave cards for the stock (at most {deck}), got "
            f"{opts.nerts_pile_size} + {opts.work_piles}", input=str(opts.nerts_pile_size))
