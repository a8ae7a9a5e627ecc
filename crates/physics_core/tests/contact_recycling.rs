//! Contact recycling: touching pairs that barely moved relative to each other keep their
//! manifold, moved with the bodies, instead of recomputing it.

use physics_core::collision::{CollideSettings, collide};
use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;

fn world(recycle_distance: f32) -> World {
    World::new(WorldDef {
        enable_sleep: false,
        contact_recycle_distance: recycle_distance,
        ..WorldDef::default()
    })
    .unwrap()
}

fn add_ground(world: &mut World) {
    let g = world
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    let shape = Polygon::new_box(50.0, 1.0).unwrap();
    world
        .create_shape(g, &ShapeDef::default(), shape.into())
        .unwrap();
}

fn add_box(world: &mut World, def: &BodyDef, shape_def: &ShapeDef) -> BodyId {
    let b = world.create_body(def).unwrap();
    let shape = Polygon::new_box(0.5, 0.5).unwrap();
    world.create_shape(b, shape_def, shape.into()).unwrap();
    b
}

/// A ten-box stack after three seconds: the box heights, and how many manifolds the last step
/// recycled out of how many touching contacts.
fn settled_stack(recycle_distance: f32) -> (Vec<f32>, usize, usize) {
    let mut w = world(recycle_distance);
    add_ground(&mut w);
    let boxes: Vec<BodyId> = (0..10)
        .map(|i| {
            let def = BodyDef::dynamic(Vec2::new(0.0, 0.5 + i as f32));
            add_box(&mut w, &def, &ShapeDef::default())
        })
        .collect();
    for _ in 0..180 {
        w.step(DT).unwrap();
    }
    let heights = boxes
        .iter()
        .map(|&b| w.body_position(b).unwrap().y)
        .collect();
    (
        heights,
        w.counters().manifolds_recycled,
        w.touching_contact_count(),
    )
}

#[test]
fn a_resting_stack_reuses_its_manifolds_and_rests_where_recomputed_ones_rest() {
    let (recycled_heights, recycled, touching) = settled_stack(0.05);
    let (computed_heights, none_recycled, _) = settled_stack(0.0);
    assert_eq!(touching, 10);
    // At rest nothing moves relative to anything: every manifold is reused.
    assert_eq!(recycled, touching);
    assert_eq!(none_recycled, 0);
    // Each of the ten contacts rests within the 5 mm linear slop either way; a reused manifold
    // differs from a recomputed one only by motion far below that, so the stacks agree to
    // well within one slop.
    for (i, (r, c)) in recycled_heights.iter().zip(&computed_heights).enumerate() {
        assert!(
            (r - c).abs() < 0.005,
            "box {i}: {r} with recycling, {c} without"
        );
    }
}

#[test]
fn a_sliding_box_recomputes_its_manifold_every_step() {
    let mut w = world(0.05);
    add_ground(&mut w);
    // 6 m/s is 10 cm per step, twice the recycle distance: no step may reuse the manifold.
    let def = BodyDef::dynamic(Vec2::new(0.0, 0.5)).with_velocity(Vec2::new(6.0, 0.0));
    let slippery = ShapeDef {
        friction: 0.0,
        ..ShapeDef::default()
    };
    add_box(&mut w, &def, &slippery);
    for step in 0..60 {
        w.step(DT).unwrap();
        assert_eq!(w.touching_contact_count(), 1, "step {step}");
        assert_eq!(w.counters().manifolds_recycled, 0, "step {step}");
    }
}

#[test]
fn a_recycled_manifold_turns_with_a_turning_pair() {
    let mut w = world(0.05);
    // A kinematic plank turning slowly about its centre, a box resting on it at the axis.
    let plank_shape: Shape = Polygon::new_box(3.0, 0.25).unwrap().into();
    let box_shape: Shape = Polygon::new_box(0.5, 0.5).unwrap().into();
    let plank = w.create_body(&BodyDef::kinematic(Vec2::ZERO)).unwrap();
    w.create_shape(plank, &ShapeDef::default(), plank_shape)
        .unwrap();
    let grippy = ShapeDef {
        friction: 1.0,
        ..ShapeDef::default()
    };
    let b = add_box(&mut w, &BodyDef::dynamic(Vec2::new(0.0, 0.75)), &grippy);
    // Settle, then turn at 0.5 rad/s for 0.3 s: 8.6 degrees, inside the 11 degree limit.
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    w.set_angular_velocity(plank, 0.5).unwrap();
    let mut recycled_steps = 0;
    for step in 0..18 {
        // The step's manifold belongs to the poses the step starts from.
        let (xf_plank, xf_box) = (
            w.body_transform(plank).unwrap(),
            w.body_transform(b).unwrap(),
        );
        w.step(DT).unwrap();
        recycled_steps += w.counters().manifolds_recycled;
        let data = w.contact_data();
        assert_eq!(data.len(), 1);
        let used = data[0].manifold;
        let settings = CollideSettings::default();
        let fresh = collide(&plank_shape, xf_plank, &box_shape, xf_box, &settings);
        // The carried normal turns with the plank: it must match the recomputed one far more
        // closely than the 8.6 degrees the pair turned.
        let angle = used.normal.angle_to(fresh.normal).abs();
        assert!(angle < 1e-3, "step {step}: normal off by {angle} rad");
        assert_eq!(used.point_count, fresh.point_count);
        for p in used.points() {
            let q = fresh
                .points()
                .iter()
                .min_by(|x, y| {
                    let dx = x.point.distance(p.point);
                    dx.total_cmp(&y.point.distance(p.point))
                })
                .unwrap();
            assert!(
                (p.separation - q.separation).abs() < 1e-3,
                "step {step}: separation {} against {}",
                p.separation,
                q.separation
            );
            assert!(p.point.distance(q.point) < 0.01, "step {step}");
        }
    }
    // The test means something only if recycling happened while the pair turned.
    assert!(
        recycled_steps >= 9,
        "recycled in {recycled_steps} of 18 steps"
    );
}
