//! Solver fidelity through the plugin: awake towers stand and a heavy box rests on
//! light ones, as the core does.

mod support;

use bevy_physics2d::PhysicsSettings;
use bevy_physics2d::prelude::*;
use support::{app, step};

/// Towers of 15, 20 and 30 `Collider::rectangle(1.0, 1.0)` boxes on a static ground with
/// sleeping off: before recycled manifolds kept their anchors (as Box2D v3 keeps them) they
/// toppled, and the 20-box tower's top ended 60 m away after 30 s. Box2D holds the same towers
/// within 1.2 to 2.5 cm; each top box must stay within 10 cm of its column for half a minute.
#[test]
fn awake_towers_of_15_20_and_30_rectangles_stand_for_thirty_seconds() {
    for count in [15, 20, 30] {
        let mut app = app();
        app.world_mut()
            .resource_mut::<PhysicsSettings>()
            .enable_sleep = false;
        app.world_mut().spawn((
            RigidBody::Static,
            Collider::rectangle(40.0, 1.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ));
        let boxes: Vec<_> = (0..count)
            .map(|i| {
                app.world_mut()
                    .spawn((
                        RigidBody::Dynamic,
                        Collider::rectangle(1.0, 1.0),
                        Transform::from_xyz(0.0, 0.5 + i as f32, 0.0),
                    ))
                    .id()
            })
            .collect();
        let top = *boxes.last().unwrap();
        let mut worst = 0.0f32;
        for _ in 0..30 * 60 {
            step(&mut app, 1);
            let x = app.world().get::<Transform>(top).unwrap().translation.x;
            worst = worst.max(x.abs());
        }
        assert!(worst < 0.1, "{count} boxes: the top box strayed {worst} m");
        let awake = app
            .world()
            .resource::<PhysicsWorld>()
            .core()
            .awake_body_count();
        assert_eq!(awake, count, "the tower was meant to stay awake");
    }
}

/// Solver2D's "high mass ratio 2" through the plugin: a 20 m box, 400 times a 1 m box's mass,
/// dropped onto two of them, with `settings` changed by `configure`; the big box's height
/// after 10 s (11 m on rigid boxes).
fn big_box_height(configure: impl FnOnce(&mut PhysicsSettings)) -> f32 {
    let mut app = app();
    {
        let mut settings = app.world_mut().resource_mut::<PhysicsSettings>();
        settings.enable_sleep = false;
        configure(&mut settings);
    }
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(80.0, 4.0),
        Transform::from_xyz(0.0, -2.0, 0.0),
    ));
    for x in [-9.0, 9.0] {
        app.world_mut().spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Transform::from_xyz(x, 0.5, 0.0),
        ));
    }
    let big = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(20.0, 20.0),
            Transform::from_xyz(0.0, 26.0, 0.0),
        ))
        .id();
    step(&mut app, 600);
    app.world().get::<Transform>(big).unwrap().translation.y
}

/// By default (carried mass) the big box rests within 2 cm of its rigid height; so it does
/// with `PhysicsSettings::exact_contact_island_bodies` and no carried mass (the island solved
/// exactly); with neither, the default 45 Hz soft contacts let it sink 3.9 cm, and Box2D's
/// (30 Hz) 8.6 cm.
#[test]
fn a_heavy_box_on_two_small_ones_rests_on_them_by_default_and_with_exact_contact_islands() {
    let carried = big_box_height(|_| {});
    assert!(
        (11.0 - carried).abs() < 0.02,
        "by default the big box rests at {carried}"
    );
    let exact = big_box_height(|s| {
        s.carried_mass_fraction = 0.0;
        s.exact_contact_island_bodies = 8;
    });
    assert!(
        (11.0 - exact).abs() < 0.02,
        "exact islands: the big box rests at {exact}"
    );
    let soft = big_box_height(|s| s.carried_mass_fraction = 0.0);
    assert!(
        11.0 - soft > 0.03,
        "soft contacts: the big box rests at {soft}"
    );
}
