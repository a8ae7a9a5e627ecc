//! Hostile input through the plugin: a million-body request beyond the settings' limit,
//! despawns in the middle of a frame, joints to despawned entities, and NaN or infinite values
//! written into components mid-game. Each is skipped with a warning naming the entity (or
//! simply handled), and a stack elsewhere in the world steps on bit for bit as in a run
//! without it.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::PhysicsSettings;
use bevy_physics2d::PhysicsWarning;
use bevy_physics2d::prelude::*;
use support::app;
use support::core_pose;
use support::ground_20m;
use support::read;
use support::spawn_box;
use support::spawn_dynamic;
use support::step;

/// A ground and a stack of five boxes: the bodies that must not notice the bad input.
fn spawn_stack(app: &mut App) -> Vec<Entity> {
    let w = app.world_mut();
    w.spawn((
        RigidBody::Static,
        Collider::rectangle(20.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    (0..5)
        .map(|i| {
            w.spawn((
                RigidBody::Dynamic,
                Collider::rectangle(1.0, 1.0),
                Transform::from_xyz(0.0, 0.5 + i as f32, 0.0),
            ))
            .id()
        })
        .collect()
}

/// The bits of the stack's poses and velocities.
fn state_bits(app: &App, stack: &[Entity]) -> Vec<u32> {
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    stack
        .iter()
        .flat_map(|&e| {
            let id = physics.body(e).expect("the stack's bodies exist");
            let xf = physics
                .game_frame()
                .pose_to_game(core.body_transform(id).unwrap());
            let v = core.linear_velocity(id).unwrap();
            let w = core.angular_velocity(id).unwrap();
            [xf.p.x, xf.p.y, xf.q.c, xf.q.s, v.x, v.y, w].map(f32::to_bits)
        })
        .collect()
}

#[test]
fn ten_thousand_bodies_beyond_the_limit_are_skipped_with_two_warnings() {
    // Ten thousand test the one summary warning as a million would, in a hundredth of the time.
    let run = |request: usize| {
        let mut app = app();
        app.world_mut().resource_mut::<PhysicsSettings>().max_bodies = 6;
        let stack = spawn_stack(&mut app);
        step(&mut app, 1);
        let mut cursor = MessageCursor::<PhysicsWarning>::default();
        read(&mut app, &mut cursor);
        let first = app
            .world_mut()
            .spawn_batch((0..request).map(|i| {
                (
                    RigidBody::Dynamic,
                    Collider::circle(0.25),
                    Transform::from_xyz((i % 1000) as f32, 5.0 + (i / 1000) as f32, 0.0),
                )
            }))
            .next();
        let mut warnings = Vec::new();
        for _ in 0..60 {
            step(&mut app, 1);
            warnings.extend(read(&mut app, &mut cursor));
        }
        let bodies = app.world().resource::<PhysicsWorld>().core().body_count();
        (state_bits(&app, &stack), warnings, bodies, first)
    };
    let (clean, none, clean_bodies, _) = run(0);
    assert!(none.is_empty(), "{none:?}");
    let (dirty, warnings, bodies, first) = run(10_000);
    assert_eq!(bodies, clean_bodies, "no body beyond the limit was created");
    assert_eq!(
        clean, dirty,
        "the stack steps on exactly as without the request"
    );
    // One warning for the first entity refused, one summing up the rest.
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert_eq!(Some(warnings[0].entity), first);
    assert!(
        warnings[0].message.contains("limit of 6 bodies"),
        "{warnings:?}"
    );
    assert!(warnings[1].message.contains("9999 more"), "{warnings:?}");
}

/// A system that despawns `victim` between the narrowphase and the solver of one step.
fn despawn_between_stages(app: &mut App, victim: Entity, at_step: u64) {
    app.add_systems(
        FixedPostUpdate,
        (move |mut commands: Commands, physics: Res<PhysicsWorld>| {
            if physics.step_count() == at_step {
                commands.entity(victim).despawn();
            }
        })
        .after(PhysicsSystems::Narrowphase)
        .before(PhysicsSystems::Solve),
    );
}

#[test]
fn despawning_in_the_middle_of_a_step_leaves_the_others_unchanged() {
    let run = |despawn: bool| {
        let mut app = app();
        let stack = spawn_stack(&mut app);
        // A ball resting on the ground away from the stack, touching it only through the
        // ground (a static body, which joins no island).
        let ball = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::circle(0.5),
                Transform::from_xyz(6.0, 0.5, 0.0),
            ))
            .id();
        if despawn {
            despawn_between_stages(&mut app, ball, 30);
        }
        step(&mut app, 90);
        (state_bits(&app, &stack), app, ball)
    };
    let (clean, _, _) = run(false);
    let (dirty, app, ball) = run(true);
    assert_eq!(clean, dirty, "the stack does not notice the despawn");
    let physics = app.world().resource::<PhysicsWorld>();
    assert!(physics.body(ball).is_none());
    assert_eq!(physics.core().body_count(), 6);
}

#[test]
fn despawning_a_body_with_contacts_mid_step_keeps_the_world_sound() {
    let mut app = app();
    let stack = spawn_stack(&mut app);
    despawn_between_stages(&mut app, stack[2], 20);
    step(&mut app, 120);
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    assert!(physics.body(stack[2]).is_none());
    assert_eq!(core.body_count(), 5);
    // The boxes above fell onto the one below: a stack of four, each box on the next.
    let mut heights: Vec<f32> = [0, 1, 3, 4]
        .iter()
        .map(|&i| {
            physics
                .to_game(core.body_position(physics.body(stack[i]).unwrap()).unwrap())
                .y
        })
        .collect();
    heights.sort_by(f32::total_cmp);
    for (i, h) in heights.iter().enumerate() {
        // Soft contacts settle within the linear slop (5 mm) per contact.
        assert!((h - (0.5 + i as f32)).abs() < 0.03, "box {i} at {h}");
    }
}

#[test]
fn joints_to_despawned_entities_and_bad_values_are_skipped_by_name() {
    let run = |hostile: bool| {
        let mut app = app();
        let stack = spawn_stack(&mut app);
        let victim = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::circle(0.5),
                Transform::from_xyz(-6.0, 3.0, 0.0),
            ))
            .id();
        step(&mut app, 10);
        let mut named = Vec::new();
        if hostile {
            let w = app.world_mut();
            let gone = w.spawn((RigidBody::Dynamic, Collider::circle(0.5))).id();
            w.despawn(gone);
            named.push((
                w.spawn(Joint::revolute(victim, gone)).id(),
                "has no rigid body",
            ));
            named.push((w.spawn(Joint::revolute(victim, victim)).id(), "both ends"));
            w.entity_mut(victim)
                .insert(LinearVelocity(Vec2::new(f32::NAN, 0.0)));
        }
        let mut cursor = MessageCursor::<PhysicsWarning>::default();
        let mut warnings = Vec::new();
        for step_index in 0..80 {
            if hostile && step_index == 20 {
                app.world_mut()
                    .entity_mut(victim)
                    .insert(ExternalForce::new(Vec2::new(f32::INFINITY, 0.0)));
            }
            if hostile && step_index == 40 {
                app.world_mut()
                    .entity_mut(victim)
                    .insert(Transform::from_xyz(f32::NEG_INFINITY, 0.0, 0.0));
            }
            step(&mut app, 1);
            warnings.extend(read(&mut app, &mut cursor));
        }
        let victim_state = state_bits(&app, &[victim]);
        let shown_x = app.world().get::<Transform>(victim).unwrap().translation.x;
        let physics = app.world().resource::<PhysicsWorld>();
        let core_x = physics
            .to_game(
                physics
                    .core()
                    .body_position(physics.body(victim).unwrap())
                    .unwrap(),
            )
            .x;
        (
            state_bits(&app, &stack),
            warnings,
            named,
            victim,
            victim_state,
            (shown_x, core_x),
        )
    };
    let (clean, none, _, _, clean_victim, _) = run(false);
    assert!(none.is_empty(), "{none:?}");
    let (dirty, warnings, named, victim, victim_state, victim_x) = run(true);
    assert_eq!(
        clean, dirty,
        "the stack steps on exactly as without the bad input"
    );
    // The victim refused every bad value: it moved exactly as if none had been written.
    assert_eq!(clean_victim, victim_state);
    // And its Transform shows where the physics has it, not the refused -inf.
    let (dirty_app_transform_x, core_x) = victim_x;
    assert_eq!(dirty_app_transform_x, core_x);
    for (entity, why) in named {
        assert!(
            warnings
                .iter()
                .any(|w| w.entity == entity && w.message.contains(why)),
            "no warning for {entity} ({why}): {warnings:?}"
        );
    }
    for what in [
        "linear velocity [NaN, 0]",
        "external force [inf, 0]",
        "transform [-inf, 0, 0]",
    ] {
        assert!(
            warnings
                .iter()
                .any(|w| w.entity == victim && w.message.contains(what)),
            "no warning naming the value {what} of {victim}: {warnings:?}"
        );
    }
}

#[test]
fn bad_components_are_skipped_with_a_warning_and_the_rest_steps_unchanged() {
    let run = |with_bad: bool| {
        let mut app = app();
        ground_20m(&mut app);
        let good = spawn_box(&mut app, 0.0, 3.0);
        let mut bad = Vec::new();
        if with_bad {
            let w = app.world_mut();
            bad.push(
                w.spawn((
                    RigidBody::Dynamic,
                    Collider::convex_hull(vec![
                        bevy_math::Vec2::ZERO,
                        bevy_math::Vec2::X,
                        2.0 * bevy_math::Vec2::X,
                    ]),
                    Transform::from_xyz(5.0, 3.0, 0.0),
                ))
                .id(),
            );
            bad.push(
                w.spawn((
                    RigidBody::Dynamic,
                    Collider::circle(0.5),
                    Transform::from_xyz(f32::NAN, 1.0, 0.0),
                ))
                .id(),
            );
            bad.push(
                w.spawn((
                    RigidBody::Dynamic,
                    Collider::circle(-1.0),
                    Transform::from_xyz(-5.0, 2.0, 0.0),
                ))
                .id(),
            );
            bad.push(w.spawn(Joint::revolute(good, good)).id());
            // Static level geometry (no body) placed at a non-finite position.
            bad.push(
                w.spawn((
                    Collider::circle(1.0),
                    Transform::from_xyz(9.0, f32::NAN, 0.0),
                ))
                .id(),
            );
        }
        let mut warnings = MessageCursor::<PhysicsWarning>::default();
        let mut seen = Vec::new();
        let mut poses = Vec::new();
        for _ in 0..90 {
            step(&mut app, 1);
            seen.extend(read(&mut app, &mut warnings));
            poses.push(core_pose(&app, good));
        }
        (poses, bad, seen)
    };
    let (clean, _, none) = run(false);
    assert!(none.is_empty(), "{none:?}");
    let (dirty, bad, warnings) = run(true);
    assert_eq!(
        clean, dirty,
        "the good box moves exactly as without the bad entities"
    );
    // One warning per bad entity, naming it; the degenerate polygon's says why.
    for entity in &bad {
        let n = warnings.iter().filter(|w| w.entity == *entity).count();
        assert_eq!(n, 1, "entity {entity}: {warnings:?}");
    }
    assert!(
        warnings.iter().any(|w| w.message.contains("collinear")),
        "{warnings:?}"
    );
}

/// Regression: a body spawned at NaN was skipped with a warning and then left out for good,
/// even after the game moved it somewhere finite. Now the move builds it: one warning for the
/// NaN, a core body (and its collider) once it is placed, and it falls from there.
#[test]
fn regression_a_body_spawned_at_nan_was_never_built_once_moved() {
    let mut app = app();
    ground_20m(&mut app);
    let mut cursor = MessageCursor::<PhysicsWarning>::default();
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::from_xyz(f32::NAN, 5.0, 0.0),
        ))
        .id();
    let mut warned = Vec::new();
    for _ in 0..3 {
        step(&mut app, 1);
        warned.extend(read(&mut app, &mut cursor));
    }
    let about_body = warned.iter().filter(|w| w.entity == body).count();
    assert_eq!(about_body, 1, "{warned:?}");
    assert!(app.world().resource::<PhysicsWorld>().body(body).is_none());
    let mut transform = app.world_mut().get_mut::<Transform>(body).unwrap();
    transform.translation.x = 1.0;
    let mut later = Vec::new();
    for _ in 0..30 {
        step(&mut app, 1);
        later.extend(read(&mut app, &mut cursor));
    }
    let physics = app.world().resource::<PhysicsWorld>();
    let id = physics.body(body).expect("built once placed");
    assert_eq!(physics.core().body_shapes(id).unwrap().len(), 1);
    let y = app.world().get::<Transform>(body).unwrap().translation.y;
    assert!(y < 4.5, "it fell: y = {y}");
    assert!(later.iter().all(|w| w.entity != body), "{later:?}");
}

/// Regression (found by the plugin operations run in `crates/fuzz_checks`): a body given a
/// NaN velocity and a new type in the same frame lost its core body. The rebuild read the
/// NaN, the new body was refused after the old one was gone, and the stale handle kept it
/// from ever being tried again. Now the rebuild keeps the old body's velocity in place of the refused one: one warning, for
/// the NaN, and the body moves on as a kinematic body at the velocity it had.
#[test]
fn regression_a_refused_nan_velocity_lost_the_body_at_a_type_change() {
    let mut app = app();
    ground_20m(&mut app);
    let mut cursor = MessageCursor::<PhysicsWarning>::default();
    let body = spawn_dynamic(&mut app, Collider::circle(0.5), 0.0, 5.0);
    step(&mut app, 10);
    read(&mut app, &mut cursor);
    let before = support::core_of(&app, body).1;
    assert!(before.y < -1.0, "falling: {before}");
    // In one frame, as a game would: a NaN velocity and a new type.
    app.world_mut().get_mut::<LinearVelocity>(body).unwrap().0.x = f32::NAN;
    app.world_mut()
        .entity_mut(body)
        .insert(RigidBody::Kinematic);
    let mut warned = Vec::new();
    for _ in 0..3 {
        step(&mut app, 1);
        warned.extend(read(&mut app, &mut cursor));
    }
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert_eq!(warned[0].entity, body);
    assert!(
        warned[0].message.starts_with("linear velocity [NaN"),
        "{warned:?}"
    );
    let physics = app.world().resource::<PhysicsWorld>();
    let id = physics.body(body).expect("the rebuilt body");
    assert_eq!(
        physics.core().body_type(id).unwrap(),
        bevy_physics2d::physics_core::body::BodyType::Kinematic
    );
    assert_eq!(physics.core().body_shapes(id).unwrap().len(), 1);
    let after = support::core_of(&app, body).1;
    assert_eq!(after, before, "a kinematic body keeps the velocity it had");
}

/// A ball spawned at (0, 5) with `bad`: skipped with one warning and no core body; then
/// `mend` runs, and over 30 steps the ball is built with no warning. The App and the ball.
fn refused_then_mended(bad: impl Bundle, mend: impl FnOnce(&mut World, Entity)) -> (App, Entity) {
    let mut app = app();
    ground_20m(&mut app);
    let mut cursor = MessageCursor::<PhysicsWarning>::default();
    let ball = (
        RigidBody::Dynamic,
        Collider::circle(0.5),
        Transform::from_xyz(0.0, 5.0, 0.0),
    );
    let body = app.world_mut().spawn((ball, bad)).id();
    let mut warned = Vec::new();
    for _ in 0..3 {
        step(&mut app, 1);
        warned.extend(read(&mut app, &mut cursor));
    }
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert_eq!(warned[0].entity, body);
    assert!(app.world().resource::<PhysicsWorld>().body(body).is_none());
    mend(app.world_mut(), body);
    for _ in 0..30 {
        step(&mut app, 1);
        let warned = read(&mut app, &mut cursor);
        assert!(warned.is_empty(), "{warned:?}");
    }
    assert!(app.world().resource::<PhysicsWorld>().body(body).is_some());
    (app, body)
}

/// A body spawned with a NaN velocity is skipped with one warning, and built once the game
/// mends the velocity (as one spawned at a NaN place is once moved).
#[test]
fn a_body_spawned_with_a_nan_velocity_is_built_once_the_velocity_is_mended() {
    let (app, body) = refused_then_mended(LinearVelocity(Vec2::new(f32::INFINITY, 0.0)), |w, e| {
        w.get_mut::<LinearVelocity>(e).unwrap().0 = Vec2::new(1.0, 0.0);
    });
    let x = app.world().get::<Transform>(body).unwrap().translation.x;
    assert!(x > 0.3, "it moved right from 0: x = {x}");
}

/// Regression (found by the plugin operations run in `crates/fuzz_checks`): a character
/// refused once was never warned about again, whatever bad value came next, and a NaN
/// velocity went unnamed while the character had no collider. Now each bad value is named
/// once: a NaN velocity, then (mended) a dynamic body, then (kinematic again, without moving
/// in between) dynamic once more.
#[test]
fn regression_a_character_refused_once_was_never_named_again() {
    let mut app = app();
    ground_20m(&mut app);
    let mut cursor = MessageCursor::<PhysicsWarning>::default();
    let character = app
        .world_mut()
        .spawn((
            CharacterController::default(),
            Transform::from_xyz(0.0, 2.0, 0.0),
        ))
        .id();
    let mut frame = |app: &mut App, set: &dyn Fn(&mut World)| {
        set(app.world_mut());
        let mut warned = Vec::new();
        for _ in 0..2 {
            step(app, 1);
            warned.extend(read(app, &mut cursor));
        }
        warned
    };
    let velocity =
        |v: Vec2| move |w: &mut World| w.entity_mut(character).insert(CharacterVelocity(v)).id();
    let kind = |k: RigidBody| move |w: &mut World| w.entity_mut(character).insert(k).id();
    let named = |warned: &[PhysicsWarning], what: &str| {
        warned.len() == 1 && warned[0].entity == character && warned[0].message.contains(what)
    };
    // No collider: nothing to move with, but the NaN is still named.
    let warned = frame(&mut app, &|w| {
        velocity(Vec2::new(f32::NAN, 0.0))(w);
    });
    assert!(named(&warned, "velocity"), "{warned:?}");
    let warned = frame(&mut app, &|w| {
        velocity(Vec2::X)(w);
        kind(RigidBody::Dynamic)(w);
    });
    assert!(named(&warned, "Kinematic"), "{warned:?}");
    let warned = frame(&mut app, &|w| {
        kind(RigidBody::Kinematic)(w);
    });
    assert!(warned.is_empty(), "{warned:?}");
    let warned = frame(&mut app, &|w| {
        kind(RigidBody::Dynamic)(w);
    });
    assert!(named(&warned, "Kinematic"), "{warned:?}");
}

/// A ray caster aimed along a NaN is named once and finds nothing; mended, it finds the
/// ground again.
#[test]
fn a_ray_caster_aimed_at_nan_is_named_once_and_finds_nothing() {
    let mut app = app();
    ground_20m(&mut app);
    let mut cursor = MessageCursor::<PhysicsWarning>::default();
    let caster = app
        .world_mut()
        .spawn((
            RayCaster::new(Vec2::ZERO, Vec2::NEG_Y).with_max_distance(10.0),
            Transform::from_xyz(0.0, 3.0, 0.0),
        ))
        .id();
    step(&mut app, 2);
    assert_eq!(app.world().get::<RayHits>(caster).unwrap().0.len(), 1);
    app.world_mut()
        .get_mut::<RayCaster>(caster)
        .unwrap()
        .direction = Vec2::new(f32::NAN, -1.0);
    let mut warned = Vec::new();
    for _ in 0..5 {
        step(&mut app, 1);
        warned.extend(read(&mut app, &mut cursor));
    }
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert_eq!(warned[0].entity, caster);
    assert!(app.world().get::<RayHits>(caster).unwrap().0.is_empty());
    app.world_mut()
        .get_mut::<RayCaster>(caster)
        .unwrap()
        .direction = Vec2::NEG_Y;
    step(&mut app, 2);
    assert!(read(&mut app, &mut cursor).is_empty());
    assert_eq!(app.world().get::<RayHits>(caster).unwrap().0.len(), 1);
}

/// Regression (found by the plugin operations fuzz check in `crates/fuzz_checks`): a body
/// refused for an infinite gravity scale stayed out of the world after the game mended the
/// scale; only a new pose or velocity tried it again. Now mending any value the body was
/// refused for builds it.
#[test]
fn regression_a_body_refused_for_its_gravity_scale_stayed_out_once_mended() {
    let (app, body) = refused_then_mended(GravityScale(f32::INFINITY), |w, e| {
        w.get_mut::<GravityScale>(e).unwrap().0 = 1.0;
    });
    let y = app.world().get::<Transform>(body).unwrap().translation.y;
    assert!(y < 4.5, "it fell: y = {y}");
}
