"""Turns the input queue's :class:`~kiosk.inputs.events.InputEvent` values into screen commands.

The app's loop calls :func:`command_for_input` for queue items it does not
know itself (see ``kiosk.app.runner``). A seat's call and stuck buttons become
``CALL`` and ``STUCK`` with the seat button number and the input's own time and
uncertainty; nav inputs become the command of the same name. Releases and slap
pads give no command: a slap's time belongs to the foundation play the camera
sees, not to a screen.

>>> from kiosk.inputs import InputBinding
>>> command_for_input(InputBinding.parse("call:2").event("bridge", 1_000, 250))
Command(key=<Key.CALL: 'call'>, t_ns=1000, err_ns=250, seat=2, index=None)
>>> command_for_input(InputBinding.parse("nav:select").event("gpio", 5)).key
<Key.SELECT: 'select'>
>>> command_for_input(InputBinding.parse("slap:0").event("bridge", 5)) is None
True
"""

from __future__ import annotations

from typing import Any

from kiosk.app.commands import Command, Key
from kiosk.inputs.events import InputEvent

__all__ = ["command_for_input"]

_NAV: dict[str, Key] = {key.value: key for key in Key if key not in (Key.CALL, Key.STUCK, Key.QUIT)}


def command_for_input(item: Any) -> Command | None:
    """The command an input event means, or None (not an input event, a release, a slap)."""
    if not isinstance(item, InputEvent) or not item.pressed:
        return None
    if item.kind == "call" and item.seat is not None:
        return Command(Key.CALL, item.t_ns, item.t_err_ns, seat=item.seat)
    if item.kind == "stuck" and item.seat is not None:
        return Command(Key.STUCK, item.t_ns, item.t_err_ns, seat=item.seat)
    if item.kind == "nav" and item.control in _NAV:
        return Command(_NAV[item.control], item.t_ns, item.t_err_ns)
    return None
