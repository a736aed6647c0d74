"""The kiosk's configuration file, the run command's errors, and the sound cues."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from kiosk.app.sound import CUE_NAMES, SoundCues, cue_for  # noqa: E402
from kiosk.commands.run import register, run  # noqa: E402
from kiosk.config import ConfigError, KioskConfig, load_config  # noqa: E402
from kiosk.games.referee import Ruling  # noqa: E402


def test_an_empty_file_gives_the_documented_defaults(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text("", encoding="utf-8")
    assert load_config(path) == KioskConfig()


def test_the_file_sets_fields_and_options_override_it(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(
        'display = "720x1280"\nplayers = ["Ana", "Ben"]\nmuted = true\n[inputs]\n'
        'gpio = { "GPIO17" = "call:0" }\n',
        encoding="utf-8",
    )
    cfg = load_config(path, muted=None, display="1920x1080")
    assert cfg.display_size == (1920, 1080) and cfg.players == ("Ana", "Ben") and cfg.muted
    assert dict(cfg.inputs) == {"gpio": {"GPIO17": "call:0"}}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("colour = 1", "unknown key 'colour'"),
        ('fps = "fast"', "key 'fps' must be a whole number"),
        ('display = "huge"', "key 'display'"),
        ('players = ["Ana", "Ana"]', "key 'players'"),
        ("muted = 1", "key 'muted' must be true or false"),
        ('[inputs]\ngpio = { "GPIO17" = "kick:0" }', "'GPIO17'"),
        ("display = ", "not valid TOML"),
    ],
)
def test_bad_configuration_names_the_key(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=named.replace("(", r"\(")) as err:
        load_config(path)
    assert str(path) in str(err.value)


def test_kiosk_run_reports_bad_input_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    for argv, message in (
        (["run", "--headless", "--display", "12x9"], "key 'display'"),
        (["run", "--headless", "--camera", str(tmp_path / "none.mp4")], "no such video file"),
        (["run", "--headless", "--camera", "replay:" + str(tmp_path / "none.jsonl")], "cannot replay"),
        (["run", "--headless", "--config", str(tmp_path / "missing.toml")], "no such config file"),
    ):
        args = parser.parse_args(argv)
        assert run(args) == 2
        err = capsys.readouterr().err
        assert err.startswith("kiosk run: ") and message in err and "Traceback" not in err


def test_every_cue_is_shipped_as_a_wav_file() -> None:
    folder = Path(__file__).resolve().parents[2] / "kiosk" / "sounds"
    for name in CUE_NAMES:
        data = (folder / f"{name}.wav").read_bytes()
        assert data[:4] == b"RIFF" and data[8:12] == b"WAVE" and len(data) > 1_000


def test_cues_follow_the_rulings_and_mute_silences_them() -> None:
    sounds = SoundCues(enabled=False)
    sounds.for_rulings([Ruling(0, "hand_start", "go"), Ruling(1, "race", "Ana first by 64 ms")], "nerts")
    sounds.for_rulings([Ruling(2, "call", "Ana: Nerts!")], "nerts")
    sounds.for_rulings([Ruling(3, "call", "discard")], "rummy_3_13")
    assert sounds.played == ["race", "fanfare", "discard"]
    sounds.toggle_mute()
    sounds.for_rulings([Ruling(4, "tie", "tie (12 ms): both stand")], "nerts")
    assert sounds.played == ["race", "fanfare", "discard"]
    assert cue_for(Ruling(5, "game_end", "game over"), "smear") == "game_over"


def test_sounds_load_through_the_mixer() -> None:
    sounds = SoundCues()
    assert sounds.available
    sounds.play("fanfare")
    assert sounds.played == ["fanfare"]


def test_without_a_display_the_kiosk_runs_headless_with_screenshots_and_a_text_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from kiosk.app.runner import _headless_without_display

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    cfg = _headless_without_display(KioskConfig(text_log=str(tmp_path / "mine.txt")))
    assert cfg.headless
    assert cfg.screenshot_dir == str(Path("runs") / "headless" / "screenshots")
    assert cfg.text_log.endswith("mine.txt")
    assert (tmp_path / "runs" / "headless" / "screenshots").is_dir()
    assert "no display: running headless" in capsys.readouterr().err


def test_a_headless_run_gets_a_private_runtime_folder_when_none_is_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # SDL prints "error: XDG_RUNTIME_DIR is invalid" without one, which reads like a failed run.
    from kiosk.app.runner import _display

    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    with _display(KioskConfig(headless=True)):
        folder = os.environ.get("XDG_RUNTIME_DIR", "")
        assert os.path.isdir(folder)
    assert not os.path.exists(folder) and "XDG_RUNTIME_DIR" not in os.environ
