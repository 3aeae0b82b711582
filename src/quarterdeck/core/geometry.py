"""Board geometry shared by the games.

Squares are `(x, y)` tuples with (0, 0) at the bottom-left ("a1"), x to the east, y to the north.
`SquareGrid` is a bounded rectangle; `TorusGrid` wraps at every edge. Both answer the same
questions (contains, step, ray, neighbours, names), so rules written against `Grid` work on either.
Hex boards and the continuous table are other `Grid`-like classes beside these when a game needs one.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from enum import IntEnum

from .errors import NotationError

Square = tuple[int, int]


class Compass(IntEnum):
    """The eight compass points, clockwise from north; arithmetic is modulo 8 (45 degrees a step)."""

    N = 0
    NE = 1
    E = 2
    SE = 3
    S = 4
    SW = 5
    W = 6
    NW = 7

    @property
    def delta(self) -> tuple[int, int]:
        return _DELTAS[self]

    @property
    def diagonal(self) -> bool:
        return self % 2 == 1

    def turned(self, steps: int) -> Compass:
        """Clockwise by `steps` eighths of a circle (negative: anticlockwise)."""
        return _POINTS[(self + steps) % 8]  # a tuple lookup: Compass(n) is slow in the searches' inner loops

    def opposite(self) -> Compass:
        return self.turned(4)

    @classmethod
    def parse(cls, text: str) -> Compass:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise NotationError("direction", "a direction is one of N NE E SE S SW W NW", text) from None


_POINTS = tuple(Compass)
_DELTAS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
ORTHOGONAL = (Compass.N, Compass.E, Compass.S, Compass.W)
DIAGONAL = (Compass.NE, Compass.SE, Compass.SW, Compass.NW)


class SquareGrid:
    """A bounded rectangle of squares with algebraic names (files a.., ranks 1..)."""

    wraps = False

    def __init__(self, width: int, height: int):
        if not (1 <= width <= 26 and height >= 1):
            raise ValueError("a board is 1 to 26 files wide and at least one rank high")
        self.width = width
        self.height = height

    def contains(self, square: Square) -> bool:
        x, y = square
        return 0 <= x < self.width and 0 <= y < self.height

    def normalise(self, square: Square) -> Square | None:
        """The square itself, wrapped where the board wraps; None when it is off the board."""
        return square if self.contains(square) else None

    def step(self, square: Square, direction: Compass, distance: int = 1) -> Square | None:
        dx, dy = _DELTAS[direction]
        return self.normalise((square[0] + dx * distance, square[1] + dy * distance))

    def offset(self, square: Square, dx: int, dy: int) -> Square | None:
        return self.normalise((square[0] + dx, square[1] + dy))

    def ray(self, square: Square, direction: Compass, limit: int | None = None) -> Iterator[Square]:
        """Squares along a line from `square` (not included), until the edge or `limit` squares.

        On a torus the ray stops before it would come back to its start.
        """
        count = 0
        current = square
        longest = limit if limit is not None else max(self.width, self.height)
        while count < longest:
            nxt = self.step(current, direction)
            if nxt is None or nxt == square:
                return
            yield nxt
            current = nxt
            count += 1

    def neighbours(self, square: Square) -> Iterator[Square]:
        """The up to eight touching squares (orthogonal and diagonal)."""
        seen = set()
        for direction in Compass:
            nxt = self.step(square, direction)
            if nxt is not None and nxt != square and nxt not in seen:
                seen.add(nxt)
                yield nxt

    def touching(self, a: Square, b: Square) -> bool:
        return a != b and b in set(self.neighbours(a))

    def squares(self) -> Iterator[Square]:
        for y in range(self.height):
            for x in range(self.width):
                yield (x, y)

    def name(self, square: Square) -> str:
        return f"{string.ascii_lowercase[square[0]]}{square[1] + 1}"

    def parse(self, text: str) -> Square:
        text = text.strip().lower()
        rank = text[1:]
        if len(text) < 2 or text[0] not in string.ascii_lowercase or not (rank.isascii() and rank.isdigit()):
            raise NotationError("square", "a square is a file letter and a rank number, like e4", text)
        square = (string.ascii_lowercase.index(text[0]), int(text[1:]) - 1)
        if not self.contains(square):
            raise NotationError("square", f"off the {self.width}x{self.height} board", text)
        return square


class TorusGrid(SquareGrid):
    """Every edge joins the opposite one: leaving the north enters from the south, and so on."""

    wraps = True

    def normalise(self, square: Square) -> Square | None:
        return (square[0] % self.width, square[1] % self.height)


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
