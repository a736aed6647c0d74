"""Third black-box round of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W; options spelt as in §11): the
irregularities of §10 and the trump-discard rule of §6.4."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay


def _plays(record: str) -> list[dict[str, Any]]:
    return [{"type": "play", "seat": c[0], "card": c[2:]} for c in record.split()]


def _replay(tmp_path: Path, options: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    header = {"table_log": 1, "game": "smear", "seats": ["N", "E", "S", "W"], "options": options}
    return replay(tmp_path, [header, *({"t": i + 1, **e} for i, e in enumerate(events))])


# §13.6's deal (dealer S, N bids 3, blind 3): after taking KS 10D 8H from the blind N holds
# five spades AS KS QS 9S 7S. Here N discards 9S 10C 10D and keeps 8H, so N keeps four of
# its five trumps: illegal under both trump_discard_rule values (§6.4, §11).
HAND_13_6_TRUMP_DISCARDED: list[dict[str, Any]] = [
    {"type": "deal", "seat": "S"},
    {"type": "pass", "seat": "W"}, {"type": "bid", "seat": "N", "bid": 3},
    {"type": "pass", "seat": "E"}, {"type": "pass", "seat": "S"},
    *_plays("N:AS E:JS S:10S W:7C N:KS E:8D S:9H W:7H N:QS E:QH S:JC W:JD "
            "N:7S E:KD S:QD W:QC N:8H E:AH S:10H W:JH E:AC S:KC W:AD N:9D"),
    {"type": "discard", "seat": "N", "cards": ["9S", "10C", "10D"]},
]


@pytest.mark.parametrize("rule", ["keep_max_trumps", "only_if_over_six"])
def test_6_4_the_illegal_discard_names_the_rule_that_applied(tmp_path: Path, rule: str) -> None:
    """§6.4/§11: with T = 5 trumps the bidder must keep all five (``min(T, 6)``; under
    ``only_if_over_six`` no trump may go with six or fewer). The infraction must say so,
    not that the bidder kept "fewer than six trumps", which is no rule when T < 6."""
    rep = _replay(tmp_path, {"blind_cards": 3, "trump_discard_rule": rule}, HAND_13_6_TRUMP_DISCARDED)
    found = [i for i in rep["infractions"] if i["kind"] == "illegal_discard"]
    assert len(found) == 1
    text = found[0]["text"]
    assert "fewer than six" not in text
    assert "4 of its 5 trumps" in text
    # Flag only (§10 default): the hand is scored as played, NS +4.
    assert (rep["totals"]["N"], rep["totals"]["E"]) == (4, 0)
