"""Each screen rendered headless on the three displays, checked the pyspacewar way:
draw calls recorded as text, then the layout asserted (on screen, no overlaps, legible)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import numpy
import pygame
import pytest

from kiosk.app.commands import Command, Key
from kiosk.app.demo_table import simulate_nerts
from kiosk.app.messages import CalibrationView
from kiosk.app.mode import Mode
from kiosk.app.paint import RecordingPainter
from kiosk.games.registry import find_game
from kiosk.screens import (
    CalibrateMode,
    ChooseGameMode,
    GameOverMode,
    HistoryMode,
    PlayMode,
    ScoreSheetMode,
    SeatsMode,
)
from tests.kiosk.app_support import SIZES, FakeClock, S, feed_until, make_app


def check_layout(p: RecordingPainter) -> None:
    """Every text is inside the screen, no two texts overlap, and every letter is legible at 1.5 m."""
    from kiosk.app.theme import Layout

    lay = Layout(p.width, p.height)
    screen = pygame.Rect(0, 0, p.width, p.height)
    texts = [i for i in p.items if i.kind == "text"]
    assert texts, "nothing drawn"
    for item in texts:
        assert screen.contains(item.rect), f"{item.text!r} at {tuple(item.rect)} is off the screen"
        assert item.px >= lay.px("label"), f"{item.text!r} at {item.px}px is below the legible size"
        assert lay.cap_arcmin(item.px) >= 7.9
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            clip = a.rect.clip(b.rect)
            # Text boxes include the font's ascent and descent: lines may touch by a quarter of a
            # line (a rank above its suit on a card), never more.
            assert clip.width <= 2 or clip.height <= 0.3 * min(a.rect.height, b.rect.height), (
                f"{a.text!r} {tuple(a.rect)} overlaps {b.text!r} {tuple(b.rect)}"
            )


def render(app_mode: Mode, tmp_path: Path, size: tuple[int, int], *, game: bool = True) -> RecordingPainter:
    clock = FakeClock()
    app = make_app(tmp_path, size, clock=clock)
    if game:
        header, events, _ = simulate_nerts(seed=5, target_score=20)
        app.start_session(header)
        app.set_mode(PlayMode())
        # Replay up to the middle of the second hand.
        second = [i for i, e in enumerate(events) if e.type == "hand_start"][1]
        feed_until(app, events[: second + 25], clock)
    app.set_mode(app_mode)
    clock.advance(S)
    assert app.step()
    assert isinstance(app.painter, RecordingPainter)
    return app.painter


@pytest.mark.parametrize("size", SIZES)
def test_choose_game_lists_games_and_explains_options(tmp_path: Path, size: tuple[int, int]) -> None:
    p = render(ChooseGameMode("nerts"), tmp_path, size, game=False)
    check_layout(p)
    assert p.find("Nerts")
    assert p.find("jokers: 0")
    # The picked option's one-line explanation from the engine is shown in full.
    from kiosk.games.base import option_help

    help_text = option_help(find_game("nerts").options_type)[0][2]
    shown = " ".join(p.texts())
    assert help_text.split()[-1] in shown and "…" not in shown.split(help_text.split()[-1])[0][-60:]


@pytest.mark.parametrize("size", SIZES)
def test_seats_screen_shows_each_seat_and_its_button(tmp_path: Path, size: tuple[int, int]) -> None:
    p = render(SeatsMode(find_game("nerts"), {}), tmp_path, size, game=False)
    check_layout(p)
    assert p.find("Seats: 4")
    assert p.find("1. North")
    assert p.find("button 1")


@pytest.mark.parametrize("size", SIZES)
def test_calibrate_says_which_markers_are_missing(tmp_path: Path, size: tuple[int, int]) -> None:
    clock = FakeClock()
    from kiosk.config import KioskConfig

    app = make_app(
        tmp_path, size, clock=clock, config=KioskConfig(camera="usb:0", display=f"{size[0]}x{size[1]}")
    )
    image = numpy.zeros((360, 640, 3), dtype=numpy.uint8)
    top_left = ((20.0, 20.0), (60.0, 20.0), (60.0, 60.0), (20.0, 60.0))
    top_right = ((580.0, 20.0), (620.0, 20.0), (620.0, 60.0), (580.0, 60.0))
    app.calibration = CalibrationView(
        image,
        {0: top_left, 1: top_right},
        (0, 1, 2, 3),
        {"Ana": ((100.0, 200.0), (300.0, 200.0), (300.0, 350.0), (100.0, 350.0))},
    )
    app.set_mode(CalibrateMode())
    app.step()
    p = app.painter
    assert isinstance(p, RecordingPainter)
    check_layout(p)
    assert p.find("Markers missing: 2, 3")
    assert any(i.kind == "image" for i in p.items)
    assert sum(1 for i in p.items if i.kind == "polygon") == 3  # two markers and one zone


@pytest.mark.parametrize("size", SIZES)
def test_play_shows_foundations_seats_and_rulings_with_gaps(tmp_path: Path, size: tuple[int, int]) -> None:
    p = render(PlayMode(), tmp_path, size)
    check_layout(p)
    assert p.find("Nerts: hand 2")
    assert p.find("Foundations")
    for seat in ("Ana", "Ben", "Cal", "Dee"):
        assert p.find(seat)
    for column in ("F", "N", "Total"):
        assert column in p.texts()
    assert any(" ms)" in t or " ms:" in t or "by" in t for t in p.texts()) or p.find("go")


@pytest.mark.parametrize("size", SIZES)
def test_score_sheet_shows_hands_and_totals(tmp_path: Path, size: tuple[int, int]) -> None:
    p = render(ScoreSheetMode(), tmp_path, size)
    check_layout(p)
    assert p.find("Hand 1")
    assert "Total" in p.texts()


@pytest.mark.parametrize("size", SIZES)
def test_history_lists_rulings_newest_first(tmp_path: Path, size: tuple[int, int]) -> None:
    p = render(HistoryMode(), tmp_path, size)
    check_layout(p)
    assert p.find("Undo")
    rulings = [t for t in p.texts() if t.startswith("hand ")]
    assert rulings and rulings[0].startswith("hand 2")


@pytest.mark.parametrize("size", SIZES)
def test_game_over_names_the_winner(tmp_path: Path, size: tuple[int, int]) -> None:
    clock = FakeClock()
    app = make_app(tmp_path, size, clock=clock)
    header, events, expected = simulate_nerts(seed=5, target_score=20)
    app.start_session(header)
    app.set_mode(PlayMode())
    feed_until(app, events, clock)
    assert isinstance(app.mode, GameOverMode)
    clock.advance(S)
    app.step()
    p = app.painter
    assert isinstance(p, RecordingPainter)
    check_layout(p)
    winner = max(expected.totals, key=lambda s: expected.totals[s])
    assert p.find(f"{winner} wins!")


def test_touch_buttons_are_hotspots(tmp_path: Path) -> None:
    p = render(PlayMode(), tmp_path, (800, 480))
    undo = p.find("Undo")
    assert p.hit(undo.rect.center) == Command(Key.UNDO)
    assert p.hit((-5, -5)) is None


def test_four_colour_deck_inks_diamonds_blue(tmp_path: Path) -> None:
    from kiosk.app.theme import palette

    assert palette(True).suit_colour("D") == (20, 80, 200)
    assert palette(False).suit_colour("D") == palette(False).suit_colour("H")
