"""Where things lie on the table: seats, their zones, and each game's piles, in table millimetres.

Glossary (coordinates as in :mod:`vision.calibration`: origin at the mat's top-left as the
camera sees it, x right, y down, millimetres):

- **seat place**: where a seat sits: ``S`` (bottom edge), ``W`` (left), ``N`` (top), ``E``
  (right), clockwise from the bottom as seen from above. Seats of a game are placed in that
  order (two seats face each other at S and N).
- **seat frame**: coordinates local to a seat: local x to the player's right, local y
  toward the player; a card upright for that player has its top toward local -y.
- **slot**: where one pile lies: its seat (or ``None`` for the shared centre), its region
  name and the pose of its bottom card. A **fan** slot spreads its cards toward the player so
  every index shows (a Nerts work pile).
- **zone**: the part of the mat that belongs to a seat (its layout and the edge in front of
  it); a card leaving one seat's zone for the centre was played by that seat.

Nerts (``rules/nerts.md`` §3): each seat lays out, left to right as the player sees it, its
Nerts pile, four work piles, the waste and the stock; the foundations lie in a grid in the
middle, one slot per Ace played.

>>> lay = NertsLayout(["Ana", "Ben", "Cal", "Dee"])
>>> [lay.place_of(s).name for s in lay.seats]
['S', 'W', 'N', 'E']
>>> lay.slot("Ana", "work", 1).pose.y > 600
True
>>> lay.seat_of_point(780.0, 850.0)
'Ana'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = [
    "CARD_W_MM",
    "CARD_H_MM",
    "Pose",
    "SeatPlace",
    "Slot",
    "TableLayout",
    "NertsLayout",
    "TrickLayout",
    "RummyLayout",
    "GnomingLayout",
    "FAN_TAN_RANKS",
    "layout_for",
    "place_seats",
]

CARD_W_MM = 63.0
"""Width of a poker-size card."""
CARD_H_MM = 88.0
"""Height of a poker-size card."""
MAT_W_MM = 1560.0
MAT_H_MM = 878.0


@dataclass(frozen=True, slots=True)
class Pose:
    """A card's centre (mm) and rotation (degrees, counter-clockwise as seen on screen; 0 = upright
    for a player at the bottom edge)."""

    x: float
    y: float
    angle: float = 0.0

    def corners(self, w: float = CARD_W_MM, h: float = CARD_H_MM) -> list[tuple[float, float]]:
        """The card's four corners: top-left, top-right, bottom-right, bottom-left of its face.

        >>> [tuple(round(v) for v in p) for p in Pose(0, 0, 0).corners(2, 4)]
        [(-1, -2), (1, -2), (1, 2), (-1, 2)]
        """
        a = math.radians(self.angle)
        ca, sa = math.cos(a), math.sin(a)
        out = []
        for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
            # y grows downwards, so a counter-clockwise turn on screen is (x, y) -> (x c + y s, -x s + y c)
            out.append((self.x + dx * ca + dy * sa, self.y - dx * sa + dy * ca))
        return out

    def moved(self, dx: float, dy: float, dangle: float = 0.0) -> Pose:
        return Pose(self.x + dx, self.y + dy, self.angle + dangle)


@dataclass(frozen=True, slots=True)
class SeatPlace:
    """A seat's place at the table: the origin of its layout and the turn of its frame."""

    name: str
    origin: tuple[float, float]
    angle: float
    """Degrees counter-clockwise on screen: 0 for S, 180 for N, -90 for W, 90 for E."""
    edge: tuple[float, float]
    """The point of the mat's edge in front of the player (where the arm comes from)."""

    def to_table(self, lx: float, ly: float) -> tuple[float, float]:
        """Maps seat-local millimetres to table millimetres."""
        a = math.radians(self.angle)
        ca, sa = math.cos(a), math.sin(a)
        return (self.origin[0] + lx * ca + ly * sa, self.origin[1] - lx * sa + ly * ca)

    def to_local(self, x: float, y: float) -> tuple[float, float]:
        """Maps table millimetres to seat-local millimetres."""
        a = math.radians(self.angle)
        ca, sa = math.cos(a), math.sin(a)
        dx, dy = x - self.origin[0], y - self.origin[1]
        return (dx * ca - dy * sa, dx * sa + dy * ca)

    def pose(self, lx: float, ly: float, dangle: float = 0.0) -> Pose:
        x, y = self.to_table(lx, ly)
        return Pose(x, y, self.angle + dangle)


_PLACES_BY_COUNT: dict[int, tuple[str, ...]] = {
    1: ("S",),
    2: ("S", "N"),
    3: ("S", "W", "N"),
    4: ("S", "W", "N", "E"),
}


def place_seats(
    seats: Sequence[str], *, inset_mm: float = 235.0, width_mm: float = MAT_W_MM, height_mm: float = MAT_H_MM
) -> dict[str, SeatPlace]:
    """Places up to four seats clockwise from the bottom edge; ``inset_mm`` is the distance from
    the mat's edge to the middle of each layout's first row.

    Raises ValueError for more than four seats (the mat has four sides).
    """
    if not 1 <= len(seats) <= 4:
        raise ValueError(f"the simulated table seats 1 to 4 players, got {len(seats)}: {list(seats)}")
    cx, cy = width_mm / 2, height_mm / 2
    spec = {
        "S": ((cx, height_mm - inset_mm), 0.0, (cx + 120, height_mm)),
        "N": ((cx, inset_mm), 180.0, (cx - 120, 0.0)),
        "W": ((inset_mm, cy), -90.0, (0.0, cy + 120)),
        "E": ((width_mm - inset_mm, cy), 90.0, (width_mm, cy - 120)),
    }
    out: dict[str, SeatPlace] = {}
    for seat, name in zip(seats, _PLACES_BY_COUNT[len(seats)], strict=True):
        origin, angle, edge = spec[name]
        out[seat] = SeatPlace(name, origin, angle, edge)
    return out


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one pile lies."""

    seat: str | None
    region: str
    index: int
    pose: Pose
    fan: tuple[float, float] = (0.0, 0.0)
    """Offset in mm from one card of the pile to the next (``(0, 0)`` for a squared pile)."""

    @property
    def key(self) -> tuple[str | None, str, int]:
        return (self.seat, self.region, self.index)

    def card_pose(self, position: int) -> Pose:
        """The pose of the ``position``-th card from the bottom (0-based)."""
        return self.pose.moved(self.fan[0] * position, self.fan[1] * position)


@dataclass
class TableLayout:
    """Seats, their zones and the game's slots; the geometry shared by simulator and tracker."""

    seats: tuple[str, ...]
    places: dict[str, SeatPlace]
    slots: dict[tuple[str | None, str, int], Slot] = field(default_factory=dict)
    width_mm: float = MAT_W_MM
    height_mm: float = MAT_H_MM
    centre_box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    """The shared area (x0, y0, x1, y1)."""

    def place_of(self, seat: str) -> SeatPlace:
        return self.places[seat]

    def slot(self, seat: str | None, region: str, index: int = 0) -> Slot:
        return self.slots[(seat, region, index)]

    def seat_of_point(self, x: float, y: float) -> str | None:
        """The seat whose zone holds the table point, or None in the shared centre.

        Outside the centre, a point belongs to the seat whose layout origin is nearest.
        """
        cx0, cy0, cx1, cy1 = self.centre_box
        if cx0 <= x <= cx1 and cy0 <= y <= cy1:
            return None
        best, best_d = None, math.inf
        for seat, place in self.places.items():
            ox, oy = place.origin
            d = math.hypot(x - ox, y - oy)
            if d < best_d:
                best, best_d = seat, d
        return best

    def direction_seat(self, x0: float, y0: float, x1: float, y1: float) -> str | None:
        """The seat a motion from (x0, y0) toward (x1, y1) most probably came from: the seat whose
        edge lies most nearly straight behind it."""
        dx, dy = x1 - x0, y1 - y0
        n = math.hypot(dx, dy)
        if n < 1e-6:
            return None
        best, best_cos = None, -2.0
        for seat, place in self.places.items():
            ex, ey = place.edge
            vx, vy = x1 - ex, y1 - ey
            m = math.hypot(vx, vy)
            if m < 1e-6:
                continue
            c = (dx * vx + dy * vy) / (n * m)
            if c > best_cos:
                best, best_cos = seat, c
        return best


# The Nerts row, left to right as the player sees it (rules/nerts.md §3).
NERTS_COLUMNS: tuple[tuple[str, int], ...] = (
    ("nerts", 0),
    ("work", 1),
    ("work", 2),
    ("work", 3),
    ("work", 4),
    ("waste", 0),
    ("stock", 0),
)
NERTS_PITCH_MM = 74.0
NERTS_FAN_MM = 21.0
"""Work-pile fan offset: enough for a corner index (about 18 mm) to show."""
FOUNDATION_COLS = 8
FOUNDATION_ROWS = 2
FOUNDATION_PITCH = (86.0, 112.0)


class NertsLayout(TableLayout):
    """The Nerts table: each seat's row of piles and a grid of foundation slots in the middle."""

    def __init__(self, seats: Sequence[str], *, work_piles: int = 4, foundation_slots: int = 16) -> None:
        places = place_seats(seats)
        super().__init__(tuple(seats), places)
        columns = [("nerts", 0)] + [("work", i + 1) for i in range(work_piles)] + [("waste", 0), ("stock", 0)]
        n = len(columns)
        for seat, place in places.items():
            for k, (region, idx) in enumerate(columns):
                lx = (k - (n - 1) / 2) * NERTS_PITCH_MM
                pose = place.pose(lx, 0.0)
                fan = (0.0, 0.0)
                if region == "work":
                    fx, fy = place.to_table(0.0, NERTS_FAN_MM)
                    fan = (fx - place.origin[0], fy - place.origin[1])
                self.slots[(seat, region, idx)] = Slot(seat, region, idx, pose, fan)
        cols = max(FOUNDATION_COLS, math.ceil(foundation_slots / FOUNDATION_ROWS))
        rows = math.ceil(foundation_slots / cols)
        cx, cy = self.width_mm / 2, self.height_mm / 2
        for k in range(foundation_slots):
            r, c = divmod(k, cols)
            x = cx + (c - (cols - 1) / 2) * FOUNDATION_PITCH[0]
            y = cy + (r - (rows - 1) / 2) * FOUNDATION_PITCH[1]
            self.slots[(None, "foundation", k)] = Slot(None, "foundation", k, Pose(x, y, 0.0))
        # Half a card and a little more around the slots: a card slid under a seat's work pile
        # sticks out toward the centre, and must still count as that seat's.
        half_w = (cols - 1) / 2 * FOUNDATION_PITCH[0] + CARD_H_MM / 2 + 15.0
        half_h = (rows - 1) / 2 * FOUNDATION_PITCH[1] + CARD_H_MM / 2 + 15.0
        self.centre_box = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)

    def foundation_slots(self) -> list[Slot]:
        return [s for k, s in self.slots.items() if k[1] == "foundation"]


class TrickLayout(TableLayout):
    """A trick-taking or rummy table: each seat's won-tricks (or meld) area in front of it, a
    trick area in the middle with one card spot per seat, and a stock and discard pile."""

    def __init__(self, seats: Sequence[str]) -> None:
        places = place_seats(seats, inset_mm=170.0)
        super().__init__(tuple(seats), places)
        cx, cy = self.width_mm / 2, self.height_mm / 2
        for seat, place in places.items():
            # The card a seat plays lies between the centre and the seat, upright for its player.
            ex, ey = place.edge
            vx, vy = ex - cx, ey - cy
            n = math.hypot(vx, vy)
            tx, ty = cx + vx / n * 95.0, cy + vy / n * 95.0
            self.slots[(seat, "trick", 0)] = Slot(seat, "trick", 0, Pose(tx, ty, place.angle))
            self.slots[(seat, "won", 0)] = Slot(
                seat,
                "won",
                0,
                place.pose(260.0, 0.0, 90.0),
            )
            self.slots[(seat, "table", 0)] = Slot(
                seat,
                "table",
                0,
                place.pose(-120.0, 0.0),
                (
                    place.to_table(28.0, 0.0)[0] - place.origin[0],
                    place.to_table(28.0, 0.0)[1] - place.origin[1],
                ),
            )
        self.slots[(None, "stock", 0)] = Slot(None, "stock", 0, Pose(cx - 200.0, cy, 0.0))
        self.slots[(None, "discard", 0)] = Slot(None, "discard", 0, Pose(cx + 200.0, cy, 0.0))
        self.centre_box = (cx - 300.0, cy - 180.0, cx + 300.0, cy + 180.0)
        # Kierki's Fan Tan (rules/kierki.md §8): one row per suit, each built out from its 7, every
        # card a step to the side of the one it continues so both indices show.
        for r in range(len(FAN_TAN_SUITS)):
            y = cy + (r - (len(FAN_TAN_SUITS) - 1) / 2) * FAN_TAN_ROW_MM
            for k in range(len(FAN_TAN_RANKS)):
                x = cx + (k - FAN_TAN_RANKS.index("7")) * FAN_TAN_STEP_MM
                index = r * len(FAN_TAN_RANKS) + k
                self.slots[(None, "fantan", index)] = Slot(None, "fantan", index, Pose(x, y, 0.0))

    def fan_tan_slot(self, card: str) -> Slot:
        """The Fan Tan place of a card such as ``"10H"`` (suit row, rank column; aces high).

        >>> lay = TrickLayout(["N", "E", "S", "W"])
        >>> lay.fan_tan_slot("8S").pose.x - lay.fan_tan_slot("7S").pose.x == FAN_TAN_STEP_MM
        True
        """
        rank, suit = card[:-1].upper().replace("T", "10"), card[-1].upper()
        index = FAN_TAN_SUITS.index(suit) * len(FAN_TAN_RANKS) + FAN_TAN_RANKS.index(rank)
        return self.slots[(None, "fantan", index)]

    def fan_tan_box(self) -> tuple[float, float, float, float]:
        """The part of the mat the Fan Tan rows cover, with half a card around them (x0, y0, x1, y1)."""
        xs = [s.pose.x for k, s in self.slots.items() if k[1] == "fantan"]
        ys = [s.pose.y for k, s in self.slots.items() if k[1] == "fantan"]
        margin = CARD_H_MM / 2 + 10
        return (min(xs) - CARD_W_MM, min(ys) - margin, max(xs) + CARD_W_MM, max(ys) + margin)


FAN_TAN_SUITS = ("S", "H", "D", "C")
FAN_TAN_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""The columns of a Fan Tan row, low to high (aces high, the spec's default)."""
FAN_TAN_STEP_MM = 26.0
FAN_TAN_ROW_MM = 92.0


def _offset(place: SeatPlace, lx: float, ly: float) -> tuple[float, float]:
    """A seat-local offset as a table-millimetre vector (for a slot's fan)."""
    x, y = place.to_table(lx, ly)
    return (x - place.origin[0], y - place.origin[1])


HAND_MM = 380.0
"""How far beyond the mat's edge a player holds cards (out of the camera's view)."""


def hand_pose(layout: TableLayout, seat: str, lx: float = 0.0) -> Pose:
    """Where a seat's hand holds a card: off the mat behind its edge, upright for the player."""
    place = layout.place_of(seat)
    _, ly = place.to_local(*place.edge)
    return place.pose(lx, ly + HAND_MM)


class RummyLayout(TableLayout):
    """The 3-13 Speed Rummy table (``rules/rummy_3_13.md`` §2, §4): each seat's face-up discard
    pile on its left (so its left neighbour draws from the pile on that neighbour's right), a
    place in front of each seat where a hand is laid out face up (a "match" or the final show),
    and the face-down pool spread in the middle.

    >>> lay = RummyLayout(["Ana", "Ben", "Cal", "Dee"])
    >>> lay.place_of("Ana").to_local(lay.slot("Ana", "pile").pose.x, 0)[0] < 0
    True
    >>> lay.seat_of_point(lay.slot("Ben", "pile").pose.x, lay.slot("Ben", "pile").pose.y)
    'Ben'
    """

    SHOW_STEP_MM = 24.0

    def __init__(self, seats: Sequence[str]) -> None:
        places = place_seats(seats, inset_mm=170.0)
        super().__init__(tuple(seats), places)
        cx, cy = self.width_mm / 2, self.height_mm / 2
        for seat, place in places.items():
            self.slots[(seat, "pile", 0)] = Slot(seat, "pile", 0, place.pose(-290.0, -10.0))
            self.slots[(seat, "show", 0)] = Slot(
                seat, "show", 0, place.pose(-170.0, 0.0), _offset(place, self.SHOW_STEP_MM, 0.0)
            )
        self.slots[(None, "pool", 0)] = Slot(None, "pool", 0, Pose(cx, cy, 0.0))
        self.centre_box = (cx - 200.0, cy - 120.0, cx + 200.0, cy + 120.0)


GRID_PITCH_MM = (72.0, 96.0)
"""Column and row pitch of a Gnoming grid."""


class GnomingLayout(TableLayout):
    """The Gnoming A Round table (``rules/gnoming.md`` §3, §4): each seat's 3×3 grid in front of
    it (row 1 farthest from the owner, column 1 on the owner's left), and in the middle the
    face-down draw pile, discard piles A and B side by side, and a place for Hazards that left
    the game.

    >>> lay = GnomingLayout(["Ana", "Ben", "Cal"])
    >>> far, near = lay.slot("Ana", "grid", 0).pose.y, lay.slot("Ana", "grid", 6).pose.y
    >>> far < near  # Ana sits at the bottom edge: row 1 lies farther from her
    True
    >>> lay.grid_position(lay.slot("Cal", "grid", 5).pose.x, lay.slot("Cal", "grid", 5).pose.y)
    ('Cal', 5)
    """

    def __init__(self, seats: Sequence[str]) -> None:
        places = place_seats(seats, inset_mm=205.0)
        super().__init__(tuple(seats), places)
        cx, cy = self.width_mm / 2, self.height_mm / 2
        px, py = GRID_PITCH_MM
        for seat, place in places.items():
            for i in range(9):
                r, c = divmod(i, 3)
                self.slots[(seat, "grid", i)] = Slot(seat, "grid", i, place.pose((c - 1) * px, (r - 1) * py))
        self.slots[(None, "deck", 0)] = Slot(None, "deck", 0, Pose(cx - 105.0, cy, 0.0))
        self.slots[(None, "A", 0)] = Slot(None, "A", 0, Pose(cx, cy, 0.0))
        self.slots[(None, "B", 0)] = Slot(None, "B", 0, Pose(cx + 105.0, cy, 0.0))
        self.slots[(None, "removed", 0)] = Slot(None, "removed", 0, Pose(cx + 230.0, cy, 90.0))
        self.centre_box = (cx - 290.0, cy - 95.0, cx + 290.0, cy + 95.0)

    def grid_position(self, x: float, y: float, *, within_mm: float = 36.0) -> tuple[str, int] | None:
        """The seat and grid index (0..8, row by row) of the grid place nearest a table point, or
        None when no place lies within ``within_mm``."""
        best: tuple[str, int] | None = None
        best_d = within_mm
        for key, slot in self.slots.items():
            if key[1] != "grid" or key[0] is None:
                continue
            d = math.hypot(slot.pose.x - x, slot.pose.y - y)
            if d < best_d:
                best, best_d = (key[0], key[2]), d
        return best


def layout_for(game: str, seats: Sequence[str]) -> TableLayout:
    """The table layout of a game by its registry name.

    Raises ValueError for an unknown game.
    """
    if game == "nerts":
        return NertsLayout(seats)
    if game in ("kierki", "smear"):
        return TrickLayout(seats)
    if game == "rummy_3_13":
        return RummyLayout(seats)
    if game == "gnoming":
        return GnomingLayout(seats)
    raise ValueError(f"no table layout for game {game!r}")
