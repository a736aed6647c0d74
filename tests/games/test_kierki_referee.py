"""The Kierki referee: infractions proven from what the camera and buttons report,
and clear errors for malformed logs. Built on the worked match's table log
(``examples/kierki_example.jsonl``), edited the way a table would go wrong."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.__main__ import main
from kiosk.games.cards import standard_deck
from kiosk.games.errors import InvalidActionError
from kiosk.games.kierki import KierkiGame, KierkiReferee
from kiosk.games.referee import Infraction, RefereeReport, TableEvent, replace_data
from kiosk.tablelog import parse_event, parse_header, read_table_log

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "kierki_example.jsonl"
SEATS = ("N", "E", "S", "W")
_, EVENTS = read_table_log(EXAMPLE)
DEAL1 = (-120, -60, -80, 0)


def deal_events(number: int) -> list[TableEvent]:
    """The events of deal ``number`` (its 'deal' event up to the next one)."""
    starts = [i for i, e in enumerate(EVENTS) if e.type == "deal"] + [len(EVENTS)]
    return list(EVENTS[starts[number - 1]:starts[number]])


def up_to(number: int) -> list[TableEvent]:
    """Every event before deal ``number``."""
    starts = [i for i, e in enumerate(EVENTS) if e.type == "deal"]
    return list(EVENTS[: starts[number - 1]])


def find_play(events: list[TableEvent], seat: str, card: str) -> int:
    return next(i for i, e in enumerate(events)
                if e.type == "play" and e.seat == seat and e.get("card") == card)


def swap_cards(events: list[TableEvent], seat: str, a: str, b: str) -> list[TableEvent]:
    """``seat`` plays ``b`` where it played ``a`` and ``a`` where it played ``b``."""
    out = list(events)
    i, j = find_play(out, seat, a), find_play(out, seat, b)
    out[i], out[j] = replace_data(out[i], card=b), replace_data(out[j], card=a)
    return out


def event(etype: str, t: int, seat: str | None = None, **data: Any) -> TableEvent:
    return TableEvent(etype, t, 0, seat, data)


def referee(events: list[TableEvent], options: Mapping[str, Any] | None = None) -> RefereeReport:
    ref = KierkiGame(options).referee()
    ref.feed_all(events)
    return ref.report()


def kinds(report: RefereeReport) -> list[str]:
    return [i.kind for i in report.infractions]


def only(report: RefereeReport, kind: str) -> Infraction:
    found = [i for i in report.infractions if i.kind == kind]
    assert len(found) == 1, report.infractions
    return found[0]


def test_revoke_proven_five_tricks_later() -> None:
    """§14.17: W plays 10D on the club lead of trick 5 while holding clubs; JC in trick 10 proves it."""
    events = swap_cards(deal_events(1), "W", "JC", "10D")
    report = referee(events)
    revoke = only(report, "revoke")
    assert revoke.seat == "W"
    assert revoke.text == ("revoke by W in trick 5: clubs led, W played 10D; "
                           "proven in trick 10: W played JC")
    assert revoke.line == find_play(events, "W", "JC") + 2
    assert tuple(report.hands[0].values()) == DEAL1  # flag only: the table decides
    assert any(r.kind == "flag" for r in report.rulings)


def test_revoke_with_replay_deal_discards_and_redeals() -> None:
    bad = swap_cards(deal_events(1), "W", "JC", "10D")
    proof = find_play(bad, "W", "JC")
    end = bad[proof].t_ns
    again = [dataclasses.replace(e, t_ns=e.t_ns + end) for e in deal_events(1)]
    report = referee(bad[: proof + 1] + again, {"revoke_policy": "replay_deal"})
    assert kinds(report) == ["revoke"]
    assert any(r.kind == "replay_deal" and "N deals it again" in r.text for r in report.rulings)
    assert len(report.hands) == 1 and tuple(report.hands[0].values()) == DEAL1


def test_play_after_a_discarded_deal_is_noted_not_judged() -> None:
    """The rest of a deal discarded under replay_deal is still seen played: noted, not an error."""
    bad = swap_cards(deal_events(1), "W", "JC", "10D")
    ref = KierkiGame({"revoke_policy": "replay_deal"}).referee()
    proof = find_play(bad, "W", "JC")
    ref.feed_all(bad[: proof + 1])
    rulings = ref.feed(bad[proof + 1])
    assert [r.kind for r in rulings] == ["ignored"] and "discarded" in rulings[0].text
    assert [i.kind for i in ref.report().infractions] == ["revoke"]


def test_heart_lead_ban_proven_by_later_non_heart() -> None:
    """With the ban in deal 1, S's 3H lead (trick 2) is proven by its 5S in trick 3."""
    report = referee(deal_events(1), {"heart_lead_ban_deals": [1]})
    leads = [i for i in report.infractions if i.kind == "illegal_lead"]
    assert [(i.seat, i.text.split(":")[0]) for i in leads] == [
        ("S", "illegal lead by S in trick 2"), ("S", "illegal lead by S in trick 4"),
        ("E", "illegal lead by E in trick 9"),
    ]
    assert "proven in trick 3: S played 5S" in leads[0].text
    # N's JH lead at trick 11 is legal: N held only hearts.
    assert tuple(report.hands[0].values()) == DEAL1


def test_hearts_broken_lifts_the_ban() -> None:
    report = referee(deal_events(1), {"heart_lead_ban_deals": [1], "hearts_broken_lifts_ban": True})
    assert [i.text.split(":")[0] for i in report.infractions] == ["illegal lead by S in trick 2"]


def test_real_deals_2_5_7_respect_the_ban() -> None:
    report = referee(EVENTS)
    assert report.infractions == []


def test_play_out_of_turn_is_refused() -> None:
    events = deal_events(1)
    first = events[1]
    events.insert(1, event("play", first.t_ns, "N", card="2C"))
    report = referee(events)
    bad = only(report, "out_of_turn")
    assert bad.seat == "N" and "E is to lead" in bad.text
    assert any(r.kind == "refused" and "take back 2C" in r.text for r in report.rulings)
    assert tuple(report.hands[0].values()) == DEAL1  # the card went back; nothing seen twice


def test_card_seen_twice() -> None:
    events = deal_events(1)
    i = find_play(events, "W", "4C")
    events[i] = replace_data(events[i], card="6C")
    report = referee(events)
    twice = only(report, "seen_twice")
    assert twice.seat == "W" and "6C seen twice: in trick 12" in twice.text and "trick 13" in twice.text


def test_misread_breaks_the_fixed_total() -> None:
    """A heart misread as a diamond in deal 2: seen twice, and the deal totals -240, not -260."""
    events = up_to(2) + deal_events(2)
    i = find_play(events, "W", "AH")
    events[i] = replace_data(events[i], card="AD")
    report = referee(events)
    assert set(kinds(report)) == {"seen_twice", "misread"}
    misread = only(report, "misread")
    assert "scores add up to -240" in misread.text and "-260" in misread.text
    assert "MISMATCH" in next(r.text for r in report.rulings if r.kind == "deal_end" and "deal 2" in r.text)


def test_trick_collected_with_too_few_cards() -> None:
    events = deal_events(1)
    events.insert(4, event("collect", events[3].t_ns, "S"))
    report = referee(events)
    short = only(report, "wrong_count")
    assert "trick 1 was collected with 3 of 4 cards" in short.text
    assert tuple(report.hands[0].values()) == DEAL1  # the fourth card completes it when shown


def test_collect_by_the_wrong_seat_is_corrected() -> None:
    events = deal_events(1)
    i = next(i for i, e in enumerate(events) if e.type == "collect")
    events[i] = dataclasses.replace(events[i], seat="W")
    report = referee(events)
    assert any(r.kind == "taker" and "S won it with 8C" in r.text for r in report.rulings)
    assert report.infractions == []


def test_misdeal_before_play_and_after_play() -> None:
    deal1 = deal_events(1)
    t = deal1[2].t_ns
    again = [dataclasses.replace(e, t_ns=e.t_ns + t) for e in deal1]
    clean = referee([deal1[0], event("misdeal", deal1[0].t_ns, "N")] + again)
    assert clean.infractions == [] and tuple(clean.hands[0].values()) == DEAL1
    late = referee(deal1[:3] + [event("misdeal", t, "N")] + again)
    assert kinds(late) == ["wrong_count"] and tuple(late.hands[0].values()) == DEAL1


def test_wrong_dealer_is_flagged() -> None:
    events = deal_events(1) + deal_events(2)
    i = next(i for i, e in enumerate(events) if e.type == "deal" and e.get("deal") == 2)
    events[i] = dataclasses.replace(events[i], seat="W")
    report = referee(events)
    assert only(report, "wrong_dealer").text == "W dealt deal 2, but it was E's deal"


def test_trump_named_by_the_wrong_seat_is_flagged() -> None:
    events = up_to(8) + deal_events(8)
    i = next(i for i, e in enumerate(events) if e.type == "trump")
    events[i] = dataclasses.replace(events[i], seat="N")
    report = referee(events)
    assert only(report, "wrong_trump_seat").seat == "N"
    assert report.hands[7] == {"N": 50, "E": 75, "S": 25, "W": 175}


def test_must_trump_when_void_is_proven_later() -> None:
    """Deal 11 (clubs trumps) with W's KH and QS leads swapped: S, void in spades, discards 9H on
    trick 8 while holding a club; its 8C in trick 9 proves it."""
    events = up_to(11) + swap_cards(deal_events(11), "W", "KH", "QS")
    assert referee(events).infractions == []  # no duty to trump by default
    report = referee(events, {"must_trump_when_void": True})
    bad = only(report, "failure_to_trump")
    assert bad.text == ("failure to trump by S in trick 8: spades led, S played 9H without trumping; "
                        "proven in trick 9: S played 8C")
    assert sum(report.hands[10].values()) == 325


def test_king_of_hearts_forced_discard_is_proven_later() -> None:
    """Deal 5: N, void in diamonds at trick 3, keeps KH and plays it at trick 13."""
    events = up_to(5) + swap_cards(deal_events(5), "N", "KH", "2H")
    assert referee(events).infractions == []
    report = referee(events, {"king_of_hearts_forced_discard": True})
    found = [i for i in report.infractions if i.kind == "king_of_hearts_not_played"]
    assert found[0].text == ("king of hearts not played by N in trick 3: N could not follow diamonds and "
                             "played 2H, not KH; proven in trick 13: N played KH")
    assert all(i.seat == "N" and i.text.endswith("proven in trick 13: N played KH") for i in found)


def test_example_is_clean_under_duty_options() -> None:
    opts = {"must_trump_when_void": True, "king_of_hearts_forced_discard": True}
    assert referee(EVENTS, opts).infractions == []


def _fan_tan_start() -> list[TableEvent]:
    return up_to(12) + deal_events(12)[:1]


def _turns(start_t: int, turns: list[tuple[str, str]]) -> list[TableEvent]:
    out = []
    for k, (seat, what) in enumerate(turns, start=1):
        t = start_t + k * 1_000_000_000
        out.append(event("pass", t, seat) if what == "pass" else event("play", t, seat, card=what))
    return out


def test_fan_tan_illegal_pass_proven_by_later_play() -> None:
    """§14.16: E passes at turn 2 while holding 7C; E's 7C at turn 6 proves it."""
    events = _fan_tan_start()
    events += _turns(events[-1].t_ns, [("N", "7S"), ("E", "pass"), ("S", "6S"), ("W", "8S"),
                                       ("N", "5S"), ("E", "7C")])
    report = referee(events)
    bad = only(report, "illegal_pass")
    assert bad.seat == "E" and "in turn 2" in bad.text and "proven in turn 6: E played 7C" in bad.text


def test_fan_tan_card_that_does_not_fit_is_refused() -> None:
    events = _fan_tan_start()
    events += _turns(events[-1].t_ns, [("N", "7S"), ("E", "9S"), ("E", "7C")])
    report = referee(events)
    misfit = only(report, "misfit")
    assert misfit.seat == "E" and "9S" in misfit.text
    assert report.extra["in_progress"]["deal"] == 12


def test_fan_tan_pass_out_of_turn() -> None:
    events = _fan_tan_start()
    events += _turns(events[-1].t_ns, [("E", "pass")])
    text = only(referee(events), "out_of_turn").text
    assert text == "E tried to pass out of turn at turn 1: it is N's turn"


def test_fan_tan_reveal_proves_an_illegal_pass() -> None:
    """S passed at turn 66 with {QD} fitting; showing QD at the end proves it (and QD was seen already)."""
    events = list(EVENTS)
    i = next(i for i, e in enumerate(events) if e.type == "reveal" and e.seat == "S")
    events[i] = replace_data(events[i], cards=["QD"])
    report = referee(events)
    bad = only(report, "illegal_pass")
    assert "proven at the end of the deal: S still holds QD" in bad.text
    assert "seen_twice" in kinds(report)


def test_reveal_with_the_wrong_number_of_cards() -> None:
    events = list(EVENTS)
    i = next(i for i, e in enumerate(events) if e.type == "reveal" and e.seat == "E")
    events[i] = replace_data(events[i], cards=["KD", "2S"])
    report = referee(events)
    assert "E shows 2 cards but should hold 1" in only(report, "wrong_count").text


def test_undo_takes_back_an_out_of_turn_card() -> None:
    events = deal_events(1)
    events.insert(1, event("play", events[1].t_ns, "N", card="2C"))
    events.insert(2, event("undo", events[1].t_ns))
    report = referee(events)
    assert report.infractions == [] and tuple(report.hands[0].values()) == DEAL1


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (event("play", 0, "E", card="1X"), "invalid card"),
        (event("play", 0, "E"), "needs a 'card' field"),
        (event("play", 0, "E", card=7), "must be a string"),
        (event("play", 0, "E", card="JOKER"), "not a card of the 52-card pack"),
        (event("trump", 0, "N", suit="H"), "trumps are named only in deals 8 to 11"),
        (event("pass", 0, "E"), "passes exist only in Fan Tan"),
        (event("reveal", 0, "E", cards="KD"), "must be a list"),
        (event("play", 0, "X", card="3C"), "seat 'X' is not in the header"),
        (event("shuffle", 0, "N"), "unknown event type 'shuffle'"),
    ],
)
def test_malformed_events_raise(bad: TableEvent, message: str) -> None:
    ref = KierkiGame().referee()
    ref.feed_all(deal_events(1)[:3])
    bad = dataclasses.replace(bad, t_ns=ref.events[-1].t_ns)
    with pytest.raises(InvalidActionError, match=message):
        ref.feed(bad)


def test_events_before_any_deal_raise() -> None:
    ref = KierkiGame().referee()
    with pytest.raises(InvalidActionError, match="before any deal"):
        ref.feed(event("play", 0, "E", card="3C"))
    with pytest.raises(InvalidActionError, match="next deal is deal 1"):
        ref.feed(event("deal", 0, "N", deal=2))


def test_trump_deal_needs_trumps_before_play() -> None:
    ref = KierkiGame().referee()
    ref.feed_all(up_to(8) + deal_events(8)[:1])
    with pytest.raises(InvalidActionError, match="log a 'trump' event first"):
        ref.feed(event("play", ref.events[-1].t_ns, "W", card="AH"))
    with pytest.raises(InvalidActionError, match="invalid suit"):
        ref.feed(event("trump", ref.events[-1].t_ns, "W", suit="NT"))


def test_kiosk_replay_reports_a_bad_line_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()[:4]
    lines.append('{"t": 20, "type": "play", "seat": "W", "card": "ZZ"}')
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert "line 5" in err and "invalid card: 'ZZ'" in err


def test_unknown_option_in_header_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "opt.jsonl"
    log.write_text('{"table_log": 1, "game": "kierki", "seats": ["N", "E", "S", "W"], '
                   '"options": {"revoke_policy": "shrug"}}\n', encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    assert "revoke_policy" in capsys.readouterr().err


def test_prize_change_warns_that_the_match_is_not_zero_sum() -> None:
    report = referee(deal_events(1), {"fan_tan_prizes": [1000, 500]})
    assert any("no longer zero-sum" in n for n in report.notes)


def test_documented_events_parse_and_are_known() -> None:
    """The JSON examples of docs/table-log.md "Kierki events" are valid events of this referee."""
    doc = (ROOT / "docs" / "table-log.md").read_text(encoding="utf-8")
    section = doc.split("## Kierki events", 1)[1].split("\n## ", 1)[0]
    block = section.split("```json", 1)[1].split("```", 1)[0].strip().splitlines()
    assert parse_header(block[0]).game == "kierki"
    documented = {parse_event(line, n).type for n, line in enumerate(block[1:], start=2)}
    assert documented == set(KierkiReferee.event_types)
    listed = ("out_of_turn", "seen_twice", "wrong_count", "revoke", "illegal_lead", "illegal_pass", "misread")
    for kind in listed:
        assert f"| `{kind}`" in section


def test_flagged_deal_says_so_when_scored() -> None:
    report = referee(swap_cards(deal_events(1), "W", "JC", "10D"))
    end = next(r for r in report.rulings if r.kind == "deal_end")
    assert end.text.endswith("(total -260, ok; flagged: revoke by W (trick 5))")
    flag = next(r for r in report.rulings if r.kind == "flag")
    assert flag.seats == ("W",) and flag.text.startswith("deal 1: revoke by W (trick 5) proven")


STOP = {"stop_when_penalties_exhausted": True}


def stopped_match(last_deal: int, n_shows: list[str] | None = None) -> list[TableEvent]:
    """The worked match up to ``last_deal`` under ``stop_when_penalties_exhausted``: each deal
    that stops early is followed by every seat showing the cards it would have played.
    ``n_shows`` replaces what N shows after deal ``last_deal``."""
    ref = KierkiGame(STOP).referee()
    out: list[TableEvent] = []
    for k in range(1, last_deal + 1):
        seg = deal_events(k)
        for i, e in enumerate(seg):
            rec = ref.record
            if e.type == "play" and rec is not None and rec.ended:
                rest = [x for x in seg[i:] if x.type == "play"]
                for seat in SEATS:
                    cards = [str(x.get("card")) for x in rest if x.seat == seat]
                    if k == last_deal and seat == "N" and n_shows is not None:
                        cards = n_shows
                    out.append(event("reveal", e.t_ns, seat, cards=cards))
                    ref.feed(out[-1])
                break
            ref.feed(e)
            out.append(e)
    return out


N_LEFT = ["10S", "9S", "7S", "5S", "6H", "3H", "2H", "4C", "3C", "2C"]


def test_deals_stop_when_penalties_are_exhausted() -> None:
    report = referee(stopped_match(5), STOP)
    assert report.infractions == []
    assert [tuple(h.values()) for h in report.hands] == [
        (-120, -60, -80, 0), (-120, -20, -120, 0), (0, -180, 0, -60), (-90, 0, -120, -30), (0, 0, 0, -150)]
    stopped = [r.text for r in report.rulings if r.kind == "stopped"]
    assert [t.split(":")[0] for t in stopped] == ["deal 3", "deal 4", "deal 5"]
    shown = [r.text for r in report.rulings if r.kind == "reveal" and r.seats == ("N",)][-1]
    assert sorted(shown.removeprefix("N shows ").split()) == sorted(N_LEFT)


def test_revoke_proven_by_the_cards_shown_after_an_early_stop() -> None:
    shown = N_LEFT[:-1] + ["JD"]  # N, who showed out of diamonds at trick 3, still holds one
    report = referee(stopped_match(5, shown), STOP)
    revoke = only(report, "revoke")
    assert revoke.text == ("revoke by N in trick 3: diamonds led, N played KH; "
                           "proven at the end of the deal: N still holds JD")
    assert "seen_twice" in kinds(report)  # E shows JD too
    replay = referee(stopped_match(5, shown), {**STOP, "revoke_policy": "replay_deal"})
    assert len(replay.hands) == 4  # deal 5 discarded: it is dealt again
    assert any(r.kind == "replay_deal" and "N deals it again" in r.text for r in replay.rulings)


def test_deal_left_unfinished_is_scored_from_what_was_seen_and_flagged() -> None:
    deal1 = deal_events(1)
    cut = find_play(deal1, "N", "JH")  # trick 11 never reaches the camera
    events = deal1[:cut] + deal_events(2)
    report = referee(events)
    assert set(kinds(report)) == {"wrong_count", "misread"}
    text = only(report, "wrong_count").text
    assert "deal 1 was left unfinished after 10 of 13 tricks (40 cards seen)" in text
    assert sum(report.hands[0].values()) == -200 and len(report.hands) == 2


def test_same_dealer_dealing_again_mid_deal_discards_it() -> None:
    deal1 = deal_events(1)
    t = deal1[6].t_ns
    again = [dataclasses.replace(e, t_ns=e.t_ns + t) for e in deal1]
    report = referee(deal1[:6] + again)
    assert "deal 1 was dealt again after 1 of 13 tricks (4 cards seen)" in only(report, "wrong_count").text
    assert len(report.hands) == 1 and tuple(report.hands[0].values()) == DEAL1


def test_fan_tan_pass_sets_of_the_real_deal() -> None:
    """§14.16: the sets stored for S's and E's passes, none contradicted by the cards shown."""
    ref = KierkiGame().referee()
    ref.feed_all(EVENTS)
    rec = ref.record
    assert rec is not None
    stored = {seat: [(c.where, sorted(map(str, c.refuted_by))) for c in rec.claims.open_claims(seat)]
              for seat in (1, 2)}
    assert stored[2] == [(39, ["10H", "2H", "7D"]), (43, ["7D", "JH"]), (59, ["10D", "3D"]), (63, ["JD"]),
                         (66, ["QD"])]
    assert stored[1][0] == (14, sorted(["4S", "JS", "7H", "7D", "4C", "QC"]))
    assert stored[1][-1] == (65, ["QD"])


_card_names = [str(c) for c in standard_deck()]
_fuzz_event = st.one_of(
    st.builds(lambda s, c: ("play", s, {"card": c}), st.sampled_from(SEATS),
              st.one_of(st.sampled_from(_card_names), st.text(max_size=3))),
    st.builds(lambda s: ("pass", s, {}), st.sampled_from(SEATS)),
    st.builds(lambda s, n: ("deal", s, {} if n is None else {"deal": n}), st.sampled_from(SEATS),
              st.one_of(st.none(), st.integers(0, 13))),
    st.builds(lambda s: ("misdeal", s, {}), st.sampled_from(SEATS)),
    st.builds(lambda s, u: ("trump", s, {"suit": u}), st.sampled_from(SEATS),
              st.sampled_from(["S", "H", "x", 3])),
    st.builds(lambda s: ("collect", s, {}), st.one_of(st.none(), st.sampled_from(SEATS))),
    st.builds(lambda s, cs: ("reveal", s, {"cards": cs}), st.sampled_from(SEATS),
              st.lists(st.sampled_from(_card_names), max_size=3)),
    st.just(("undo", None, {})),
)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(EVENTS)), st.lists(_fuzz_event, max_size=25))
def test_any_event_stream_is_judged_or_rejected_cleanly(cut: int, extra: list[tuple[str, Any, Any]]) -> None:
    """Whatever follows a prefix of the real match, each event is judged or rejected with
    InvalidActionError (never another exception), and a rejected event changes nothing."""
    ref = KierkiGame().referee()
    ref.feed_all(EVENTS[:cut])
    t = EVENTS[cut - 1].t_ns if cut else 0
    for etype, seat, data in extra:
        before = len(ref.events)
        try:
            ref.feed(TableEvent(etype, t, 0, seat, data))
        except InvalidActionError:
            assert len(ref.events) == before
        report = ref.report()
        assert len(report.seats) == 4
