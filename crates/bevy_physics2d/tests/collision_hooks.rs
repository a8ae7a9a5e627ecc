//! Collision hooks with ECS access: a pair filter and a contact modifier written as a
//! `SystemParam`, opted into per collider.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use std::time::Duration;
use support::step;

/// A platform that holds bodies only from above.
#[derive(Component)]
struct OneWay;

/// A body that passes through everything.
#[derive(Component)]
struct Ghost;

/// A surface whose contacts have no friction.
#[derive(Component)]
struct Ice;

/// The hooks of these tests: ghosts' pairs are refused; contacts with a one-way platform
/// are kept only while the other body is above the platform's top; ice has no friction.
#[derive(SystemParam)]
struct TestHooks<'w, 's> {
    one_way: Query<'w, 's, &'static Transform, With<OneWay>>,
    ghosts: Query<'w, 's, (), With<Ghost>>,
    ice: Query<'w, 's, (), With<Ice>>,
    bodies: Query<'w, 's, &'static Transform, With<RigidBody>>,
}

/// Half the thickness of the platforms.
const PLATFORM_HALF: f32 = 0.1;
/// Radius of the balls.
const BALL: f32 = 0.25;

impl CollisionHooks for TestHooks<'_, '_> {
    fn filter_pairs(&self, a: Entity, b: Entity, _: &mut Commands) -> bool {
        !self.ghosts.contains(a) && !self.ghosts.contains(b)
    }

    fn modify_contacts(&self, contact: &mut ContactPair, _: &mut Commands) -> bool {
        if self.ice.contains(contact.collider1) || self.ice.contains(contact.collider2) {
            contact.friction = 0.0;
        }
        let (platform, other) = if self.one_way.contains(contact.collider1) {
            (contact.collider1, contact.collider2)
        } else if self.one_way.contains(contact.collider2) {
            (contact.collider2, contact.collider1)
        } else {
            return true;
        };
        let (Ok(p), Ok(o)) = (self.one_way.get(platform), self.bodies.get(other)) else {
            return true;
        };
        // Above the top face (with a little slop for resting contact): solid. Otherwise the
        // body is passing through from below or the side.
        o.translation.y - BALL > p.translation.y + PLATFORM_HALF - 0.05
    }
}

fn app() -> App {
    support::app_from(
        PhysicsPlugins::default().with_collision_hooks::<TestHooks>(),
        false,
        Duration::from_secs_f64(1.0 / support::HZ),
    )
}

fn y(app: &App, e: Entity) -> f32 {
    app.world().get::<Transform>(e).unwrap().translation.y
}

fn platform(app: &mut App, at: Vec2, hooks: bool) -> Entity {
    let mut e = app.world_mut().spawn((
        OneWay,
        RigidBody::Static,
        Collider::rectangle(4.0, 2.0 * PLATFORM_HALF),
        Transform::from_xyz(at.x, at.y, 0.0),
    ));
    if hooks {
        e.insert(ActiveCollisionHooks::MODIFY_CONTACTS);
    }
    e.id()
}

fn ball(app: &mut App, at: Vec2, velocity: Vec2) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(BALL),
            LinearVelocity(velocity),
            Transform::from_xyz(at.x, at.y, 0.0),
        ))
        .id()
}

#[test]
fn a_one_way_hook_lets_a_ball_up_through_the_platform_and_holds_it_on_top() {
    let mut app = app();
    let top = 3.0 + PLATFORM_HALF;
    platform(&mut app, Vec2::new(0.0, 3.0), true);
    // Thrown up from below: v^2 / 2g = 64 / 20 = 3.2 m, so it rises from 1 m to 4.2 m,
    // through the platform, and falls back onto it.
    let up = ball(&mut app, Vec2::new(0.0, 1.0), Vec2::new(0.0, 8.0));
    // Dropped from above: lands and stays.
    let down = ball(&mut app, Vec2::new(1.0, 5.0), Vec2::ZERO);
    let mut highest = f32::MIN;
    for _ in 0..150 {
        step(&mut app, 1);
        highest = highest.max(y(&app, up));
    }
    assert!(
        highest > top + 0.8,
        "it never passed the platform: {highest}"
    );
    for (name, e) in [("thrown up", up), ("dropped", down)] {
        let rest = y(&app, e);
        assert!(
            (rest - (top + BALL)).abs() < 0.02,
            "the ball {name} should rest on the platform's top at {}, is at {rest}",
            top + BALL
        );
    }
}

#[test]
fn without_the_opt_in_the_hook_is_not_asked_and_the_platform_blocks_from_below() {
    let mut app = app();
    platform(&mut app, Vec2::new(0.0, 3.0), false);
    let up = ball(&mut app, Vec2::new(0.0, 1.0), Vec2::new(0.0, 8.0));
    let mut highest = f32::MIN;
    for _ in 0..60 {
        step(&mut app, 1);
        highest = highest.max(y(&app, up));
    }
    assert!(highest < 3.0 - PLATFORM_HALF, "it went through: {highest}");
}

#[test]
fn a_refused_pair_never_collides() {
    let mut app = app();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(20.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let ghost = ball(&mut app, Vec2::new(0.0, 2.0), Vec2::ZERO);
    app.world_mut()
        .entity_mut(ghost)
        .insert((Ghost, ActiveCollisionHooks::FILTER_PAIRS));
    let solid = ball(&mut app, Vec2::new(3.0, 2.0), Vec2::ZERO);
    step(&mut app, 90);
    assert!(y(&app, ghost) < -2.0, "the ghost should fall through");
    assert!((y(&app, solid) - BALL).abs() < 0.02, "the other ball lands");
}

#[test]
fn a_modified_friction_lets_a_box_slide_on() {
    let mut app = app();
    let ground = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(40.0, 1.0),
            Friction(1.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id();
    let slide = |app: &mut App, x: f32| {
        app.world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::rectangle(0.5, 0.5),
                Friction(1.0),
                LinearVelocity(Vec2::new(3.0, 0.0)),
                Transform::from_xyz(x, 0.25, 0.0),
            ))
            .id()
    };
    let (on_ice, on_rubber) = (slide(&mut app, -10.0), slide(&mut app, 5.0));
    app.world_mut()
        .entity_mut(on_ice)
        .insert((Ice, ActiveCollisionHooks::MODIFY_CONTACTS));
    let _ = ground;
    step(&mut app, 60);
    let speed = |app: &App, e| app.world().get::<LinearVelocity>(e).unwrap().0.x;
    // Friction 1 stops a 3 m/s box in 0.3 s; with the hook's zero friction it keeps 3 m/s.
    assert!((speed(&app, on_ice) - 3.0).abs() < 1e-3);
    assert!(speed(&app, on_rubber).abs() < 1e-3);
}

/// The one-way scene with balls thrown up through two platforms and dropped on them.
fn busy_scene(app: &mut App) {
    platform(app, Vec2::new(0.0, 3.0), true);
    platform(app, Vec2::new(1.0, 5.0), true);
    for i in 0..6 {
        let x = -1.5 + 0.6 * i as f32;
        ball(app, Vec2::new(x, 0.5), Vec2::new(0.3, 7.0 + 0.5 * i as f32));
        ball(app, Vec2::new(x, 8.0), Vec2::ZERO);
    }
}

fn hash(app: &App) -> u64 {
    app.world().resource::<PhysicsWorld>().state_hash()
}

#[test]
fn hooked_steps_are_deterministic_and_replay_the_same_after_a_rollback() {
    let run = || {
        let mut app = app();
        busy_scene(&mut app);
        step(&mut app, 120);
        hash(&app)
    };
    assert_eq!(run(), run(), "two runs of the same hooked scene differ");
    // Rolled back as bevy_ggrs would: the physics world and the components the hook reads
    // (the bodies' transforms and velocities) restored to step 20, while balls are passing
    // up through the platforms and the hook's answers change, then 25 steps again.
    let mut app = app();
    busy_scene(&mut app);
    step(&mut app, 20);
    let snapshot = app.world().resource::<PhysicsWorld>().save_snapshot();
    let mut bodies = app
        .world_mut()
        .query::<(Entity, &Transform, &LinearVelocity, &AngularVelocity)>();
    let saved: Vec<(Entity, Transform, LinearVelocity, AngularVelocity)> = bodies
        .iter(app.world())
        .map(|(e, t, v, w)| (e, *t, *v, *w))
        .collect();
    // The state after each step, by step number (the fixed clock is not rolled back, so an
    // update may take a different number of steps in the replay).
    let record = |app: &mut App, steps: u64| {
        let mut states = std::collections::BTreeMap::new();
        for _ in 0..steps {
            step(app, 1);
            let physics = app.world().resource::<PhysicsWorld>();
            states.insert(physics.step_count(), physics.state_hash());
        }
        states
    };
    let straight = record(&mut app, 25);
    app.world_mut()
        .resource_mut::<PhysicsWorld>()
        .restore_snapshot(&snapshot)
        .unwrap();
    for (e, t, v, w) in saved {
        app.world_mut().entity_mut(e).insert((t, v, w));
    }
    let replay = record(&mut app, 25);
    assert_eq!(replay, straight, "the replay after the rollback differs");
}
