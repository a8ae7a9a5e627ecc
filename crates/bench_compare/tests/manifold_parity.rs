//! Polygon manifolds against Box2D's own `b2CollidePolygons`: the same polygons (vertices,
//! normals, centroid and radius copied bit for bit) in the same placement of B relative to
//! A, through both engines' polygon collision. Both must give the same point count, normal,
//! separations and points, within float round-off.

use bevy_math::Vec2;
use boxdd_sys::ffi;
use physics_core::collision::{CollideSettings, collide_polygons};
use physics_core::math::{Rot, Transform};
use physics_core::shape::Polygon;

/// Box2D's copy of `polygon`.
fn to_box2d(polygon: &Polygon) -> ffi::b2Polygon {
    let v = |p: Vec2| ffi::b2Vec2 { x: p.x, y: p.y };
    let mut out = ffi::b2Polygon {
        vertices: [v(Vec2::ZERO); 8],
        normals: [v(Vec2::ZERO); 8],
        centroid: v(polygon.centroid()),
        radius: polygon.radius(),
        count: polygon.count() as i32,
    };
    for (i, (p, n)) in polygon.vertices().iter().zip(polygon.normals()).enumerate() {
        out.vertices[i] = v(*p);
        out.normals[i] = v(*n);
    }
    out
}

/// One pair's manifold as (normal, [(point in A's frame, separation, feature id)]).
type Points = (Vec2, Vec<(Vec2, f32, u16)>);

/// Ours, with A at the origin and B at `relative`.
fn ours(a: &Polygon, b: &Polygon, relative: Transform) -> Points {
    let m = collide_polygons(
        a,
        Transform::IDENTITY,
        b,
        relative,
        &CollideSettings::default(),
    );
    let points = m
        .points()
        .iter()
        .map(|p| (p.anchor_a, p.separation, p.id))
        .collect();
    (m.normal, points)
}

/// Box2D's, with B at `relative` in A's frame.
fn box2d(a: &Polygon, b: &Polygon, relative: Transform) -> Points {
    let xf = ffi::b2Transform {
        p: ffi::b2Vec2 {
            x: relative.p.x,
            y: relative.p.y,
        },
        q: ffi::b2Rot {
            c: relative.q.c,
            s: relative.q.s,
        },
    };
    let (pa, pb) = (to_box2d(a), to_box2d(b));
    // The one call into Box2D's C API that its Rust wrapper does not offer.
    #[allow(unsafe_code)]
    // SAFETY: both polygons are valid `b2Polygon`s (count within 8, the arrays filled up to
    // it), passed by pointer for the duration of the call; the result is returned by value.
    let m = unsafe { ffi::b2CollidePolygons(&pa, &pb, xf) };
    let count = m.pointCount as usize;
    let points = m.points[..count]
        .iter()
        .map(|p| (Vec2::new(p.point.x, p.point.y), p.separation, p.id))
        .collect();
    (Vec2::new(m.normal.x, m.normal.y), points)
}

/// A small xorshift generator, so the cases are the same on every run.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// A random convex polygon of up to 8 vertices within `scale` of its origin, rounded half
/// the time.
fn random_polygon(rng: &mut Rng, scale: f32) -> Option<Polygon> {
    let n = 3 + (rng.unit() * 6.0) as usize;
    let points: Vec<Vec2> = (0..n)
        .map(|_| Vec2::new(rng.range(-scale, scale), rng.range(-scale, scale)))
        .collect();
    let radius = if rng.unit() < 0.5 {
        0.0
    } else {
        rng.range(0.0, 0.5) * scale
    };
    Polygon::from_points(&points, radius).ok()
}

/// Whether two manifolds agree: the same point count and feature ids, and normals, points
/// and separations within `tolerance` (the float round-off of coordinates of the shapes'
/// size).
fn agree(ours: &Points, theirs: &Points, tolerance: f32) -> bool {
    ours.1.len() == theirs.1.len()
        && (ours.1.is_empty()
            || ((ours.0 - theirs.0).abs().max_element() <= 1e-5
                && ours.1.iter().zip(&theirs.1).all(|(a, b)| {
                    (a.0 - b.0).abs().max_element() <= tolerance
                        && (a.1 - b.1).abs() <= tolerance
                        && a.2 == b.2
                })))
}

/// The manifold the `manifold_pairs` fuzz target stopped on (kept in its corpus): a rounded
/// pentagon against a 2 cm box whose closest point lies 0.16 mm past the speculative
/// distance. Box2D keeps the clipped two-point manifold whenever its closest point is within
/// a tenth of the linear slop of the closest corners' distance, so it gives the same point.
#[test]
fn a_clipped_point_past_the_speculative_distance_is_box2ds_too() {
    let pentagon = Polygon::from_points(
        &[
            Vec2::new(-0.004188744, -0.0019228422),
            Vec2::new(0.003077768, -0.009196679),
            Vec2::new(0.009985349, 0.0031095098),
            Vec2::new(0.01, 0.0062031494),
            Vec2::new(-0.008361616, 0.01),
        ],
        0.005,
    )
    .unwrap();
    let square = Polygon::new_box(0.01, 0.01).unwrap();
    let xf_a = Transform::new(
        Vec2::new(1.0, 1.0),
        Rot {
            c: -0.8390715,
            s: -0.5440211,
        },
    );
    let xf_b = Transform::new(
        Vec2::new(1.03, 1.0286522),
        Rot {
            c: 0.66709995,
            s: -0.7449682,
        },
    );
    let relative = xf_a.inv_mul(xf_b);
    let (ours, theirs) = (
        ours(&pentagon, &square, relative),
        box2d(&pentagon, &square, relative),
    );
    assert!(
        agree(&ours, &theirs, 1e-6),
        "ours {ours:?}, Box2D's {theirs:?}"
    );
    let closest = ours.1.iter().map(|p| p.1).fold(f32::INFINITY, f32::min);
    let settings = CollideSettings::default();
    assert!(closest > settings.speculative_distance, "closest {closest}");
    assert!(closest <= settings.speculative_distance + 0.1 * settings.linear_slop);
}

/// Random polygon pairs at three scales, placed so most pairs touch or nearly do.
#[test]
fn random_polygon_manifolds_match_box2ds() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut compared, mut touching, mut apart, mut corners) = (0, 0, 0, 0);
    for scale in [0.01f32, 1.0, 10.0] {
        for _ in 0..4000 {
            let (Some(a), Some(b)) = (
                random_polygon(&mut rng, scale),
                random_polygon(&mut rng, scale),
            ) else {
                continue;
            };
            let relative = Transform::new(
                Vec2::new(rng.range(-2.5, 2.5) * scale, rng.range(-2.5, 2.5) * scale),
                Rot::from_angle(rng.range(-3.2, 3.2)),
            );
            let (ours, theirs) = (ours(&a, &b, relative), box2d(&a, &b, relative));
            // Round-off of coordinates of a few times the scale.
            let tolerance = 2e-5 * scale;
            assert!(
                agree(&ours, &theirs, tolerance),
                "{a:?} against {b:?} at {relative:?}: ours {ours:?}, Box2D's {theirs:?}"
            );
            compared += 1;
            touching += usize::from(!ours.1.is_empty());
            // Speculative: the branch that measures the cores' closest features.
            let closest = ours.1.iter().map(|p| p.1).fold(f32::INFINITY, f32::min);
            let speculative = !ours.1.is_empty() && closest > 0.0;
            apart += usize::from(speculative);
            corners += usize::from(speculative && ours.1.len() == 1);
        }
    }
    // Enough cases of each kind for the comparison to mean something.
    let counts = format!(
        "{compared} compared, {touching} with points, {apart} apart, {corners} corner to corner"
    );
    assert!(
        compared > 10_000 && touching > 2_000 && apart > 100 && corners > 20,
        "{counts}"
    );
    eprintln!("{counts}");
}
