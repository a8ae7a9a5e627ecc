//! The plugin in a headless App: the same physics as the bare core, clean-up, teleports,
//! events, joints, the debug overlay's cost when off, and bad input skipped.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_physics2d::physics_core::body::BodyDef;
use bevy_physics2d::physics_core::math::{Rot, Transform as CoreTransform};
use bevy_physics2d::physics_core::shape_def::ShapeDef;
use bevy_physics2d::physics_core::world::{World as CoreWorld, WorldDef};
use bevy_physics2d::prelude::*;
use support::{app, dt, read, step};

const GROUND: (f32, f32) = (20.0, 1.0);

fn spawn_ground(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(GROUND.0, GROUND.1),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id()
}

fn spawn_box(app: &mut App, x: f32, y: f32) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Transform::from_xyz(x, y, 0.0),
        ))
        .id()
}

fn core_pose(app: &App, entity: Entity) -> CoreTransform {
    let physics = app.world().resource::<PhysicsWorld>();
    physics
        .core()
        .body_transform(physics.body(entity).expect("body exists"))
        .unwrap()
}

#[test]
fn a_falling_box_follows_the_bare_core_world_bit_for_bit() {
    let mut app = app();
    spawn_ground(&mut app);
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
        let (a, b) = (core_pose(&app, body), core.body_transform(boxed).unwrap());
        assert_eq!(a, b, "step {i}: plugin {a:?} vs core {b:?}");
        let v = app.world().get::<LinearVelocity>(body).unwrap().0;
        assert_eq!(v, core.linear_velocity(boxed).unwrap(), "step {i}");
    }
    // It landed: resting on the ground's top face (y = 0) at half its height.
    let p = core_pose(&app, body).p;
    assert!((p.y - 0.5).abs() < 0.02, "rests at {p}");
}

#[test]
fn transform_interpolation_is_off_in_the_raw_pose_but_smooth_between_steps() {
    let mut app = app();
    let body = spawn_box(&mut app, 0.0, 10.0);
    step(&mut app, 5);
    // One update of a full step: the shown pose is the blend at the overstep (zero here), so
    // it equals the pose before the last step, never a pose the physics did not produce.
    let poses = *app
        .world()
        .get::<bevy_physics2d::InterpolationPoses>(body)
        .unwrap();
    let shown = app.world().get::<Transform>(body).unwrap().translation;
    let physics = poses.physics_pose().0;
    assert!(shown.y >= physics.y, "shown {shown} physics {physics}");
    assert!(
        shown.y - physics.y < 0.2,
        "at most one step behind: {shown} vs {physics}"
    );
}

#[test]
fn a_frame_a_quarter_step_into_the_next_shows_a_quarter_of_the_way() {
    // Frames of a quarter step: between physics steps the shown pose is the blend of the
    // last two physics poses at the time run into the next step. A body gliding at 6 m/s
    // in zero gravity is shown at previous + alpha (current - previous), alpha the overstep
    // fraction (1/4, 1/2, 3/4, then a step): swapping the two poses or ignoring alpha is caught at
    // the quarters, where the blend is not symmetric.
    let step_time = std::time::Duration::from_secs_f64(1.0 / support::HZ);
    let mut app = support::app_with(true, step_time / 4);
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = bevy_math::Vec2::ZERO;
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.25),
            LinearVelocity(bevy_math::Vec2::new(6.0, 0.0)),
            Transform::default(),
        ))
        .id();
    let mut alphas = Vec::new();
    for _ in 0..40 {
        app.update();
        let Some(poses) = app
            .world()
            .get::<bevy_physics2d::InterpolationPoses>(body)
            .copied()
        else {
            continue;
        };
        let alpha = app
            .world()
            .resource::<bevy_time::Time<bevy_time::Fixed>>()
            .overstep_fraction();
        let (previous, current) = (poses.previous_pose().0.x, poses.physics_pose().0.x);
        if current == previous {
            continue;
        }
        let shown = app.world().get::<Transform>(body).unwrap().translation.x;
        let expected = previous + alpha * (current - previous);
        assert!(
            (shown - expected).abs() < 1e-5,
            "alpha {alpha}: shown {shown}, expected {expected} between {previous} and {current}"
        );
        // One step apart at 6 m/s.
        assert!((current - previous - 6.0 * dt(&app)).abs() < 1e-5);
        alphas.push((alpha * 4.0).round() as i32);
    }
    // (The step boundary itself falls on alpha 1 or 0 by rounding; the quarters between
    // are the ones that tell the blend's direction.)
    for quarter in 1..4 {
        assert!(
            alphas.contains(&quarter),
            "no frame at alpha {quarter}/4: {alphas:?}"
        );
    }
}

#[test]
fn despawning_cleans_up_the_core_world_and_breaks_joints_with_an_event() {
    let mut app = app();
    let anchor = app
        .world_mut()
        .spawn((RigidBody::Static, Transform::from_xyz(0.0, 5.0, 0.0)))
        .id();
    // A compound body: two child colliders.
    let bob = app
        .world_mut()
        .spawn((RigidBody::Dynamic, Transform::from_xyz(1.0, 5.0, 0.0)))
        .with_children(|c| {
            c.spawn((Collider::circle(0.25), Transform::from_xyz(-0.3, 0.0, 0.0)));
            c.spawn((Collider::circle(0.25), Transform::from_xyz(0.3, 0.0, 0.0)));
        })
        .id();
    let joint = app
        .world_mut()
        .spawn(Joint::revolute(anchor, bob).with_anchor(bevy_math::Vec2::new(0.0, 5.0)))
        .id();
    step(&mut app, 2);
    {
        let physics = app.world().resource::<PhysicsWorld>();
        let core = physics.core();
        assert_eq!(
            (core.body_count(), core.shape_count(), core.joint_count()),
            (2, 2, 1)
        );
        // Two disks of radius 0.25 at density 1.
        let mass = core
            .body_mass_data(physics.body(bob).unwrap())
            .unwrap()
            .mass;
        assert!((mass - 2.0 * std::f32::consts::PI * 0.0625).abs() < 1e-4);
    }
    let mut broken = MessageCursor::<JointBroken>::default();
    app.world_mut().entity_mut(bob).despawn();
    step(&mut app, 1);
    let events = read(&mut app, &mut broken);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].joint, joint);
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    assert_eq!(
        (core.body_count(), core.shape_count(), core.joint_count()),
        (1, 0, 0)
    );
    assert!(physics.joint(joint).is_none() && physics.body(bob).is_none());
    // The joint entity is still there, with its component, for the game to inspect.
    assert!(app.world().get::<Joint>(joint).is_some());
}

#[test]
fn setting_transform_teleports_and_setting_velocity_moves() {
    let mut app = app();
    let body = spawn_box(&mut app, 0.0, 5.0);
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = bevy_math::Vec2::ZERO;
    step(&mut app, 3);
    app.world_mut()
        .get_mut::<Transform>(body)
        .unwrap()
        .translation = bevy_math::Vec3::new(7.0, -2.0, 0.0);
    step(&mut app, 1);
    let p = core_pose(&app, body).p;
    assert_eq!(
        p,
        bevy_math::Vec2::new(7.0, -2.0),
        "teleported exactly (no gravity, at rest)"
    );
    app.world_mut().get_mut::<LinearVelocity>(body).unwrap().0 = bevy_math::Vec2::new(3.0, 0.0);
    step(&mut app, 60);
    let p = core_pose(&app, body).p;
    // One second at 3 units/s, no gravity, no damping.
    assert!((p.x - 10.0).abs() < 1e-3 && (p.y + 2.0).abs() < 1e-6, "{p}");
    assert_eq!(app.world().get::<LinearVelocity>(body).unwrap().0.x, 3.0);
}

/// A change the game makes after a step, in `Update`, to a body in flight.
#[derive(Resource, Default)]
struct GameEdit {
    velocity: Option<bevy_math::Vec2>,
    x: Option<f32>,
}

fn apply_game_edit(
    mut edit: ResMut<GameEdit>,
    mut bodies: Query<(&mut Transform, &mut LinearVelocity)>,
) {
    for (mut transform, mut velocity) in &mut bodies {
        if let Some(v) = edit.velocity {
            velocity.0 = v;
        }
        if let Some(x) = edit.x {
            transform.translation.x = x;
        }
    }
    *edit = GameEdit::default();
}

/// The writeback marks the transform and velocities of every moving body changed, and the
/// next prepare skips those of its own by their change tick. A game's edit after the step
/// (here in `Update`, on a falling body whose components the writeback has just written) has
/// a later tick and must still reach the core, with and without interpolation.
#[test]
fn game_edits_after_a_step_reach_the_core_of_a_moving_body() {
    for interpolated in [false, true] {
        let mut app = app();
        app.init_resource::<GameEdit>()
            .add_systems(Update, apply_game_edit);
        let body = spawn_box(&mut app, 0.0, 50.0);
        if !interpolated {
            app.world_mut().entity_mut(body).insert(NoInterpolation);
        }
        step(&mut app, 5);
        let falling = |app: &App| {
            let physics = app.world().resource::<PhysicsWorld>();
            let id = physics.body(body).unwrap();
            physics.core().body_motion(id).unwrap()
        };
        assert!(falling(&app).linear_velocity.y < -0.5, "in free fall");

        app.world_mut().resource_mut::<GameEdit>().velocity = Some(bevy_math::Vec2::new(4.0, -1.0));
        // The step of this update runs before `Update`; the next one takes the edit.
        step(&mut app, 2);
        let v = falling(&app).linear_velocity;
        // In the air nothing but gravity acts: x keeps the 4 m/s set, y gained g dt once.
        assert_eq!(v.x, 4.0, "interpolated {interpolated}");
        let g_dt = -app.world().resource::<PhysicsSettings>().gravity.y * dt(&app);
        assert!(
            (v.y - (-1.0 - g_dt)).abs() < 1e-4,
            "{v} interpolated {interpolated}"
        );

        app.world_mut().resource_mut::<GameEdit>().x = Some(-30.0);
        step(&mut app, 2);
        let x = falling(&app).transform.p.x;
        // Teleported to -30 and then one step at 4 m/s.
        assert!(
            (x - (-30.0 + 4.0 * dt(&app))).abs() < 1e-4,
            "{x} interpolated {interpolated}"
        );
    }
}

#[derive(Resource, Default)]
struct Observed(Vec<(bool, Entity, Entity)>);

#[test]
fn each_touch_gives_exactly_one_start_and_one_end() {
    let mut app = app();
    app.init_resource::<Observed>();
    let ground = spawn_ground(&mut app);
    let body = spawn_box(&mut app, 0.0, 2.0);
    app.world_mut()
        .entity_mut(body)
        .insert(CollisionEventsEnabled);
    app.world_mut().entity_mut(body).observe(
        |on: On<CollisionStart>, mut seen: ResMut<Observed>| {
            seen.0.push((true, on.collider1, on.collider2));
        },
    );
    app.world_mut()
        .entity_mut(body)
        .observe(|on: On<CollisionEnd>, mut seen: ResMut<Observed>| {
            seen.0.push((false, on.collider1, on.collider2));
        });
    let (mut starts, mut ends) = (
        MessageCursor::<CollisionStart>::default(),
        MessageCursor::<CollisionEnd>::default(),
    );
    let (mut n_start, mut n_end) = (0, 0);
    let mut count = |app: &mut App, n: u64, ns: &mut usize, ne: &mut usize| {
        for _ in 0..n {
            step(app, 1);
            *ns += read(app, &mut starts).len();
            *ne += read(app, &mut ends).len();
        }
    };
    // Fall and rest for two seconds: one start, no end (resting contacts do not flicker).
    count(&mut app, 120, &mut n_start, &mut n_end);
    assert_eq!((n_start, n_end), (1, 0));
    // Throw it up: one end.
    app.world_mut().get_mut::<LinearVelocity>(body).unwrap().0 = bevy_math::Vec2::new(0.0, 8.0);
    count(&mut app, 20, &mut n_start, &mut n_end);
    assert_eq!((n_start, n_end), (1, 1));
    // It falls back: a second start.
    count(&mut app, 120, &mut n_start, &mut n_end);
    assert_eq!((n_start, n_end), (2, 1));
    let seen = &app.world().resource::<Observed>().0;
    assert_eq!(
        seen,
        &vec![
            (true, body, ground),
            (false, body, ground),
            (true, body, ground)
        ],
        "observers on the body see it as collider1"
    );
}

#[test]
fn sensors_report_entering_and_leaving() {
    let mut app = app();
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = bevy_math::Vec2::ZERO;
    let sensor = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(2.0, 2.0),
            Sensor,
            Transform::default(),
        ))
        .id();
    let body = spawn_box(&mut app, -4.0, 0.0);
    app.world_mut().get_mut::<LinearVelocity>(body).unwrap().0 = bevy_math::Vec2::new(4.0, 0.0);
    let (mut entered, mut exited) = (
        MessageCursor::<SensorEntered>::default(),
        MessageCursor::<SensorExited>::default(),
    );
    let (mut e, mut x) = (Vec::new(), Vec::new());
    for _ in 0..120 {
        step(&mut app, 1);
        e.extend(read(&mut app, &mut entered));
        x.extend(read(&mut app, &mut exited));
    }
    assert_eq!(
        e,
        vec![SensorEntered {
            sensor,
            visitor: body
        }]
    );
    assert_eq!(
        x,
        vec![SensorExited {
            sensor,
            visitor: body
        }]
    );
    // The sensor pushed nothing: the box kept its speed.
    assert_eq!(app.world().get::<LinearVelocity>(body).unwrap().0.x, 4.0);
}

#[test]
fn a_revolute_pendulum_from_components_swings_with_the_small_angle_period() {
    let mut app = app();
    let length = 1.0f32;
    let pivot = app
        .world_mut()
        .spawn((RigidBody::Static, Transform::from_xyz(0.0, 5.0, 0.0)))
        .id();
    // A small heavy bob released 0.1 rad from the vertical.
    let angle = 0.1f32;
    let bob_at = bevy_math::Vec2::new(length * angle.sin(), 5.0 - length * angle.cos());
    let bob = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.05),
            Transform::from_xyz(bob_at.x, bob_at.y, 0.0),
        ))
        .id();
    app.world_mut()
        .spawn(Joint::revolute(pivot, bob).with_anchor(bevy_math::Vec2::new(0.0, 5.0)));
    // Time between the first and third crossings of the vertical is one period.
    let mut crossings = Vec::new();
    let mut last_x = bob_at.x;
    let h = dt(&app);
    let mut max_stretch = 0.0f32;
    for i in 1..=400 {
        step(&mut app, 1);
        let p = core_pose(&app, bob).p;
        max_stretch =
            max_stretch.max(((p - bevy_math::Vec2::new(0.0, 5.0)).length() - length).abs());
        if last_x.signum() != p.x.signum() {
            // Linear interpolation of the crossing time within the step.
            crossings.push((i as f32 - p.x / (p.x - last_x)) * h);
        }
        last_x = p.x;
    }
    assert!(crossings.len() >= 3, "{crossings:?}");
    let period = crossings[2] - crossings[0];
    // A small disk bob: T = 2 pi sqrt(L/g) (the disk's own inertia adds under 0.2 %).
    let expected = std::f32::consts::TAU * (length / 9.81f32).sqrt();
    assert!(
        (period / expected - 1.0).abs() < 0.01,
        "period {period} vs {expected}"
    );
    assert!(
        max_stretch < 0.005,
        "the pin held within linear slop: {max_stretch}"
    );
}

#[test]
fn bad_components_are_skipped_with_a_warning_and_the_rest_steps_unchanged() {
    let run = |with_bad: bool| {
        let mut app = app();
        spawn_ground(&mut app);
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

#[test]
fn debug_overlay_does_no_work_while_disabled() {
    use bevy_gizmos::config::GizmoConfigStore;
    let mut app = app();
    app.add_plugins((
        bevy_asset::AssetPlugin::default(),
        bevy_mesh::MeshPlugin,
        bevy_gizmos::GizmoPlugin,
        PhysicsDebugPlugin::default(),
    ));
    spawn_ground(&mut app);
    spawn_box(&mut app, 0.0, 2.0);
    step(&mut app, 2);
    let drawn = app
        .world()
        .resource::<bevy_physics2d::PhysicsDebugStats>()
        .primitives;
    assert!(drawn >= 2, "two shapes drawn when enabled: {drawn}");
    app.world_mut()
        .resource_mut::<GizmoConfigStore>()
        .config_mut::<PhysicsGizmos>()
        .0
        .enabled = false;
    step(&mut app, 2);
    assert_eq!(
        app.world()
            .resource::<bevy_physics2d::PhysicsDebugStats>()
            .primitives,
        0
    );
    // Parts switch separately: boxes add one primitive per shape.
    {
        let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
        let (config, parts) = store.config_mut::<PhysicsGizmos>();
        config.enabled = true;
        parts.aabbs = true;
    }
    step(&mut app, 1);
    let with_boxes = app
        .world()
        .resource::<bevy_physics2d::PhysicsDebugStats>()
        .primitives;
    assert!(with_boxes >= drawn + 2, "{with_boxes} vs {drawn}");
}

#[test]
fn a_hidden_collider_is_left_out_of_the_overlay() {
    let mut app = app();
    app.add_plugins((
        bevy_asset::AssetPlugin::default(),
        bevy_mesh::MeshPlugin,
        bevy_gizmos::GizmoPlugin,
        PhysicsDebugPlugin::default(),
    ));
    spawn_ground(&mut app);
    let boxed = spawn_box(&mut app, 0.0, 2.0);
    step(&mut app, 2);
    let primitives = |app: &App| {
        app.world()
            .resource::<bevy_physics2d::PhysicsDebugStats>()
            .primitives
    };
    let drawn = primitives(&app);
    app.world_mut()
        .entity_mut(boxed)
        .insert(DebugRender::hidden());
    step(&mut app, 1);
    assert_eq!(primitives(&app), drawn - 1, "the box is no longer drawn");
    // A colour of its own draws it again.
    app.world_mut()
        .entity_mut(boxed)
        .insert(DebugRender::collider(bevy_color::Color::WHITE));
    step(&mut app, 1);
    assert_eq!(primitives(&app), drawn);
}

#[test]
fn step_times_and_counts_reach_bevys_diagnostics_store() {
    use bevy_diagnostic::DiagnosticsStore;
    use bevy_physics2d::PhysicsDiagnosticsPlugin as P;
    let mut app = app();
    app.add_plugins(P);
    spawn_ground(&mut app);
    spawn_box(&mut app, 0.0, 2.0);
    spawn_box(&mut app, 3.0, 2.0);
    step(&mut app, 3);
    let store = app.world().resource::<DiagnosticsStore>();
    let last = |path: bevy_diagnostic::DiagnosticPath| {
        store
            .get(&path)
            .and_then(|d| d.measurement())
            .map(|m| m.value)
            .unwrap_or(-1.0)
    };
    // Two dynamic boxes and the ground's static body; both boxes awake and falling.
    assert_eq!(last(P::BODIES), 3.0);
    assert_eq!(last(P::AWAKE_BODIES), 2.0);
    assert_eq!(last(P::JOINTS), 0.0);
    let step_ms = last(P::STEP_MS);
    assert!(step_ms > 0.0 && step_ms < 1000.0, "{step_ms}");
    // One measurement per step taken.
    let history = store.get(&P::BODIES).unwrap().measurements().count();
    assert_eq!(history, 3);
}

#[test]
fn spatial_queries_find_colliders_by_ray_point_and_box() {
    let mut app = app();
    let ground = spawn_ground(&mut app);
    let body = spawn_box(&mut app, 3.0, 0.5);
    step(&mut app, 1);
    let mut state = bevy_ecs::system::SystemState::<SpatialQuery>::new(app.world_mut());
    let query = state.get(app.world()).unwrap();
    let hit = query
        .cast_ray(
            bevy_math::Vec2::new(3.0, 10.0),
            bevy_math::Vec2::NEG_Y,
            100.0,
            &Default::default(),
        )
        .expect("the box is below");
    assert_eq!(hit.entity, body);
    assert!((hit.distance - 9.0).abs() < 0.02, "{hit:?}");
    let filter = SpatialQueryFilter::default().with_excluded([body]);
    let hit = query
        .cast_ray(
            bevy_math::Vec2::new(3.0, 10.0),
            bevy_math::Vec2::NEG_Y,
            100.0,
            &filter,
        )
        .unwrap();
    assert_eq!(hit.entity, ground);
    assert_eq!(
        query.point_intersections(bevy_math::Vec2::new(3.0, 0.5), &Default::default()),
        vec![body]
    );
    let mut both = query.aabb_intersections(
        bevy_math::Vec2::new(2.0, -1.0),
        bevy_math::Vec2::new(4.0, 1.0),
        &Default::default(),
    );
    both.sort();
    let mut expected = vec![ground, body];
    expected.sort();
    assert_eq!(both, expected);
    let cast = query
        .cast_shape(
            &Collider::circle(0.25),
            bevy_math::Vec2::new(-3.0, 0.5),
            bevy_math::Quat::IDENTITY,
            bevy_math::Vec2::X,
            10.0,
            &Default::default(),
        )
        .unwrap()
        .expect("the disk slides into the box");
    assert_eq!(cast.entity, body);
    // The box's left face is at x = 2.5; the disk's centre stops 0.25 before it.
    assert!((cast.distance - 5.25).abs() < 0.02, "{cast:?}");
}

#[test]
fn changing_the_body_type_rebuilds_it_with_its_colliders_and_joints() {
    let mut app = app();
    let a = spawn_box(&mut app, 0.0, 5.0);
    let b = spawn_box(&mut app, 2.0, 5.0);
    app.world_mut().spawn(Joint::distance(a, b));
    step(&mut app, 1);
    *app.world_mut().get_mut::<RigidBody>(a).unwrap() = RigidBody::Static;
    step(&mut app, 60);
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    assert_eq!(
        (core.body_count(), core.shape_count(), core.joint_count()),
        (2, 2, 1)
    );
    // A is now fixed where it was; B hangs at the rod's length.
    let pa = core_pose(&app, a).p;
    let pb = core_pose(&app, b).p;
    assert!(
        pa.y > 4.9 && pa.y < 5.0,
        "static A stayed near where it was: {pa}"
    );
    assert!(((pb - pa).length() - 2.0).abs() < 0.01, "{pa} {pb}");
    let _ = Rot::IDENTITY;
}
