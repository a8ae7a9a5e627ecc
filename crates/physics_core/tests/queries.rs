//! World queries against brute force over every shape of random scenes of 500 shapes: the
//! same hits in the same order.

mod support;

use physics_core::collision::{ShapeProxy, Sweep, ToiState, shapes_overlap, time_of_impact};
use physics_core::position::{
    FrameOrigin, Position, WorldTransform, relative, to_position, to_world_transform,
};
use physics_core::prelude::*;
use physics_core::shape::{RayCastInput, RayHit};
use support::Rng;
use support::{ground, unit_box, world};

struct Scene {
    world: World,
    shapes: Vec<(ShapeId, Shape, WorldTransform, ShapeDef)>,
}

fn random_scene(seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut world = World::new(WorldDef::default()).unwrap();
    let mut shapes = Vec::new();
    for i in 0..500 {
        let p = rng.vec(25.0);
        let def = BodyDef {
            rotation: Rot::from_angle(rng.range(-3.0, 3.0)),
            ..if i % 3 == 0 {
                BodyDef::fixed(p)
            } else {
                BodyDef::dynamic(p)
            }
        };
        let body = world.create_body(&def).unwrap();
        let shape_def = ShapeDef {
            is_sensor: i % 17 == 0,
            filter: Filter {
                category_bits: if i % 5 == 0 { 2 } else { 1 },
                ..Default::default()
            },
            ..Default::default()
        };
        let shape = rng.shape();
        let id = world.create_shape(body, &shape_def, shape).unwrap();
        shapes.push((id, shape, world.body_transform(body).unwrap(), shape_def));
    }
    Scene { world, shapes }
}

fn accepts(filter: &QueryFilter, def: &ShapeDef) -> bool {
    (def.filter.category_bits & filter.mask_bits) != 0
        && (def.filter.mask_bits & filter.category_bits) != 0
        && (filter.include_sensors || !def.is_sensor)
}

/// A scene's shapes with their poses and definitions.
type Placed = [(ShapeId, Shape, WorldTransform, ShapeDef)];

/// Brute force: the shapes `filter` accepts whose bounding box overlaps `aabb`, sorted.
fn in_box(shapes: &Placed, filter: &QueryFilter, aabb: &Aabb) -> Vec<ShapeId> {
    let mut found: Vec<ShapeId> = shapes
        .iter()
        .filter(|(_, s, xf, d)| accepts(filter, d) && s.world_aabb(*xf).overlaps(aabb))
        .map(|(id, ..)| *id)
        .collect();
    found.sort();
    found
}

/// Brute force: the shapes `filter` accepts that contain `point`, sorted.
fn at_point(shapes: &Placed, filter: &QueryFilter, point: Vec2) -> Vec<ShapeId> {
    // In a float frame at the point, as the world tests it.
    let frame = FrameOrigin::at(to_position(point));
    let inside = |s: &Shape, xf: &WorldTransform| {
        s.contains_point(
            frame.transform_to_frame(*xf),
            frame.to_frame(to_position(point)),
        )
    };
    let mut found: Vec<ShapeId> = shapes
        .iter()
        .filter(|(_, s, xf, d)| accepts(filter, d) && inside(s, xf))
        .map(|(id, ..)| *id)
        .collect();
    found.sort();
    found
}

/// Brute force: every hit of the ray on the shapes `filter` accepts, nearest first (ties by
/// id).
fn ray_hits(
    shapes: &Placed,
    filter: &QueryFilter,
    input: &RayCastInput<Position>,
) -> Vec<(ShapeId, RayHit<Position>)> {
    let mut hits: Vec<(ShapeId, RayHit<Position>)> = shapes
        .iter()
        .filter(|(.., d)| accepts(filter, d))
        .filter_map(|(id, s, xf, _)| s.ray_cast(*xf, input).map(|h| (*id, h)))
        .collect();
    hits.sort_by(|a, b| a.1.fraction.total_cmp(&b.1.fraction).then(a.0.cmp(&b.0)));
    hits
}

fn filters() -> [QueryFilter; 3] {
    [
        QueryFilter::default(),
        QueryFilter {
            mask_bits: 2,
            ..Default::default()
        },
        QueryFilter {
            include_sensors: true,
            ..Default::default()
        },
    ]
}

#[test]
fn aabb_point_and_overlap_queries_match_brute_force() {
    let scene = random_scene(0x9e5);
    let mut rng = Rng::new(1);
    for filter in filters() {
        for _ in 0..100 {
            let c = rng.vec(25.0);
            let half = Vec2::new(rng.range(0.1, 4.0), rng.range(0.1, 4.0));
            let aabb = Aabb::new(c - half, c + half);
            let expected = in_box(&scene.shapes, &filter, &aabb);
            assert_eq!(scene.world.query_aabb(&aabb, &filter), expected);

            let point = rng.vec(25.0);
            let expected = at_point(&scene.shapes, &filter, point);
            assert_eq!(scene.world.query_point(point, &filter), expected);

            let probe = rng.shape();
            let at = rng.transform(25.0);
            // The world tests in a float frame at the probe.
            let frame = FrameOrigin::at(to_position(at.p));
            let proxy = ShapeProxy::from_shape(&probe);
            let mut expected: Vec<ShapeId> = scene
                .shapes
                .iter()
                .filter(|(_, s, xf, d)| {
                    accepts(&filter, d)
                        && shapes_overlap(
                            &proxy,
                            frame.transform_to_frame(to_world_transform(at)),
                            &ShapeProxy::from_shape(s),
                            frame.transform_to_frame(*xf),
                        )
                })
                .map(|(id, ..)| *id)
                .collect();
            expected.sort();
            assert_eq!(scene.world.query_overlap(&probe, at, &filter), expected);
        }
    }
}

#[test]
fn ray_casts_match_brute_force_in_order() {
    let scene = random_scene(0x4a7);
    let mut rng = Rng::new(2);
    let mut total_hits = 0;
    for filter in filters() {
        for _ in 0..100 {
            let origin = rng.vec(30.0);
            let translation = rng.vec(40.0);
            let input = RayCastInput {
                origin: to_position(origin),
                translation,
                max_fraction: 1.0,
            };
            let expected = ray_hits(&scene.shapes, &filter, &input);
            let all = scene.world.ray_cast_all(origin, translation, &filter);
            assert_eq!(all, expected);
            assert_eq!(
                scene.world.ray_cast_closest(origin, translation, &filter),
                expected.first().copied()
            );
            total_hits += all.len();
        }
    }
    assert!(total_hits > 300, "rays hit only {total_hits} shapes");
}

#[test]
fn shape_casts_match_brute_force() {
    let scene = random_scene(0x5c4);
    let mut rng = Rng::new(3);
    let mut hits = 0;
    for filter in filters() {
        for _ in 0..50 {
            let probe = rng.shape();
            let xf = rng.transform(30.0);
            let translation = rng.vec(20.0);
            let proxy = ShapeProxy::from_shape(&probe);
            // As the world casts: in a float frame at the probe's start.
            let frame = FrameOrigin::at(to_position(xf.p));
            let start = frame.to_frame(to_position(xf.p));
            let sweep = Sweep {
                local_center: Vec2::ZERO,
                c1: start,
                c2: start + translation,
                q1: xf.q,
                q2: xf.q,
            };
            let expected = scene
                .shapes
                .iter()
                .filter(|(.., d)| accepts(&filter, d))
                .filter_map(|(id, s, sxf, _)| {
                    let out = time_of_impact(
                        &proxy,
                        &sweep,
                        &ShapeProxy::from_shape(s),
                        &Sweep::fixed(frame.transform_to_frame(*sxf)),
                        0.005,
                    );
                    match out.state {
                        ToiState::Hit => Some((out.fraction, *id)),
                        ToiState::Overlapped => Some((0.0, *id)),
                        ToiState::Separated => None,
                    }
                })
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let got = scene.world.shape_cast(&probe, xf, translation, &filter);
            assert_eq!(got.map(|h| (h.fraction, h.shape)), expected);
            if let Some(h) = got {
                hits += 1;
                assert!((h.normal.length() - 1.0).abs() < 1e-3 || h.fraction == 0.0);
            }
        }
    }
    assert!(hits > 30, "only {hits} casts hit");
}

/// The queries read the shapes where the step left them: after a second of falling and
/// shoving (the broadphase boxes enlarged, moved and reinserted), box, point and ray queries
/// still give exactly the brute-force answer over the shapes' current poses.
#[test]
fn queries_match_brute_force_after_the_bodies_moved() {
    let mut scene = random_scene(0x5eed);
    for _ in 0..60 {
        scene.world.step(1.0 / 60.0).unwrap();
    }
    let world = &scene.world;
    let mut moved = 0;
    for (id, _, xf, _) in &mut scene.shapes {
        let now = world
            .body_transform(world.shape_body(*id).unwrap())
            .unwrap();
        moved += usize::from(relative(now.p, xf.p).length() > 0.5);
        *xf = now;
    }
    assert!(moved > 200, "only {moved} shapes moved half a metre");
    let mut rng = Rng::new(3);
    let mut hits = 0;
    for filter in filters() {
        for _ in 0..100 {
            let c = rng.vec(30.0) - Vec2::new(0.0, 5.0);
            let half = Vec2::new(rng.range(0.1, 4.0), rng.range(0.1, 4.0));
            let aabb = Aabb::new(c - half, c + half);
            let expected = in_box(&scene.shapes, &filter, &aabb);
            hits += expected.len();
            assert_eq!(world.query_aabb(&aabb, &filter), expected);

            let point = rng.vec(30.0);
            let expected = at_point(&scene.shapes, &filter, point);
            assert_eq!(world.query_point(point, &filter), expected);

            let (origin, translation) = (rng.vec(30.0), rng.vec(40.0));
            let input = RayCastInput {
                origin: to_position(origin),
                translation,
                max_fraction: 1.0,
            };
            let expected = ray_hits(&scene.shapes, &filter, &input);
            assert_eq!(world.ray_cast_all(origin, translation, &filter), expected);
        }
    }
    assert!(hits > 300, "the boxes met only {hits} shapes");
}

#[test]
fn aabb_and_ray_queries_find_shapes_through_the_trees() {
    let mut w = world();
    let g = ground(&mut w);
    let boxes: Vec<BodyId> = (0..5)
        .map(|i| unit_box(&mut w, Vec2::new(3.0 * i as f32, 5.0)))
        .collect();
    let found = w.query_aabb(
        &Aabb::new(Vec2::new(2.0, 4.0), Vec2::new(7.0, 6.0)),
        &QueryFilter::default(),
    );
    let expected: Vec<ShapeId> = [boxes[1], boxes[2]]
        .iter()
        .map(|b| w.body_shapes(*b).unwrap()[0])
        .collect();
    assert_eq!(found, expected);
    // A ray down through box 2 stops at its top face, not at the ground below.
    let (shape, hit) = w
        .ray_cast_closest(
            Vec2::new(6.0, 10.0),
            Vec2::new(0.0, -20.0),
            &QueryFilter::default(),
        )
        .unwrap();
    assert_eq!(shape, expected[1]);
    assert!((hit.point.y - 5.5).abs() < 1e-5);
    // Between boxes it reaches the ground's top at y = 0.
    let (shape, hit) = w
        .ray_cast_closest(
            Vec2::new(1.5, 10.0),
            Vec2::new(0.0, -20.0),
            &QueryFilter::default(),
        )
        .unwrap();
    assert_eq!(shape, w.body_shapes(g).unwrap()[0]);
    assert!(hit.point.y.abs() < 1e-5);
}
