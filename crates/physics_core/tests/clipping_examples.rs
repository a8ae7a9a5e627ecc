//! The three worked clipping examples of Bittle, run through the full polygon manifold
//! (SAT picks the reference face, the clip produces the points). Manifold points sit midway
//! between the surfaces, so the post's points (on the incident shape) are recovered by moving
//! half the separation along the normal: B's surface point is `point + separation/2 * normal`,
//! A's is `point - separation/2 * normal`. The manifold lists its points in Box2D v3's order
//! (the point at the start vertex of A's edge first), so the checks find each of the post's points by
//! position. Where the post's final clip drops a point that lies outside the reference face,
//! the manifold keeps it as a speculative point (positive separation), as Box2D does.

use physics_core::collision::{CollideSettings, collide};
use physics_core::position::to_vec2;
use physics_core::prelude::*;

fn polygon(points: &[(f32, f32)]) -> Shape {
    let points: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
    Shape::Polygon(Polygon::from_points(&points, 0.0).unwrap())
}

/// The post's box B in all three examples.
fn box_b() -> Shape {
    polygon(&[(4.0, 2.0), (12.0, 2.0), (12.0, 5.0), (4.0, 5.0)])
}

fn manifold(a: &Shape) -> Manifold {
    collide(
        a,
        Transform::IDENTITY,
        &box_b(),
        Transform::IDENTITY,
        &CollideSettings::default(),
    )
}

fn surface_point(m: &Manifold, i: usize, on_b: bool) -> Vec2 {
    let p = &m.points[i];
    let half = 0.5 * p.separation * m.normal;
    let point = to_vec2(p.point);
    if on_b { point + half } else { point - half }
}

/// The index of the point whose surface point (on B or A) is nearest (x, y).
fn point_near(m: &Manifold, on_b: bool, x: f32, y: f32) -> usize {
    (0..m.point_count)
        .min_by(|&i, &j| {
            let d = |k| surface_point(m, k, on_b).distance(Vec2::new(x, y));
            d(i).total_cmp(&d(j))
        })
        .unwrap()
}

fn assert_near(actual: Vec2, x: f32, y: f32) {
    assert!(
        (actual.x - x).abs() <= 0.01 && (actual.y - y).abs() <= 0.01,
        "{actual:?} vs ({x}, {y})"
    );
}

#[test]
fn example_1_box_on_box() {
    let m = manifold(&polygon(&[
        (8.0, 4.0),
        (14.0, 4.0),
        (14.0, 9.0),
        (8.0, 9.0),
    ]));
    assert!(m.normal.distance(Vec2::new(0.0, -1.0)) < 1e-5);
    assert_eq!(m.point_count, 2);
    let (first, second) = (
        point_near(&m, true, 12.0, 5.0),
        point_near(&m, true, 8.0, 5.0),
    );
    assert_ne!(first, second);
    assert_near(surface_point(&m, first, true), 12.0, 5.0);
    assert_near(surface_point(&m, second, true), 8.0, 5.0);
    for p in m.points() {
        assert!((p.separation + 1.0).abs() <= 0.01);
    }
}

#[test]
fn example_2_one_point_survives() {
    let m = manifold(&polygon(&[(2.0, 8.0), (6.0, 4.0), (9.0, 7.0), (5.0, 11.0)]));
    assert!(m.normal.distance(Vec2::new(0.0, -1.0)) < 1e-5);
    assert_eq!(m.point_count, 2);
    // B's face is the reference here, so the post's point is A's vertex.
    let kept = point_near(&m, false, 6.0, 4.0);
    assert_near(surface_point(&m, kept, false), 6.0, 4.0);
    assert!((m.points[kept].separation + 1.0).abs() <= 0.01);
    // The other end of the incident edge stays as a speculative point. A's two lower edges
    // are equally anti-parallel to B's face: with (2,8)-(6,4), as the post takes, that end
    // is the cut at x = 4, 1 m above the face; with (6,4)-(9,7) it is (9,7), 2 m above.
    let other = 1 - kept;
    let (point, separation) = (surface_point(&m, other, false), m.points[other].separation);
    let post_edge = point.distance(Vec2::new(4.0, 6.0)) < 0.01 && (separation - 1.0).abs() < 0.01;
    let tie_edge = point.distance(Vec2::new(9.0, 7.0)) < 0.01 && (separation - 2.0).abs() < 0.01;
    assert!(post_edge || tie_edge, "{point:?} at {separation}");
}

#[test]
fn example_3_points_have_their_own_depths() {
    let m = manifold(&polygon(&[
        (9.0, 4.0),
        (13.0, 3.0),
        (14.0, 7.0),
        (10.0, 8.0),
    ]));
    // The post rounds this normal to (-0.19, -0.98); exactly it is (-1, -4)/sqrt(17).
    assert!(m.normal.distance(Vec2::new(-1.0, -4.0).normalize()) < 1e-5);
    assert_eq!(m.point_count, 2);
    // See clip.rs: the post's 9.28 comes from rounding u to 0.34; unrounded it is 9.25.
    let (deep, shallow) = (
        point_near(&m, true, 12.0, 5.0),
        point_near(&m, true, 9.25, 5.0),
    );
    assert_ne!(deep, shallow);
    assert_near(surface_point(&m, deep, true), 12.0, 5.0);
    assert_near(surface_point(&m, shallow, true), 9.25, 5.0);
    assert!((m.points[deep].separation + 1.69).abs() <= 0.01);
    assert!((m.points[shallow].separation + 1.04).abs() <= 0.01);
}
