//! Body control through components: axis locks, dominance, sleep settings, disabling bodies
//! and colliders, forces at points and in local space, and the computed mass properties.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Quat;
use bevy_math::Vec2;
use bevy_physics2d::PhysicsBody;
use bevy_physics2d::prelude::*;
use std::f32::consts::PI;
use support::app;
use support::dt;
use support::ground;
use support::step;

fn no_gravity(app: &mut App) {
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
}

fn position(app: &App, e: Entity) -> Vec2 {
    let id = app.world().get::<PhysicsBody>(e).unwrap().id();
    let physics = app.world().resource::<PhysicsWorld>();
    physics.to_game(physics.core().body_center_of_mass(id).unwrap())
}

fn velocity(app: &App, e: Entity) -> Vec2 {
    app.world().get::<LinearVelocity>(e).unwrap().0
}

fn spin(app: &App, e: Entity) -> f32 {
    app.world().get::<AngularVelocity>(e).unwrap().0
}

#[test]
fn locked_axes_hold_x_under_a_sideways_push() {
    let mut app = app();
    ground(&mut app);
    // A crate locked along x, hit from the side by a heavy ball and pushed by a force, with
    // its rotation free and y free: it must keep x to the micrometre and still fall and land.
    let locked = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            LockedAxes::new().lock_translation_x(),
            ExternalForce::new(Vec2::new(30.0, 0.0)),
            Transform::from_xyz(0.0, 3.0, 0.0),
        ))
        .id();
    app.world_mut().spawn((
        RigidBody::Dynamic,
        Collider::circle(0.5),
        ColliderDensity(20.0),
        LinearVelocity(Vec2::new(8.0, 0.0)),
        Transform::from_xyz(-4.0, 0.5, 0.0),
    ));
    step(&mut app, 1);
    let x0 = position(&app, locked).x;
    let mut least_y = f32::INFINITY;
    for _ in 0..180 {
        step(&mut app, 1);
        let p = position(&app, locked);
        assert!(
            (p.x - x0).abs() < 1e-6,
            "the locked crate moved along x: {} -> {}",
            x0,
            p.x
        );
        assert_eq!(
            velocity(&app, locked).x,
            0.0,
            "a locked axis reports no speed"
        );
        least_y = least_y.min(p.y);
    }
    // y is free: it fell from 3 m and rests on the ground (half height 0.5 m).
    assert!(least_y < 0.6, "it did not fall: lowest {least_y}");
}

#[test]
fn without_the_lock_the_same_push_moves_the_crate() {
    // The counterpart of the test above: the same scene without the lock moves metres, so
    // the lock test measures the lock.
    let mut app = app();
    ground(&mut app);
    let free = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            ExternalForce::new(Vec2::new(30.0, 0.0)),
            Transform::from_xyz(0.0, 3.0, 0.0),
        ))
        .id();
    step(&mut app, 1);
    let x0 = position(&app, free).x;
    step(&mut app, 120);
    assert!((position(&app, free).x - x0).abs() > 1.0);
}

#[test]
fn a_rotation_lock_keeps_the_angle_and_both_translation_locks_keep_the_place() {
    let mut app = app();
    ground(&mut app);
    let pinned = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(2.0, 0.2),
            LockedAxes::TRANSLATION_LOCKED,
            Transform::from_xyz(0.0, 3.0, 0.0),
        ))
        .id();
    let upright = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(0.4, 2.0),
            LockedAxes::ROTATION_LOCKED,
            ExternalForce::new(Vec2::ZERO).with_torque(50.0),
            Transform::from_xyz(5.0, 1.0, 0.0),
        ))
        .id();
    // A ball lands on one end of the pinned plank: it turns about its centre, in place.
    app.world_mut().spawn((
        RigidBody::Dynamic,
        Collider::circle(0.2),
        Transform::from_xyz(0.8, 5.0, 0.0),
    ));
    step(&mut app, 1);
    let start = position(&app, pinned);
    step(&mut app, 120);
    assert!((position(&app, pinned) - start).length() < 1e-6);
    let turned = app.world().get::<Transform>(pinned).unwrap().rotation;
    assert!(
        turned.angle_between(Quat::IDENTITY) > 0.05,
        "the plank should tip"
    );
    let angle = app.world().get::<Transform>(upright).unwrap().rotation;
    assert!(angle.angle_between(Quat::IDENTITY) < 1e-6);
    assert_eq!(spin(&app, upright), 0.0);
}

#[test]
fn a_dominant_body_is_not_pushed_back_by_a_heavier_one() {
    let mut app = app();
    no_gravity(&mut app);
    // A 1 kg-ish ball at 4 m/s into a crate 100 times heavier. With dominance the ball meets
    // the crate as a static body would: the ball keeps its velocity exactly (no impulse of
    // the pair reaches it) and the crate is driven ahead at the ball's speed.
    let spawn_pair = |app: &mut App, dominance: i8| {
        let ball = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::circle(0.5),
                Restitution(0.0),
                Dominance(dominance),
                LinearVelocity(Vec2::new(4.0, 0.0)),
                Transform::from_xyz(-3.0, 0.0, 0.0),
            ))
            .id();
        let heavy = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::rectangle(1.0, 1.0),
                Mass::new(100.0 * PI * 0.25),
                Transform::from_xyz(0.0, 0.0, 0.0),
            ))
            .id();
        (ball, heavy)
    };
    let (ball, heavy) = spawn_pair(&mut app, 1);
    step(&mut app, 90);
    let (vb, vh) = (velocity(&app, ball), velocity(&app, heavy));
    assert!((vb.x - 4.0).abs() < 1e-4, "the dominant ball slowed: {vb}");
    assert!(
        (vh.x - 4.0).abs() < 0.05,
        "the crate should be driven at the ball's speed: {vh}"
    );
    // Equal dominance: momentum is shared, the ball nearly stops (4 / 101 m/s together).
    let mut app = support::app();
    no_gravity(&mut app);
    let (ball, _) = spawn_pair(&mut app, 0);
    step(&mut app, 90);
    assert!(velocity(&app, ball).x < 0.1);
}

#[test]
fn sleeping_disabled_keeps_a_resting_body_awake_and_a_threshold_puts_a_slow_one_to_sleep() {
    let mut app = app();
    ground(&mut app);
    let sleeper = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Transform::from_xyz(-5.0, 0.5, 0.0),
        ))
        .id();
    let insomniac = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            SleepingDisabled,
            Transform::from_xyz(5.0, 0.5, 0.0),
        ))
        .id();
    step(&mut app, 180);
    assert!(app.world().get::<Sleeping>(sleeper).is_some());
    assert!(app.world().get::<Sleeping>(insomniac).is_none());
    // A puck gliding at 0.2 m/s on ice: awake under the default 0.05 m/s threshold, asleep
    // within a second under a 0.3 m/s threshold of its own.
    let mut app = support::app();
    no_gravity(&mut app);
    let glide = |app: &mut App, threshold: Option<f32>| {
        let mut e = app.world_mut().spawn((
            RigidBody::Dynamic,
            Collider::circle(0.2),
            LinearVelocity(Vec2::new(0.2, 0.0)),
            Transform::from_xyz(0.0, 0.0, 0.0),
        ));
        if let Some(t) = threshold {
            e.insert(SleepThreshold(t));
        }
        e.id()
    };
    let (plain, drowsy) = (glide(&mut app, None), glide(&mut app, Some(0.3)));
    app.world_mut()
        .entity_mut(drowsy)
        .insert(Transform::from_xyz(0.0, 3.0, 0.0));
    step(&mut app, 60);
    assert!(app.world().get::<Sleeping>(plain).is_none());
    assert!(app.world().get::<Sleeping>(drowsy).is_some());
}

#[test]
fn a_disabled_body_stops_and_lets_others_through_then_comes_back_with_its_joint() {
    let mut app = app();
    no_gravity(&mut app);
    let anchor = app
        .world_mut()
        .spawn((RigidBody::Static, Transform::from_xyz(0.0, 0.0, 0.0)))
        .id();
    let bob = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            LinearVelocity(Vec2::new(0.0, 1.0)),
            Transform::from_xyz(2.0, 0.0, 0.0),
        ))
        .id();
    app.world_mut()
        .spawn(Joint::revolute(anchor, bob).with_anchor(Vec2::ZERO));
    // A ball flying through where the bob is.
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.2),
            LinearVelocity(Vec2::new(0.0, -2.0)),
            Transform::from_xyz(2.0, 3.0, 0.0),
        ))
        .id();
    step(&mut app, 2);
    app.world_mut().entity_mut(bob).insert(RigidBodyDisabled);
    step(&mut app, 1);
    let held = app.world().get::<Transform>(bob).unwrap().translation;
    assert_eq!(
        app.world().resource::<PhysicsWorld>().core().joint_count(),
        0
    );
    step(&mut app, 120);
    assert_eq!(app.world().get::<Transform>(bob).unwrap().translation, held);
    // The ball went straight through the disabled bob.
    assert!(app.world().get::<Transform>(ball).unwrap().translation.y < -1.0);
    assert!((velocity(&app, ball).y + 2.0).abs() < 1e-5);
    app.world_mut()
        .entity_mut(bob)
        .remove::<RigidBodyDisabled>();
    step(&mut app, 60);
    let core = app.world().resource::<PhysicsWorld>().core();
    assert_eq!(core.joint_count(), 1, "the joint is built again");
    // On its joint again it swings about the anchor, 2 m away.
    let p = position(&app, bob);
    assert!((p.length() - 2.0).abs() < 0.01, "off its circle: {p}");
    assert!(p.distance(held.truncate()) > 0.1, "it moves again");
}

#[test]
fn a_disabled_collider_lets_a_ball_fall_through_until_enabled() {
    let mut app = app();
    let floor = ground(&mut app);
    let ball = support::spawn_dynamic(&mut app, Collider::circle(0.25), 0.0, 2.0);
    app.world_mut().entity_mut(floor).insert(ColliderDisabled);
    step(&mut app, 60);
    assert!(app.world().get::<Transform>(ball).unwrap().translation.y < -1.0);
    let dropped = support::spawn_dynamic(&mut app, Collider::circle(0.25), 3.0, 2.0);
    app.world_mut()
        .entity_mut(floor)
        .remove::<ColliderDisabled>();
    step(&mut app, 120);
    let y = app.world().get::<Transform>(dropped).unwrap().translation.y;
    assert!((y - 0.25).abs() < 0.02, "the floor is back: {y}");
}

#[test]
fn a_force_at_a_point_turns_the_body_by_r_cross_f() {
    let mut app = app();
    no_gravity(&mut app);
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(2.0, 1.0),
            Transform::from_xyz(1.0, 2.0, 0.0),
        ))
        .id();
    step(&mut app, 1);
    let inertia = app
        .world()
        .get::<ComputedAngularInertia>(body)
        .unwrap()
        .get();
    let mass = app.world().get::<ComputedMass>(body).unwrap().get();
    // F = (0, 10) N at 1 m to the right of the centre of mass: r x F = 1 * 10 = 10 N m.
    let mut forces = app.world_mut().query::<(Forces, &Transform)>();
    let (mut f, t) = forces.get_mut(app.world_mut(), body).unwrap();
    let point = t.translation.truncate() + Vec2::new(1.0, 0.0);
    f.apply_force_at_point(Vec2::new(0.0, 10.0), point);
    step(&mut app, 1);
    let h = dt(&app);
    let expected = 10.0 * h / inertia;
    assert!(
        (spin(&app, body) - expected).abs() < 1e-4,
        "spin {} for torque 10 over {h} s (expected {expected})",
        spin(&app, body)
    );
    assert!((velocity(&app, body).y - 10.0 * h / mass).abs() < 1e-4);
    // One-shot: the next step adds nothing.
    let before = spin(&app, body);
    step(&mut app, 1);
    assert!((spin(&app, body) - before).abs() < 1e-6);
}

#[test]
fn local_forces_and_impulses_turn_with_the_body() {
    let mut app = app();
    no_gravity(&mut app);
    // Turned a quarter turn: its own +y is the world's -x.
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::from_xyz(0.0, 0.0, 0.0).with_rotation(Quat::from_rotation_z(PI / 2.0)),
        ))
        .id();
    step(&mut app, 1);
    let mass = app.world().get::<ComputedMass>(body).unwrap().get();
    let mut forces = app.world_mut().query::<Forces>();
    forces
        .get_mut(app.world_mut(), body)
        .unwrap()
        .apply_local_linear_impulse(Vec2::new(0.0, 2.0));
    step(&mut app, 1);
    let v = velocity(&app, body);
    assert!((v - Vec2::new(-2.0 / mass, 0.0)).length() < 1e-4, "{v}");
    // A persistent local force at a local point: a motor 1 m behind the centre pushing
    // along the body's +y gives no torque (the point is on the line of the force).
    let motor = ExternalForce::new(Vec2::new(0.0, 3.0))
        .local()
        .at_point(Vec2::new(0.0, -1.0));
    app.world_mut().entity_mut(body).insert(motor);
    let v0 = velocity(&app, body);
    step(&mut app, 30);
    let gained = velocity(&app, body) - v0;
    let h = dt(&app);
    assert!(
        (gained - Vec2::new(-3.0 * 30.0 * h / mass, 0.0)).length() < 1e-3,
        "{gained}"
    );
    assert!(spin(&app, body).abs() < 1e-5);
}

#[test]
fn computed_mass_follows_colliders_and_overrides() {
    let mut app = app();
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            ColliderDensity(2.0),
            Transform::from_xyz(0.0, 5.0, 0.0),
        ))
        .id();
    step(&mut app, 1);
    let mass = |app: &App| app.world().get::<ComputedMass>(body).unwrap().get();
    let area = PI * 0.25;
    assert!((mass(&app) - 2.0 * area).abs() < 1e-5);
    // Inertia of a disc about its centre: m r^2 / 2.
    let inertia = app
        .world()
        .get::<ComputedAngularInertia>(body)
        .unwrap()
        .get();
    assert!((inertia - 2.0 * area * 0.25 / 2.0).abs() < 1e-5);
    // A second collider as a child 1 m to the right: the centre of mass moves to halfway.
    let child = app
        .world_mut()
        .spawn((Collider::circle(0.5), Transform::from_xyz(1.0, 0.0, 0.0)))
        .id();
    app.world_mut().entity_mut(child).insert(ChildOf(body));
    step(&mut app, 1);
    let center = app.world().get::<ComputedCenterOfMass>(body).unwrap().get();
    // The child takes the body's density (2) as its own: equal masses, x halfway.
    assert!((center - Vec2::new(0.5, 0.0)).length() < 1e-5, "{center}");
    assert!((mass(&app) - 4.0 * area).abs() < 1e-5);
    app.world_mut().entity_mut(body).insert(Mass::new(70.0));
    step(&mut app, 1);
    assert_eq!(mass(&app), 70.0);
}

#[test]
fn regression_disabling_a_child_body_does_not_give_its_colliders_to_the_parent() {
    let mut app = app();
    let parent = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::rectangle(1.0, 1.0),
            Transform::default(),
        ))
        .id();
    let child = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.25),
            Transform::from_xyz(3.0, 0.0, 0.0),
            ChildOf(parent),
        ))
        .id();
    step(&mut app, 1);
    let shapes_of = |app: &App, e: Entity| {
        let physics = app.world().resource::<PhysicsWorld>();
        physics
            .body(e)
            .map_or(0, |b| physics.core().body_shapes(b).unwrap().len())
    };
    assert_eq!(shapes_of(&app, parent), 1);
    app.world_mut().entity_mut(child).insert(RigidBodyDisabled);
    step(&mut app, 2);
    assert_eq!(
        shapes_of(&app, parent),
        1,
        "the child's circle moved to the parent"
    );
    app.world_mut()
        .entity_mut(child)
        .remove::<RigidBodyDisabled>();
    step(&mut app, 2);
    assert_eq!((shapes_of(&app, parent), shapes_of(&app, child)), (1, 1));
}

#[test]
fn regression_locks_leave_kinematic_bodies_moving_as_told() {
    let mut app = app();
    let platform = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::rectangle(2.0, 0.2),
            LockedAxes::new().lock_translation_x(),
            LinearVelocity(Vec2::new(1.0, 0.0)),
            Transform::default(),
        ))
        .id();
    step(&mut app, 60);
    assert_eq!(velocity(&app, platform), Vec2::new(1.0, 0.0));
    assert!(position(&app, platform).x > 0.9);
}

#[test]
fn regression_a_bad_sleep_threshold_is_warned_about_and_the_body_still_built() {
    let mut app = app();
    let mut cursor = bevy_ecs::message::MessageCursor::<bevy_physics2d::PhysicsWarning>::default();
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            SleepThreshold(f32::NAN),
            Dominance(3),
            Transform::from_xyz(0.0, 3.0, 0.0),
        ))
        .id();
    step(&mut app, 2);
    let warned = support::read(&mut app, &mut cursor);
    assert!(
        warned
            .iter()
            .any(|w| w.entity == body && w.message.contains("sleep threshold")),
        "{warned:?}"
    );
    let physics = app.world().resource::<PhysicsWorld>();
    let id = physics.body(body).expect("the body is built");
    let (_, _, threshold, dominance) = physics.core().body_motion_settings(id).unwrap();
    assert_eq!(
        (threshold, dominance),
        (None, 3),
        "the other settings still apply"
    );
}

#[test]
fn regression_a_dynamic_body_without_colliders_reports_its_one_kilogram() {
    let mut app = app();
    let body = app
        .world_mut()
        .spawn((RigidBody::Dynamic, Transform::default()))
        .id();
    step(&mut app, 1);
    assert_eq!(app.world().get::<ComputedMass>(body).unwrap().get(), 1.0);
}

#[test]
fn fast_rotation_lifts_the_spin_limit_and_can_be_removed() {
    let mut app = app();
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
    let spin = |app: &mut App, fast: bool| {
        let x = if fast { 3.0 } else { -3.0 };
        let mut e = app.world_mut().spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 0.2),
            AngularVelocity(100.0),
            Transform::from_xyz(x, 0.0, 0.0),
        ));
        if fast {
            e.insert(FastRotation);
        }
        e.id()
    };
    let (plain, fast) = (spin(&mut app, false), spin(&mut app, true));
    step(&mut app, 1);
    let w = |app: &App, e: Entity| app.world().get::<AngularVelocity>(e).unwrap().0;
    // A quarter turn per step at the tests' 60 Hz: 15 pi rad/s.
    let limit = 0.25 * std::f32::consts::PI * 60.0;
    assert!((w(&app, plain) - limit).abs() < 1e-2, "{}", w(&app, plain));
    assert!((w(&app, fast) - 100.0).abs() < 1e-2, "{}", w(&app, fast));
    app.world_mut().entity_mut(fast).remove::<FastRotation>();
    step(&mut app, 1);
    assert!((w(&app, fast) - limit).abs() < 1e-2, "{}", w(&app, fast));
}
