"""Persistence of games: setup, seats with hashed tokens, and the moves in notation.

A game is stored as exactly what a record holds (game, scenario, options, seed, the list of
(seat, action notation)) plus a version, which is the number of stored moves. Writers append
with a compare-and-swap on that version, so two server processes can never both apply a move.
"""

from .repository import GameRow, GameStore, NotFound, SeatGrant, VersionConflict, default_database_url

__all__ = ["GameRow", "GameStore", "NotFound", "SeatGrant", "VersionConflict", "default_database_url"]
