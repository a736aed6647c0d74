"""The kiosk's configuration: one frozen dataclass, built once by the command line.

A TOML file (``kiosk.toml``) sets any field; every field has a documented
default, so an empty file (or none) is a working kiosk. A key the kiosk does not
know, or a value of the wrong type, is a :class:`ConfigError` naming the key.

Example file::

    display = "800x480"       # or "1920x1080", "720x1280", "WIDTHxHEIGHT"
    four_colour_deck = true
    muted = false
    game = "nerts"
    players = ["Ana", "Ben", "Cal", "Dee"]
    camera = "simulator"      # "simulator", "picamera2", "usb:0", a video file, or "replay:LOG.jsonl"
    store = "~/.local/share/kiosk/events.sqlite3"

    [inputs]                  # see kiosk/inputs/config.py
    gpio = { "GPIO17" = "call:0", "GPIO27" = "call:1", "GPIO22" = "nav:select" }

    [slaps]                   # see kiosk/app/slap_join.py
    margin_ms = 15.0
    spots = [0, 1, 2, 3, 4, 5, 6, 7]

    [mat]                     # the printed table mat (kiosk mat prints it, kiosk run calibrates on it)
    width_mm = 1560.0
    height_mm = 878.0

>>> cfg = config_from_mapping({"display": "720x1280", "muted": True})
>>> cfg.display_size, cfg.muted, cfg.game
((720, 1280), True, 'nerts')
>>> config_from_mapping({"colour": "red"})
Traceback (most recent call last):
...
kiosk.config.ConfigError: unknown key 'colour' (known keys: ...)
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "KioskConfig",
    "ConfigError",
    "MatSettings",
    "load_config",
    "config_from_mapping",
    "parse_display",
    "DISPLAYS",
]

DISPLAYS: dict[str, tuple[int, int]] = {
    "7inch": (800, 480),
    "hdmi": (1920, 1080),
    "portrait": (720, 1280),
}
"""Named displays: the official 7" display, HDMI 1080p, the portrait Touch Display 2."""


DISPLAY_MAX_PX = 7680
"""The longest side of a display (8K)."""


class ConfigError(ValueError):
    """A configuration key or value the kiosk cannot use; the message names the key."""


def parse_display(text: str) -> tuple[int, int]:
    """Parses ``"800x480"`` or a named display (``"7inch"``, ``"hdmi"``, ``"portrait"``).

    >>> parse_display("1920x1080"), parse_display("portrait")
    ((1920, 1080), (720, 1280))
    """
    t = text.strip().lower()
    if t in DISPLAYS:
        return DISPLAYS[t]
    w, sep, h = t.partition("x")
    if not sep or not w.isdecimal() or not h.isdecimal() or int(w) < 320 or int(h) < 240:
        raise ConfigError(
            f"display {text!r} is not WIDTHxHEIGHT (at least 320x240) or one of {', '.join(DISPLAYS)}"
        )
    if max(int(w), int(h)) > DISPLAY_MAX_PX:
        # No screen is larger; SDL would make a window of gigabytes (or fail with its own error).
        raise ConfigError(
            f"display {text!r} is larger than any screen (at most {DISPLAY_MAX_PX} pixels a side)"
        )
    return int(w), int(h)


@dataclass(frozen=True, slots=True)
class MatSettings:
    """The ``[mat]`` table: the size of the printed table mat (``kiosk mat`` draws it, the live camera
    calibrates on it). The defaults are :class:`vision.calibration.TableMat`'s (50 mm markers 20 mm
    from each edge either way).

    >>> MatSettings.from_mapping({"width_mm": 1200})
    MatSettings(width_mm=1200.0, height_mm=878.0)
    >>> MatSettings.from_mapping({"width": 1200})
    Traceback (most recent call last):
    ...
    kiosk.config.ConfigError: [mat]: unknown key 'width' (known keys: width_mm, height_mm)
    """

    width_mm: float = 1560.0
    height_mm: float = 878.0

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> MatSettings:
        """Raises :class:`ConfigError` naming a bad key or value."""
        known = ("width_mm", "height_mm")
        sizes: dict[str, float] = {}
        for key, value in values.items():
            if key not in known:
                raise ConfigError(f"[mat]: unknown key {key!r} (known keys: {', '.join(known)})")
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError(f"[mat]: key {key!r} must be a number of millimetres, got {value!r}")
            if not MAT_MIN_MM <= value <= MAT_MAX_MM:
                raise ConfigError(
                    f"[mat]: key {key!r} must be {MAT_MIN_MM:g} to {MAT_MAX_MM:g} mm, got {value!r}"
                )
            sizes[key] = float(value)
        return cls(**sizes)


MAT_MIN_MM = 200.0
MAT_MAX_MM = 5000.0
"""The range of a mat side: above the markers and their quiet zones, below any table."""


@dataclass(frozen=True, slots=True)
class KioskConfig:
    """Everything the kiosk needs to know before it starts; passed down, never global."""

    display: str = "800x480"
    """The window or screen size, ``WIDTHxHEIGHT`` or a named display."""
    fullscreen: bool = False
    """Take the whole screen (on the Pi with the kmsdrm driver)."""
    px_per_mm: float = 0.0
    """Pixel density of the screen; 0 means the known density of the display size
    (7" official display, Touch Display 2) or a 24" monitor for other sizes."""
    four_colour_deck: bool = False
    """Draw suits in four colours (♠ black, ♥ red, ♦ blue, ♣ green) for colour-blind players."""
    muted: bool = False
    """Start with sound off (the mute button toggles it)."""
    fps: int = 30
    """The most frames per second the display draws; it draws only when something changed."""
    game: str = "nerts"
    """The game chosen on the first screen."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """House options of that game (names as in the game's rules spec)."""
    players: tuple[str, ...] = ("North", "East", "South", "West")
    """Seat names in table order (clockwise)."""
    camera: str = "simulator"
    """The table source: ``simulator``, ``picamera2``, ``usb:N``, a video file path or URL,
    or ``replay:LOG.jsonl`` (a table log replayed at real pace)."""
    camera_retry_s: float = 2.0
    """Seconds between attempts to reopen a lost camera."""
    store: str = ""
    """The SQLite event store; empty means a file in the user's data folder."""
    seed: int = 1
    """Seed of the simulated table (bots, deal)."""
    headless: bool = False
    """Run with SDL's dummy drivers (no window, no sound device)."""
    frames: int = 0
    """Stop after this many passes of the loop, about one per 20 ms (0: run until quit)."""
    duration_s: float = 0.0
    """Stop after this many seconds (0: run until quit)."""
    screenshot: str = ""
    """Write the last frame to this PNG file when stopping."""
    screenshot_dir: str = ""
    """Write a screenshot here every ``screenshot_every_s`` seconds (headless runs)."""
    screenshot_every_s: float = 5.0
    """Seconds between periodic screenshots."""
    text_log: str = ""
    """Append every ruling and banner to this text file as it happens."""
    pace: float = 1.0
    """Speed of a replayed or simulated table: 1 is real time, 2 twice as fast."""
    perfect_vision: bool = False
    """On the simulated table, use the simulator's own sightings (a perfect recognizer) instead of
    the card recognizer, to show the tracker and the referee at their best."""
    inputs: Mapping[str, Any] = field(default_factory=dict)
    """The ``[inputs]`` table: GPIO buttons, the Pico bridge, keys (see :mod:`kiosk.inputs.config`)."""
    slaps: Mapping[str, Any] = field(default_factory=dict)
    """The ``[slaps]`` table: slap pads timing the camera's foundation plays (see
    :mod:`kiosk.app.slap_join`)."""
    mat: Mapping[str, Any] = field(default_factory=dict)
    """The ``[mat]`` table: the printed mat's size (:class:`MatSettings`)."""

    @property
    def mat_settings(self) -> MatSettings:
        """The printed mat's size from ``[mat]`` (checked when the config was built)."""
        return MatSettings.from_mapping(self.mat)

    @property
    def display_size(self) -> tuple[int, int]:
        """The display size in pixels."""
        return parse_display(self.display)

    def replace(self, **changes: Any) -> KioskConfig:
        """Returns a copy with some fields changed (checked like the TOML file)."""
        return config_from_mapping({**_as_mapping(self), **changes})


def _as_mapping(cfg: KioskConfig) -> dict[str, Any]:
    return {f.name: getattr(cfg, f.name) for f in dataclasses.fields(cfg)}


def config_from_mapping(values: Mapping[str, Any], *, source: str = "") -> KioskConfig:
    """Builds the config from a mapping (a parsed TOML file), checking every key and type.

    Raises :class:`ConfigError` naming the first bad key.
    """
    where = f"{source}: " if source else ""
    fields = {f.name: f for f in dataclasses.fields(KioskConfig)}
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        if key not in fields:
            raise ConfigError(f"{where}unknown key {key!r} (known keys: {', '.join(fields)})")
        default = fields[key].default
        if default is dataclasses.MISSING:
            default = fields[key].default_factory()  # type: ignore[misc]
        kwargs[key] = _check(key, value, default, where)
    cfg = KioskConfig(**kwargs)
    if cfg.inputs:
        from kiosk.inputs.config import InputsConfig
        from kiosk.inputs.events import InputConfigError

        try:
            InputsConfig.from_mapping(cfg.inputs)
        except InputConfigError as exc:
            raise ConfigError(f"{where}{exc}") from None
    if cfg.slaps:
        from kiosk.app.slap_join import SlapConfigError, SlapSettings

        try:
            SlapSettings.from_mapping(cfg.slaps)
        except SlapConfigError as exc:
            raise ConfigError(f"{where}{exc}") from None
    if cfg.mat:
        try:
            MatSettings.from_mapping(cfg.mat)
        except ConfigError as exc:
            raise ConfigError(f"{where}{exc}") from None
    try:
        _ = cfg.display_size
    except ConfigError as exc:
        raise ConfigError(f"{where}key 'display': {exc}") from None
    if cfg.fps < 1 or cfg.fps > 240:
        raise ConfigError(f"{where}key 'fps' must be 1..240, got {cfg.fps}")
    if cfg.pace <= 0:
        raise ConfigError(f"{where}key 'pace' must be above 0, got {cfg.pace}")
    from kiosk.games.errors import GameError
    from kiosk.games.registry import find_game

    try:
        find_game(cfg.game)
    except GameError as exc:
        raise ConfigError(f"{where}key 'game': {exc}") from None
    if len(set(cfg.players)) != len(cfg.players) or not all(cfg.players):
        raise ConfigError(f"{where}key 'players' needs distinct, non-empty names, got {list(cfg.players)}")
    return cfg


def _check(key: str, value: Any, default: Any, where: str) -> Any:
    def bad(kind: str) -> ConfigError:
        return ConfigError(f"{where}key {key!r} must be {kind}, got {value!r}")

    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad("a whole number")
        if value < 0:
            raise bad("zero or more")
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad("a number")
        if not math.isfinite(value):
            # nan slips through every comparison (a duration of nan never ends).
            raise bad("a finite number")
        if value < 0:
            raise bad("zero or more")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise bad("a string")
        return value
    if isinstance(default, tuple):
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise bad("a list of names")
        return tuple(value)
    if isinstance(default, Mapping):
        if not isinstance(value, Mapping):
            raise bad("a table of option = value")
        return dict(value)
    raise bad(type(default).__name__)  # pragma: no cover - every field type is handled above


def load_config(path: str | Path | None, **overrides: Any) -> KioskConfig:
    """Reads a TOML config file (``None``: defaults only) and applies overrides.

    Overrides whose value is ``None`` are ignored, so command-line options that
    were not given leave the file's values alone. Raises :class:`ConfigError`
    for an unreadable file or a bad key.
    """
    values: dict[str, Any] = {}
    source = ""
    if path is not None:
        p = Path(path).expanduser()
        source = str(p)
        try:
            values = tomllib.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{p}: no such config file") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{p}: not valid TOML ({exc})") from None
        except UnicodeDecodeError:
            raise ConfigError(f"{p}: not a text file (a UTF-8 TOML config file expected)") from None
        except OSError as exc:
            raise ConfigError(f"{p}: cannot read ({exc.strerror})") from None
    values.update({k: v for k, v in overrides.items() if v is not None})
    return config_from_mapping(values, source=source)
