//! The plugin steps the core exactly as a bare core world does: a falling box follows
//! the same bits.

mod support;

use bevy_physics2d::physics_core::body::BodyDef;
use bevy_physics2d::physics_core::math::Transform as CoreTransform;
use bevy_physics2d::physics_core::shape_def::ShapeDef;
use bevy_physics2d::physics_core::world::World as CoreWorld;
use bevy_physics2d::physics_core::world::WorldDef;
use bevy_physics2d::prelude::*;
use support::GROUND;
use support::app;
use support::core_pose;
use support::dt;
use support::ground_20m;
use support::spawn_box;
use support::step;

#[test]
fn a_falling_box_follows_the_bare_core_world_bit_for_bit() {
    let mut app = app();
    ground_20m(&mut app);
    let body = spawn_box(&mut app, 0.3, 3.0);
    // The same world built directly on the core, with the same shapes and order.
    let mut core = CoreWorld::new(WorldDef::default()).unwrap();
    let ground = core
        .create_body(&BodyDef::fixed(bevy_math::Vec2::new(0.0, -0.5)))
        .unwrap();
    let shape = |c: Collider| c.to_shapes(CoreTransform::IDENTITY).unwrap()[0];
    core.create_shape(
        ground,
        &ShapeDef::default(),
        shape(Collider::rectangle(GROUND.0, GROUND.1)),
    )
    .unwrap();
    let boxed = core
        .create_body(&BodyDef::dynamic(bevy_math::Vec2::new(0.3, 3.0)))
        .unwrap();
    core.create_shape(
        boxed,
        &ShapeDef::default(),
        shape(Collider::rectangle(1.0, 1.0)),
    )
    .unwrap();
    let h = dt(&app);
    for i in 0..180 {
        step(&mut app, 1);
        core.step(h).unwrap();
        // The game's coordinates: the plugin's origin is the core world's here.
        let game = app.world().resource::<PhysicsWorld>().game_frame();
        let b = game.pose_to_game(core.body_transform(boxed).unwrap());
        let a = core_pose(&app, body);
        assert_eq!(a, b, "step {i}: plugin {a:?} vs core {b:?}");
        let v = app.world().get::<LinearVelocity>(body).unwrap().0;
        assert_eq!(v, core.linear_velocity(boxed).unwrap(), "step {i}");
    }
    // It landed: resting on the ground's top face (y = 0) at half its height.
    let p = core_pose(&app, body).p;
    assert!((p.y - 0.5).abs() < 0.02, "rests at {p}");
}
