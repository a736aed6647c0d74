"""The one engine contract that all five games follow.

Vocabulary (after OpenSpiel): a :class:`Game` is built from options and makes
states; a :class:`State` has :meth:`~State.current_player`,
:meth:`~State.legal_actions`, :meth:`~State.apply_action`,
:meth:`~State.is_terminal` and :meth:`~State.returns`. Deals are *chance*
steps: at a chance node :meth:`~State.current_player` is :data:`CHANCE`, and
:meth:`~State.sample_chance` draws a deal action from a seeded RNG; the deal is
then applied and recorded like any other action, so replaying the history
rebuilds an equal state. Real-time Nerts reports :data:`SIMULTANEOUS`: any
seat may act.

The base class owns the public methods and the checks (game over, legality,
history, undo); each game fills the underscore hooks.

Beside this strict path (for simulations and tests) each game has a referee
path (:mod:`kiosk.games.referee`) that records what physically happened on the
table and reports infractions instead of raising.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from kiosk.games.errors import IllegalActionError, InvalidActionError

if TYPE_CHECKING:
    from kiosk.games.referee import Referee

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Game",
    "State",
    "Options",
    "option",
    "build_options",
    "options_to_dict",
    "option_help",
]

CHANCE = -1
""":meth:`State.current_player` at a chance node (a deal)."""
SIMULTANEOUS = -2
""":meth:`State.current_player` when every seat may act (Nerts)."""
TERMINAL = -4
""":meth:`State.current_player` once the game is over."""

A = TypeVar("A")


class Options:
    """Marker base for a game's options: a frozen dataclass whose fields carry
    a ``help`` line and, for string options, their ``choices``
    (see :func:`option`)."""


def option(default: Any, help: str, *, choices: Sequence[Any] | None = None) -> Any:
    """Declares one variant option of a game, with its default and a one-line
    explanation for the kiosk's option screen."""
    meta: dict[str, Any] = {"help": help}
    if choices is not None:
        meta["choices"] = tuple(choices)
    if isinstance(default, (list, dict, set)):
        raise TypeError("option defaults must be immutable")
    return dataclasses.field(default=default, metadata=meta)


OptT = TypeVar("OptT", bound=Options)


def build_options(cls: type[OptT], values: Mapping[str, Any] | None = None, *, game: str = "") -> OptT:
    """Builds a game's options from a mapping, checking names, types and choices.

    Raises :class:`InvalidActionError` naming an unknown option or a bad value
    and listing what is allowed. A string choice may be written with other spacing.

    >>> from kiosk.games.kierki.options import KierkiOptions
    >>> build_options(KierkiOptions, {"deal6_penalty_tricks": "13@150"}).deal6_penalty_tricks
    '13 @ 150'
    """
    values = dict(values or {})
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    kwargs: dict[str, Any] = {}
    for name, value in values.items():
        if name not in fields:
            known = ", ".join(sorted(fields))
            raise InvalidActionError(
                f"{game or cls.__name__} has no option {name!r} (options: {known})", input=name
            )
        f = fields[name]
        default = f.default
        if (
            isinstance(default, int)
            and not isinstance(default, bool)
            and isinstance(value, float)
            and value.is_integer()
        ):
            # JSON writers (and people) write 30.0 for 30: the same whole number.
            value = int(value)
        choices = f.metadata.get("choices")
        if choices is not None and isinstance(value, str) and value not in choices:
            # A spec value written with other spacing ("13@150" for "13 @ 150") is the same choice.
            bare = "".join(value.split())
            value = next((c for c in choices if isinstance(c, str) and "".join(c.split()) == bare), value)
        if choices is not None and value not in choices:
            raise InvalidActionError(
                f"option {name!r} must be one of {', '.join(map(repr, choices))}, got {value!r}",
                input=repr(value),
            )
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise InvalidActionError(
                    f"option {name!r} must be true or false, got {value!r}", input=repr(value)
                )
        elif isinstance(default, int) and default is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidActionError(
                    f"option {name!r} must be a whole number, got {value!r}", input=repr(value)
                )
        elif isinstance(default, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidActionError(
                    f"option {name!r} must be a number, got {value!r}", input=repr(value)
                )
            value = float(value)
        elif isinstance(default, str) and not isinstance(value, str):
            raise InvalidActionError(f"option {name!r} must be a string, got {value!r}", input=repr(value))
        elif isinstance(default, tuple) and isinstance(value, list):
            value = tuple(value)
        kwargs[name] = value
    return cls(**kwargs)


def options_to_dict(options: Options) -> dict[str, Any]:
    """Returns the options as a JSON-ready mapping (tuples become lists)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(options):  # type: ignore[arg-type]
        v = getattr(options, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def option_help(cls: type[Options]) -> list[tuple[str, Any, str, tuple[Any, ...] | None]]:
    """Lists ``(name, default, help, choices)`` for every option of a game."""
    return [
        (f.name, f.default, f.metadata.get("help", ""), f.metadata.get("choices"))
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]
    ]


class Game(ABC):
    """A game with its options: a factory of states and referees.

    Subclasses set :attr:`name`, :attr:`title`, :attr:`options_type`,
    :attr:`min_seats` and :attr:`max_seats`, and implement
    :meth:`new_initial_state` and :meth:`referee`.
    """

    name: ClassVar[str]
    """Registry key and the ``game`` of a table log: ``"nerts"``."""
    title: ClassVar[str]
    """The name people use: ``"Nerts"``."""
    options_type: ClassVar[type[Options]]
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8

    def __init__(
        self,
        options: Options | Mapping[str, Any] | None = None,
        /,
        *,
        seats: Sequence[str] | int = 4,
    ) -> None:
        if options is None or isinstance(options, Mapping):
            self.options: Any = build_options(self.options_type, options, game=self.name)
        elif isinstance(options, self.options_type):
            self.options = options
        else:
            raise TypeError(f"expected {self.options_type.__name__}, got {type(options).__name__}")
        if isinstance(seats, int):
            seats = [f"P{i + 1}" for i in range(seats)]
        self.seats: tuple[str, ...] = tuple(seats)
        if len(set(self.seats)) != len(self.seats):
            raise InvalidActionError(f"seat names must differ: {list(self.seats)}", input=str(seats))
        self._check_seat_count(len(self.seats))

    def _check_seat_count(self, n: int) -> None:
        if not self.min_seats <= n <= self.max_seats:
            raise InvalidActionError(
                f"{self.title} takes {self.min_seats} to {self.max_seats} seats, got {n}",
                input=str(n),
            )

    @property
    def num_seats(self) -> int:
        return len(self.seats)

    @abstractmethod
    def new_initial_state(self) -> State[Any]:
        """Returns the state before the first deal (a chance node)."""

    @abstractmethod
    def referee(self) -> Referee:
        """Returns a fresh referee for a table log of this game."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({options_to_dict(self.options)!r}, seats={list(self.seats)!r})"


class State(ABC, Generic[A]):
    """A game state on the strict path: legal actions, apply, undo, replay.

    Subclasses implement the underscore hooks. :meth:`apply_action` checks
    legality against :meth:`_legal_actions` unless the subclass overrides
    :meth:`_is_legal` with a faster test.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history: list[A] = []

    # -- hooks ------------------------------------------------------------------
    @abstractmethod
    def _current_player(self) -> int:
        """Seat index, or CHANCE / SIMULTANEOUS (TERMINAL is handled here)."""

    @abstractmethod
    def _legal_actions(self, player: int | None) -> list[A]:
        """Legal actions of ``player`` (all seats' when ``None``); never called at a
        chance node or when terminal."""

    @abstractmethod
    def _apply_action(self, action: A) -> None:
        """Applies an action already known to be legal."""

    @abstractmethod
    def _sample_chance(self, rng: random.Random) -> A:
        """Returns a chance action (a deal) drawn with ``rng``."""

    @abstractmethod
    def _is_legal_chance(self, action: A) -> bool:
        """True if ``action`` is a valid outcome of the current chance node."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def returns(self) -> list[int]:
        """Each seat's total score so far (final once terminal)."""

    @abstractmethod
    def public_view(self) -> Any:
        """A frozen dataclass of what everyone at the table can see."""

    @abstractmethod
    def notation(self) -> str:
        """A one-line description of the state (the game's FEN)."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Parses action notation in this state; raises InvalidActionError or
        AmbiguousActionError."""

    def _is_legal(self, action: A, player: int | None) -> bool:
        return action in self._legal_actions(player)

    def _actor(self, action: A) -> int | None:
        """The seat that takes ``action`` (None if it has no single seat)."""
        return getattr(action, "seat", None)

    # -- public API ---------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE`, :data:`SIMULTANEOUS` or :data:`TERMINAL`."""
        if self.is_terminal():
            return TERMINAL
        return self._current_player()

    def is_chance_node(self) -> bool:
        return not self.is_terminal() and self._current_player() == CHANCE

    def legal_actions(self, player: int | None = None) -> list[A]:
        """The legal actions (of one seat, or of every seat when ``player`` is None).

        Empty when the game is over or at a chance node (use :meth:`sample_chance`).
        """
        if self.is_terminal() or self._current_player() == CHANCE:
            return []
        return self._legal_actions(player)

    def sample_chance(self, rng: random.Random | int | None = None) -> A:
        """Draws a deal for the current chance node; seeded for reproducible games."""
        if not self.is_chance_node():
            raise IllegalActionError(f"not a chance node: {self.notation()}", context=self.notation())
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        return self._sample_chance(rng)

    def apply_action(self, action: A) -> None:
        """Applies a legal action and records it.

        Raises :class:`IllegalActionError` (with the action and the state's
        notation) if the game is over or the action is not legal here.
        """
        if self.is_terminal():
            raise IllegalActionError(
                f"game is over, cannot apply {action}", input=str(action), context=self.notation()
            )
        if self._current_player() == CHANCE:
            ok = self._is_legal_chance(action)
        else:
            ok = self._is_legal(action, self._actor(action))
        if not ok:
            raise IllegalActionError(
                f"illegal action: {str(action)!r} in {self.notation()}",
                input=str(action),
                context=self.notation(),
            )
        self._apply_action(action)
        self._history.append(action)

    def apply_text(self, text: str) -> A:
        """Parses and applies action notation; returns the action."""
        action = self.parse_action(text)
        self.apply_action(action)
        return action

    def history(self) -> list[A]:
        """The actions applied so far, deals included."""
        return list(self._history)

    def clone(self) -> State[A]:
        """An independent copy."""
        return copy.deepcopy(self)

    def undo(self) -> A:
        """Takes back the last action and returns it (replays the rest).

        Raises :class:`IllegalActionError` when there is nothing to undo.
        """
        if not self._history:
            raise IllegalActionError("nothing to undo", context=self.notation())
        last = self._history[-1]
        rebuilt = self.game.new_initial_state()
        for a in self._history[:-1]:
            rebuilt._apply_action(a)
            rebuilt._history.append(a)
        self.__dict__.clear()
        self.__dict__.update(rebuilt.__dict__)
        return last

    @classmethod
    def replay(cls, game: Game, actions: Sequence[A]) -> State[A]:
        """Builds a state by applying ``actions`` from the start (checked)."""
        state = game.new_initial_state()
        for a in actions:
            state.apply_action(a)
        return state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State) or type(other) is not type(self):
            return NotImplemented
        return self.notation() == other.notation() and self._history == other._history

    def __hash__(self) -> int:
        return hash(self.notation())

    def __str__(self) -> str:
        return self.notation()
