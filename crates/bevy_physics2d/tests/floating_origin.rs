//! The floating origin: the game's `Transform`s are measured from `PhysicsOrigin`, which the
//! game moves or which follows the `FloatingOrigin` entity.
//!
//! - A scene built 10,000 km out through the plugin moves, in the game's coordinates, as the
//!   same scene built at the origin (the `large-world` build; the float build cannot, and the
//!   test shows it).
//! - Following an entity moves the origin without touching the physics (the same core bits
//!   as a run whose origin never moves), and without a jump in anything the game sees:
//!   bodies, interpolated poses, other root entities, joints anchored to the world, mouse
//!   targets.
//!
//! Run the `large-world` build with `cargo test -p bevy_physics2d --features large-world`.

mod support;

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::JointAnchor;
use bevy_physics2d::physics_core::position::{
    LARGE_WORLD, Position, offset, relative, to_position,
};
use bevy_physics2d::prelude::*;
use std::time::Duration;
use support::{step, steps_taken};

/// 10,000 km out along both axes, where a float's step is a metre.
fn far() -> Position {
    offset(to_position(Vec2::ZERO), Vec2::new(1.0e7, -1.0e7))
}

/// A ground and a 20-box tower standing on it, in the game's coordinates.
fn tower(app: &mut App) -> Vec<Entity> {
    support::ground(app);
    (0..20)
        .map(|i| support::spawn_box(app, 0.0, 0.5 + i as f32))
        .collect()
}

/// The translations of `bodies` in the game's coordinates.
fn places(app: &App, bodies: &[Entity]) -> Vec<Vec2> {
    bodies
        .iter()
        .map(|&b| {
            app.world()
                .get::<Transform>(b)
                .unwrap()
                .translation
                .truncate()
        })
        .collect()
}

/// The largest gap between two runs' places, over every step.
fn largest_gap(a: &[Vec<Vec2>], b: &[Vec<Vec2>]) -> f32 {
    a.iter()
        .zip(b)
        .flat_map(|(sa, sb)| sa.iter().zip(sb).map(|(p, q)| p.distance(*q)))
        .fold(0.0, f32::max)
}

/// The tower built with the origin at `origin`, stepped ten seconds: its places every step.
fn tower_run(origin: Option<Position>) -> Vec<Vec<Vec2>> {
    let mut app = support::app();
    if let Some(origin) = origin {
        app.world_mut()
            .resource_mut::<PhysicsOrigin>()
            .move_to(origin);
        step(&mut app, 1);
        assert_eq!(app.world().resource::<PhysicsWorld>().origin(), origin);
    }
    let bodies = tower(&mut app);
    (0..600)
        .map(|_| {
            step(&mut app, 1);
            places(&app, &bodies)
        })
        .collect()
}

#[test]
fn a_tower_built_ten_thousand_kilometres_out_stands_as_at_the_origin() {
    let near = tower_run(None);
    let gap = largest_gap(&near, &tower_run(Some(far())));
    eprintln!("tower 10,000 km out: {gap} m from the origin run");
    if LARGE_WORLD {
        // Double positions round by 2e-9 m there; the float solve absorbs it (the core's
        // `tests/large_world.rs` finds under 2e-6 m). A tenth of a millimetre is a margin.
        assert!(gap < 1.0e-4, "the far tower strays {gap} m");
    } else {
        // Float positions a metre apart: the tower cannot stand as it does at the origin.
        assert!(
            gap > 1.0e-2,
            "the float build's far tower strays only {gap} m"
        );
    }
}

/// Moves the camera onto the ship every frame, as a game's camera system would.
#[derive(Component)]
struct Ship;

#[derive(Component)]
struct Camera;

fn follow_ship(
    ship: Single<&Transform, (With<Ship>, Without<Camera>)>,
    mut camera: Single<&mut Transform, (With<Camera>, Without<Ship>)>,
) {
    camera.translation = ship.translation;
}

/// What a flight scene spawned.
struct Flight {
    ship: Entity,
    /// A pendulum hung from a world point, swinging.
    bob: Entity,
    /// A sign: a root entity without physics.
    sign: Entity,
    /// The pendulum's joint.
    joint: Entity,
}

/// A ship flying right at 150 m/s with no gravity for 20 s (3 km), a pendulum hung from the
/// world near the start, and a sign beside it; the camera follows the ship and, with
/// `follow`, so does the origin (every 500 m). Two frames per physics step, so
/// interpolation blends between steps.
fn flight(follow: bool) -> (App, Flight, Vec<(Position, Position)>) {
    let mut app = support::app_with(true, Duration::from_secs_f64(0.5 / support::HZ));
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
    app.world_mut()
        .resource_mut::<PhysicsOrigin>()
        .recenter_distance = 500.0;
    app.add_systems(Update, follow_ship);
    let ship = app
        .world_mut()
        .spawn((
            Ship,
            RigidBody::Dynamic,
            Collider::circle(0.5),
            LinearVelocity(Vec2::new(150.0, 0.0)),
            Transform::from_xyz(0.0, 0.0, 0.0),
        ))
        .id();
    let mut camera = app.world_mut().spawn((Camera, Transform::default()));
    if follow {
        camera.insert(FloatingOrigin);
    }
    let bob = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.3),
            Transform::from_xyz(12.0, 10.0, 0.0),
        ))
        .id();
    let joint = app
        .world_mut()
        .spawn(Joint::revolute(Entity::PLACEHOLDER, bob).with_anchor(Vec2::new(10.0, 12.0)))
        .id();
    // With no gravity, the pendulum swings from a push.
    app.world_mut().get_mut::<LinearVelocity>(bob).unwrap().0 = Vec2::new(0.0, 3.0);
    let sign = app
        .world_mut()
        .spawn(Transform::from_xyz(-5.0, 2.0, 0.0))
        .id();
    // Every frame: where the game sees the ship and the sign, in the world.
    let mut seen = Vec::new();
    step(&mut app, 1);
    let built = app.world().resource::<PhysicsWorld>().joint(joint);
    assert!(built.is_some());
    let end = steps_taken(&app) + 1200;
    while steps_taken(&app) < end {
        app.update();
        let physics = app.world().resource::<PhysicsWorld>();
        let at = |e: Entity| {
            let t = app.world().get::<Transform>(e).unwrap().translation;
            physics.to_world(t.truncate())
        };
        seen.push((at(ship), at(sign)));
    }
    // A parameter changed after the moves still keeps the joint: its anchor moved with the
    // origin in the component and in the plugin's copy alike.
    app.world_mut()
        .get_mut::<Joint>(joint)
        .unwrap()
        .set_motor_speed(0.0)
        .unwrap();
    step(&mut app, 1);
    let kept = app.world().resource::<PhysicsWorld>().joint(joint);
    assert_eq!(kept, built, "the joint was rebuilt");
    (
        app,
        Flight {
            ship,
            bob,
            sign,
            joint,
        },
        seen,
    )
}

#[test]
fn following_an_entity_moves_the_origin_and_nothing_the_game_sees_jumps() {
    let (still, _, still_seen) = flight(false);
    let (moving, f, seen) = flight(true);
    let physics = moving.world().resource::<PhysicsWorld>();
    let origin = physics.origin();
    // The origin followed the ship: it flew 3 km, and is within 500 m of the origin now.
    assert!(origin.x > 2000.0, "the origin stayed at {origin}");
    let ship = moving.world().get::<Transform>(f.ship).unwrap().translation;
    assert!(
        ship.truncate().length() < 520.0,
        "the ship is {ship} from (0, 0)"
    );
    // The physics did not notice: the same bits as with the origin left where it was.
    assert_eq!(
        physics.state_hash(),
        still.world().resource::<PhysicsWorld>().state_hash(),
        "moving the origin changed the simulation"
    );
    // The pendulum kept its joint and its arm, though its world anchor is now a game point
    // 2 km behind the origin.
    let joint = moving.world().get::<Joint>(f.joint).unwrap();
    assert!(
        matches!(joint.anchor, JointAnchor::World(p) if p.x < -2000.0),
        "{:?}",
        joint.anchor
    );
    let bob = moving.world().get::<Transform>(f.bob).unwrap().translation;
    let swing = physics.to_world(bob.truncate());
    let anchor = offset(to_position(Vec2::ZERO), Vec2::new(10.0, 12.0));
    let arm = relative(swing, anchor).length();
    assert!((arm - 8.0f32.sqrt()).abs() < 0.02, "the arm is {arm} m");
    // Every frame, the ship and the sign were where the still run saw them in the world:
    // the ship's shown pose (interpolated) continuous through every move of the origin,
    // the sign shifted with everything else.
    assert_eq!(seen.len(), still_seen.len());
    let mut worst_ship = 0.0f32;
    let mut worst_sign = 0.0f32;
    for ((ship, sign), (still_ship, still_sign)) in seen.iter().zip(&still_seen) {
        worst_ship = worst_ship.max(relative(*ship, *still_ship).length());
        worst_sign = worst_sign.max(relative(*sign, *still_sign).length());
    }
    // Float `Transform`s near 500 m round to 3e-5 m; the still run's, 3 km out, to 2.4e-4.
    assert!(worst_ship < 1.0e-3, "the ship was shown {worst_ship} m off");
    assert!(worst_sign < 1.0e-3, "the sign was {worst_sign} m off");
    let sign = moving.world().get::<Transform>(f.sign).unwrap().translation;
    assert!(
        sign.x < -2000.0,
        "the sign did not move with the origin: {sign}"
    );
}

#[test]
fn a_requested_move_shifts_every_root_by_it_at_the_next_step() {
    let mut app = support::app();
    let ball = support::spawn_dynamic(&mut app, Collider::circle(0.5), 3.0, 4.0);
    let sign = app
        .world_mut()
        .spawn(Transform::from_xyz(-1.0, 1.0, 0.0))
        .id();
    step(&mut app, 1);
    let before = app.world().get::<Transform>(ball).unwrap().translation;
    app.world_mut()
        .resource_mut::<PhysicsOrigin>()
        .move_by(Vec2::new(100.0, -50.0));
    assert!(app.world().resource::<PhysicsOrigin>().is_moving());
    step(&mut app, 1);
    let physics = app.world().resource::<PhysicsWorld>();
    let origin = physics.origin();
    assert_eq!(
        origin,
        offset(to_position(Vec2::ZERO), Vec2::new(100.0, -50.0))
    );
    let sign = app.world().get::<Transform>(sign).unwrap().translation;
    assert_eq!(sign.truncate(), Vec2::new(-101.0, 51.0));
    // The ball fell one step meanwhile: in the game's coordinates it is 100 m left and 50 m
    // up of where it was, less that step.
    let now = app.world().get::<Transform>(ball).unwrap().translation;
    let moved = now - before + bevy_math::Vec3::new(100.0, -50.0, 0.0);
    assert!(
        moved.x.abs() < 1e-4 && moved.y < 0.0 && moved.y > -0.02,
        "{moved}"
    );
    assert!(!app.world().resource::<PhysicsOrigin>().is_moving());
}

/// A mouse joint's target is a game point too: when the origin moves, the component's
/// target moves with it, so a drag from there (the target set from the component's) pulls
/// toward the world point the game means.
#[test]
fn a_mouse_target_names_the_same_world_point_after_the_origin_moves() {
    use bevy_physics2d::physics_core::joint::JointKind;
    use bevy_physics2d::physics_core::position::to_vec2;
    let mut app = support::app();
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
    let ball = support::spawn_dynamic(&mut app, Collider::circle(0.5), 0.0, 0.0);
    // Grabbed at its centre.
    let joint = app.world_mut().spawn(Joint::mouse(ball, Vec2::ZERO)).id();
    step(&mut app, 1);
    let built = app.world().resource::<PhysicsWorld>().joint(joint).unwrap();
    app.world_mut()
        .resource_mut::<PhysicsOrigin>()
        .move_by(Vec2::new(100.0, 0.0));
    step(&mut app, 1);
    // The grabbed point is now 100 m left of the game's (0, 0); dragged 5 m right of it.
    let mut component = app.world_mut().get_mut::<Joint>(joint).unwrap();
    let JointKind::Mouse(mouse) = component.kind else {
        panic!("not a mouse joint");
    };
    let grabbed = to_vec2(mouse.target);
    assert_eq!(grabbed, Vec2::new(-100.0, 0.0));
    component.set_target(grabbed + Vec2::new(5.0, 0.0)).unwrap();
    step(&mut app, 120);
    let physics = app.world().resource::<PhysicsWorld>();
    assert_eq!(physics.joint(joint), Some(built), "the joint was rebuilt");
    let JointKind::Mouse(core) = physics.core().joint_def(built).unwrap().kind else {
        panic!("not a mouse joint in the core");
    };
    let world_target = relative(core.target, to_position(Vec2::ZERO));
    assert!(
        world_target.distance(Vec2::new(5.0, 0.0)) < 1e-4,
        "{world_target}"
    );
    // Two seconds of a 5 Hz spring: the ball is at the target in the world.
    let shown = app.world().get::<Transform>(ball).unwrap().translation;
    let at = relative(physics.to_world(shown.truncate()), to_position(Vec2::ZERO));
    assert!(
        at.distance(Vec2::new(5.0, 0.0)) < 0.01,
        "the ball is at {at}"
    );
}
