"""Whole turns and perft: counting the turns the engine allows, a check on move generation.

Kept as its own module, as no role of the package layout fits it: it is the move-path counter of
tests/pirate_chess/test_perft.py (against an independent brute force written from the rule book,
the table of docs/rules/pirate-chess.md, "Perft") and of benchmarks/bench_pirate_chess.py (whole
turns per second). It uses only the game protocol.

A turn is the sequence of actions one player takes until the other is to act (or the game ends).
Two different sequences count as two turns even when they reach the same position (anchor then
move, or move then anchor).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...core.protocol import Action, State


def turns(state: State) -> Iterator[tuple[tuple[Action, ...], State]]:
    """Every complete turn of the player to move, as (actions, state after the turn)."""
    player = state.current_player()
    pending: list[tuple[tuple[Action, ...], State]] = [((), state)]
    while pending:
        actions, current = pending.pop()
        for action in current.legal_actions():
            after = current.clone()
            after.apply(action, validate=False)
            sequence = (*actions, action)
            if after.current_player() != player:
                yield sequence, after
            else:
                pending.append((sequence, after))


def perft(state: State, depth: int) -> int:
    """The number of turn sequences `depth` turns deep; a finished game has no further turns."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if depth == 1:
        return sum(1 for _ in turns(state))
    return sum(perft(after, depth - 1) for _, after in turns(state))
