"""Random legal play of every scenario of every game (protocol.py), and what follows from one game:
its end, its offered actions, its notation, its clones and saved states, its record, its secrets.
The checks are in checks.py; the playout and what it checks move by move in playout.py."""

from __future__ import annotations

from . import checks


def test_random_play_reaches_the_end_or_the_cap(playout):
    """(A game stopped at the cap is ended by a resignation and must be just as consistent.)"""
    checks.check_play_and_end(playout)


def test_every_offered_action_is_accepted(playout):
    checks.check_offered_actions_are_accepted(playout)


def test_actions_by_piece_are_the_pieces_share_of_the_offered_actions(playout):
    checks.check_actions_by_piece(playout)


def test_notation_of_every_offered_action_reads_back(playout):
    checks.check_notation_round_trips(playout)


def test_clones_and_saved_states_are_independent_and_exact(playout):
    checks.check_saved_states_round_trip(playout)


def test_the_record_replays_to_the_same_positions(playout):
    checks.check_record_replays(playout)


def test_events_are_typed_and_go_through_json(playout):
    checks.check_events(playout)


def test_secret_decisions_stay_secret_until_the_reveal(playout):
    checks.check_secrets(playout)


def test_no_view_shows_the_dice_to_come(playout):
    checks.check_views_hide_the_dice(playout)
