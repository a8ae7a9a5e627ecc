//! The world's counters: touching contacts and awake bodies follow steps, sleep, waking,
//! creation, destruction, settings and restore.

mod support;

use physics_core::prelude::*;
use support::{DT, ground, unit_box, unit_box_of, world};

#[test]
fn the_touching_count_follows_steps_destruction_and_restore() {
    // The count is kept where touching changes, not recounted: it must match the contacts
    // through every way a contact starts or stops touching. (Debug builds, as tests run,
    // also recount inside `touching_contact_count` and assert the two agree.)
    let mut w = world();
    ground(&mut w);
    let column: Vec<BodyId> = (0..4)
        .map(|k| unit_box(&mut w, Vec2::new(0.0, 0.5 + k as f32)))
        .collect();
    let sensing = ShapeDef {
        is_sensor: true,
        ..Default::default()
    };
    let sensor_body = unit_box_of(&mut w, Vec2::new(5.0, 0.3), &sensing);
    // It floats, sunk 0.2 m into the ground.
    w.set_gravity_scale(sensor_body, 0.0).unwrap();
    let mut began = 0;
    for _ in 0..30 {
        w.step(DT).unwrap();
        began += w.begin_contact_events().len() + w.sensor_begin_events().len();
    }
    // Ground and three box-on-box contacts, and the sensor box on the ground.
    assert_eq!(w.touching_contact_count(), 5);
    assert_eq!(began, 5, "each began once");
    let saved = w.snapshot();
    w.destroy_body(column[1]).unwrap();
    assert_eq!(w.touching_contact_count(), 3, "the box's two contacts went");
    w.restore(&saved).unwrap();
    assert_eq!(
        w.touching_contact_count(),
        5,
        "restored with the snapshot's contacts"
    );
    w.destroy_body(column[3]).unwrap();
    assert_eq!(w.touching_contact_count(), 4);
    // The rest stops touching as the boxes fall upwards, apart.
    for (k, &b) in column[..3].iter().enumerate() {
        w.set_gravity_scale(b, -1.0 - k as f32).unwrap();
    }
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    assert_eq!(
        w.touching_contact_count(),
        1,
        "only the floating sensor box"
    );
}

#[test]
fn the_awake_count_follows_sleep_waking_creation_destruction_settings_and_restore() {
    // The count is kept where a body's awake flag changes, not recounted: it must match the
    // bodies through every way a body falls asleep, wakes, comes or goes. (Debug builds, as
    // tests run, also recount inside `awake_body_count` and assert the two agree.)
    let mut w = world();
    ground(&mut w);
    let left = unit_box(&mut w, Vec2::new(-3.0, 0.5));
    let right = unit_box(&mut w, Vec2::new(3.0, 0.5));
    let carried = unit_box(&mut w, Vec2::new(3.0, 1.5));
    let spinning = w
        .create_body(&BodyDef {
            angular_velocity: 1.0,
            ..BodyDef::kinematic(Vec2::new(0.0, 5.0))
        })
        .unwrap();
    assert_eq!(
        w.awake_body_count(),
        4,
        "three boxes and the kinematic body"
    );
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    assert_eq!(
        w.awake_body_count(),
        1,
        "the boxes slept; the spinning body never rests"
    );
    assert!(!w.is_awake(left).unwrap() && w.is_awake(spinning).unwrap());
    w.set_awake(carried, true).unwrap();
    assert_eq!(
        w.awake_body_count(),
        3,
        "a box wakes with the box it stands on"
    );
    let saved = w.snapshot();
    w.destroy_body(carried).unwrap();
    assert_eq!(w.awake_body_count(), 2);
    w.set_awake(right, false).unwrap();
    assert_eq!(w.awake_body_count(), 1);
    w.restore(&saved).unwrap();
    assert_eq!(
        w.awake_body_count(),
        3,
        "restored with the snapshot's flags"
    );
    let sleeper = w
        .create_body(&BodyDef {
            awake: false,
            ..BodyDef::dynamic(Vec2::new(8.0, 0.5))
        })
        .unwrap();
    w.create_body(&BodyDef::dynamic(Vec2::new(-8.0, 0.5)))
        .unwrap();
    assert_eq!(
        w.awake_body_count(),
        4,
        "created awake counts, created asleep does not"
    );
    let mut no_sleep = *w.def();
    no_sleep.enable_sleep = false;
    w.set_def(no_sleep).unwrap();
    assert_eq!(
        w.awake_body_count(),
        6,
        "every moving body wakes when sleep is off"
    );
    assert!(w.is_awake(sleeper).unwrap() && w.is_awake(left).unwrap());
}
