"""Kiosk inputs: GPIO buttons (MockFactory) with edge timestamps, keyboard, touch, the bridge; one queue."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge import BoardModel, LinkState
from kiosk.inputs import (
    BridgeInputs,
    GpioInputs,
    InputBinding,
    InputConfigError,
    InputEvent,
    InputsConfig,
    KeyboardInput,
    LeadingEdge,
    TouchInput,
    edge_time_ns,
    start_inputs,
)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def drain(q: queue.SimpleQueue[InputEvent]) -> list[InputEvent]:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def test_gpio_press_becomes_a_call_event_with_the_edge_time(factory: MockFactory) -> None:
    q: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    before = time.monotonic_ns()

    def callback_clock() -> int:  # as if the handler ran 40 ms after the edge
        return time.monotonic_ns() + 40_000_000

    with GpioInputs({17: "call:2"}, q, pin_factory=factory, mono_clock=callback_clock) as inputs:
        pin = factory.pin(17)
        pin.drive_low()
        after = time.monotonic_ns()
        (event,) = drain(q)
        assert inputs.buttons[17].is_pressed
    assert (event.source, event.kind, event.seat, event.pressed) == ("gpio", "call", 2, True)
    assert before <= event.t_ns <= after  # the edge's own time, not the late callback's
    assert event.t_err_ns <= 1_000


def test_gpio_bounce_is_ignored_on_the_leading_edge(factory: MockFactory) -> None:
    q: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    with GpioInputs({4: "slap:3"}, q, pin_factory=factory, lockout_ns=1_000_000_000, releases=True):
        pin = factory.pin(4)
        for _ in range(5):
            pin.drive_low()
            pin.drive_high()
        events = drain(q)
    assert [(e.kind, e.index, e.pressed) for e in events] == [("slap", 3, True)]


def test_gpio_releases_only_when_asked(factory: MockFactory) -> None:
    q: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    with GpioInputs({5: "nav:select", 6: "nav:back"}, q, pin_factory=factory, lockout_ns=0, releases=True):
        factory.pin(5).drive_low()
        factory.pin(5).drive_high()
        factory.pin(6).drive_low()
        events = drain(q)
    assert [(e.control, e.pressed) for e in events] == [("select", True), ("select", False), ("back", True)]


def test_gpio_bad_binding_names_the_problem(factory: MockFactory) -> None:
    with pytest.raises(InputConfigError, match="'kick:1'.*call"):
        GpioInputs({17: "kick:1"}, queue.SimpleQueue(), pin_factory=factory)


def test_gpio_pin_in_use_is_a_config_error(factory: MockFactory) -> None:
    with GpioInputs({17: "call:0"}, queue.SimpleQueue(), pin_factory=factory):
        with pytest.raises(InputConfigError, match="pin 17"):
            GpioInputs({17: "call:1"}, queue.SimpleQueue(), pin_factory=factory)


def test_edge_time_accepts_monotonic_and_realtime_kernel_stamps() -> None:
    mono, real = 500_000_000_000, 1_700_000_000_000_000_000
    assert edge_time_ns(499.999, mono_ns=mono, real_ns=real)[0] == 499_999_000_000
    t, err = edge_time_ns((real - 3_000_000) / 1e9, mono_ns=mono, real_ns=real)
    assert abs(t - (mono - 3_000_000)) < 1_000 and err > 50_000
    assert edge_time_ns(12.0, mono_ns=mono, real_ns=real) == (mono, 5_000_000)  # unknown clock: callback time


def test_leading_edge_lockout() -> None:
    d = LeadingEdge(lockout_ns=10)
    assert [d.accept(t) for t in (0, 5, 9, 10, 15, 25)] == [True, False, False, True, False, True]


def test_keyboard_and_touch_give_the_same_events() -> None:
    q: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    keys = KeyboardInput(q, clock=lambda: 77)
    assert keys.key_down("1")
    assert keys.key_down("Return", t_ns=80)
    assert not keys.key_down("z")
    TouchInput(q, clock=lambda: 90).tap("call:0")
    events = drain(q)
    assert [(e.source, e.kind, e.control, e.t_ns) for e in events] == [
        ("keyboard", "call", "0", 77),
        ("keyboard", "nav", "select", 80),
        ("touch", "call", "0", 90),
    ]
    assert events[0].seat == events[2].seat == 0


@pytest.mark.parametrize("text", ["call", "call:x", "nav:sideways", "slap:", ":3"])
def test_bad_bindings_are_rejected(text: str) -> None:
    with pytest.raises(InputConfigError, match=repr(text)):
        InputBinding.parse(text)


def test_binding_round_trips() -> None:
    for text in ("call:3", "stuck:0", "slap:7", "nav:undo"):
        assert str(InputBinding.parse(text)) == text
        assert eval(repr(InputBinding.parse(text))) == InputBinding.parse(text)


def test_input_event_is_frozen() -> None:
    event = InputBinding.parse("call:1").event("gpio", 1)
    with pytest.raises(AttributeError):
        event.t_ns = 2  # type: ignore[misc]
    assert event.err_ns == event.t_err_ns


def test_bridge_pads_and_buttons_reach_the_queue_mapped_by_the_pin_map() -> None:
    q: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    with BridgeInputs("", q, emulate=True, model=BoardModel(), bindings={0: "call:1", 9: "slap:4"}) as bridge:
        assert bridge.reader.wait_for(LinkState.CONNECTED, 10)
        assert bridge.board is not None
        t = bridge.board.press(9)
        bridge.board.press(3, at_ns=t + 30_000_000)  # not in the map: ignored
        bridge.board.press(0, at_ns=t + 60_000_000)
        slap = q.get(timeout=10)
        call = q.get(timeout=10)
        assert bridge.reader.wait_until(lambda h: h.events == 3, 10)
    assert (slap.source, slap.kind, slap.index) == ("bridge", "slap", 4)
    assert (call.kind, call.seat) == ("call", 1)
    assert call.t_ns - slap.t_ns == pytest.approx(60_000_000, abs=100_000)
    assert bridge.unbound == 1


def test_bridge_map_rejects_unknown_ids() -> None:
    with pytest.raises(InputConfigError, match="out of range"):
        BridgeInputs("loop://", queue.SimpleQueue(), bindings={16: "call:0"})


def test_kiosk_bridge_command_needs_a_port_or_emulate(capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk.__main__ import main

    assert main(["bridge"]) == 2
    assert "--url" in capsys.readouterr().err


def test_inputs_config_from_toml_table_and_its_errors() -> None:
    cfg = InputsConfig.from_mapping({"gpio": {"GPIO17": "call:0"}, "bridge_url": "emulate", "lockout_ms": 10})
    assert (cfg.gpio, cfg.bridge_url, cfg.lockout_ms) == ({"GPIO17": "call:0"}, "emulate", 10.0)
    assert InputsConfig().bridge["8"] == "slap:0"
    with pytest.raises(InputConfigError, match="'GPIO17'.*'call:first'"):
        InputsConfig.from_mapping({"gpio": {"GPIO17": "call:first"}})
    with pytest.raises(InputConfigError, match="lockout_ms"):
        InputsConfig.from_mapping({"lockout_ms": "fast"})
    with pytest.raises(InputConfigError, match="bridge input id 'x'"):
        InputsConfig.from_mapping({"bridge": {"x": "call:0"}})


def test_start_inputs_puts_every_source_on_one_queue(factory: MockFactory) -> None:
    q: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    cfg = InputsConfig.from_mapping({"gpio": {"17": "call:0"}, "bridge_url": "emulate"})
    with start_inputs(cfg, q, pin_factory=factory) as sources:
        assert sources.bridge is not None and sources.bridge.board is not None
        assert sources.bridge.reader.wait_for(LinkState.CONNECTED, 10)
        factory.pin(17).drive_low()
        sources.keyboard.key_down("escape", t_ns=1)
        sources.bridge.board.press(9)
        got = [q.get(timeout=10) for _ in range(3)]
    assert sorted((e.source, e.kind, e.control) for e in got) == [
        ("bridge", "slap", "1"), ("gpio", "call", "0"), ("keyboard", "nav", "back"),
    ]


def test_app_commands_from_input_events() -> None:
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from kiosk.app.commands import Key
    from kiosk.app.inputs_adapter import command_for_input

    call = command_for_input(InputBinding.parse("call:3").event("gpio", 10, 2))
    assert call is not None and (call.key, call.seat, call.t_ns, call.err_ns) == (Key.CALL, 3, 10, 2)
    stuck = command_for_input(InputBinding.parse("stuck:1").event("keyboard", 10))
    assert stuck is not None and (stuck.key, stuck.seat) == (Key.STUCK, 1)
    assert command_for_input(InputBinding.parse("nav:undo").event("touch", 1)).key is Key.UNDO  # type: ignore[union-attr]
    assert command_for_input(InputBinding.parse("call:3").event("gpio", 10, pressed=False)) is None
    assert command_for_input("not an input") is None


def test_kiosk_bridge_command_shows_events_and_health_of_an_emulated_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from kiosk.__main__ import main

    assert main(["bridge", "--emulate", "--seconds", "2.5", "--every", "1"]) == 0
    out = capsys.readouterr().out
    assert "emulated board on" in out
    assert "e6613897135c2a29 fw 1.0.0-emulated: connected" in out
    assert " press " in out and "seq 0" in out


def test_kiosk_bridge_stop_firmware_sends_stop(capsys: pytest.CaptureFixture[str]) -> None:
    import os
    import tty

    from firmware_bridge.protocol import FrameParser, Stop
    from kiosk.__main__ import main

    master, slave = os.openpty()
    try:
        tty.setraw(slave)
        assert main(["bridge", "--url", os.ttyname(slave), "--stop-firmware"]) == 0
        assert FrameParser().data_received(os.read(master, 100)) == [Stop()]
        assert "REPL" in capsys.readouterr().out
        assert main(["bridge", "--url", "/nonexistent/tty", "--stop-firmware"]) == 2
        assert "/nonexistent/tty" in capsys.readouterr().err
    finally:
        os.close(master)
        os.close(slave)
