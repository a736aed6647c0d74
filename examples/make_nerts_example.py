"""Writes ``examples/nerts_example.jsonl``: two hands of Nerts as an overhead camera logs them.

Four seeded bots (``kiosk.games.nerts_bots``) play each hand; the log keeps what
the camera reliably sees (rules/nerts.md §12): foundation plays with seat, card,
pile, landing time and uncertainty (and lift time), calls, stuck declarations and
the end-of-hand audit counts. Two things a real table adds are written in by
hand: a false call and an illegal play that the referee sends back.

Run from the repository root:

    python examples/make_nerts_example.py            # rewrite the example
    python examples/make_nerts_example.py --check    # exit 1 if the file is stale
"""

from __future__ import annotations

import dataclasses
import io
import sys
from pathlib import Path

from kiosk.games.nerts_bots import camera_events, simulate_hand
from kiosk.games.referee import LogHeader, TableEvent
from kiosk.tablelog import dump_event, dump_header

SEATS = ("Ana", "Ben", "Cal", "Dee")
HANDS = ((3, 0), (15, 120_000_000_000))
"""(bot seed, start time in ns) of each hand."""
PATH = Path(__file__).with_name("nerts_example.jsonl")


def build() -> str:
    events: list[TableEvent] = []
    for number, (seed, start) in enumerate(HANDS, start=1):
        hand = simulate_hand(seed, seats=SEATS, start_ns=start)
        view = camera_events(hand.events, audit=True)
        if number == 2:
            view = _with_table_mistakes(view)
        events.extend(view)
    out = io.StringIO()
    out.write("# Two hands of Nerts as the kiosk's overhead camera logged them (rules/nerts.md §12).\n")
    out.write("# Regenerate with: python examples/make_nerts_example.py\n")
    out.write(dump_header(LogHeader("nerts", SEATS, {}, meta={"kiosk": "example"})) + "\n")
    for e in events:
        out.write(dump_event(e) + "\n")
    return out.getvalue()


def _with_table_mistakes(view: list[TableEvent]) -> list[TableEvent]:
    """Adds a false call (Dee, 3 Nerts cards left) and an illegal play (Cal: a 9♠ on an
    Ace) early in the hand, where they are easy to find."""
    plays = [e for e in view if e.type == "foundation_play"]
    ace = next(e for e in plays if str(e.data["card"]).startswith("A"))
    t0 = ace.t_ns + 700_000_000
    wrong = "9S" if "S" not in str(ace.data["card"]) else "9H"
    illegal = TableEvent("foundation_play", t0, 8_000_000, "Cal", {"card": wrong, "pile": ace.data["pile"]})
    false_call = TableEvent("call", t0 + 200_000_000, 0, "Dee", {"nerts_left": 3})
    out = sorted([*view, illegal, false_call], key=lambda e: e.t_ns)  # stable: log order kept
    return [dataclasses.replace(e, line=None) for e in out]


def main(argv: list[str]) -> int:
    text = build()
    if "--check" in argv:
        if PATH.read_text(encoding="utf-8") != text:
            print(f"{PATH} is stale: run python examples/make_nerts_example.py", file=sys.stderr)
            return 1
        return 0
    PATH.write_text(text, encoding="utf-8")
    print(f"wrote {PATH} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
