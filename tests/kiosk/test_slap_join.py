"""Slap pads time the camera's foundation plays: races decided by the pads, through the app's loop,
the real Nerts referee and the SQLite event store (kiosk.app.slap_join)."""

from __future__ import annotations

import io
import os
import queue
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from firmware_bridge import BoardModel, BridgeEvent, LinkState  # noqa: E402
from kiosk.app.camera import CameraWorker  # noqa: E402
from kiosk.app.inputs_adapter import command_for_input  # noqa: E402
from kiosk.app.loop import App  # noqa: E402
from kiosk.app.messages import SeenEvent  # noqa: E402
from kiosk.app.paint import RecordingPainter  # noqa: E402
from kiosk.app.slap_join import FoundationSpots, SlapConfigError, SlapJoin, SlapSettings  # noqa: E402
from kiosk.app.sound import SoundCues  # noqa: E402
from kiosk.config import ConfigError, KioskConfig, config_from_mapping  # noqa: E402
from kiosk.games.referee import LogHeader, TableEvent, format_seconds  # noqa: E402
from kiosk.inputs import BridgeInputs, InputBinding, InputEvent  # noqa: E402
from kiosk.replay import replay_events  # noqa: E402
from kiosk.tablelog import parse_table_log, seconds_to_ns  # noqa: E402
from tests.kiosk.app_support import MS, FakeClock, S, nerts_header  # noqa: E402
from vision.events import Frame  # noqa: E402
from vision.sources import IterableSource  # noqa: E402

US = 1_000
SPOTS = FoundationSpots.on_mat(SlapSettings())
CAMERA_ERR = 8 * MS
"""A good camera landing time's uncertainty: half a 60 fps frame."""
PAD_ERR = 100 * US
"""The Pico's timing of a pad, clock mapping included."""


def slap_app(tmp_path: Path, clock: FakeClock, slaps: SlapJoin | None, header: LogHeader | None = None,
             **options: Any) -> App:
    """A kiosk app in play on a Nerts game (options: the house options), with or without the pads."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    app = App(
        KioskConfig(camera="usb:0"),
        painter=RecordingPainter((800, 480)),
        clock=clock,
        sounds=SoundCues(muted=False, enabled=False),
        store_path=tmp_path / "events.sqlite3",
        translate=command_for_input,
        slaps=slaps,
    )
    app.start_session(header or nerts_header(**options))
    return app


def slap(app: App, spot: int, at_ns: int, err_ns: int = PAD_ERR) -> InputEvent:
    """Puts a pad's slap on the app's queue, as the bridge does (time on the monotonic clock)."""
    event = InputBinding.parse(f"slap:{spot}").event("bridge", app.origin_ns + at_ns, err_ns)
    app.events.put(event)
    return event


def seen(app: App, t_ns: int, etype: str = "foundation_play", *, seat: str | None = None,
         err_ns: int = CAMERA_ERR, spot: int | None = None, off_mm: tuple[float, float] = (9.0, -7.0),
         **data: Any) -> None:
    """Puts what the camera thread sends on the queue: an event at session time ``t_ns`` and, for a
    play, where its pile lies (a few mm off the pad's slot centre, as a real pile does)."""
    at = None
    if spot is not None:
        x, y = SPOTS.centre(spot)
        at = (x + off_mm[0], y + off_mm[1])
    app.events.put(SeenEvent(TableEvent(etype, app.origin_ns + t_ns, err_ns, seat, data), at))


def stored_plays(app: App) -> list[TableEvent]:
    assert app.session is not None
    return [e for e in app.session.store.events() if e.type == "foundation_play"]


def race_for_one_pile(app: App) -> None:
    """Ana starts F1 (on pad 0) with AH; then Ben's 2H lands 10 ms before Ana's 2H. The camera
    times both within 1 ms of each other, each ±8 ms: by the camera alone, a tie."""
    seen(app, 0, "hand_start")
    slap(app, 0, 1_000_200_000)
    seen(app, 1_004_000_000, seat="Ana", spot=0, card="AH", pile="F1")
    slap(app, 0, 2_000_000_000)  # Ben's hand
    slap(app, 0, 2_010_000_000)  # Ana's hand, 10 ms later
    seen(app, 2_006_000_000, seat="Ben", spot=0, card="2H", pile="F1")
    seen(app, 2_007_000_000, seat="Ana", spot=0, card="2H", pile="F1")
    app.step()


def test_a_tie_by_camera_is_decided_by_the_slap_pads(tmp_path: Path) -> None:
    # Without pads, the camera's two times (1 ms apart, ±8 ms each) are an obvious tie.
    camera_only = slap_app(tmp_path / "camera", FakeClock(), None, tie_window_ms=5)
    race_for_one_pile(camera_only)
    assert camera_only.session is not None
    assert [r.kind for r in camera_only.session.rulings if r.kind in ("tie", "race")] == ["tie"]

    # With pads, the slaps 10 ms apart (±0.1 ms) decide it: Ben's card stands, Ana's goes back.
    join = SlapJoin()
    app = slap_app(tmp_path / "pads", FakeClock(), join, tie_window_ms=5)
    race_for_one_pile(app)
    assert app.session is not None
    races = [r for r in app.session.rulings if r.kind in ("tie", "race")]
    assert [(r.kind, r.text) for r in races] == [("race", "Ben first by 10 ms: Ana, take back 2♥")]
    assert app.report() is not None and not app.report().infractions  # type: ignore[union-attr]
    plays = stored_plays(app)
    assert [(e.seat, e.t_ns, e.err_ns, e.data["slap"]) for e in plays] == [
        ("Ana", 1_000_200_000, PAD_ERR, 0),
        ("Ben", 2_000_000_000, PAD_ERR, 0),
        ("Ana", 2_010_000_000, PAD_ERR, 0),
    ]
    # The camera's own measurement stays in the log, on the session's clock.
    assert [(seconds_to_ns(e.data["t_cam"]), seconds_to_ns(e.data["err_cam"])) for e in plays] == [
        (1_004_000_000, CAMERA_ERR), (2_006_000_000, CAMERA_ERR), (2_007_000_000, CAMERA_ERR)
    ]
    assert join.joined == 3 and join.pending() == ()


def test_the_written_log_carries_the_slap_times_and_replays_to_the_same_ruling(tmp_path: Path) -> None:
    app = slap_app(tmp_path, FakeClock(), SlapJoin(), tie_window_ms=5)
    race_for_one_pile(app)
    assert app.session is not None
    out = io.StringIO()
    app.session.store.export_table_log(out)
    assert '"slap": 0' in out.getvalue() and '"t": 2.01,' in out.getvalue()
    header, events = parse_table_log(out.getvalue().splitlines())
    assert [(e.t_ns, e.err_ns) for e in events if e.type == "foundation_play"] == [
        (1_000_200_000, PAD_ERR), (2_000_000_000, PAD_ERR), (2_010_000_000, PAD_ERR)
    ]
    replayed = replay_events(header, events)
    assert [r.to_json() for r in replayed.rulings] == [r.to_json() for r in app.session.rulings]
    assert "Ben first by 10 ms: Ana, take back 2♥" in [r.text for r in replayed.rulings]


def test_a_slap_without_a_play_expires_and_never_times_a_later_play(tmp_path: Path) -> None:
    join = SlapJoin(SlapSettings(margin_ms=15, keep_ms=3000))
    app = slap_app(tmp_path, FakeClock(), join)
    seen(app, 0, "hand_start")
    slap(app, 0, 1_000_000_000)  # a hand bumps pad 0; no card lands there
    # A card lands on pad 0 30 ms later: further than 8 ms + 0.1 ms + 15 ms from the bump.
    seen(app, 1_030_000_000, seat="Cal", spot=0, card="AS", pile="F1")
    app.step()
    assert [(e.t_ns, e.err_ns, "slap" in e.data) for e in stored_plays(app)] == [
        (1_030_000_000, CAMERA_ERR, False)
    ]
    assert [s.t_ns - app.origin_ns for s in join.pending(0)] == [1_000_000_000]
    # Once newer events are more than keep_ms past it, the bump is dropped ...
    slap(app, 3, 4_100_000_000)
    app.step()
    assert join.pending(0) == () and join.expired == 1
    # ... and a later play on pad 0 whose time the bump's would fit (a wide camera error) keeps its own.
    seen(app, 4_200_000_000, seat="Cal", spot=0, card="2S", pile="F1", err_ns=3_300 * MS)
    app.step()
    assert [(e.t_ns, "slap" in e.data) for e in stored_plays(app)][-1] == (4_200_000_000, False)


def test_a_play_without_a_slap_keeps_its_camera_time(tmp_path: Path) -> None:
    app = slap_app(tmp_path, FakeClock(), SlapJoin())
    seen(app, 0, "hand_start")
    lifted = Decimal(format_seconds(app.origin_ns + 900_000_000))  # the tracker's t_lift: monotonic seconds
    seen(app, 1_500_000_000, seat="Dee", spot=4, card="AD", pile="F1", t_lift=lifted)
    seen(app, 1_600_000_000, seat="Ana", card="AC", pile="F2")  # a pipeline that gives no position
    app.step()
    plays = stored_plays(app)
    assert [(e.t_ns, e.err_ns) for e in plays] == [(1_500_000_000, CAMERA_ERR), (1_600_000_000, CAMERA_ERR)]
    assert seconds_to_ns(plays[0].data["t_lift"]) == 900_000_000
    assert not any(field in e.data for e in plays for field in ("slap", "t_cam", "err_cam"))


def test_a_slap_on_another_spot_is_not_used(tmp_path: Path) -> None:
    join = SlapJoin()
    app = slap_app(tmp_path, FakeClock(), join)
    seen(app, 0, "hand_start")
    slap(app, 1, 2_000_000_000)  # pad 1, at the very time the camera gives the play on pad 0
    seen(app, 2_000_000_000, seat="Ben", spot=0, card="AC", pile="F1", err_ns=CAMERA_ERR + 3 * MS)
    app.step()
    assert [(e.t_ns, "slap" in e.data) for e in stored_plays(app)] == [(2_000_000_000, False)]
    assert [s.spot for s in join.pending()] == [1]
    # The play on pad 1 that it belongs to takes it.
    seen(app, 2_003_000_000, seat="Cal", spot=1, card="AH", pile="F2")
    app.step()
    assert [(e.t_ns, e.data.get("slap")) for e in stored_plays(app)][-1] == (2_000_000_000, 1)
    assert join.pending() == ()


def test_a_slap_before_the_card_was_lifted_is_not_its_landing() -> None:
    join = SlapJoin()
    join.offer(InputBinding.parse("slap:2").event("bridge", 9_990 * MS, PAD_ERR))
    lifted_after_it = {"card": "AH", "pile": "F1", "t_lift": "9.995"}
    play = TableEvent("foundation_play", 10_004 * MS, 20 * MS, "Ana", lifted_after_it)
    assert join.join(play, SPOTS.centre(2)) == play
    assert len(join.pending(2)) == 1


def test_a_pile_between_pads_or_on_a_slot_without_a_pad_keeps_its_camera_time() -> None:
    join = SlapJoin()
    (x0, y0), (x1, y1) = SPOTS.centre(0), SPOTS.centre(1)
    join.offer(InputBinding.parse("slap:0").event("bridge", 10_000 * MS, PAD_ERR))
    join.offer(InputBinding.parse("slap:1").event("bridge", 10_000 * MS, PAD_ERR))
    play = TableEvent("foundation_play", 10_002 * MS, CAMERA_ERR, "Ana", {"card": "AH", "pile": "F1"})
    assert join.join(play, ((x0 + x1) / 2, (y0 + y1) / 2)) == play  # 43 mm from both: on neither
    bottom_row = FoundationSpots.on_mat(SlapSettings(spots=tuple(range(8, 16))))
    assert join.join(play, bottom_row.centre(0)) == play  # slot 8 has no pad by default
    assert join.joined == 0 and len(join.pending()) == 2
    # A station whose pads lie under the bottom row says so, and its plays there are timed.
    moved = SlapJoin(SlapSettings(spots=tuple(range(8, 16))))
    moved.offer(InputBinding.parse("slap:0").event("bridge", 10_000 * MS, PAD_ERR))
    assert moved.join(play, bottom_row.centre(0)).t_ns == 10_000 * MS


def test_slap_settings_come_from_kiosk_toml_with_clear_errors() -> None:
    cfg = config_from_mapping({"slaps": {"margin_ms": 20, "spots": [8, 9, 10, 11, 12, 13, 14, 15]}})
    settings = SlapSettings.from_mapping(cfg.slaps)
    assert settings.margin_ms == 20.0 and settings.spots[0] == 8
    with pytest.raises(ConfigError, match=r"\[slaps\] spots must list the mat's foundation slot"):
        config_from_mapping({"slaps": {"spots": [0, 0]}})
    with pytest.raises(ConfigError, match="unknown key 'margins' in \\[slaps\\]"):
        config_from_mapping({"slaps": {"margins": 20}})
    with pytest.raises(SlapConfigError, match="keep_ms must be a number of zero or more"):
        SlapSettings.from_mapping({"keep_ms": -1})


def test_the_camera_thread_sends_each_foundation_play_with_its_pile_position() -> None:
    class Pipeline:
        def __call__(self, frame: Frame) -> list[TableEvent]:
            return [
                TableEvent("foundation_play", frame.t_ns, 0, "Ana", {"card": "AS", "pile": "F1"}),
                TableEvent("move", frame.t_ns, 0, "Ana", {"card": "5D", "from": "nerts", "to": "work1"}),
                TableEvent("foundation_play", frame.t_ns, 0, "Ben", {"card": "AH", "pile": "F9"}),
            ]

        def pile_position(self, pile: str) -> tuple[float, float] | None:
            return {"F1": (652.0, 383.0)}.get(pile)

    class OneFrame(IterableSource):
        finished = False

        def read(self) -> Frame | None:
            frame = super().read()
            self.finished = frame is None  # a source with an end: the worker stops after it
            return frame

    q: queue.SimpleQueue[Any] = queue.SimpleQueue()
    CameraWorker(OneFrame([Frame(None, 1_000, 1)]), Pipeline(), q, retry_s=0.0).run()  # on this thread
    out = []
    while not q.empty():
        out.append(q.get())
    assert [(m.event.type, m.at) for m in out if isinstance(m, SeenEvent)] == [
        ("foundation_play", (652.0, 383.0)), ("move", None), ("foundation_play", None)
    ]


def test_a_slap_from_the_emulated_pico_times_the_play(tmp_path: Path) -> None:
    clock = FakeClock(time.monotonic_ns())
    join = SlapJoin()
    app = slap_app(tmp_path, clock, join)
    seen(app, 0, "hand_start")
    app.step()
    # A quiet USB link (one-way 0..0.5 ms), so that the bound below is well under a millisecond.
    bridge = BridgeInputs("", app.events, emulate=True, model=BoardModel(latency_us=250, jitter_us=250))
    delivered: list[BridgeEvent] = []
    to_queue = bridge.reader.on_event

    def on_event(event: BridgeEvent) -> None:
        delivered.append(event)
        to_queue(event)

    bridge.reader.on_event = on_event
    with bridge:  # the default pin map
        assert bridge.reader.wait_for(LinkState.CONNECTED, 10) and bridge.board is not None
        landed = bridge.board.press(8 + 5)  # input 13: the pad of spot 5
        deadline = time.monotonic() + 10
        while app.events.empty() and time.monotonic() < deadline:
            time.sleep(0.01)
    seen(app, landed - app.origin_ns + 6 * MS, seat="Ben", spot=5, card="AD", pile="F1")
    app.step()
    (play,) = stored_plays(app)
    (pad,) = delivered
    # The play takes the pad's mapped time and its stated err (a statistic, about 95 %) ...
    assert play.data["slap"] == 5 and (play.t_ns, play.err_ns) == (pad.t_ns - app.origin_ns, pad.t_err_ns)
    assert play.err_ns < CAMERA_ERR
    assert seconds_to_ns(play.data["t_cam"]) == landed - app.origin_ns + 6 * MS
    # ... and the mapped time is within the bound the round trips give for certain, however loaded the
    # machine (a slow round trip widens the bound; it cannot move the truth outside it).
    assert pad.t_bound_ns is not None
    assert abs(pad.t_ns - landed) <= pad.t_bound_ns


@pytest.mark.slow
def test_on_the_simulated_table_the_tracker_s_plays_take_the_true_landing_times_from_the_pads(
    tmp_path: Path,
) -> None:
    pytest.importorskip("vision.simulator.nerts", reason="the table simulator is not in this build")
    from kiosk.app.simulated_table import SimulatedTable

    table = SimulatedTable(3, size=(1280, 720), fps=20.0, pace=1_000.0)
    # A station with a pad under every one of the mat's 16 foundation slots.
    join = SlapJoin(SlapSettings(spots=tuple(range(16))))
    clock = FakeClock()
    app = slap_app(tmp_path, clock, join, table.header)
    table.base_ns = app.origin_ns
    truth = [e for e in table.sim.hand.events if e.type == "foundation_play"]
    slot_of = {(e.seat, e.data["card"]): table.sim.pile_slots[e.data["pile"]] for e in truth}
    landed = {(e.seat, e.data["card"]): e.t_ns for e in truth}
    pressed = 0
    worker = CameraWorker(table, table, app.events, retry_s=0.0)
    table.open()
    while not stored_plays(app):
        frame = table.read()
        assert frame is not None and frame.t_ns - table.base_ns < 10 * S, "the tracker should report a play"
        # Each pad is slapped as its card lands (the Pico's time); the camera reports the play later.
        while pressed < len(truth) and truth[pressed].t_ns <= frame.t_ns - table.base_ns:
            e = truth[pressed]
            slap(app, slot_of[(e.seat, e.data["card"])], e.t_ns)
            pressed += 1
        worker._process(frame)
        app.step()
    for play in stored_plays(app):
        key = (play.seat, play.data["card"])
        assert (play.t_ns, play.err_ns, play.data["slap"]) == (landed[key], PAD_ERR, slot_of[key])
        camera_off_by = abs(seconds_to_ns(play.data["t_cam"]) - landed[key])
        assert camera_off_by <= seconds_to_ns(play.data["err_cam"]) + 5 * MS
