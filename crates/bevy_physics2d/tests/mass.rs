//! Mass through the plugin: a `Mass` override replaces only the parts it sets and keeps the
//! rest from the colliders.

mod support;

use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use support::app;
use support::mass_data;
use support::step;

#[test]
fn a_mass_override_keeps_what_it_leaves_out_from_the_colliders() {
    let mut app = app();
    // A 1 m box of density 1: mass 1, inertia (1 + 1) / 12 about its centre.
    let box_inertia = 2.0 / 12.0;
    let heavy = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Mass::new(5.0),
        ))
        .id();
    let offset = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Mass::default().with_center(Vec2::new(0.0, -0.25)),
            Transform::from_xyz(5.0, 0.0, 0.0),
        ))
        .id();
    step(&mut app, 1);
    let m = mass_data(&app, heavy);
    assert!((m.mass - 5.0).abs() < 1e-5);
    // The same shape five times heavier turns five times harder.
    assert!(
        (m.rotational_inertia - 5.0 * box_inertia).abs() < 1e-5,
        "{m:?}"
    );
    assert_eq!(m.center, Vec2::ZERO);
    let m = mass_data(&app, offset);
    assert!((m.mass - 1.0).abs() < 1e-5 && (m.rotational_inertia - box_inertia).abs() < 1e-5);
    assert_eq!(m.center, Vec2::new(0.0, -0.25));

    // A second collider doubles what the colliders give: the mass stays 5, the inertia
    // follows the new shape (two boxes side by side: 2 (1/6 + 0.5^2) about their middle,
    // scaled by 5 / 2).
    app.world_mut().spawn((
        Collider::rectangle(1.0, 1.0),
        Transform::from_xyz(1.0, 0.0, 0.0),
        ChildOf(heavy),
    ));
    step(&mut app, 1);
    let m = mass_data(&app, heavy);
    let pair_inertia = 2.0 * (box_inertia + 0.25);
    assert!((m.mass - 5.0).abs() < 1e-5);
    assert!(
        (m.rotational_inertia - 2.5 * pair_inertia).abs() < 1e-4,
        "{m:?}"
    );
    // Without the override the colliders decide again.
    app.world_mut().entity_mut(heavy).remove::<Mass>();
    step(&mut app, 1);
    let m = mass_data(&app, heavy);
    assert!((m.mass - 2.0).abs() < 1e-5 && (m.rotational_inertia - pair_inertia).abs() < 1e-4);
}
