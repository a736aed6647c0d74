"""Putting the kiosk together: the window, the inputs, the table source, the session, the loop.

:func:`run_kiosk` is what ``kiosk run`` calls. It opens the display (SDL's
dummy drivers when headless), resumes the last unfinished game from the event
store if there is one, otherwise starts at the choose-game screen (or straight
in play for a replayed table log), and runs the loop until quit, a frame
count, or a duration. Headless runs write periodic screenshots and a text log.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from kiosk.config import KioskConfig

__all__ = ["run_kiosk", "RunResult", "default_store_path", "bundled_log", "KioskStartError"]

log = logging.getLogger(__name__)


class KioskStartError(RuntimeError):
    """The kiosk cannot start (a missing file, an unknown camera); the message says what to fix."""


@dataclass(frozen=True, slots=True)
class RunResult:
    """What a bounded run did (for the command line and the tests)."""

    frames: int
    rulings: int
    finished: bool
    totals: dict[str, int]
    screenshots: tuple[str, ...]
    headless: bool = False
    """It ran without a display (asked for, or none was there)."""


def default_store_path() -> Path:
    """The event store in the user's data folder (``$XDG_DATA_HOME/kiosk/events.sqlite3``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kiosk" / "events.sqlite3"


def bundled_log(name: str = "nerts_hand.jsonl") -> Path:
    """The path of a table log shipped with the kiosk (the demo table)."""
    return Path(__file__).resolve().parent / "demo" / name


@contextlib.contextmanager
def _display(config: KioskConfig) -> Iterator[Any]:
    if config.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    with _runtime_dir():
        yield from _open_display(config)


@contextlib.contextmanager
def _runtime_dir() -> Iterator[None]:
    """Gives SDL a private, empty ``XDG_RUNTIME_DIR`` while it runs when none is set: without one it
    prints "error: XDG_RUNTIME_DIR is invalid" (looking for a Wayland display), which reads like a
    failure of a run that works."""
    if os.path.isdir(os.environ.get("XDG_RUNTIME_DIR", "")):
        yield
        return
    folder = tempfile.mkdtemp(prefix="kiosk-runtime-")
    os.environ["XDG_RUNTIME_DIR"] = folder
    try:
        yield
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get("XDG_RUNTIME_DIR") == folder:
            del os.environ["XDG_RUNTIME_DIR"]


def _open_display(config: KioskConfig) -> Iterator[Any]:
    import pygame

    pygame.display.init()
    pygame.font.init()
    try:
        flags = pygame.FULLSCREEN if config.fullscreen and not config.headless else 0
        screen = pygame.display.set_mode(config.display_size, flags)
        pygame.display.set_caption("Card-table referee")
        yield screen
    finally:
        pygame.quit()
        from kiosk.app.paint import shared_fonts

        shared_fonts().reset()


APP_KEYS: dict[str, str] = {"tab": "nav:scores", "end": "nav:history", "m": "nav:mute"}
"""Keys added to the input keyboard map when ``[inputs] keys`` is not configured."""


class PygameInput:
    """Reads the keyboard, touch and mouse on the display thread.

    Key presses go to :class:`kiosk.inputs.KeyboardInput` (its key map, ``[inputs] keys``),
    which puts the same input events on the queue as the buttons do; a key it does not bind
    falls back to :func:`kiosk.app.commands.command_for_key` (Q quits). Taps and clicks on a
    screen's touch targets become those targets' commands.

    pygame gives these events no time stamp of their own, so they are stamped when the loop
    reads them: at most one idle wait (20 ms) after the press. Seat buttons whose time
    matters (a "Nerts!" call) come through GPIO or the bridge with their edge time instead.
    """

    def __init__(self, painter: Any, keyboard: Any = None, clock: Any = time.monotonic_ns) -> None:
        self.painter = painter
        self.keyboard = keyboard
        self.clock = clock

    def poll(self) -> Iterable[Any]:
        import pygame

        from kiosk.app.commands import Command, Key, command_for_key

        out = []
        for event in pygame.event.get():
            now = self.clock()
            if event.type == pygame.QUIT:
                out.append(Command(Key.QUIT, now))
            elif event.type == pygame.KEYDOWN:
                if self.keyboard is not None and self.keyboard.key_down(pygame.key.name(event.key), now):
                    continue
                command = command_for_key(event.key, event.mod, now)
                if command is not None:
                    out.append(command)
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                hit = self.painter.hit(event.pos)
                if hit is not None:
                    out.append(_stamped(hit, now))
            elif event.type == pygame.FINGERDOWN:
                pos = (int(event.x * self.painter.width), int(event.y * self.painter.height))
                hit = self.painter.hit(pos)
                if hit is not None:
                    out.append(_stamped(hit, now))
        return out


def _stamped(command: Any, t_ns: int) -> Any:
    import dataclasses

    return dataclasses.replace(command, t_ns=t_ns)


HEADLESS_DIR = Path("runs") / "headless"
"""Where a kiosk started without a display writes its screenshots and rulings (unless told)."""


def _headless_without_display(config: KioskConfig) -> KioskConfig:
    """With no display to open (SDL finds only its off-screen driver), runs headless: periodic
    screenshots and a text log under ``runs/headless/`` unless the config names other places."""
    if config.headless:
        return config
    import pygame

    with _runtime_dir():
        try:
            pygame.display.init()
            driver = pygame.display.get_driver()
        except pygame.error:
            driver = "none"
        finally:
            pygame.display.quit()
    if driver not in ("offscreen", "dummy", "none"):
        return config
    shots = config.screenshot_dir or str(HEADLESS_DIR / "screenshots")
    text = config.text_log or str(HEADLESS_DIR / "rulings.txt")
    Path(shots).expanduser().mkdir(parents=True, exist_ok=True)
    Path(text).expanduser().parent.mkdir(parents=True, exist_ok=True)
    print(
        f"kiosk run: no display: running headless; screenshots in {shots}, rulings in {text}", file=sys.stderr
    )
    return config.replace(headless=True, screenshot_dir=shots, text_log=text)


def _open_text_log(config: KioskConfig) -> TextIO | None:
    if not config.text_log:
        return None
    path = Path(config.text_log).expanduser()
    if not path.parent.exists():
        raise KioskStartError(f"text log folder {path.parent} does not exist; create it or change --text-log")
    try:
        return path.open("a", encoding="utf-8")
    except OSError as exc:
        raise KioskStartError(
            f"cannot write the text log {path} ({exc.strerror}); give a file you can write to with --text-log"
        ) from None


def _check_outputs(config: KioskConfig) -> None:
    """Raises :class:`KioskStartError` for a screenshot path the kiosk could only fail to write
    later (at the end of a game, or at the first periodic screenshot)."""
    if config.screenshot:
        shot = Path(config.screenshot).expanduser()
        if shot.is_dir():
            raise KioskStartError(f"--screenshot {shot} is a folder; give a file name such as last.png")
        if not shot.parent.is_dir():
            raise KioskStartError(
                f"--screenshot: {shot.parent} is not an existing folder; create it or choose another path"
            )
    if config.screenshot_dir:
        folder = Path(config.screenshot_dir).expanduser()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise KioskStartError(
                f"--screenshot-dir {folder}: cannot make this folder ({exc.strerror}); choose another"
            ) from None


def run_kiosk(config: KioskConfig, *, events: queue.SimpleQueue[Any] | None = None) -> RunResult:
    """Runs the kiosk with ``config``; returns when it quits or its frame/time budget is spent.

    Raises :class:`KioskStartError` for a configuration that cannot run, or when another kiosk
    runs on the same event store.
    """
    store = Path(config.store).expanduser() if config.store else default_store_path()
    if not config.store:
        store.parent.mkdir(parents=True, exist_ok=True)
    with _store_lock(store):
        return _run_kiosk(config, events=events)


@contextlib.contextmanager
def _store_lock(store: Path) -> Iterator[None]:
    """One kiosk per event store: two would append to the same game, numbering its events twice
    (the second died on a UNIQUE constraint, its table's events mixed into the first's game).
    The operating system drops the lock when the process ends, a crash and a power cut included."""
    import fcntl

    try:
        lock = store.with_name(store.name + ".lock").open("a")
    except OSError:
        lock = None  # no folder, or not writable: the store's own checks say what is wrong
    if lock is None:
        yield
        return
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise KioskStartError(
                f"{store}: another kiosk is running on this event store; quit it first, "
                "or give this one another --store"
            ) from None
        yield


def _run_kiosk(config: KioskConfig, *, events: queue.SimpleQueue[Any] | None = None) -> RunResult:
    from kiosk.app.feeds import LogFeed
    from kiosk.app.loop import App
    from kiosk.app.paint import SurfacePainter
    from kiosk.app.sound import SoundCues
    from kiosk.screens import ChooseGameMode, PlayMode
    from kiosk.store import StoreError
    from kiosk.tablelog import LogFormatError, read_table_log

    store = Path(config.store).expanduser() if config.store else default_store_path()
    if not config.store:
        store.parent.mkdir(parents=True, exist_ok=True)
    source = config.camera
    replay_path: Path | None = None
    camera: Any = None
    table: Any = None
    game: Any = None
    if source.startswith("replay:"):
        replay_path = Path(source.removeprefix("replay:")).expanduser()
    elif source == "simulator":
        game = _simulated_game(config)
        if game is None:
            replay_path = bundled_log()
    else:
        from vision.sources import SourceError, open_source

        try:
            camera = open_source(source)
        except SourceError as exc:
            raise KioskStartError(str(exc)) from None
        if getattr(camera, "is_file", False):
            # A camera may come back (the thread retries it); a file OpenCV cannot read never will.
            try:
                camera.open()
            except SourceError:
                raise KioskStartError(
                    f"camera {source!r}: cannot be read as a video; give a video file (.mp4, .avi), "
                    "usb:N or picamera2"
                ) from None
            camera.close()
    feed: LogFeed | None = None
    header = None
    if replay_path is not None:
        try:
            header, table_events = read_table_log(replay_path)
        except LogFormatError as exc:
            raise KioskStartError(f"cannot replay: {exc}") from None
        feed = LogFeed(table_events, pace=config.pace)

    _check_outputs(config)
    config = _headless_without_display(config)
    text_log = _open_text_log(config)
    shots: list[str] = []
    with _display(config) as screen:
        import pygame

        painter = SurfacePainter(screen)
        sounds = SoundCues(muted=config.muted)
        events = events if events is not None else queue.SimpleQueue()
        sources = _start_inputs(config, events)
        inputs = PygameInput(painter, sources.keyboard)
        app = App(
            config,
            painter=painter,
            events=events,
            sounds=sounds,
            store_path=store,
            present=pygame.display.flip,
            poll=inputs.poll,
            text_log=text_log,
            translate=_input_translator(),
            slaps=_slap_join(config),
        )
        try:
            resumed = app.resume_session()
        except StoreError as exc:
            raise KioskStartError(str(exc)) from None
        except LogFormatError as exc:
            # The last unfinished game names a game, seats or options this kiosk cannot referee.
            raise KioskStartError(
                f"{store}: the unfinished game in it cannot be resumed ({exc.problem}); save it with "
                f"'kiosk export {store} --out game.jsonl', then move {store} aside to start afresh"
            ) from None
        if (
            resumed is not None
            and header is not None
            and (resumed.header.game != header.game or tuple(resumed.header.seats) != tuple(header.seats))
        ):
            # The unfinished game in the store is not the replayed table's: leave it there.
            resumed.close()
            app.session = None
            resumed = None
        if game is not None:
            header = game.header
            if resumed is not None and not game.is_mine(resumed.header):
                # Another game is unfinished in the store: it stays there for later.
                resumed.close()
                app.session = None
                resumed = None
        if resumed is None and header is not None:
            try:
                app.start_session(header)
            except (StoreError, LogFormatError) as exc:
                raise KioskStartError(str(exc)) from None
        if app.session is not None:
            app.set_mode(PlayMode())
            if app.report() is not None and app.report().finished:  # type: ignore[union-attr]
                from kiosk.screens.game_over import GameOverMode

                app.set_mode(GameOverMode())
        else:
            app.set_mode(ChooseGameMode(config.game, dict(config.options)))
        if feed is not None:
            app.attach_feed(feed)
        worker = None
        if game is not None and app.session is not None:
            table = _next_hand(app, game)
            worker = _start_simulated_table(app, table)
        elif camera is not None:
            worker = _start_camera(app, camera, config)

        start = time.monotonic()
        next_shot = start
        passes = 0

        def until(a: App) -> bool:
            nonlocal next_shot, passes, table, worker
            now = time.monotonic()
            if config.screenshot_dir and now >= next_shot and a.frames:
                folder = Path(config.screenshot_dir).expanduser()
                folder.mkdir(parents=True, exist_ok=True)
                path = folder / f"frame-{len(shots):04d}.png"
                pygame.image.save(screen, str(path))
                shots.append(str(path))
                next_shot = now + config.screenshot_every_s
            passes += 1
            if config.frames and passes >= config.frames:
                return True
            if config.headless and a.feed is not None and a.feed.done and _game_over_shown(a):
                return True
            if (
                table is not None
                and table.finished
                and worker is not None
                and not worker.running
                and not a.events_waiting
                and not a.needs_redraw
            ):
                report = a.report()
                if config.headless and not config.duration_s and not config.frames:
                    return True  # a bounded headless run shows one hand
                if report is not None and not report.finished:
                    table = _next_hand(a, game)
                    worker = _start_simulated_table(a, table)
            if (
                camera is not None
                and config.headless
                and worker is not None
                and not worker.running
                and not a.events_waiting
                and not a.needs_redraw
            ):
                return True  # a headless run over a video file stops at its end
            if config.duration_s and now - start >= config.duration_s:
                return True
            return False

        try:
            app.run(until=until)
        finally:
            if worker is not None:
                worker.stop()
            sources.close()
            if config.screenshot:
                try:
                    pygame.image.save(screen, str(Path(config.screenshot).expanduser()))
                    shots.append(config.screenshot)
                except pygame.error as exc:
                    # The game is in the store already; a lost screenshot must not lose the close below.
                    print(f"kiosk: screenshot not saved: {exc}", file=sys.stderr)
            report = app.report()
            rulings = len(app.session.rulings) if app.session is not None else 0
            if app.session is not None:
                app.session.close()
            if text_log is not None:
                text_log.close()
    return RunResult(
        frames=app.frames,
        rulings=rulings,
        finished=bool(report and report.finished),
        totals=dict(report.totals) if report else {},
        screenshots=tuple(shots),
        headless=config.headless,
    )


def _start_inputs(config: KioskConfig, events: queue.SimpleQueue[Any]) -> Any:
    """Starts the GPIO buttons and the Pico bridge of ``[inputs]`` (the keyboard is always there)."""
    from kiosk.inputs import InputConfigError, InputsConfig, start_inputs

    table = dict(config.inputs)
    if "keys" not in table:
        from kiosk.inputs import DEFAULT_KEYS

        table["keys"] = {**DEFAULT_KEYS, **APP_KEYS}
    try:
        return start_inputs(InputsConfig.from_mapping(table), events)
    except InputConfigError as exc:
        raise KioskStartError(str(exc)) from None


def _simulated_game(config: KioskConfig) -> Any:
    """The simulated Nerts game (simulator, recognizer, tracker), or None when this build lacks
    the simulator or the tracker (the shipped demo log is replayed instead)."""
    try:
        import vision.nerts_tracker  # noqa: F401
        from kiosk.app.simulated_table import SimulatedGame, load_recognizer
    except ImportError as exc:
        log.warning("no simulated table (%s): replaying the demo log", exc)
        return None
    if config.perfect_vision:
        recognizer, why = None, "perfect vision"
    else:
        recognizer, why = load_recognizer()
    game = SimulatedGame(config.seed, pace=config.pace, recognizer=recognizer)
    game.note = "" if recognizer is not None else f"{why}: the simulator's own sightings stand in"
    return game


def _next_hand(app: Any, game: Any) -> Any:
    """The table of the hand that carries on the app's game, on the app's clock."""
    from kiosk.app.live_camera import logged_piles

    # A hand carried on after a restart keeps its foundation piles' ids (as a real camera's does).
    table = game.next_table(app.session.store.events(), piles=logged_piles(app.session))
    table.base_ns = app.origin_ns
    table.note = game.note if app.frames == 0 else ""
    return table


def _start_simulated_table(app: Any, table: Any) -> Any:
    from kiosk.app.camera import CameraWorker, marker_view

    if table.note:
        app.show_banner(table.note, seconds=8.0, alarm=False)
    seats = list(table.header.seats)
    worker = CameraWorker(
        table,
        table,
        app.events,
        retry_s=0.5,
        calibration=lambda frame: marker_view(frame, seats=seats, game=table.header.game),
        calibration_every=40,
    )
    worker.start()
    return worker


def _start_camera(app: Any, camera: Any, config: KioskConfig) -> Any:
    """Starts the camera thread: frames -> vision pipeline -> the app's queue."""
    from kiosk.app.camera import CameraWorker

    mat = table_mat(config)
    pipeline, why = vision_pipeline(app, mat=mat)
    if pipeline is None:
        app.show_banner(why, seconds=None, alarm=False)

        def pipeline(frame: Any) -> list[Any]:
            return []

    worker = CameraWorker(
        camera,
        pipeline,
        app.events,
        retry_s=config.camera_retry_s,
        calibration=_calibration_view(app, config, mat),
    )
    worker.start()
    return worker


def table_mat(config: KioskConfig) -> Any:
    """The printed mat the camera calibrates on (``[mat]``, as ``kiosk mat`` printed it), or None
    (the default mat) in a build without the vision package."""
    try:
        from vision.calibration import TableMat
    except ImportError:
        return None
    size = config.mat_settings
    return TableMat(size.width_mm, size.height_mm)


def _calibration_view(app: Any, config: KioskConfig, mat: Any) -> Any:
    """The calibrate screen's view of a camera frame, with the zones of the game in play now
    (the camera starts before a game is chosen, and the game can change while it runs)."""
    from kiosk.app.camera import marker_view

    def view(frame: Any) -> Any:
        session = app.session
        seats = list(session.seats) if session is not None else list(config.players)
        game = session.header.game if session is not None else None
        return marker_view(frame, seats=seats, mat=mat, game=game)

    return view


def vision_pipeline(app: Any, *, mat: Any = None) -> tuple[Any, str]:
    """The recognizer-and-tracker pipeline (frame -> table events) of the app's game, or None and
    what the kiosk tells the players instead (no recognition in this build, no usable model)."""
    try:
        from kiosk.app.live_camera import SessionPipeline
        from vision.errors import ModelError
        from vision.recognizer import Recognizer
    except ImportError as exc:
        return None, (
            f"Card recognition is not in this build ({exc.name}): the camera serves calibration only"
        )
    try:
        recognizer = Recognizer.load_for_video()
    except (ModelError, OSError) as exc:
        return None, f"Card recognition is off: {str(exc).rstrip('.')}. The camera serves calibration only."
    return SessionPipeline(app, recognizer, mat=mat), ""


def _game_over_shown(app: Any) -> bool:
    """True once the game-over screen has been drawn (a headless replay then stops)."""
    return getattr(app.mode, "name", "") == "game_over" and not app.needs_redraw


def _slap_join(config: KioskConfig) -> Any:
    """The slap pads' join to the camera's foundation plays (``[slaps]``), or None when turned off."""
    from kiosk.app.slap_join import SlapConfigError, SlapJoin, SlapSettings

    try:
        settings = SlapSettings.from_mapping(config.slaps)
    except SlapConfigError as exc:
        raise KioskStartError(str(exc)) from None
    return SlapJoin(settings) if settings.enabled else None


def _input_translator() -> Any:
    """Turns the input queue's events (kiosk.inputs) into commands, when that module is present."""
    try:
        from kiosk.app.inputs_adapter import command_for_input
    except ImportError:
        return None
    return command_for_input
