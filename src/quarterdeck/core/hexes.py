"""Flat-topped hex maps: axial coordinates, SPI hex names, distance, lines of fire, fields of fire.

Conventions (shared/design/rules-decisions.md, Frigate, "Map and geometry" and "More exact readings"):

* A hex is an axial pair ``(q, r)``; cube coordinates are ``(q, r, -q - r)``. Hexes are flat-topped,
  so the six neighbours lie N, NE, SE, S, SW, NW; `HexDir` numbers them 1-6 in that order ("1 being
  north, 2 northeast, etc.", seed 001, Wind).
* A map of C columns and R rows names its hexes SPI-style ``CCRR``: column 01..C west to east, row
  01..R north to south. Column 01's hexes sit half a hex higher than column 02's (odd 0-based
  columns are shifted down).
* Centres are measured in hex radii, x to the east and y to the SOUTH (screen coordinates), so a
  north-facing ship's bow vector is (0, -1) and its starboard side is to the east.
* Line of fire: the straight line between the two centres. It is blocked by a hex holding a ship
  whose interior it crosses. A line that runs along hexsides (or through a corner) is tested as a
  whole: nudged by +/- epsilon across itself, it is blocked only if BOTH nudged lines are.
* Fields of fire by bearing off the bow: port and starboard hold the hexes whose centres lie 30 to
  150 degrees off the bow on that side (boundaries included); the rest are the bow (under 30) and
  stern (over 150) chase fields.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from enum import IntEnum

from .errors import NotationError

Hex = tuple[int, int]
SQRT3 = math.sqrt(3.0)
_NUDGE = 1e-4  # how far a line of fire is moved across itself to test hexsides and corners
_STRICT = 1e-9  # an overlap thinner than this is a touch, not a crossing


class HexDir(IntEnum):
    """The six hexside directions of a flat-topped hex, clockwise from north; numbered 1-6 in play."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    @property
    def delta(self) -> Hex:
        return _DELTAS[self]

    @property
    def number(self) -> int:
        """1 (north) to 6 (north-west), as the wind die reads it."""
        return int(self) + 1

    def turned(self, steps: int) -> HexDir:
        """Clockwise (to starboard) by `steps` hexsides; negative steps turn anticlockwise."""
        return _DIRECTIONS[(self + steps) % 6]

    def opposite(self) -> HexDir:
        return self.turned(3)

    @classmethod
    def from_number(cls, number: int) -> HexDir:
        if not 1 <= number <= 6:
            raise ValueError("a hex direction is numbered 1 to 6")
        return cls(number - 1)

    @classmethod
    def parse(cls, text: str) -> HexDir:
        word = text.strip().upper()
        if word.isdigit() and 1 <= int(word) <= 6:
            return cls(int(word) - 1)
        try:
            return cls[word]
        except KeyError:
            raise NotationError("direction", "a hex direction is one of N NE SE S SW NW (or 1-6)", text) from None


_DIRECTIONS = tuple(HexDir)  # by number: quicker than HexDir(n), and turning is tested for every point
_DELTAS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

# Where the wind enters a ship's hex, relative to the ship: how many hexsides the wind's source
# lies off the bow (0 = dead ahead ... 3 = dead astern), folded to a side-independent name.
FRONT, SIDE_FRONT, SIDE_REAR, REAR = "front", "side-front", "side-rear", "rear"
RELATIVE = (FRONT, SIDE_FRONT, SIDE_REAR, REAR, SIDE_REAR, SIDE_FRONT)

PORT, STARBOARD, BOW, STERN = "port", "starboard", "bow", "stern"


def relative_wind(facing: HexDir, wind_from: HexDir) -> str:
    """Which of the ship's hexsides the wind enters: front, side-front, side-rear or rear."""
    return RELATIVE[(wind_from - facing) % 6]


def cube(h: Hex) -> tuple[int, int, int]:
    return (h[0], h[1], -h[0] - h[1])


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbour(h: Hex, direction: HexDir, steps: int = 1) -> Hex:
    dq, dr = _DELTAS[direction]
    return (h[0] + dq * steps, h[1] + dr * steps)


def centre(h: Hex) -> tuple[float, float]:
    """The hex centre in hex radii: x east, y south."""
    return (1.5 * h[0], SQRT3 * (h[1] + h[0] / 2.0))


def direction_between(a: Hex, b: Hex) -> HexDir | None:
    """The direction from `a` to its neighbour `b`; None when they are not neighbours."""
    delta = (b[0] - a[0], b[1] - a[1])
    return HexDir(_DELTAS.index(delta)) if delta in _DELTAS else None


def bearing(origin: Hex, facing: HexDir, target: Hex) -> float:
    """Degrees from the bow to the target's centre: 0 dead ahead, positive to starboard, -180..180."""
    ox, oy = centre(origin)
    tx, ty = centre(target)
    fx, fy = centre(neighbour((0, 0), facing))
    vx, vy = tx - ox, ty - oy
    # y points south, so a positive cross product means the target lies to starboard (clockwise).
    return math.degrees(math.atan2(fx * vy - fy * vx, fx * vx + fy * vy))


def field_of_fire(origin: Hex, facing: HexDir, target: Hex) -> str | None:
    """port / starboard (30 to 150 degrees off the bow, boundaries included), bow or stern; None for
    the ship's own hex."""
    if origin == target:
        return None
    # The field depends only on the offset and the facing: remembered, since fire is tested after
    # every movement point for every pair of ships.
    key = (target[0] - origin[0], target[1] - origin[1], facing)
    found = _FIELDS.get(key)
    if found is None:
        angle = bearing((0, 0), facing, key[:2])
        off = abs(angle)
        if off < 30.0 - 1e-7:
            found = BOW
        elif off > 150.0 + 1e-7:
            found = STERN
        else:
            found = STARBOARD if angle > 0 else PORT
        _FIELDS[key] = found
    return found


_FIELDS: dict[tuple[int, int, int], str] = {}


def range_and_field(origin: Hex, facing: HexDir, target: Hex) -> tuple[int, str | None]:
    """distance() and field_of_fire() together, remembered by offset and facing (both depend on
    nothing else): the fire tests ask for them for every pair of ships after every movement point."""
    key = (target[0] - origin[0], target[1] - origin[1], facing)
    found = _SIGHTINGS.get(key)
    if found is None:
        found = _SIGHTINGS[key] = (distance(origin, target), field_of_fire(origin, facing, target))
    return found


_SIGHTINGS: dict[tuple[int, int, int], tuple[int, str | None]] = {}


def side_of_keel(origin: Hex, facing: HexDir, point: Hex) -> str | None:
    """Which side of the ship's keel line (through its centre along its facing) `point`'s centre lies
    on: port, starboard, or None exactly on the line."""
    if point == origin:
        return None
    angle = bearing(origin, facing, point)
    if abs(angle) < 1e-7 or abs(abs(angle) - 180.0) < 1e-7:
        return None
    return STARBOARD if angle > 0 else PORT


def _round_hex(x: float, y: float) -> Hex:
    """The hex whose centre is nearest to the point (x, y)."""
    q = x / 1.5
    r = y / SQRT3 - q / 2.0
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


_AXES = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in (30.0, 90.0, 150.0))
_CORNERS = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(0, 360, 60))
_INRADIUS = SQRT3 / 2.0


def _crosses(h: Hex, p0: tuple[float, float], p1: tuple[float, float]) -> bool:
    """Whether the segment p0-p1 passes through the interior of hex `h` (separating axes)."""
    cx, cy = centre(h)
    for ax, ay in _AXES:
        c = cx * ax + cy * ay
        a, b = p0[0] * ax + p0[1] * ay, p1[0] * ax + p1[1] * ay
        if max(a, b) <= c - _INRADIUS + _STRICT or min(a, b) >= c + _INRADIUS - _STRICT:
            return False
    nx, ny = p0[1] - p1[1], p1[0] - p0[0]
    length = math.hypot(nx, ny)
    if length == 0.0:
        return False
    nx, ny = nx / length, ny / length
    offset = p0[0] * nx + p0[1] * ny - (cx * nx + cy * ny)
    reach = max(abs(kx * nx + ky * ny) for kx, ky in _CORNERS)
    return abs(offset) < reach - _STRICT


class HexGrid:
    """A rectangular map of `columns` x `rows` flat-topped hexes named CCRR."""

    def __init__(self, columns: int, rows: int):
        if not (1 <= columns <= 99 and 1 <= rows <= 99):
            raise ValueError("a hex map is 1 to 99 columns wide and 1 to 99 rows high")
        self.columns = columns
        self.rows = rows
        self._lines: dict[tuple[Hex, Hex], tuple[tuple[Hex, ...], tuple[Hex, ...]]] = {}

    # --- offset (column, row) and axial --------------------------------------------------------
    @staticmethod
    def from_offset(column: int, row: int) -> Hex:
        """Axial coordinates of the hex in 0-based `column` and `row`."""
        return (column, row - (column - (column & 1)) // 2)

    @staticmethod
    def to_offset(h: Hex) -> tuple[int, int]:
        q, r = h
        return (q, r + (q - (q & 1)) // 2)

    def contains(self, h: Hex) -> bool:
        column, row = self.to_offset(h)
        return 0 <= column < self.columns and 0 <= row < self.rows

    def hexes(self) -> Iterator[Hex]:
        for column in range(self.columns):
            for row in range(self.rows):
                yield self.from_offset(column, row)

    def neighbours(self, h: Hex) -> Iterator[Hex]:
        for direction in HexDir:
            nxt = neighbour(h, direction)
            if self.contains(nxt):
                yield nxt

    # --- names ---------------------------------------------------------------------------------
    def name(self, h: Hex) -> str:
        column, row = self.to_offset(h)
        return f"{column + 1:02d}{row + 1:02d}"

    def parse(self, text: str) -> Hex:
        word = text.strip()
        if len(word) != 4 or not (word.isascii() and word.isdigit()):
            raise NotationError("hex", "a hex is named by four digits, column then row, like 0712", text)
        column, row = int(word[:2]) - 1, int(word[2:]) - 1
        h = self.from_offset(column, row)
        if not self.contains(h):
            raise NotationError("hex", f"off the {self.columns} x {self.rows} map", text)
        return h

    # --- lines of fire -------------------------------------------------------------------------
    def lines_between(self, a: Hex, b: Hex) -> tuple[tuple[Hex, ...], tuple[Hex, ...]]:
        """The hexes (endpoints excluded) crossed by the line of fire nudged to either side."""
        key = (a, b)
        found = self._lines.get(key)
        if found is None:
            found = _nudged_lines(a, b)
            if len(self._lines) > 400_000:
                self._lines.clear()
            self._lines[key] = found
            self._lines[(b, a)] = found
        return found

    def line_clear(self, a: Hex, b: Hex, occupied: AbstractSet[Hex]) -> bool:
        """Whether the line of fire from `a` to `b` is open: not both nudged lines pass a held hex
        (`occupied`: a set, or a dictionary's keys)."""
        one, other = self.lines_between(a, b)
        return occupied.isdisjoint(one) or occupied.isdisjoint(other)


def _nudged_lines(a: Hex, b: Hex) -> tuple[tuple[Hex, ...], tuple[Hex, ...]]:
    if a == b:
        return ((), ())
    (ax, ay), (bx, by) = centre(a), centre(b)
    length = math.hypot(bx - ax, by - ay)
    nx, ny = (ay - by) / length * _NUDGE, (bx - ax) / length * _NUDGE
    steps = distance(a, b)
    candidates: set[Hex] = set()
    for i in range(steps * 2 + 1):
        t = i / (steps * 2)
        on = _round_hex(ax + (bx - ax) * t, ay + (by - ay) * t)
        candidates.add(on)
        candidates.update(neighbour(on, d) for d in HexDir)
    candidates -= {a, b}
    lines = []
    for sign in (1.0, -1.0):
        p0 = (ax + sign * nx, ay + sign * ny)
        p1 = (bx + sign * nx, by + sign * ny)
        crossed = [h for h in candidates if _crosses(h, p0, p1)]
        crossed.sort(key=lambda h: distance(a, h))
        lines.append(tuple(crossed))
    return lines[0], lines[1]
