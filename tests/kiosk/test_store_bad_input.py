"""Importing a table log into the event store, and resuming from a store, with bad input: a log the
referee cannot fold is refused whole (it used to be stored, and ``kiosk run`` then died with a
traceback resuming it); a store holding such a game is one clear line from ``kiosk run``."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import errno  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import IO  # noqa: E402

import pytest  # noqa: E402

from kiosk.__main__ import main  # noqa: E402
from kiosk.games.referee import LogHeader  # noqa: E402
from kiosk.store import EventStore, list_sessions  # noqa: E402
from kiosk.tablelog import LogFormatError  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NERTS = '{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": {}}'


@pytest.mark.parametrize(
    ("lines", "line", "problem"),
    [
        (['{"table_log": 1, "game": "poker", "seats": ["Ana", "Ben"], "options": {}}'], 1, "unknown game"),
        ([NERTS, '{"t": 1.0, "type": "bogus", "seat": "Ana"}'], 2, "unknown event type 'bogus'"),
        ([NERTS, '{"t": 1.0, "type": "call", "seat": "Zed"}'], 2, "seat 'Zed'"),
        (['{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": {"zzz": 1}}'], 1, "zzz"),
    ],
)
def test_import_refuses_a_log_the_referee_cannot_fold_and_writes_nothing(
    tmp_path: Path, lines: list[str], line: int, problem: str
) -> None:
    path = tmp_path / "k.sqlite3"
    with pytest.raises(LogFormatError, match=f"line {line}: .*{problem}"):
        EventStore.import_table_log(path, lines)
    assert not path.exists() or list_sessions(path) == []


def test_an_imported_finished_game_is_stored_finished_so_the_kiosk_does_not_resume_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "k.sqlite3"
    lines = (EXAMPLES / "smear_example.jsonl").read_text(encoding="utf-8").splitlines()
    EventStore.import_table_log(path, lines).close()
    [info] = list_sessions(path)
    assert info.game == "smear" and info.finished
    assert EventStore.open_last_unfinished(path) is None


def test_kiosk_import_of_a_folder_or_an_unknown_game_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "k.sqlite3"
    assert main(["import", str(tmp_path), "--store", str(store)]) == 2
    assert "is a folder; give the table log file" in capsys.readouterr().err
    log = tmp_path / "poker.jsonl"
    log.write_text('{"table_log": 1, "game": "poker", "seats": ["Ana", "Ben"], "options": {}}\n')
    assert main(["import", str(log), "--store", str(store)]) == 2
    err = capsys.readouterr().err
    assert "line 1: unknown game 'poker'" in err and "Traceback" not in err
    assert not store.exists() or list_sessions(store) == []


def test_kiosk_run_on_a_store_whose_unfinished_game_it_cannot_referee_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A store written by another build (or edited by hand) can hold a game this kiosk does not know.
    store = tmp_path / "k.sqlite3"
    EventStore.create(store, LogHeader("poker", ("Ana", "Ben"))).close()
    status = main(["run", "--headless", "--frames", "2", "--store", str(store)])
    err = capsys.readouterr().err
    assert status == 2
    assert "cannot be resumed (unknown game 'poker'" in err and "kiosk export" in err
    assert list_sessions(store)[0].game == "poker", "the stored game is left as it was"


def _store_with_a_game(tmp_path: Path) -> Path:
    store = tmp_path / "k.sqlite3"
    lines = (EXAMPLES / "smear_example.jsonl").read_text(encoding="utf-8").splitlines()
    EventStore.import_table_log(store, lines).close()
    return store


def test_kiosk_export_to_a_path_it_cannot_write_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _store_with_a_game(tmp_path)
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    assert main(["export", str(store), "--out", str(tmp_path / "a_file" / "game.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "choose a file you can write to" in err and "[Errno" not in err


def test_a_failed_export_leaves_the_earlier_export_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _store_with_a_game(tmp_path)
    out = tmp_path / "game.jsonl"
    assert main(["export", str(store), "--out", str(out)]) == 0
    first = out.read_text(encoding="utf-8")
    assert first.startswith('{"table_log": 1, "game": "smear"') and not list(tmp_path.glob("*.part"))

    def disk_full_halfway(self: EventStore, f: IO[str]) -> None:
        f.write('{"table_log": 1, "game": "smear", "se')
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(EventStore, "export_table_log", disk_full_halfway)
    assert main(["export", str(store), "--out", str(out)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == first and not list(tmp_path.glob("*.part"))


@pytest.mark.parametrize("command", [["sessions"], ["export", "--out", "log.jsonl"]])
def test_reading_an_empty_file_as_a_store_is_one_line_and_leaves_it_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    empty = tmp_path / "typo.sqlite3"
    empty.touch()
    argv = [part if part != "log.jsonl" else str(tmp_path / part) for part in command]
    assert main([*argv, str(empty)]) != 0
    err = capsys.readouterr().err.strip()
    assert "the file is empty, not an event store" in err and len(err.splitlines()) == 1
    assert empty.stat().st_size == 0  # reading it did not turn it into a store
    with pytest.raises(Exception, match="empty"):
        list_sessions(empty)
