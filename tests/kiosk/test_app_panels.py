"""The play screen of every game, drawn from its referee while the shipped example logs replay."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from kiosk.app.commands import Command, Key  # noqa: E402
from kiosk.app.loop import App  # noqa: E402
from kiosk.app.paint import RecordingPainter  # noqa: E402
from kiosk.games.referee import TableEvent  # noqa: E402
from kiosk.screens import PlayMode  # noqa: E402
from kiosk.tablelog import read_table_log  # noqa: E402
from tests.kiosk.app_support import SIZES, FakeClock, S, make_app  # noqa: E402
from tests.kiosk.test_app_screens import check_layout  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def replay_until(
    tmp_path: Path, game: str, size: tuple[int, int], stop: int | None = None, after: str | None = None
) -> tuple[App, RecordingPainter]:
    """Replays an example log up to event ``stop`` (or just after the first event of type
    ``after``) and draws the play screen."""
    header, events = read_table_log(EXAMPLES / f"{game}_example.jsonl")
    if after is not None:
        stop = (
            next(i for i, e in enumerate(events) if e.type == after and e.data.get("call", "draw") == "draw")
            + 1
        )
    clock = FakeClock()
    app = make_app(tmp_path, size, clock=clock)
    app.start_session(header)
    app.set_mode(PlayMode())
    for e in events[: stop if stop is not None else len(events) // 2]:
        app.record_event(e)
    app.set_mode(PlayMode())
    clock.advance(S)
    app.step()
    assert isinstance(app.painter, RecordingPainter)
    return app, app.painter


@pytest.mark.parametrize("size", SIZES)
def test_smear_shows_trump_bids_the_trick_and_tricks_won(tmp_path: Path, size: tuple[int, int]) -> None:
    app, p = replay_until(tmp_path, "smear", size)
    check_layout(p)
    shown = " ".join(p.texts())
    assert "trump" in shown and "Bids:" in shown
    assert "Tricks" in p.texts()
    assert any(i.kind == "text" and i.text in "♠♥♦♣" for i in p.items)  # cards of the current trick


@pytest.mark.parametrize("size", SIZES)
def test_kierki_shows_the_deal_and_penalty_cards(tmp_path: Path, size: tuple[int, int]) -> None:
    app, p = replay_until(tmp_path, "kierki", size, stop=60)
    check_layout(p)
    assert p.find("Deal ")
    assert "Penalties" in p.texts()


@pytest.mark.parametrize("size", SIZES)
def test_kierki_fan_tan_shows_the_layout_and_whose_turn(tmp_path: Path, size: tuple[int, int]) -> None:
    _, events = read_table_log(EXAMPLES / "kierki_example.jsonl")
    fan_tan = [i for i, e in enumerate(events) if e.type == "deal"][11]
    app, p = replay_until(tmp_path, "kierki", size, stop=fan_tan + 20)
    check_layout(p)
    assert p.find("Deal 12: Fan Tan")
    assert p.find("Layout: C3-J D- H- S5-Q")
    assert p.find("W").color == app.palette.accent, "W is to play"


@pytest.mark.parametrize("size", SIZES)
def test_rummy_shows_the_call_and_whose_discards_are_missing(tmp_path: Path, size: tuple[int, int]) -> None:
    app, p = replay_until(tmp_path, "rummy_3_13", size, after="call")
    check_layout(p)
    assert "DRAW" in p.texts()
    assert p.find("Waiting for:")


@pytest.mark.parametrize("size", SIZES)
def test_gnoming_shows_grids_and_both_piles(tmp_path: Path, size: tuple[int, int]) -> None:
    app, p = replay_until(tmp_path, "gnoming", size)
    check_layout(p)
    assert "A" in p.texts() and "B" in p.texts()
    backs = [i for i in p.items if i.kind == "box" and i.color == app.palette.card_back]
    assert backs, "face-down grid cards are drawn as backs"


def test_the_3_13_caller_button_logs_draw_then_discard_and_speaks_them(tmp_path: Path) -> None:
    header, events = read_table_log(EXAMPLES / "rummy_3_13_example.jsonl")
    start = next(i for i, e in enumerate(events) if e.type == "call")
    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)
    app.start_session(header)
    app.set_mode(PlayMode())
    for e in events[:start]:
        app.record_event(e)
    caller = header.seats.index(str(events[start].seat))
    app.dispatch(Command(Key.CALL, clock.t + S, seat=caller))
    for e in events[start + 1 :]:
        if e.type == "call":
            break
        app.record_event(TableEvent(e.type, e.t_ns, e.err_ns, e.seat, e.data))
    app.dispatch(Command(Key.CALL, clock.t + 60 * S, seat=caller))
    assert app.session is not None
    calls = [e.data.get("call") for e in app.session.store.events() if e.type == "call"]
    assert calls == ["draw", "discard"]
    assert [c for c in app.sounds.played if c in ("draw", "discard")] == ["draw", "discard"]


@pytest.mark.parametrize("size", SIZES)
def test_nerts_asks_for_the_audit_after_the_call(tmp_path: Path, size: tuple[int, int]) -> None:
    """Once "Nerts!" is called the screen tells the players to spread their cards for the end-of-hand
    audit (rules §12) the camera counts; the layout still fits every screen size."""
    from kiosk.screens.panel_nerts import AUDIT_PROMPT

    app, p = replay_until(tmp_path, "nerts", size, after="call")
    shown = " ".join(p.texts())
    assert "Audit:" in shown and "Nerts cards" in shown, "the whole prompt, wrapped, not cut short"
    assert AUDIT_PROMPT.split()[-1] in shown
    check_layout(p)


def test_a_called_nerts_hand_is_still_the_hand_in_the_title(tmp_path: Path) -> None:
    """The report scores a called hand before its end (the audit is under way): the title still names
    that hand, not the next."""
    _, p = replay_until(tmp_path, "nerts", (800, 480), after="call")
    header, events = read_table_log(EXAMPLES / "nerts_example.jsonl")
    call = next(i for i, e in enumerate(events) if e.type == "call")
    hand = sum(1 for e in events[:call] if e.type == "hand_start")
    assert f"Nerts: hand {hand}" in p.texts()
