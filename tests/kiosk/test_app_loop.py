"""The app loop: a whole simulated Nerts game, inputs, undo, corrections, the camera banner, resume."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import pygame  # noqa: E402

from kiosk.app.commands import Command, Key, command_for_key  # noqa: E402
from kiosk.app.demo_table import simulate_nerts  # noqa: E402
from kiosk.app.feeds import LogFeed  # noqa: E402
from kiosk.app.loop import App  # noqa: E402
from kiosk.app.messages import CameraStatus, SeenEvent  # noqa: E402
from kiosk.app.paint import RecordingPainter  # noqa: E402
from kiosk.games.referee import TableEvent  # noqa: E402
from kiosk.replay import replay_events  # noqa: E402
from kiosk.screens import ChooseGameMode, GameOverMode, PlayMode, ScoreSheetMode, SeatsMode  # noqa: E402
from tests.kiosk.app_support import MS, FakeClock, S, feed_until, make_app, nerts_header  # noqa: E402


def playing_app(tmp_path: Path, clock: FakeClock) -> App:
    app = make_app(tmp_path, clock=clock)
    app.start_session(nerts_header())
    app.set_mode(PlayMode())
    return app


def test_a_simulated_nerts_game_through_the_loop_ends_with_the_right_scores(tmp_path: Path) -> None:
    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)
    header, events, expected = simulate_nerts(seed=11, target_score=25)
    assert expected.races and expected.ties, "the seed should give races and ties"
    app.start_session(header)
    app.set_mode(PlayMode())
    feed_until(app, events, clock)
    report = app.report()
    assert report is not None
    assert report.hands == expected.hands
    assert report.totals == expected.totals
    assert report.finished and isinstance(app.mode, GameOverMode)
    assert report.winners == [max(expected.totals, key=lambda s: expected.totals[s])]
    # Every ruling was announced with its cue: ties, races lost, the calls' fanfares, the end.
    for cue in ("tie", "race", "fanfare", "game_over"):
        assert cue in app.sounds.played
    # The store holds exactly the events fed, in order: the log is the record of truth.
    assert app.session is not None
    assert [(e.type, e.t_ns, e.seat) for e in app.session.store.events()] == [
        (e.type, e.t_ns, e.seat) for e in events
    ]


def test_rulings_show_the_measured_gap(tmp_path: Path) -> None:
    clock = FakeClock()
    app = playing_app(tmp_path, clock)
    t = 5 * S
    events = [
        TableEvent("foundation_play", t, 2 * MS, "Ben", {"card": "AH", "pile": "F1", "from": "nerts"}),
        TableEvent(
            "foundation_play", t + 1 * S, 2 * MS, "Ben", {"card": "2H", "pile": "F1", "from": "waste"}
        ),
        TableEvent(
            "foundation_play",
            t + 1 * S + 64 * MS,
            2 * MS,
            "Cal",
            {"card": "2H", "pile": "F1", "from": "waste"},
        ),
    ]
    feed_until(app, events, clock)
    clock.advance(S)
    app.step()
    p = app.painter
    assert isinstance(p, RecordingPainter)
    shown = " ".join(p.texts())
    assert "Ben first by 64 ms" in shown and "Cal" in shown


def test_a_seat_button_logs_its_call_with_the_button_time(tmp_path: Path) -> None:
    clock = FakeClock()
    app = playing_app(tmp_path, clock)
    clock.advance(S)
    pressed_at = clock.t + 3 * MS
    command = command_for_key(pygame.K_2, 0, pressed_at)
    assert command is not None
    app.events.put(command)
    clock.advance(10 * MS)
    assert app.step()
    assert app.session is not None
    logged = app.session.store.events()[-1]
    assert (logged.type, logged.seat) == ("call", "Ben")
    assert logged.t_ns == app.session_time(pressed_at)
    assert app.last_rulings[-1].text.startswith("Ben: Nerts!")
    assert app.sounds.played[-1] == "fanfare"
    assert app.latencies_ns and app.latencies_ns[-1] == 7 * MS


def test_a_key_press_reaches_the_screen_through_the_input_queue(tmp_path: Path) -> None:
    from kiosk.app.runner import APP_KEYS, PygameInput
    from kiosk.inputs import DEFAULT_KEYS, KeyboardInput

    pygame.display.init()
    pygame.display.set_mode((800, 480))
    clock = FakeClock()
    app = playing_app(tmp_path, clock)
    keyboard = KeyboardInput(app.events, {**DEFAULT_KEYS, **APP_KEYS}, clock=clock)
    keys = PygameInput(app.painter, keyboard, clock=clock)
    app.poll = keys.poll
    clock.advance(S)
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_3, mod=0, unicode="3", scancode=0))
    assert app.step()
    assert app.session is not None
    logged = app.session.store.events()[-1]
    assert (logged.type, logged.seat) == ("call", "Cal")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=0, unicode="\t", scancode=0))
    clock.advance(S)
    app.step()
    assert isinstance(app.mode, ScoreSheetMode)
    pygame.display.quit()


def test_the_button_map_from_the_seating_screen_decides_whose_call_it_is(tmp_path: Path) -> None:
    from kiosk.games.registry import find_game

    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)
    seats = SeatsMode(find_game("nerts"), {})
    app.set_mode(seats)
    app.dispatch(Command(Key.DOWN))  # pick seat 1 (North)
    app.dispatch(Command(Key.CALL, seat=3))  # button 4 is pressed there
    assert seats.buttons[3] == 0 and 0 not in seats.buttons
    app.dispatch(Command(Key.SELECT))
    assert app.session is not None
    assert app.session.header.meta["buttons"]["4"] == "North"
    app.set_mode(PlayMode())
    app.dispatch(Command(Key.CALL, clock.t, seat=3))
    assert app.session.store.events()[-1].seat == "North"


def test_undo_is_logged_and_takes_back_the_last_ruling(tmp_path: Path) -> None:
    clock = FakeClock()
    app = playing_app(tmp_path, clock)
    feed_until(
        app,
        [TableEvent("foundation_play", 2 * S, 0, "Ana", {"card": "AS", "pile": "F1", "from": "nerts"})],
        clock,
    )
    assert app.session is not None
    before = app.session.referee.events
    app.dispatch(Command(Key.UNDO, clock.t))
    assert app.session.store.events()[-1].type == "undo"
    assert len(app.session.referee.events) == len(before) - 1
    assert app.last_rulings[-1].kind == "undo"


def test_a_score_correction_is_an_event_and_replays(tmp_path: Path) -> None:
    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)
    header, events, expected = simulate_nerts(seed=5, target_score=200, max_hands=1)
    app.start_session(header)
    app.set_mode(PlayMode())
    feed_until(app, events, clock)
    sheet = ScoreSheetMode()
    app.set_mode(sheet)
    for key in (Key.DOWN, Key.RIGHT, Key.SELECT, Key.UP, Key.UP, Key.UP, Key.SELECT):
        app.dispatch(Command(key, clock.t))
        clock.advance(MS)
    assert app.session is not None
    last = app.session.store.events()[-1]
    ben = expected.hands[0]["Ben"]
    assert (last.type, last.seat, dict(last.data)) == (
        "score_correction",
        "Ben",
        {"hand": 1, "score": ben + 3},
    )
    report = app.report()
    assert report is not None and report.totals["Ben"] == expected.totals["Ben"] + 3
    # Replaying the stored log gives the same corrected totals.
    assert replay_events(app.session.header, app.session.store.events()).totals == report.totals


def test_the_loop_redraws_only_when_something_changed(tmp_path: Path) -> None:
    clock = FakeClock()
    app = playing_app(tmp_path, clock)
    clock.advance(S)
    assert app.step()
    frames = app.frames
    for _ in range(5):
        clock.advance(100 * MS)
        assert not app.step()
    assert app.frames == frames
    app.events.put(Command(Key.HISTORY, clock.t))
    clock.advance(100 * MS)
    assert app.step() and app.frames == frames + 1


def test_a_lost_camera_shows_a_banner_and_keeps_the_game(tmp_path: Path) -> None:
    clock = FakeClock()
    app = playing_app(tmp_path, clock)
    app.events.put(SeenEvent(TableEvent("foundation_play", clock.t, 0, "Dee", {"card": "AC", "pile": "F1"})))
    clock.advance(S)
    app.step()
    app.events.put(CameraStatus(False, "no frames from usb:0 for 2 s", clock.t))
    clock.advance(S)
    assert app.step()
    p = app.painter
    assert isinstance(p, RecordingPainter)
    assert p.find("CAMERA LOST")
    assert app.session is not None and len(app.session.referee.events) == 1
    clock.advance(60 * S)
    app.step()
    assert app.banner is not None  # stays until the camera is back
    app.events.put(CameraStatus(True, "usb:0 is back", clock.t))
    clock.advance(S)
    assert app.step()
    assert app.banner is None
    assert "CAMERA LOST" not in " ".join(p.texts())


def test_an_event_taken_off_the_queue_while_waiting_still_counts_as_waiting(tmp_path: Path) -> None:
    # A headless run over a video stops once its camera is done and no event waits. The loop's
    # wait() takes an arriving event off the queue for the next pass: the last play of a video,
    # flushed as the camera ends, was lost when only the queue was checked.
    clock = FakeClock()
    app = playing_app(tmp_path, clock)
    assert not app.events_waiting
    app.events.put(SeenEvent(TableEvent("foundation_play", clock.t, 0, "Dee", {"card": "AC", "pile": "F1"})))
    app.wait(0.5)
    assert app.events.empty() and app.events_waiting
    clock.advance(S)
    app.step()
    assert not app.events_waiting
    assert app.session is not None and len(app.session.referee.events) == 1


def test_a_rejected_event_shows_a_banner_and_changes_nothing(tmp_path: Path) -> None:
    clock = FakeClock()
    app = playing_app(tmp_path, clock)
    app.events.put(SeenEvent(TableEvent("foundation_play", clock.t, 0, "Dee", {"card": "ZZ", "pile": "F1"})))
    clock.advance(S)
    app.step()
    assert app.banner is not None and "not accepted" in app.banner.text
    assert app.session is not None and app.session.store.events() == []


def test_resume_reopens_the_game_where_it_was_and_the_replay_carries_on(tmp_path: Path) -> None:
    header, events, expected = simulate_nerts(seed=11, target_score=25)
    clock = FakeClock()
    first = make_app(tmp_path, clock=clock)
    first.start_session(header)
    first.set_mode(PlayMode())
    feed_until(first, events[:60], clock)
    assert first.session is not None
    first.session.store.close()  # the process dies: nothing else is saved
    later = FakeClock(clock.t + 3_600 * S)
    second = make_app(tmp_path, clock=later)
    resumed = second.resume_session()
    assert resumed is not None and len(resumed.store.events()) == 60
    second.set_mode(PlayMode())
    feed_until(second, events, later)
    report = second.report()
    assert report is not None and report.totals == expected.totals and report.finished
    assert second.session is not None and second.session.store.path == resumed.store.path
    assert len(second.session.store.events()) == len(events)  # nothing fed twice


def test_touch_on_a_game_row_picks_it(tmp_path: Path) -> None:
    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)
    mode = ChooseGameMode("nerts")
    app.set_mode(mode)
    clock.advance(S)
    app.step()
    p = app.painter
    kierki_row = next(s for s in p.hotspots if s.command == Command(Key.SELECT, index=1))
    assert p.hit(kierki_row.rect.center) == Command(Key.SELECT, index=1)
    app.dispatch(p.hit(kierki_row.rect.center))
    assert mode.game_name == "kierki"


def test_log_feed_keeps_the_recorded_times_at_any_pace() -> None:
    feed = LogFeed([TableEvent("call", 10 * S, seat="A"), TableEvent("call", 20 * S, seat="B")], pace=10.0)
    feed.start(0)
    assert feed.due(1 * S)[0].t_ns == 10 * S
    assert feed.due(2 * S)[0].t_ns == 20 * S and feed.done


def test_option_steps_stop_at_values_the_game_refuses(tmp_path: Path) -> None:
    from kiosk.games.base import build_options
    from kiosk.games.registry import find_game

    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)
    mode = ChooseGameMode("smear")
    app.set_mode(mode)
    app.dispatch(Command(Key.RIGHT))  # into the options
    names = [row[0] for row in mode.option_rows()]
    mode.option_cursor = names.index("target_score")
    for _ in range(20):  # 15 steps of 1 would reach 0
        app.dispatch(Command(Key.LEFT))
    chosen = mode.options()
    assert chosen["target_score"] >= 1  # Smear refuses 0: the screen never offers it
    build_options(find_game("smear").options_type, chosen)


def test_smear_nonbidder_cap_can_be_set_and_cleared_on_the_options_screen(tmp_path: Path) -> None:
    from kiosk.games.base import build_options
    from kiosk.games.registry import find_game

    app = make_app(tmp_path, clock=FakeClock())
    mode = ChooseGameMode("smear")
    app.set_mode(mode)
    app.dispatch(Command(Key.RIGHT))  # into the options
    names = [row[0] for row in mode.option_rows()]
    mode.option_cursor = names.index("nonbidder_score_cap")
    for _ in range(5):  # on at 10, then up to 14
        app.dispatch(Command(Key.RIGHT))
    assert mode.options()["nonbidder_score_cap"] == 14
    opts = build_options(find_game("smear").options_type, mode.options())
    assert opts.nonbidder_score_cap == 14  # type: ignore[attr-defined]
    for _ in range(14):  # down past 1: no cap again
        app.dispatch(Command(Key.LEFT))
    assert "nonbidder_score_cap" not in mode.options()


def test_infractions_go_to_the_text_log_once_each(tmp_path: Path) -> None:
    # The screen shows an infraction (not a ruling); whoever reads the text log after the game sees it
    # too, once, and a game resumed after a restart does not log it again.
    import io

    clock = FakeClock()
    app = playing_app(tmp_path, clock)
    app.text_log = io.StringIO()
    t = 5 * S
    events = [
        TableEvent("foundation_play", t, 2 * MS, "Ben", {"card": "AH", "pile": "F1", "from": "nerts"}),
        TableEvent("foundation_play", t + S, 2 * MS, "Cal", {"card": "3H", "pile": "F1", "from": "waste"}),
        TableEvent(
            "foundation_play", t + 2 * S, 2 * MS, "Ben", {"card": "2H", "pile": "F1", "from": "waste"}
        ),
    ]
    feed_until(app, events, clock)
    lines = [ln for ln in app.text_log.getvalue().splitlines() if "infraction" in ln]
    assert lines == ["6 s  infraction: Cal's 3♥ on F1: wrong rank, the pile needs 2♥. Cal, take it back"]
    resumed = make_app(tmp_path, clock=clock)
    resumed.text_log = io.StringIO()
    assert resumed.resume_session() is not None
    resumed.record_event(TableEvent("foundation_play", t + 3 * S, 0, "Dee", {"card": "3H", "pile": "F1"}))
    assert "infraction" not in resumed.text_log.getvalue()
