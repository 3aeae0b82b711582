"""The game-agnostic engine: protocol, errors, dice, events, records, geometry, registry.

Nothing here knows any particular rule book.
"""
