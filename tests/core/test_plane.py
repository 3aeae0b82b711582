"""The continuous table of Naval Warfare (seed 003): positions in 1/100 inch, whole-degree headings,
hull rectangles, broadside fans, keel lines, contact and land."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quarterdeck.core import plane


def test_headings_are_compass_degrees_clockwise_from_north():
    assert plane.heading_vector(0) == pytest.approx((0.0, 1.0))
    assert plane.heading_vector(90) == pytest.approx((1.0, 0.0))
    assert plane.bearing((0, 0), (0, -100)) == pytest.approx(180)
    assert plane.bearing((0, 0), (-100, 0)) == pytest.approx(270)
    assert plane.angle_off(350, 10) == 20 and plane.angle_off(0, 180) == 180
    assert plane.signed_turn(350, 10) == 20 and plane.signed_turn(10, 350) == -20


def test_a_run_is_rounded_to_the_nearest_hundredth_half_to_even():
    # 5 inches on 30 degrees: (250, 433.01...) -> (250, 433)
    assert plane.advance((1000, 1000), 30, 500) == (1250, 1433)
    assert plane.advance((0, 0), 90, 150) == (150, 0)


def test_hull_is_a_rectangle_centred_on_the_mainmast():
    corners = plane.hull((0, 0), 90, 100, 25)  # pointing east
    assert corners[0] == pytest.approx((50, -12.5))  # bow, starboard side (south)
    assert corners[1] == pytest.approx((50, 12.5))
    assert corners[2] == pytest.approx((-50, 12.5))


def test_hulls_that_touch_do_not_overlap_but_count_as_contact():
    a = plane.hull((0, 0), 0, 100, 25)
    side_by_side = plane.hull((25, 0), 0, 100, 25)  # starboard side against port side
    assert not plane.convex_overlap(a, side_by_side)
    assert plane.polygon_gap(a, side_by_side) == 0
    assert plane.convex_overlap(a, plane.hull((24, 0), 0, 100, 25))
    apart = plane.hull((35, 0), 0, 100, 25)
    assert plane.polygon_gap(a, apart) == pytest.approx(10)


def test_broadside_fan_covers_the_beam_plus_or_minus_15_degrees_from_any_point_of_the_side():
    centre, heading, length, beam = (0, 0), 0, 200, 50  # pointing north, starboard is east
    assert plane.broadside_bears(centre, heading, length, beam, +1, (800, 0))
    assert not plane.broadside_bears(centre, heading, length, beam, -1, (800, 0))  # port looks west
    # from the bow end of the side (x=25, y=100) the fan edge rises by tan 15 per inch outward
    outward = 775
    edge = 100 + outward * math.tan(math.radians(15))
    assert plane.broadside_bears(centre, heading, length, beam, +1, (800, edge - 0.01))
    assert not plane.broadside_bears(centre, heading, length, beam, +1, (800, edge + 1))
    assert plane.broadside_bears(centre, heading, length, beam, +1, (800, -edge + 0.01))  # aft end too


def test_keel_line_passes_through_the_target_hull_ahead_or_astern():
    target = plane.hull((0, 1000), 90, 100, 25)
    assert plane.keel_line_hits((0, 0), 0, +1, target, 1600)
    assert not plane.keel_line_hits((0, 0), 0, -1, target, 1600)
    assert plane.keel_line_hits((0, 2000), 0, -1, target, 1600)
    assert not plane.keel_line_hits((0, 0), 0, +1, target, 900)  # out of reach
    grazing = plane.hull((50 + 12.5, 1000), 0, 100, 25)  # its port side lies on x = 50
    assert plane.keel_line_hits((50, 0), 0, +1, grazing, 1600)


def test_segments_and_land():
    island = ((0, 0), (400, 0), (400, 400), (200, 200), (0, 400))  # concave
    assert plane.point_in_polygon((100, 100), island)
    assert not plane.point_in_polygon((200, 300), island)  # in the notch
    assert plane.point_in_polygon((400, 200), island)  # on the edge counts
    assert plane.segment_hits_polygon((-100, 100), (-1, 100), island) is False
    assert plane.segment_hits_polygon((-100, 0), (500, 0), island)  # grazing along the edge
    ship = plane.hull((200, 500), 0, 100, 25)
    assert not plane.polygons_overlap(ship, island)
    assert plane.polygons_overlap(plane.hull((100, 280), 0, 100, 25), island)
    touching = plane.hull((-12.5, 200), 0, 100, 25)
    assert plane.polygons_touch(touching, island) and not plane.polygons_overlap(touching, island)


def test_nearest_point_of_a_coast_is_on_its_edge_or_a_corner():
    island = ((0, 0), (400, 0), (400, 400), (200, 200), (0, 400))
    assert plane.nearest_point((600, 100), island) == (400, 100)  # square onto an edge
    assert plane.nearest_point((-300, -400), island) == (0, 0)  # off a corner
    assert plane.nearest_point((200, 300), island) == pytest.approx((250, 250))  # out of the notch


def test_swept_area_of_a_sideways_drift_covers_both_ends():
    area = plane.swept((0, 0), 0, 100, 25, (100, 0))
    assert plane.point_in_polygon((50, 0), area)
    assert plane.point_in_polygon((112.5, 50), area)
    assert not plane.point_in_polygon((120, 0), area)


@given(
    st.integers(-2000, 2000), st.integers(-2000, 2000), st.integers(0, 359),
    st.integers(-2000, 2000), st.integers(-2000, 2000), st.integers(0, 359),
)
def test_overlap_is_symmetric_and_implies_contact(x1, y1, h1, x2, y2, h2):
    a = plane.hull((x1, y1), h1, 200, 50)
    b = plane.hull((x2, y2), h2, 200, 50)
    assert plane.convex_overlap(a, b) == plane.convex_overlap(b, a)
    if plane.convex_overlap(a, b):
        assert plane.polygon_gap(a, b) == 0
    if plane.distance((x1, y1), (x2, y2)) > 2 * math.hypot(100, 25):
        assert not plane.convex_overlap(a, b)


@given(st.integers(0, 359), st.integers(0, 359))
def test_a_target_dead_abeam_is_under_exactly_one_broadside(heading, offset):
    target = plane.advance((0, 0), (heading + 90) % 360, 800)
    assert plane.broadside_bears((0, 0), heading, 200, 50, +1, target)
    assert not plane.broadside_bears((0, 0), heading, 200, 50, -1, target)
