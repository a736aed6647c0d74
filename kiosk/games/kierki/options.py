"""Kierki's variant options (kierki.md §12), with the spec's defaults.

All options are chosen before the match and fixed for its whole length.

>>> opts = KierkiOptions()
>>> opts.heart_lead_ban_deals, opts.deal6_penalties, opts.fan_tan_prize_pair
((2, 5, 7), {7: 75, 13: 75}, (800, 500))
>>> KierkiOptions(fan_tan_rounds=4).fan_tan_prize_pair
(200, 125)
>>> KierkiOptions(heart_lead_ban_deals=(2, 9))
Traceback (most recent call last):
...
kiosk.games.errors.InvalidActionError: option 'heart_lead_ban_deals' takes deal numbers 1 to 7, got 9
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kiosk.games.base import Options, option
from kiosk.games.cards import Card, Rank
from kiosk.games.errors import InvalidActionError

__all__ = ["KierkiOptions", "DEAL6_CHOICES", "parse_deal6"]

DEAL6_CHOICES = ("7,13 @ 75", "12,13 @ 75", "13 @ 150", "3,7 @ 75", "3,8 @ 75")
"""The allowed values of ``deal6_penalty_tricks``: each keeps the deal total at -150."""

_DEAL6_RE = re.compile(r"^\s*(\d+(?:\s*,\s*\d+)*)\s*@\s*(\d+)\s*$")


def parse_deal6(text: str) -> dict[int, int]:
    """Parses a ``deal6_penalty_tricks`` value into ``{trick number: penalty}``.

    >>> parse_deal6("13 @ 150"), parse_deal6("3,8@75")
    ({13: 150}, {3: 75, 8: 75})
    """
    m = _DEAL6_RE.match(text)
    if not m:
        raise InvalidActionError(
            f"invalid deal6_penalty_tricks {text!r}: write trick numbers and a penalty, e.g. '7,13 @ 75'",
            input=text,
        )
    amount = int(m.group(2))
    return {int(t): amount for t in m.group(1).split(",")}


@dataclass(frozen=True, slots=True)
class KierkiOptions(Options):
    """The variant options of a Kierki match (kierki.md §12)."""

    heart_lead_ban_deals: tuple[int, ...] = option(
        (2, 5, 7), "deals (1 to 7) in which a heart may not be led while the leader holds a non-heart"
    )
    deal5_lead_ban_scope: str = option(
        "all_hearts",
        "in deal 5 ban every heart lead, or only the lead of KH while holding another card",
        choices=("all_hearts", "king_of_hearts_only"),
    )
    hearts_broken_lifts_ban: bool = option(
        False, "the heart-lead ban ends for the rest of the deal once a heart has been played to a trick"
    )
    king_of_hearts_forced_discard: bool = option(
        False,
        "in deal 5 the holder of KH must play it when void in the suit led, or on a heart lead "
        "once AH is in the trick",
    )
    deal6_penalty_tricks: str = option(
        "7,13 @ 75",
        "which tricks are penalised in deal 6 (and in the robber); the deal total stays -150",
        choices=DEAL6_CHOICES,
    )
    stop_when_penalties_exhausted: bool = option(
        False, "deals 2 to 5 stop once every penalty card has been taken (the rest are then shown)"
    )
    trump_chooser: str = option(
        "dealer_after_five",
        "who names trumps in deals 8 to 11: the dealer after the first cards, or the "
        "player left of the dealer after the full deal (that player leads)",
        choices=("dealer_after_five", "left_of_dealer_full_hand"),
    )
    trump_choice_cards: int = option(
        5, "cards each player receives before the dealer names trumps (1 to 13, dealer_after_five only)"
    )
    must_trump_when_void: bool = option(
        False, "in deals 8 to 11 a player void in the suit led must trump if able (no duty to overtrump)"
    )
    fan_tan_start_rank: str = option(
        "7",
        "the rank that starts each Fan Tan row; first_card: the first card played sets it",
        choices=("7", "8", "first_card"),
    )
    fan_tan_ace: str = option(
        "high", "high: Fan Tan rows run 2 .. K A; low: they run A 2 .. K", choices=("high", "low")
    )
    fan_tan_opening: str = option(
        "left_of_dealer",
        "who opens Fan Tan: the player left of the dealer, or the holder of a named "
        "card such as 7D, who plays it first",
    )
    fan_tan_rounds: int = option(
        1, "how many times the Fan Tan deal is played (4 rounds pay 200 and 125 each)", choices=(1, 4)
    )
    fan_tan_prizes: tuple[int, ...] = option(
        (800, 500),
        "prizes for the first and second player out, per round; with 4 rounds the default "
        "becomes 200, 125; other values break the zero-sum check",
    )
    revoke_policy: str = option(
        "flag_only",
        "when a revoke, banned lead or illegal pass is proven: flag it for the table, or "
        "discard the deal and deal it again",
        choices=("flag_only", "replay_deal"),
    )
    tie_break: str = option(
        "shared", "equal final scores share the place (no tie-break)", choices=("shared",)
    )

    def __post_init__(self) -> None:
        bans = self.heart_lead_ban_deals
        if isinstance(bans, str):
            # A list option may be written as a comma string ("2, 5, 7", with or without the
            # brackets of §12's default): it means the same deal numbers as the JSON list.
            inner = bans.strip().removeprefix("[").removesuffix("]").strip()
            # §12 allows any subset of 1..7, the empty one too: with no numbers the string
            # ("" or "[]") is the empty list, no deal with a ban.
            parts = [p.strip() for p in inner.split(",")] if inner else []
            if all(p.isdecimal() for p in parts):
                bans = tuple(int(p) for p in parts)
                object.__setattr__(self, "heart_lead_ban_deals", bans)
        if not isinstance(bans, tuple) or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in bans
        ):
            raise InvalidActionError(
                f"option 'heart_lead_ban_deals' must be a list of deal numbers, got {bans!r}",
                input=repr(bans),
            )
        for d in bans:
            if not 1 <= d <= 7:
                raise InvalidActionError(
                    f"option 'heart_lead_ban_deals' takes deal numbers 1 to 7, got {d}", input=repr(d)
                )
        parse_deal6(self.deal6_penalty_tricks)
        if not 1 <= self.trump_choice_cards <= 13:
            raise InvalidActionError(
                f"option 'trump_choice_cards' must be 1 to 13, got {self.trump_choice_cards}",
                input=repr(self.trump_choice_cards),
            )
        prizes = self.fan_tan_prizes
        if isinstance(prizes, str):
            # §12 writes the value as "800, 500": that spelling means the pair [800, 500].
            parts = [p.strip() for p in prizes.strip().removeprefix("[").removesuffix("]").split(",")]
            if len(parts) == 2 and all(p.isdecimal() for p in parts):
                prizes = (int(parts[0]), int(parts[1]))
                object.__setattr__(self, "fan_tan_prizes", prizes)
        if (
            not isinstance(prizes, tuple)
            or len(prizes) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) and p > 0 for p in prizes)
        ):
            raise InvalidActionError(
                f"option 'fan_tan_prizes' must be two positive whole numbers, e.g. [800, 500], "
                f"got {prizes!r}",
                input=repr(prizes),
            )
        if self.fan_tan_opening != "left_of_dealer":
            card = self.opening_card
            start = self.fan_tan_start_rank
            if start != "first_card" and card is not None and card.rank != Rank(int(start)):
                raise InvalidActionError(
                    f"option 'fan_tan_opening' {self.fan_tan_opening!r} does not start a row: rows start "
                    f"with rank {start}",
                    input=self.fan_tan_opening,
                )

    @property
    def opening_card(self) -> Card | None:
        """The card that opens Fan Tan, or ``None`` when the player left of the dealer starts."""
        if self.fan_tan_opening == "left_of_dealer":
            return None
        try:
            card = Card.parse(self.fan_tan_opening)
        except InvalidActionError:
            raise InvalidActionError(
                f"option 'fan_tan_opening' must be 'left_of_dealer' or a card such as '7D', "
                f"got {self.fan_tan_opening!r}",
                input=self.fan_tan_opening,
            ) from None
        if card.is_joker or card.deck:
            raise InvalidActionError(
                f"option 'fan_tan_opening' must name a card of the pack, got {self.fan_tan_opening!r}",
                input=self.fan_tan_opening,
            )
        return card

    @property
    def deal6_penalties(self) -> dict[int, int]:
        """``{trick number: penalty}`` of deal 6 (and the robber)."""
        return parse_deal6(self.deal6_penalty_tricks)

    @property
    def fan_tan_prize_pair(self) -> tuple[int, int]:
        """The prizes per Fan Tan round, with the four-round default applied."""
        if self.fan_tan_rounds == 4 and self.fan_tan_prizes == (800, 500):
            return (200, 125)
        return (self.fan_tan_prizes[0], self.fan_tan_prizes[1])

    def warnings(self) -> list[str]:
        """Soft problems the kiosk must show before the match (kierki.md §12)."""
        first, second = self.fan_tan_prize_pair
        if self.fan_tan_rounds * (first + second) != 1300:
            return [
                f"Fan Tan prizes {first} and {second} over {self.fan_tan_rounds} round(s) pay "
                f"{self.fan_tan_rounds * (first + second)}, not 1300: the match is no longer zero-sum"
            ]
        return []
