"""The worked examples of smear.md §13 as data, shared by the Smear tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.games.cards import Card, parse_cards
from kiosk.games.referee import TableEvent
from kiosk.games.smear import Deal, SmearGame, SmearState, parse_seat
from kiosk.games.tricks import parse_hand


@dataclass(frozen=True)
class Example:
    """One worked example: the deal, the auction, the discard and the tricks."""

    dealer: str
    hands: dict[str, str]
    blind: str
    auction: list[str]
    tricks: list[str]
    discard: str = ""
    options: dict[str, Any] = field(default_factory=dict)

    def deal(self) -> Deal:
        hands = tuple(tuple(parse_hand(self.hands[s])) for s in "NESW")
        return Deal(parse_seat(self.dealer), hands, tuple(parse_cards(self.blind)))

    def trick_plays(self) -> list[list[tuple[str, Card]]]:
        """Each trick record ``"N:7S E:KS S:JS W:QS -> E"`` as (seat letter, card) pairs."""
        out = []
        for record in self.tricks:
            plays = record.split("->")[0].split()
            out.append([(p.split(":")[0], Card.parse(p.split(":")[1])) for p in plays])
        return out

    def play(self, **extra_options: Any) -> SmearState:
        """Plays the example through the strict engine (every action checked)."""
        opts = {**self.options, **extra_options, "first_dealer": self.dealer}
        state = SmearGame(opts).new_initial_state()
        state.apply_action(self.deal())
        for call in self.auction:
            state.apply_text(call)
        if self.discard:
            state.apply_text(self.discard)
        for trick in self.trick_plays():
            for seat, card in trick:
                state.apply_text(f"{seat}:{card}")
        return state


EX_13_1 = Example(
    dealer="N",
    hands={"N": "S K | H J 10 | D Q | C 10 9", "E": "S Q | H 8 | D J 10 | C A K",
           "S": "S 10 | H A K 7 | D 9 | C 8", "W": "S A 8 | H Q 9 | D K | C 7"},
    blind="AD 9S 7S JS 8D 7D QC JC",
    auction=["E:pass", "S:bid 3", "W:pass", "N:pass"],
    tricks=["S:AH W:9H N:10H E:8H -> S", "S:KH W:QH N:JH E:QS -> S", "S:7H W:8S N:9C E:JD -> S",
            "S:10S W:AS N:KS E:10D -> W", "W:KD N:QD E:KC S:9D -> W", "W:7C N:10C E:AC S:8C -> E"],
)

EX_13_2 = Example(
    dealer="E",
    hands={"N": "S A K J 7 | H - | D A 10 | C -", "E": "S Q 8 | H K 9 | D - | C 8 7",
           "S": "S 10 9 | H 7 | D Q | C A 10", "W": "S - | H A Q | D K J 9 | C J"},
    blind="8D 7D 10H JH 8H KC QC 9C",
    auction=["S:pass", "W:pass", "N:bid 4"],
    tricks=["N:AS E:8S S:9S W:9D -> N", "N:KS E:QS S:10S W:JC -> N", "N:JS E:7C S:7H W:QH -> N",
            "N:7S E:8C S:QD W:JD -> N", "N:AD E:9H S:AC W:KD -> N", "N:10D E:KH S:10C W:AH -> N"],
)

EX_13_3 = Example(
    dealer="S",
    hands={"N": "S Q | H - | D A K 10 | C J 8", "E": "S 10 8 | H K | D Q | C A 9",
           "S": "S 7 | H A Q 10 | D 9 | C 7", "W": "S A K 9 | H J | D 8 | C 10"},
    blind="KC QC JS 9H 8H 7H JD 7D",
    auction=["W:bid 2", "N:pass", "E:bid 3", "S:pass"],
    tricks=["E:AC S:7C W:10C N:8C -> E", "E:10S S:7S W:AS N:QS -> W", "W:KS N:JC E:8S S:10H -> N",
            "N:AD E:QD S:9D W:8D -> N", "N:KD E:9C S:QH W:JH -> E", "E:KH S:AH W:9S N:10D -> S"],
)

EX_13_4 = Example(
    dealer="W",
    hands={"N": "S A 7 | H Q | D A K | C J", "E": "S K | H A 10 | D 10 9 | C Q",
           "S": "S J | H K | D Q 8 | C A 10", "W": "S Q 10 | H J | D J 7 | C K"},
    blind="9S 8S 9H 8H 7H 9C 8C 7C",
    auction=["N:bid 2", "E:pass", "S:pass", "W:pass"],
    tricks=["N:7S E:KS S:JS W:QS -> E", "E:9D S:QD W:JD N:AD -> N", "N:JC E:QC S:AC W:10S -> W",
            "W:7D N:KD E:10D S:8D -> N", "N:AS E:10H S:KH W:KC -> N", "N:QH E:AH S:10C W:JH -> E"],
)

EX_13_5 = Example(
    dealer="E",
    hands={"N": "S Q 10 | H - | D 9 8 | C A 9", "E": "S J 9 | H - | D K Q 10 | C K",
           "S": "S 8 7 | H - | D J 7 | C J 10", "W": "S A K | H 9 | D A | C Q 8"},
    blind="AH KH QH JH 10H 8H 7H 7C",
    auction=["S:pass", "W:bid 2", "N:pass", "E:pass"],
    tricks=["W:9H N:9C E:9S S:7D -> W", "W:AS N:QS E:JS S:7S -> W", "W:KS N:10S E:10D S:8S -> W",
            "W:AD N:8D E:QD S:JD -> W", "W:QC N:AC E:KC S:10C -> N", "N:9D E:KD S:JC W:8C -> E"],
)

EX_13_6 = Example(
    dealer="S",
    hands={"N": "S A Q 9 7 | H - | D 9 | C 10", "E": "S J | H A Q | D K 8 | C A",
           "S": "S 10 | H 10 9 | D Q | C K J", "W": "S - | H J 7 | D A J | C Q 7"},
    blind="KS 10D 8H 8S KH 7D 9C 8C",
    auction=["W:pass", "N:bid 3", "E:pass", "S:pass"],
    discard="N:discard 10C 10D 8H",
    tricks=["N:AS E:JS S:10S W:7C -> N", "N:KS E:8D S:9H W:7H -> N", "N:QS E:QH S:JC W:JD -> N",
            "N:9S E:KD S:QD W:QC -> N", "N:7S E:AC S:KC W:JH -> N", "N:9D E:AH S:10H W:AD -> W"],
    options={"blind_cards": 3},
)

EX_13_10 = Example(
    dealer="W",
    hands=EX_13_4.hands,
    blind=EX_13_4.blind,
    auction=EX_13_4.auction,
    tricks=["N:7S E:KS S:JS W:QS -> E", "E:9D S:QD W:JD N:AD -> N", "N:JC E:QC S:AC W:KC -> S",
            "S:8D W:7D N:AS E:10D -> N", "N:QH E:10H S:KH W:10S -> W", "W:JH N:KD E:AH S:10C -> E"],
)

EXAMPLES = {"13.1": EX_13_1, "13.2": EX_13_2, "13.3": EX_13_3, "13.4": EX_13_4, "13.5": EX_13_5,
            "13.6": EX_13_6, "13.10": EX_13_10}


SEATS = ("N", "E", "S", "W")


class EventClock:
    """Hands out increasing event times, one second apart."""

    def __init__(self, start_s: int = 0) -> None:
        self.t = start_s

    def __call__(self) -> int:
        self.t += 1
        return self.t * 1_000_000_000


def example_events(ex: Example, clock: EventClock, *, dealer: str | None = None,
                   auction: list[str] | None = None) -> list[TableEvent]:
    """The table log of one worked example: deal, calls, plays, then the discards."""
    events = [TableEvent("deal", clock(), seat=dealer or ex.dealer)]
    for call in auction if auction is not None else ex.auction:
        seat, _, what = call.partition(":")
        if what == "pass":
            events.append(TableEvent("pass", clock(), seat=seat))
        else:
            events.append(TableEvent("bid", clock(), seat=seat, data={"bid": int(what.split()[1])}))
    for trick in ex.trick_plays():
        for seat, card in trick:
            events.append(TableEvent("play", clock(), seat=seat, data={"card": str(card)}))
    if ex.discard:
        seat, _, what = ex.discard.partition(":")
        events.append(TableEvent("discard", clock(), seat=seat, data={"cards": what.split()[1:]}))
    return events
