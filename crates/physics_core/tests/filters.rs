//! Collision filters and sensors: masked-out shapes pass through each other, groups override
//! masks, sensors let bodies pass and kinematic bodies push.

mod support;

use physics_core::prelude::*;
use support::{DT, ground, unit_box, unit_box_of, world};

/// Two boxes dropped one above the other in `filter`, at `x`; returns (lower, upper).
fn dropped_pair(w: &mut World, x: f32, filter: Filter) -> (BodyId, BodyId) {
    let def = ShapeDef {
        filter,
        ..Default::default()
    };
    (
        unit_box_of(w, Vec2::new(x, 0.6), &def),
        unit_box_of(w, Vec2::new(x, 2.0), &def),
    )
}

#[test]
fn filters_and_sensors_let_bodies_pass_and_kinematic_bodies_push() {
    let mut w = world();
    ground(&mut w);
    let no_ground = ShapeDef {
        filter: Filter {
            mask_bits: 0,
            ..Default::default()
        },
        ..Default::default()
    };
    let ghost = unit_box_of(&mut w, Vec2::new(-3.0, 0.5), &no_ground);
    let sensing = ShapeDef {
        is_sensor: true,
        ..Default::default()
    };
    let sensor = unit_box_of(&mut w, Vec2::new(3.0, 0.5), &sensing);
    let pusher = w
        .create_body(&BodyDef::kinematic(Vec2::new(-10.0, 0.6)))
        .unwrap();
    w.create_shape(
        pusher,
        &ShapeDef::default(),
        Polygon::new_box(0.5, 0.5).unwrap().into(),
    )
    .unwrap();
    w.set_linear_velocity(pusher, Vec2::new(2.0, 0.0)).unwrap();
    let pushed = unit_box(&mut w, Vec2::new(-7.0, 0.5));
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    assert!(
        w.body_position(ghost).unwrap().y < -3.0,
        "filtered box fell through"
    );
    assert!(
        w.body_position(sensor).unwrap().y < -3.0,
        "sensor box fell through"
    );
    // The kinematic box kept its velocity and pushed the dynamic one ahead of it.
    assert!((w.linear_velocity(pusher).unwrap().x - 2.0).abs() < 1e-6);
    let (kx, px) = (
        w.body_position(pusher).unwrap().x,
        w.body_position(pushed).unwrap().x,
    );
    assert!((kx - (-10.0 + 4.0)).abs() < 1e-3);
    assert!(px > kx + 0.95, "pushed box stays ahead: {px} vs {kx}");
}

#[test]
fn masked_out_shapes_pass_through_each_other_and_a_positive_group_still_meets() {
    // Debris in category 2 masks out its own category: the upper box falls through the lower
    // one onto the ground (pair finding skips the pair in the tree). A team in the same
    // category and mask but a shared positive group collides anyway: its upper box rests on
    // the lower one. Halfway, the world goes through a snapshot's bytes into a fresh world,
    // whose broadphase gets the categories back from the shapes.
    let mut w = world();
    ground(&mut w);
    let debris = Filter {
        category_bits: 2,
        mask_bits: !2,
        group_index: 0,
    };
    let team = Filter {
        group_index: 7,
        ..debris
    };
    let (debris_low, debris_high) = dropped_pair(&mut w, -5.0, debris);
    let (team_low, team_high) = dropped_pair(&mut w, 5.0, team);
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    let bytes = w.snapshot().to_bytes();
    let mut w = world();
    w.restore(&WorldSnapshot::from_bytes(&bytes).unwrap())
        .unwrap();
    for _ in 0..110 {
        w.step(DT).unwrap();
    }
    let y = |b: BodyId| w.body_position(b).unwrap().y;
    // Resting on the ground (top at 0) within the 5 mm slop; on the teammate, a box higher.
    assert!((y(debris_low) - 0.5).abs() < 0.02, "{}", y(debris_low));
    assert!((y(debris_high) - 0.5).abs() < 0.02, "{}", y(debris_high));
    assert!((y(team_low) - 0.5).abs() < 0.02, "{}", y(team_low));
    assert!((y(team_high) - 1.5).abs() < 0.03, "{}", y(team_high));
}
