//! Explosions through the plugin: `PhysicsWorld::explode` pushes the bodies in its radius away
//! from its centre.

mod support;

use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use support::app;
use support::step;

#[test]
fn an_explosion_pushes_bodies_through_the_plugin() {
    let mut app = app();
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
    let near = support::spawn_dynamic(&mut app, Collider::circle(0.5), 1.5, 0.0);
    step(&mut app, 1);
    let pushed = app
        .world_mut()
        .resource_mut::<PhysicsWorld>()
        .explode(Vec2::ZERO, 4.0, 8.0)
        .unwrap();
    // Nearest point 1 m away: 8 (1 - 1/4) = 6, along +x.
    assert_eq!(pushed.len(), 1);
    assert_eq!(pushed[0].0, near);
    assert!((pushed[0].1 - Vec2::new(6.0, 0.0)).length() < 1e-4);
    step(&mut app, 1);
    let v = app.world().get::<LinearVelocity>(near).unwrap().0;
    assert!(
        (v.x * std::f32::consts::PI * 0.25 - 6.0).abs() < 1e-3,
        "{v}"
    );
    let refused = app
        .world_mut()
        .resource_mut::<PhysicsWorld>()
        .explode(Vec2::ZERO, f32::NAN, 1.0);
    assert!(refused.is_err());
}
