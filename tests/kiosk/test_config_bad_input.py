"""Bad config files and options: one clear ConfigError naming the key or file, never a traceback
or a kiosk that runs forever."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.config import ConfigError, config_from_mapping, load_config


def test_a_binary_file_given_as_config_is_named_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_bytes(b"\xff\xfe\x00\xbf binary \x80\x81")
    with pytest.raises(ConfigError, match="not a text file"):
        load_config(path)


@pytest.mark.parametrize("key", ["duration_s", "pace", "camera_retry_s", "screenshot_every_s", "px_per_mm"])
@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_a_number_that_is_not_finite_is_refused(key: str, value: float) -> None:
    # A duration of nan passed every range check and the kiosk never stopped.
    with pytest.raises(ConfigError, match=f"key '{key}' must be a finite number"):
        config_from_mapping({key: value})


def test_nan_in_the_toml_file_is_refused_too(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text("duration_s = nan\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="duration_s"):
        load_config(path)


def test_an_unknown_game_is_refused_listing_the_games() -> None:
    with pytest.raises(ConfigError, match="key 'game': unknown game 'poker' .*nerts"):
        load_config(None, game="poker")


def test_a_game_alias_or_odd_case_is_still_taken() -> None:
    assert load_config(None, game="Smear").game == "Smear"


@pytest.mark.parametrize(
    ("display", "message"),
    [
        ("99999x99999", "larger than any screen"),  # a window of gigabytes on the dummy driver
        ("²x²", "is not WIDTHxHEIGHT"),  # isdigit() took it, int() did not
    ],
)
def test_a_display_no_screen_has_is_refused(display: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(None, display=display)


def test_the_largest_screens_are_still_taken() -> None:
    assert load_config(None, display="7680x4320").display_size == (7680, 4320)
