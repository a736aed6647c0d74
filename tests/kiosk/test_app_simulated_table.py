"""The embedded default: a simulated Nerts hand, rendered, tracked and refereed through the app."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import queue  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

pytest.importorskip("vision.tracker", reason="the tracker is not in this build")
pytest.importorskip("vision.simulator.nerts", reason="the table simulator is not in this build")

from kiosk.app.camera import CameraWorker  # noqa: E402
from kiosk.app.messages import SeenEvent  # noqa: E402
from kiosk.app.simulated_table import BUTTON_EVENTS, SimulatedTable  # noqa: E402
from kiosk.screens import PlayMode  # noqa: E402
from tests.kiosk.app_support import FakeClock, S, make_app  # noqa: E402


def app_on(tmp_path: Path, table: SimulatedTable, clock: FakeClock) -> tuple[Any, CameraWorker, Any]:
    """A kiosk app playing the simulated ``table``'s game on ``clock``, its camera worker (frames are
    handed to it one by one) and the queue the worker puts what it saw on."""
    app = make_app(tmp_path, clock=clock)
    app.start_session(table.header)
    app.set_mode(PlayMode())
    table.base_ns = app.origin_ns
    events: queue.SimpleQueue[Any] = queue.SimpleQueue()
    worker = CameraWorker(table, table, events, retry_s=0.0)
    table.open()
    return app, worker, events


SECONDS = 5.6
"""How much of the hand the test films (rendering is the slow part)."""


@pytest.mark.slow
def test_the_first_seconds_of_a_simulated_hand_reach_the_referee(tmp_path: Path) -> None:
    table = SimulatedTable(3, size=(1280, 720), fps=20.0, pace=1_000.0)
    truth = [e for e in table.sim.hand.events if e.type == "foundation_play" and e.t_ns < (SECONDS - 1.5) * S]
    assert truth, "the seed should play to the foundations early"
    assert all("deal" not in e.data for e in table.buttons), "a kiosk is not told the deal"
    clock = FakeClock()
    app, worker, events = app_on(tmp_path, table, clock)
    while True:
        frame = table.read()
        if frame is None or frame.t_ns - table.base_ns > SECONDS * S:
            break
        worker._process(frame)
    seen = []
    while not events.empty():
        item = events.get()
        assert isinstance(item, SeenEvent)
        seen.append(item.event)
        app.events.put(item)
    clock.advance(int(SECONDS * S))
    app.step()
    assert [e.t_ns for e in seen] == sorted(e.t_ns for e in seen), "events leave the camera in time order"
    # The cards turned up on the Nerts piles as the hand is dealt may come first (nerts_top); then "Go".
    assert [e.type for e in seen if e.type != "nerts_top"][0] == "hand_start"
    plays = [(e.seat, e.data["card"]) for e in seen if e.type == "foundation_play"]
    # How many the tracker finds is its own benchmark's business; what it finds must be true.
    assert plays and set(plays) <= {(e.seat, e.data["card"]) for e in truth}
    assert app.session is not None
    stored = app.session.store.events()
    assert [e.type for e in stored] == [e.type for e in seen]
    # Landing times come through within the tracker's stated error, on the session's clock.
    true_t = {(e.seat, e.data["card"]): e.t_ns for e in truth}
    for got in (e for e in stored if e.type == "foundation_play"):
        assert abs(got.t_ns - true_t[(got.seat, got.data["card"])]) <= got.err_ns + 5_000_000
    assert {e.type for e in seen} - {"foundation_play", "move", "nerts_top"} <= BUTTON_EVENTS


def test_the_simulated_game_carries_on_the_hand_in_play_or_deals_the_next() -> None:
    from kiosk.app.simulated_table import SimulatedGame
    from kiosk.games.referee import TableEvent

    game = SimulatedGame(5, size=(320, 180), fps=5.0)
    first = game.next_table([])
    assert (first.offset_ns, first.buttons[0].type) == (0, "hand_start")
    go = first.buttons[0].t_ns
    in_play = [
        TableEvent("hand_start", go),
        TableEvent("foundation_play", 9 * S, 0, "Ana", {"card": "AS", "pile": "F1"}),
    ]
    again = game.next_table(in_play)
    assert again.offset_ns == 0 and again.sim.hand.events == first.sim.hand.events
    assert again._start_ns == 9 * S and again.buttons[again._next_button - 1].t_ns <= 9 * S
    over = [*in_play, TableEvent("hand_end", 40 * S)]
    second = game.next_table(over)
    assert second.offset_ns == 40 * S + SimulatedGame.GAP_NS
    assert second.sim.hand.events != first.sim.hand.events  # the next hand's own deal
    assert game.is_mine(game.header)


def test_a_later_hand_is_filmed_and_pressed_on_the_session_clock_after_the_last() -> None:
    from kiosk.app.simulated_table import BUTTON_DELAY_NS, BUTTON_EVENTS, SimulatedGame
    from kiosk.games.referee import TableEvent

    game = SimulatedGame(5, size=(320, 180), fps=5.0, pace=1_000.0)
    table = game.next_table([TableEvent("hand_start", S), TableEvent("hand_end", 40 * S)])
    table.base_ns = 7 * S
    table.open()
    out: list[TableEvent] = []
    batch: list[TableEvent] = []
    while not out:
        frame = table.read()
        assert frame is not None
        assert frame.t_ns >= 7 * S + 43 * S  # base + the hand's offset (40 s + the gap)
        batch = table(frame)
        out = [e for e in batch if e.type == "hand_start"]
    go = table.buttons[0].t_ns
    assert out[0].t_ns == 7 * S + table.offset_ns + go
    # Held back behind the frames, unless the camera saw something happen after it first (a Nerts
    # pile's top turned up): a press goes into the log before the events that follow it.
    later = [e for e in batch if e.t_ns > out[0].t_ns and e.type not in BUTTON_EVENTS]
    assert frame.t_ns - out[0].t_ns >= BUTTON_DELAY_NS or later


def test_labels_outside_the_game_s_deck_reach_the_tracker_as_unknown() -> None:
    from kiosk.app.simulated_table import SimulatedGame

    table = SimulatedGame(5, size=(320, 180), fps=5.0).next_table([])
    assert [table._in_deck(x) for x in ("7S", "10H", "UNKNOWN", "BACK")] == [True] * 4
    assert [table._in_deck(x) for x in ("G7", "MULLIGAN", "JOKER")] == [False] * 3


@pytest.mark.slow
def test_the_end_of_hand_audit_is_filmed_counted_and_scores_the_hand(tmp_path: Path) -> None:
    """With the recognizer, the simulated table films the audit after the hand (rules §12) and the
    camera's counts, not the bots' buttons, score it: filmed from a second before the audit, with no
    live tracking of the hand at all, the referee's scores are still the hand's true ones."""
    pytest.importorskip("onnxruntime")
    from kiosk.app.simulated_table import load_recognizer

    recognizer, why = load_recognizer()
    if recognizer is None:
        pytest.skip(why)
    table = SimulatedTable(4, size=(1280, 720), fps=10.0, pace=1_000.0, recognizer=recognizer)
    assert table.audit is not None
    assert "count" not in {e.type for e in table.buttons}, "the counts are the camera's, not buttons"
    true_counts = {
        e.seat: (e.get("foundation"), e.get("nerts")) for e in table.sim.hand.events if e.type == "count"
    }
    assert table.audit.counts == true_counts
    table.resume_from(table.audit.start_ns - S)
    clock = FakeClock()
    app, worker, events = app_on(tmp_path, table, clock)
    while (frame := table.read()) is not None:
        worker._process(frame)
    seen = []
    while not events.empty():
        item = events.get()
        seen.append(item.event)
        app.events.put(item)
    clock.advance(int(table.end_ns))
    app.step()
    counted = {e.seat: (e.get("foundation"), e.get("nerts")) for e in seen if e.type == "count"}
    assert counted == true_counts
    kinds = [e.type for e in seen]
    assert kinds[-1] == "hand_end" and max(i for i, k in enumerate(kinds) if k == "count") < len(kinds) - 1
    assert app.session is not None
    report = app.session.report()
    assert report.hands[-1] == table.sim.hand.scores


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_a_hand_carried_on_after_a_restart_keeps_its_piles(seed: int) -> None:
    """The kiosk restarted mid-hand (a power cut): the simulated table films on from where the log
    stops and its new tracker continues the logged foundation piles, as the live camera's does, so the
    plays it sees next land on the piles the referee knows (no "wrong suit" rulings from a pile
    numbered F1 again)."""
    from kiosk.app.live_camera import logged_piles
    from kiosk.app.simulated_table import SimulatedGame
    from kiosk.replay import referee_for

    game = SimulatedGame(seed, size=(1280, 720), fps=20.0, pace=1_000.0)
    first = game.next_table([])
    cut = 14 * S
    plays = [e for e in first.sim.hand.events if e.type == "foundation_play" and e.t_ns <= cut]
    stored = sorted([e for e in first.buttons if e.t_ns <= cut] + plays, key=lambda e: e.t_ns)
    session = type("Stored", (), {"referee": referee_for(game.header)})()
    for e in stored:
        session.referee.feed(e)
    piles = logged_piles(session)
    assert len(piles) >= 2, "the seed should have started piles before the cut"
    table = game.next_table(stored, piles=piles)
    table.open()
    seen = []
    while (frame := table.read()) is not None and frame.t_ns - table.base_ns < cut + 9 * S:
        seen += table(frame)
    new_plays = [e for e in seen if e.type == "foundation_play"]
    assert new_plays, "the tracker should see plays after the restart"
    for e in seen:
        session.referee.feed(e)
    wrong = [i.text for i in session.referee.report().infractions if "wrong" in i.text]
    assert wrong == []
