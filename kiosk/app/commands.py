"""What a press means to the screens: a small vocabulary of commands.

Every input source (GPIO buttons, the microcontroller's pads, the keyboard, a
tap on the touchscreen) ends up as a :class:`Command`; the screens handle
commands and nothing else, so a screen works the same whichever button was
pressed. A command keeps the input's monotonic time (``t_ns``) and
uncertainty, which a seat's "Nerts!" call carries into the event log.

Key presses are read on the display thread (pygame wants that) and go first
through :class:`kiosk.inputs.KeyboardInput`, whose key map (``[inputs] keys``)
makes the same input events as the buttons: ``1``..``8`` the seats' call
buttons, ``F1``..``F8`` their stuck buttons, arrows, Return, Escape, ``u``
(undo); the runner adds Tab (score sheet), End (history) and ``m`` (mute). A
key that map does not bind falls back to :func:`command_for_key` below
(``q`` quits).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import pygame

__all__ = ["Key", "Command", "command_for_key", "KEYMAP"]


class Key(enum.Enum):
    """The commands screens understand."""

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    SELECT = "select"
    BACK = "back"
    CALL = "call"
    """A seat's "Nerts!" (or the game's call) button."""
    STUCK = "stuck"
    """A seat declares it is stuck (Nerts)."""
    UNDO = "undo"
    SCORES = "scores"
    HISTORY = "history"
    MUTE = "mute"
    QUIT = "quit"


@dataclass(frozen=True, slots=True)
class Command:
    """One command from one input, with the input's time."""

    key: Key
    t_ns: int = 0
    """Monotonic time of the input (``time.monotonic_ns()`` clock)."""
    err_ns: int = 0
    """Uncertainty of ``t_ns`` (half-width)."""
    seat: int | None = None
    """The seat (0-based) whose button it was, for CALL and STUCK."""
    index: int | None = None
    """For a tap on a list row: which row."""


KEYMAP: dict[int, Key] = {
    pygame.K_UP: Key.UP,
    pygame.K_DOWN: Key.DOWN,
    pygame.K_LEFT: Key.LEFT,
    pygame.K_RIGHT: Key.RIGHT,
    pygame.K_RETURN: Key.SELECT,
    pygame.K_KP_ENTER: Key.SELECT,
    pygame.K_SPACE: Key.SELECT,
    pygame.K_ESCAPE: Key.BACK,
    pygame.K_BACKSPACE: Key.BACK,
    pygame.K_u: Key.UNDO,
    pygame.K_s: Key.SCORES,
    pygame.K_h: Key.HISTORY,
    pygame.K_m: Key.MUTE,
    pygame.K_q: Key.QUIT,
}


def command_for_key(key: int, mod: int, t_ns: int) -> Command | None:
    """The command of a key press (pygame key code and modifiers), or None.

    >>> command_for_key(pygame.K_2, 0, 5)
    Command(key=<Key.CALL: 'call'>, t_ns=5, err_ns=0, seat=1, index=None)
    >>> command_for_key(pygame.K_2, pygame.KMOD_SHIFT, 5).key
    <Key.STUCK: 'stuck'>
    """
    if pygame.K_1 <= key <= pygame.K_8:
        seat = key - pygame.K_1
        kind = Key.STUCK if mod & pygame.KMOD_SHIFT else Key.CALL
        return Command(kind, t_ns, seat=seat)
    mapped = KEYMAP.get(key)
    return Command(mapped, t_ns) if mapped is not None else None
