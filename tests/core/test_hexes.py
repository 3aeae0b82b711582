"""Flat-topped hex geometry (core/hexes.py), as rules-decisions.md's Frigate section lays it out:
SPI hex names, the six directions, distance, lines of fire with the hexside rule, fields of fire."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quarterdeck.core.errors import NotationError
from quarterdeck.core.hexes import (
    BOW,
    FRONT,
    PORT,
    REAR,
    SIDE_FRONT,
    SIDE_REAR,
    STARBOARD,
    STERN,
    HexDir,
    HexGrid,
    direction_between,
    distance,
    field_of_fire,
    neighbour,
    relative_wind,
    side_of_keel,
)

GRID = HexGrid(34, 22)


def h(name: str):
    return GRID.parse(name)


def test_hexes_are_named_column_then_row_from_the_north_west():
    assert GRID.name(GRID.from_offset(0, 0)) == "0101"
    assert GRID.name(GRID.from_offset(33, 21)) == "3422"
    assert GRID.parse("0712") == GRID.from_offset(6, 11)
    assert len(list(GRID.hexes())) == 34 * 22
    for bad in ("712", "3523", "0100", "ab12", ""):
        with pytest.raises(NotationError) as error:
            GRID.parse(bad)
        assert error.value.field == "hex"


def test_column_01_sits_half_a_hex_higher_than_column_02():
    # 0101's south-east neighbour is 0201 (same row, lower column); its north-east one is off the map.
    assert GRID.name(neighbour(h("0101"), HexDir.SE)) == "0201"
    assert not GRID.contains(neighbour(h("0101"), HexDir.NE))
    # From 0201 (a lower column) the north-east neighbour is 0301, in the same row.
    assert GRID.name(neighbour(h("0201"), HexDir.NE)) == "0301"
    assert GRID.name(neighbour(h("0505"), HexDir.N)) == "0504"
    assert GRID.name(neighbour(h("0505"), HexDir.S)) == "0506"


def test_six_directions_numbered_one_to_six_from_north():
    assert [d.number for d in HexDir] == [1, 2, 3, 4, 5, 6]
    assert HexDir.from_number(1) is HexDir.N and HexDir.from_number(6) is HexDir.NW
    assert HexDir.N.turned(1) is HexDir.NE and HexDir.N.turned(-1) is HexDir.NW
    assert HexDir.SE.opposite() is HexDir.NW
    assert HexDir.parse("sw") is HexDir.SW and HexDir.parse("4") is HexDir.S
    with pytest.raises(NotationError):
        HexDir.parse("E")  # flat-topped hexes have no east hexside


def test_neighbours_and_distance():
    centre = h("1010")
    assert len(list(GRID.neighbours(centre))) == 6
    assert all(distance(centre, n) == 1 for n in GRID.neighbours(centre))
    assert len(list(GRID.neighbours(h("0101")))) == 2
    assert distance(h("0101"), h("0105")) == 4
    assert distance(h("0505"), h("0905")) == 4
    assert direction_between(h("0505"), h("0604")) is HexDir.NE
    assert direction_between(h("0505"), h("0705")) is None


def test_relative_wind_names_the_hexside_it_enters():
    # A ship facing north: wind from the north enters its front hexside, from the south its rear.
    assert relative_wind(HexDir.N, HexDir.N) == FRONT
    assert relative_wind(HexDir.N, HexDir.NE) == SIDE_FRONT
    assert relative_wind(HexDir.N, HexDir.NW) == SIDE_FRONT
    assert relative_wind(HexDir.N, HexDir.SE) == SIDE_REAR
    assert relative_wind(HexDir.N, HexDir.S) == REAR
    assert relative_wind(HexDir.SW, HexDir.NE) == REAR


def test_fields_of_fire_by_bearing_with_the_boundaries_in_the_broadside():
    ship = h("1010")
    assert field_of_fire(ship, HexDir.N, neighbour(ship, HexDir.N)) == BOW
    assert field_of_fire(ship, HexDir.N, neighbour(ship, HexDir.N, 5)) == BOW
    assert field_of_fire(ship, HexDir.N, neighbour(ship, HexDir.NE)) == STARBOARD
    assert field_of_fire(ship, HexDir.N, neighbour(ship, HexDir.SE)) == STARBOARD
    assert field_of_fire(ship, HexDir.N, neighbour(ship, HexDir.NW)) == PORT
    assert field_of_fire(ship, HexDir.N, neighbour(ship, HexDir.S)) == STERN
    # The hex two north and one north-east lies exactly 30 degrees off the bow: broadside, not chase.
    thirty = neighbour(neighbour(ship, HexDir.N), HexDir.NE)
    assert field_of_fire(ship, HexDir.N, thirty) == STARBOARD
    # Three north and one north-east is under 30 degrees: the bow chase field.
    assert field_of_fire(ship, HexDir.N, neighbour(neighbour(ship, HexDir.N, 2), HexDir.NE)) == BOW
    assert field_of_fire(ship, HexDir.N, ship) is None
    # The same geometry turned: facing south-east, the hex to the north-east is to port.
    assert field_of_fire(ship, HexDir.SE, neighbour(ship, HexDir.NE)) == PORT


def test_keel_line_sides():
    ship = h("1010")
    assert side_of_keel(ship, HexDir.N, neighbour(ship, HexDir.NE)) == STARBOARD
    assert side_of_keel(ship, HexDir.N, neighbour(ship, HexDir.SW)) == PORT
    assert side_of_keel(ship, HexDir.N, neighbour(ship, HexDir.N, 3)) is None
    assert side_of_keel(ship, HexDir.N, neighbour(ship, HexDir.S, 2)) is None


def test_a_ship_in_a_hex_the_line_crosses_blocks_it():
    firer, target = h("0505"), h("0501")
    assert GRID.line_clear(firer, target, set())
    assert not GRID.line_clear(firer, target, {h("0503")})
    assert GRID.line_clear(firer, target, {h("0603")})  # beside the line, not on it
    assert GRID.line_clear(firer, target, {firer, target})  # the two ships themselves never block


def test_a_line_along_a_hexside_is_blocked_only_if_both_sides_hold_ships():
    # 0505 to 0705 runs due east along the hexside between 0604 and 0605.
    firer, target = h("0505"), h("0705")
    assert GRID.lines_between(firer, target) in (((h("0605"),), (h("0604"),)), ((h("0604"),), (h("0605"),)))
    assert GRID.line_clear(firer, target, {h("0604")})
    assert GRID.line_clear(firer, target, {h("0605")})
    assert not GRID.line_clear(firer, target, {h("0604"), h("0605")})


def test_a_long_hexside_line_is_tested_as_a_whole():
    # 0505 to 0905: along hexsides, through 0705's centre, along hexsides again.
    firer, target = h("0505"), h("0905")
    one, other = GRID.lines_between(firer, target)
    assert h("0705") in one and h("0705") in other
    assert not GRID.line_clear(firer, target, {h("0705")})
    # Two ships on the same side of the line block only one nudged line: the line is open.
    assert GRID.line_clear(firer, target, {h("0604"), h("0804")})
    # One on each side, even on different stretches of the line: both nudged lines meet a ship.
    assert not GRID.line_clear(firer, target, {h("0604"), h("0805")})


hexes = st.builds(GRID.from_offset, st.integers(0, 33), st.integers(0, 21))


@given(hexes, hexes)
def test_distance_is_a_metric_and_names_round_trip(a, b):
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert GRID.parse(GRID.name(a)) == a


@given(hexes, hexes, hexes)
def test_triangle_inequality(a, b, c):
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, hexes)
def test_lines_of_fire_run_between_the_ends_and_are_symmetric(a, b):
    one, other = GRID.lines_between(a, b)
    for line in (one, other):
        assert a not in line and b not in line
        for x in line:
            assert distance(a, x) + distance(x, b) <= distance(a, b) + 1
        # A line between centres crosses at least one hex per step between them.
        assert len(line) >= max(0, distance(a, b) - 1)
    back = GRID.lines_between(b, a)
    assert {frozenset(one), frozenset(other)} == {frozenset(back[0]), frozenset(back[1])}


@given(hexes, st.sampled_from(list(HexDir)), hexes)
def test_every_other_hex_is_in_exactly_one_field(origin, facing, target):
    fields = field_of_fire(origin, facing, target)
    if origin == target:
        assert fields is None
    else:
        assert fields in (PORT, STARBOARD, BOW, STERN)
        # Turning the ship right round swaps the fields: bow with stern, port with starboard.
        swap = {PORT: STARBOARD, STARBOARD: PORT, BOW: STERN, STERN: BOW}
        assert field_of_fire(origin, facing.opposite(), target) == swap[fields]
