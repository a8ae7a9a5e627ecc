//! Every optional member of `PhysicsPlugins` can be disabled: the App still steps a world of
//! bodies, colliders, joints, a character, a caster and event-enabled colliders, the
//! disabled feature does nothing, and everything else moves to the same bits as with every
//! plugin in.

mod support;

use bevy_app::{PluginGroup, PluginGroupBuilder};
use bevy_ecs::prelude::*;
use bevy_ecs::system::RunSystemOnce;
use bevy_math::Quat;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{
    CharacterControllerPlugin, CollisionEventsPlugin, InterpolationPoses, JointPlugin,
    PhysicsInterpolationPlugin, PhysicsOriginPlugin, SpatialQueryPlugin,
};
use std::time::Duration;

/// What the scene spawned, by feature.
struct Spawned {
    /// A pyramid on the ground, far from everything else: no feature touches it.
    pyramid: Vec<Entity>,
    /// A pendulum of three links hung from the world by joints.
    pendulum: Vec<Entity>,
    /// A character walking right, on its own stretch of ground.
    character: Entity,
    /// A ray cast down onto the ground.
    caster: Entity,
    /// A ball with collision events, dropped on the ground.
    ball: Entity,
}

fn spawn(world: &mut World) -> Spawned {
    world.spawn((
        RigidBody::Static,
        Collider::rectangle(200.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let mut pyramid = Vec::new();
    for row in 0..6 {
        for i in 0..6 - row {
            let x = -40.0 + (i as f32 - (5 - row) as f32 * 0.5) * 1.05;
            pyramid.push(
                world
                    .spawn((
                        RigidBody::Dynamic,
                        Collider::rectangle(1.0, 1.0),
                        Transform::from_xyz(x, 0.5 + row as f32, 0.0),
                    ))
                    .id(),
            );
        }
    }
    let hook = world
        .spawn((RigidBody::Static, Transform::from_xyz(0.0, 10.0, 0.0)))
        .id();
    let mut pendulum = Vec::new();
    for k in 0..3 {
        let link = world
            .spawn((
                RigidBody::Dynamic,
                Collider::capsule(0.1, 0.8),
                Transform::from_xyz(1.0 * k as f32 + 0.5, 10.0, 0.0)
                    .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
            ))
            .id();
        let anchor = Vec2::new(1.0 * k as f32, 10.0);
        let joint = Joint::revolute(pendulum.last().copied().unwrap_or(hook), link);
        world.spawn(joint.with_anchor(anchor));
        pendulum.push(link);
    }
    let character = world
        .spawn((
            RigidBody::Kinematic,
            Collider::capsule(0.3, 0.6),
            CharacterController::default(),
            CharacterVelocity(Vec2::new(2.0, 0.0)),
            Transform::from_xyz(30.0, 0.61, 0.0),
        ))
        .id();
    let caster = world
        .spawn((
            RayCaster::new(Vec2::ZERO, Vec2::NEG_Y).with_max_distance(20.0),
            Transform::from_xyz(-20.0, 5.0, 0.0),
        ))
        .id();
    let ball = world
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.4),
            CollisionEventsEnabled,
            Transform::from_xyz(15.0, 3.0, 0.0),
        ))
        .id();
    Spawned {
        pyramid,
        pendulum,
        character,
        caster,
        ball,
    }
}

/// The core pose and velocity bits of `bodies`.
fn bits(app: &bevy_app::App, bodies: &[Entity]) -> Vec<u32> {
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    let mut bits = Vec::new();
    for &e in bodies {
        let body = physics.body(e).expect("a core body");
        let xf = physics
            .game_frame()
            .pose_to_game(core.body_transform(body).unwrap());
        let v = core.linear_velocity(body).unwrap();
        let w = core.angular_velocity(body).unwrap();
        bits.extend([xf.p.x, xf.p.y, xf.q.c, xf.q.s, v.x, v.y, w].map(f32::to_bits));
    }
    bits
}

/// The App with `physics`, the scene spawned and stepped `STEPS` times.
fn run(physics: PluginGroupBuilder) -> (bevy_app::App, Spawned) {
    let mut app = support::app_from(physics, true, Duration::from_secs_f64(1.0 / support::HZ));
    let spawned = spawn(app.world_mut());
    support::step(&mut app, STEPS);
    (app, spawned)
}

/// Two seconds: the pyramid settles, the ball lands, the pendulum swings.
const STEPS: u64 = 120;

fn all_plugins() -> PluginGroupBuilder {
    PhysicsPlugins::default().build()
}

/// What every feature not under test must still give.
fn assert_rest_as_before(reference: &(bevy_app::App, Spawned), app: &bevy_app::App, s: &Spawned) {
    let (ref_app, ref_s) = reference;
    assert_eq!(
        bits(app, &s.pyramid),
        bits(ref_app, &ref_s.pyramid),
        "the pyramid moved differently"
    );
    assert_eq!(
        bits(app, &[s.ball]),
        bits(ref_app, &[ref_s.ball]),
        "the ball moved differently"
    );
}

#[test]
fn without_joints_the_rest_steps_as_before_and_joints_are_left_unbuilt() {
    let reference = run(all_plugins());
    assert_eq!(
        reference
            .0
            .world()
            .resource::<PhysicsWorld>()
            .core()
            .joint_count(),
        3
    );
    let (app, s) = run(all_plugins().disable::<JointPlugin>());
    assert_rest_as_before(&reference, &app, &s);
    assert_eq!(
        app.world().resource::<PhysicsWorld>().core().joint_count(),
        0
    );
    // Unjointed, the links fell from 10 m to the ground.
    let y = app
        .world()
        .get::<Transform>(s.pendulum[0])
        .unwrap()
        .translation
        .y;
    assert!(y < 1.0, "{y}");
    assert_eq!(
        bits(&app, &[s.character]),
        bits(&reference.0, &[reference.1.character])
    );
}

#[test]
fn without_collision_events_the_rest_steps_as_before_and_no_event_is_sent() {
    let reference = run(all_plugins());
    let (app, s) = run(all_plugins().disable::<CollisionEventsPlugin>());
    assert_rest_as_before(&reference, &app, &s);
    assert!(
        !app.world()
            .contains_resource::<bevy_ecs::message::Messages<CollisionStart>>(),
        "collision messages registered without the events plugin"
    );
    assert_eq!(
        bits(&app, &s.pendulum),
        bits(&reference.0, &reference.1.pendulum)
    );
}

#[test]
fn collision_events_are_sent_with_the_events_plugin() {
    // The counterpart of the test above: the same ball does send its start with the plugin.
    let mut app = support::app();
    let s = spawn(app.world_mut());
    let mut cursor = bevy_ecs::message::MessageCursor::<CollisionStart>::default();
    let mut starts = Vec::new();
    for _ in 0..STEPS {
        support::step(&mut app, 1);
        starts.extend(support::read(&mut app, &mut cursor));
    }
    assert!(
        starts
            .iter()
            .any(|e| e.collider1 == s.ball || e.collider2 == s.ball),
        "{starts:?}"
    );
}

#[test]
fn without_spatial_queries_the_rest_steps_as_before_and_casters_stay_empty() {
    let reference = run(all_plugins());
    assert_eq!(
        reference
            .0
            .world()
            .get::<RayHits>(reference.1.caster)
            .unwrap()
            .iter()
            .count(),
        1,
        "the reference caster sees the ground"
    );
    let (mut app, s) = run(all_plugins().disable::<SpatialQueryPlugin>());
    assert_rest_as_before(&reference, &app, &s);
    assert!(app.world().get::<RayHits>(s.caster).unwrap().is_empty());
    // The SpatialQuery parameter needs only the world.
    let hit = app
        .world_mut()
        .run_system_once(|query: SpatialQuery| {
            query.cast_ray(
                Vec2::new(-20.0, 5.0),
                Vec2::NEG_Y,
                20.0,
                &SpatialQueryFilter::default(),
            )
        })
        .unwrap();
    assert!(
        hit.is_some_and(|h| (h.distance - 5.0).abs() < 1e-3),
        "{hit:?}"
    );
}

#[test]
fn without_character_controllers_the_rest_steps_as_before_and_characters_stand() {
    let reference = run(all_plugins());
    let walked = reference
        .0
        .world()
        .get::<Transform>(reference.1.character)
        .unwrap()
        .translation
        .x;
    assert!(walked > 33.0, "the reference character walked to {walked}");
    let (app, s) = run(all_plugins().disable::<CharacterControllerPlugin>());
    assert_rest_as_before(&reference, &app, &s);
    let x = app
        .world()
        .get::<Transform>(s.character)
        .unwrap()
        .translation
        .x;
    assert_eq!(x, 30.0);
    assert_eq!(
        bits(&app, &s.pendulum),
        bits(&reference.0, &reference.1.pendulum)
    );
}

#[test]
fn without_interpolation_the_rest_steps_as_before_and_bodies_carry_no_poses() {
    let reference = run(all_plugins());
    assert!(
        reference
            .0
            .world()
            .get::<InterpolationPoses>(reference.1.ball)
            .is_some()
    );
    let (app, s) = run(all_plugins().disable::<PhysicsInterpolationPlugin>());
    assert_rest_as_before(&reference, &app, &s);
    assert!(app.world().get::<InterpolationPoses>(s.ball).is_none());
    assert_eq!(
        bits(&app, &s.pendulum),
        bits(&reference.0, &reference.1.pendulum)
    );
    assert_eq!(
        bits(&app, &[s.character]),
        bits(&reference.0, &[reference.1.character])
    );
}

#[test]
fn without_the_floating_origin_the_rest_steps_as_before_and_the_origin_stays() {
    let reference = run(all_plugins());
    assert!(reference.0.world().contains_resource::<PhysicsOrigin>());
    let (app, s) = run(all_plugins().disable::<PhysicsOriginPlugin>());
    assert_rest_as_before(&reference, &app, &s);
    assert_eq!(
        bits(&app, &s.pendulum),
        bits(&reference.0, &reference.1.pendulum)
    );
    assert!(!app.world().contains_resource::<PhysicsOrigin>());
    assert_eq!(
        app.world().resource::<PhysicsWorld>().origin(),
        bevy_physics2d::physics_core::position::Position::ZERO
    );
}
