//! The broadphase: resting bodies do not touch it.

use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;

fn ground(world: &mut World) -> BodyId {
    let g = world
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_shape(
            g,
            &ShapeDef::default(),
            Polygon::new_box(50.0, 1.0).unwrap().into(),
        )
        .unwrap();
    g
}

fn unit_box(world: &mut World, position: Vec2) -> BodyId {
    unit_box_of(world, position, &ShapeDef::default())
}

/// A dynamic 1 m box at `position` whose shape has `def`'s material, filter and sensor flag.
fn unit_box_of(world: &mut World, position: Vec2, def: &ShapeDef) -> BodyId {
    let b = world.create_body(&BodyDef::dynamic(position)).unwrap();
    world
        .create_shape(b, def, Polygon::new_box(0.5, 0.5).unwrap().into())
        .unwrap();
    b
}

#[test]
fn resting_bodies_do_not_touch_the_broadphase() {
    // Sleep off: awake resting bodies must already leave the trees alone.
    let mut w = World::new(WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    ground(&mut w);
    for i in 0..5 {
        unit_box(&mut w, Vec2::new(0.0, 0.5 + i as f32));
    }
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    for _ in 0..30 {
        w.step(DT).unwrap();
        assert_eq!(
            w.counters().proxies_queried,
            0,
            "a resting box re-queried the trees"
        );
        assert_eq!(w.counters().manifolds_updated, 5);
    }
}
