//! Contacts for gameplay: the `Collisions` parameter, `CollidingEntities` and contact-force
//! events.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemState;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use support::{app, ground, read, step};

/// Gravity of the default settings (m/s^2).
const G: f32 = 10.0;

fn crate_at(app: &mut App, x: f32, mass: f32) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Mass::new(mass),
            Transform::from_xyz(x, 0.5, 0.0),
        ))
        .id()
}

#[test]
fn collisions_give_the_pair_seen_from_either_side_and_its_weight() {
    let mut app = app();
    let floor = ground(&mut app);
    let heavy = crate_at(&mut app, 0.0, 20.0);
    let apart = crate_at(&mut app, 5.0, 1.0);
    app.world_mut()
        .entity_mut(apart)
        .insert((Transform::from_xyz(5.0, 4.0, 0.0), GravityScale(0.0)));
    step(&mut app, 120);
    let mut state: SystemState<Collisions> = SystemState::new(app.world_mut());
    let collisions = state.get(app.world()).unwrap();
    let on_floor = collisions
        .get(heavy, floor)
        .expect("the crate rests on the floor");
    assert_eq!((on_floor.collider1, on_floor.collider2), (heavy, floor));
    assert!(
        (on_floor.normal - Vec2::NEG_Y).length() < 1e-5,
        "{}",
        on_floor.normal
    );
    assert_eq!(on_floor.points().len(), 2);
    // At rest the floor carries the crate's weight: m g = 200 N (the soft contact holds it
    // to a fraction of a percent once settled).
    let force = on_floor.total_normal_force();
    assert!((force - 20.0 * G).abs() < 0.01 * 20.0 * G, "{force} N");
    let seen_from_floor = collisions.get(floor, heavy).unwrap();
    assert_eq!(seen_from_floor.collider1, floor);
    assert!((seen_from_floor.normal - Vec2::Y).length() < 1e-5);
    // The crate floating in the air touches nothing and shows up nowhere.
    assert!(!collisions.contains(apart, floor));
    assert!(collisions.collisions_with(apart).is_empty());
    let with_floor = collisions.collisions_with(floor);
    assert_eq!(with_floor.len(), 1);
    assert_eq!(with_floor[0].collider2, heavy);
    assert_eq!(collisions.iter().count(), 1);
}

#[test]
fn colliding_entities_follow_touches_and_partings() {
    let mut app = app();
    let floor = ground(&mut app);
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            CollidingEntities::default(),
            Transform::from_xyz(0.0, 2.0, 0.0),
        ))
        .id();
    let touching = |app: &App| app.world().get::<CollidingEntities>(ball).unwrap().clone();
    step(&mut app, 2);
    assert!(touching(&app).is_empty(), "still in the air");
    step(&mut app, 60);
    assert!(touching(&app).contains(floor));
    assert_eq!(touching(&app).len(), 1);
    // Thrown up: it leaves the floor, and the set empties.
    app.world_mut()
        .entity_mut(ball)
        .insert(LinearVelocity(Vec2::new(0.0, 8.0)));
    step(&mut app, 20);
    assert!(touching(&app).is_empty());
}

#[test]
fn a_contact_force_event_fires_above_the_threshold_only() {
    let mut app = app();
    let floor = ground(&mut app);
    // The floor reports contacts pressing with more than 100 N: a 20 kg crate (200 N) at
    // rest does, a 5 kg one (50 N) does not.
    app.world_mut()
        .entity_mut(floor)
        .insert(ContactForceEventThreshold(100.0));
    let heavy = crate_at(&mut app, -3.0, 20.0);
    let light = crate_at(&mut app, 3.0, 5.0);
    step(&mut app, 60);
    let mut cursor = MessageCursor::<ContactForce>::default();
    read(&mut app, &mut cursor);
    step(&mut app, 1);
    let events = read(&mut app, &mut cursor);
    assert_eq!(events.len(), 1, "{events:?}");
    let e = events[0];
    let about_heavy = (e.collider1 == heavy && e.collider2 == floor)
        || (e.collider1 == floor && e.collider2 == heavy);
    assert!(about_heavy, "{e:?}");
    assert!((e.force - 20.0 * G).abs() < 0.01 * 20.0 * G, "{}", e.force);
    assert!(
        !events
            .iter()
            .any(|e| e.collider1 == light || e.collider2 == light)
    );
}
