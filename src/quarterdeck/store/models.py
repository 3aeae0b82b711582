"""The three tables: games, their moves, and the hashed tokens that may act for their seats."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

games = Table(
    "qd_games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("scenario", String(128)),
    Column("options", Text, nullable=False),  # JSON object
    Column("seed", BigInteger, nullable=False),
    Column("players", Text, nullable=False),  # JSON object: seat -> "human", "computer:greedy", ...
    Column("version", Integer, nullable=False),  # the number of stored moves
    Column("status", String(16), nullable=False),  # "ongoing" or "finished"
    Column("result", String(64), nullable=False),
    Column("termination", Text, nullable=False),
    Column("agreed", String(16)),  # "draw" when the game ended by agreement rather than by the rules
    Column("draw_offer", String(64)),  # the seat whose draw offer stands, if any
    # Listed for anyone to watch; any other game is known only to those given its id.
    Column("public", Boolean, nullable=False, server_default=false()),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
Index("qd_games_status_updated", games.c.status, games.c.updated_at)

moves = Table(
    "qd_moves",
    metadata,
    Column("game_id", String(32), ForeignKey("qd_games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),  # 1-based; the primary key forbids a second move N
    Column("seat", String(64), nullable=False),
    Column("text", Text, nullable=False),
)

tokens = Table(
    "qd_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 hex of the secret; never the secret
    Column("game_id", String(32), ForeignKey("qd_games.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(16), nullable=False),  # "seat" (acts) or "invitation" (exchanged once for a seat)
    Column("seats", Text, nullable=False),  # space-separated seat names
)
Index("qd_tokens_game", tokens.c.game_id)
