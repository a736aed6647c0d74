"""Golden screenshots (the pgzero way): a few screens drawn with the real painter and compared
with stored images, with a tolerance for font rasterisation differences.

Regenerate after an intended change with ``KIOSK_REGEN_GOLDEN=1 pytest tests/kiosk/test_app_golden.py``.
On a mismatch the test writes ``expected | actual | difference`` side by side next to the
test's temporary folder and names the file in the failure.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk.app.demo_table import simulate_nerts  # noqa: E402
from kiosk.app.loop import App  # noqa: E402
from kiosk.config import KioskConfig  # noqa: E402
from kiosk.screens import ChooseGameMode, PlayMode  # noqa: E402
from tests.kiosk.app_support import FakeClock, S, feed_until, make_app, surface_painter  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
MEAN_TOLERANCE = 2.0
"""Largest mean absolute difference per channel (0..255)."""
PIXEL_TOLERANCE = 0.01
"""Largest share of pixels that may differ by more than 48 in any channel."""


def _play(app: App, clock: FakeClock) -> None:
    header, events, _ = simulate_nerts(seed=5, target_score=20)
    app.start_session(header)
    app.set_mode(PlayMode())
    second = [i for i, e in enumerate(events) if e.type == "hand_start"][1]
    feed_until(app, events[: second + 25], clock)


def _game_over(app: App, clock: FakeClock) -> None:
    header, events, _ = simulate_nerts(seed=5, target_score=20)
    app.start_session(header)
    app.set_mode(PlayMode())
    feed_until(app, events, clock)


def _choose(app: App, clock: FakeClock) -> None:
    app.set_mode(ChooseGameMode("nerts"))


CASES: dict[str, tuple[tuple[int, int], Callable[[App, FakeClock], None], bool]] = {
    "play_nerts_800x480": ((800, 480), _play, False),
    "play_nerts_four_colour_1920x1080": ((1920, 1080), _play, True),
    "game_over_720x1280": ((720, 1280), _game_over, False),
    "choose_game_800x480": ((800, 480), _choose, False),
}


def _render(name: str, tmp_path: Path) -> npt.NDArray[np.uint8]:
    size, setup, four = CASES[name]
    painter = surface_painter(size)
    clock = FakeClock()
    config = KioskConfig(display=f"{size[0]}x{size[1]}", camera="replay:demo", four_colour_deck=four)
    app = make_app(tmp_path, size, painter=painter, clock=clock, config=config)
    setup(app, clock)
    clock.advance(S)
    app.draw()
    return pygame.surfarray.array3d(painter.surface).swapaxes(0, 1).copy()


def _save(pixels: npt.NDArray[np.uint8], path: Path) -> None:
    pygame.image.save(pygame.surfarray.make_surface(pixels.swapaxes(0, 1)), str(path))


@pytest.mark.parametrize("name", sorted(CASES))
def test_screen_matches_its_golden_image(name: str, tmp_path: Path) -> None:
    actual = _render(name, tmp_path)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("KIOSK_REGEN_GOLDEN") or not path.exists():
        if not os.environ.get("KIOSK_REGEN_GOLDEN"):
            pytest.fail(f"no golden image {path}; run with KIOSK_REGEN_GOLDEN=1 to create it")
        GOLDEN.mkdir(exist_ok=True)
        _save(actual, path)
        pytest.skip(f"regenerated {path}")
    expected = pygame.surfarray.array3d(pygame.image.load(str(path))).swapaxes(0, 1)
    assert expected.shape == actual.shape, f"size changed: {expected.shape} -> {actual.shape}"
    diff = np.abs(expected.astype(np.int16) - actual.astype(np.int16))
    mean = float(diff.mean())
    share = float((diff.max(axis=2) > 48).mean())
    if mean > MEAN_TOLERANCE or share > PIXEL_TOLERANCE:
        side = np.concatenate([expected, actual, np.clip(diff * 4, 0, 255).astype(np.uint8)], axis=1)
        out = tmp_path / f"{name}-expected-actual-diff.png"
        _save(side, out)
        pytest.fail(
            f"{name} differs from its golden image (mean {mean:.2f}, {share:.2%} of pixels); "
            f"side by side: {out}"
        )
