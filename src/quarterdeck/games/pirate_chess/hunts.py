"""Which hunts can be won: can a Pirate and a few more ships force the capture of a fleet's last
ship when she lies at anchor (only a Pirate may strike her there)?

Worked out exhaustively, backwards from the strike, for one hunted ship and the hunters' ships on
the torus, in a game relaxed in the hunters' favour, so that a hunt found unwinnable here is a draw
in the game itself however the hunters play: the hunted ship never strikes (her lines stop short of
any ship), the hunters' other ships need neither weigh nor anchor, the hunters may pass a turn, and
no quiet-turn rule ends the hunt. The hunted ship keeps every choice the book leaves her otherwise
(docs/rules/pirate-chess.md, sections 4 and 6): at anchor she stays, or weighs and sails and then
lies unanchored; unanchored she must sail, and may anchor after. A Pirate strikes her wherever she
is; any hunter strikes her unanchored. The torus looks the same from every square, so a position
is seen from the hunted ship (moved to square 0): the hunters' squares and whether she is at anchor.
Joining two hunters in the harbour (an upgrade) is left out: it leaves them a ship fewer, and a
Pirate with any one ship more nets nothing but a Dhow.

What it finds is in docs/ai.md, "Which hunts can be won"; `python -m
quarterdeck.games.pirate_chess.hunts Barque Frigate,Frigate` works out one hunt and prints it as JSON.
"""

from __future__ import annotations

import itertools
import json
import sys
from array import array
from dataclasses import asdict, dataclass

from ...core.geometry import TorusGrid
from .movement import geometry
from .scenario import SHIP_TYPES

PIRATE = "Pirate"


@dataclass(frozen=True)
class Hunt:
    hunted: str  # the lone ship's type
    helpers: tuple[str, ...]  # the hunters' ships besides their Pirate
    positions: int  # positions with the hunted ship at anchor and the hunters to move
    struck: int  # of those, a Pirate lies a leap away and strikes at once
    won: int  # of those, the hunters force the capture, however she sails
    rounds: int  # the longest forced hunt, in turns of each side

    @property
    def winnable(self) -> bool:
        """Whether the hunters can ever net her, rather than only strike where she already lies a leap
        away. From a position outside `won` she holds out for ever, so a hunt won from only some
        positions is won only if she is caught in one of them; `won == positions` wins from anywhere."""
        return self.won > self.struck


class Sea:
    """The torus seen from the hunted ship: her turns and the hunters' turns, position by position.
    A position is the hunters' squares, their Pirate's first, none of them square 0, where she lies."""

    def __init__(self, hunted: str, helpers: tuple[str, ...], size: int = 8):
        for kind in (hunted, *helpers):
            if kind not in SHIP_TYPES:
                raise ValueError(f"no ship type {kind!r}; the types are {', '.join(SHIP_TYPES)}")
        if not SHIP_TYPES[hunted].anchors:
            raise ValueError(f"a {hunted} never anchors: any ship may strike her")
        self.hunted = hunted
        self.kinds = (PIRATE, *helpers)
        self.lines = geometry(size).lines
        self.squares = size * size
        # seen_from[m][s]: square s once the board is moved so that square m becomes square 0
        torus = TorusGrid(size, size)

        def moved(s: int, m: int) -> int:
            x, y = torus.normalise((s % size - m % size, s // size - m // size))
            return y * size + x

        self.seen_from = [[moved(s, m) for s in range(self.squares)] for m in range(self.squares)]

    def positions(self) -> list[tuple[int, ...]]:
        return list(itertools.permutations(range(1, self.squares), len(self.kinds)))

    def sail(self, kind: str, start: int, ships: set[int]) -> tuple[list[int], bool]:
        """Empty squares `kind` may sail to from `start`, and whether one of her lines ends on square 0."""
        free, meets = [], False
        for line in self.lines[kind][start]:
            for square in line:
                if square in ships:
                    meets = meets or square == 0
                    break
                free.append(square)
        return free, meets

    def her_turns(self, position: tuple[int, ...], anchored: bool) -> list[tuple[tuple[int, ...], bool]]:
        """Where her turn can leave the hunters, seen from her again, and whether she then lies at
        anchor: at anchor she stays, or weighs and sails; unanchored she sails (she must, when she
        can) and may anchor after."""
        flights, _ = self.sail(self.hunted, 0, set(position))
        after = [tuple(self.seen_from[m][s] for s in position) for m in flights]
        if anchored:
            return [(position, True)] + [(moved, False) for moved in after]
        if after:
            return [(moved, anchor) for moved in after for anchor in (False, True)]
        return [(position, False), (position, True)]

    def hunters_turns(self, position: tuple[int, ...]) -> tuple[list[tuple[int, ...]], bool, bool]:
        """The positions the hunters' turn can leave (one ship sails, or none), and whether they
        strike her now if she is unanchored, and if she is at anchor (a Pirate's leap)."""
        ships = set(position)
        moves = [position]
        unanchored = anchored = False
        for slot, kind in enumerate(self.kinds):
            landing, meets = self.sail(kind, position[slot], (ships - {position[slot]}) | {0})
            if meets:
                unanchored = True
                anchored = anchored or kind == PIRATE
            moves.extend(position[:slot] + (square,) + position[slot + 1 :] for square in landing)
        return moves, unanchored, anchored


def solve(hunted: str, helpers: tuple[str, ...], size: int = 8) -> Hunt:
    """The hunt of a lone `hunted` ship by a Pirate and `helpers` on a `size` x `size` torus."""
    import numpy as np

    sea = Sea(hunted, helpers, size)
    positions = sea.positions()
    index = {position: i for i, position in enumerate(positions)}
    # a state is a position's index * 2, + 1 where she lies at anchor; each side's choices from
    # each state are kept as one flat array, with the offset where each state's choices begin
    hers, her_starts = array("q"), array("q")
    ours, our_starts = array("q"), array("q")
    strikes = np.zeros(2 * len(positions), dtype=bool)
    for i, position in enumerate(positions):
        for anchored in (False, True):
            her_starts.append(len(hers))
            hers.extend(2 * index[after] + anchor for after, anchor in sea.her_turns(position, anchored))
        moves, strikes[2 * i], strikes[2 * i + 1] = sea.hunters_turns(position)
        for anchored in (0, 1):
            our_starts.append(len(ours))
            ours.extend(2 * index[after] + anchored for after in moves)
    hers_array, ours_array = np.array(hers, dtype=np.int64), np.array(ours, dtype=np.int64)
    her_offsets, our_offsets = np.array(her_starts, dtype=np.int64), np.array(our_starts, dtype=np.int64)
    won = strikes.copy()
    rounds = 0
    while True:
        lost = np.logical_and.reduceat(won[hers_array], her_offsets)  # she to sail, and every choice loses
        grown = strikes | np.logical_or.reduceat(lost[ours_array], our_offsets)
        if (grown == won).all():
            break
        won = grown
        rounds += 1
    at_anchor = slice(1, None, 2)
    return Hunt(
        hunted=hunted,
        helpers=tuple(helpers),
        positions=len(positions),
        struck=int(strikes[at_anchor].sum()),
        won=int(won[at_anchor].sum()),
        rounds=rounds,
    )


USAGE = "usage: python -m quarterdeck.games.pirate_chess.hunts HUNTED [HELPER,HELPER...]  (e.g. Barque Frigate,Frigate)"


def main(arguments: list[str]) -> None:
    """Work out one hunt, a Pirate and the helpers against a lone HUNTED ship at anchor, and print it as JSON."""
    if not 1 <= len(arguments) <= 2:
        raise SystemExit(USAGE)
    helpers = tuple(arguments[1].split(",")) if len(arguments) > 1 and arguments[1] else ()
    try:
        hunt = solve(arguments[0], helpers)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    print(json.dumps({**asdict(hunt), "winnable": hunt.winnable}))


if __name__ == "__main__":
    main(sys.argv[1:])
