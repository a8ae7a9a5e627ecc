//! Each body component's physical effect through the plugin, on insert, change and removal,
//! against what the integrator predicts: the core steps 4 substeps of h = dt / 4, each
//! `v <- (v + h a) / (1 + h c)` for acceleration `a` and damping `c` (Box2D v3's Pade form).

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::PhysicsBody;
use bevy_physics2d::prelude::*;
use support::{app, dt, step};

/// Substeps per step (the default world).
const SUBSTEPS: i32 = 4;

fn free_box(app: &mut App, x: f32) -> Entity {
    support::spawn_dynamic(app, Collider::rectangle(1.0, 1.0), x, 0.0)
}

fn v(app: &App, e: Entity) -> Vec2 {
    app.world().get::<LinearVelocity>(e).unwrap().0
}

fn w(app: &App, e: Entity) -> f32 {
    app.world().get::<AngularVelocity>(e).unwrap().0
}

fn gravity(app: &App) -> Vec2 {
    app.world().resource::<PhysicsSettings>().gravity
}

#[test]
fn gravity_scale_scales_the_fall_and_follows_insert_change_and_removal() {
    let mut app = app();
    let plain = free_box(&mut app, -5.0);
    let half = free_box(&mut app, 5.0);
    app.world_mut().entity_mut(half).insert(GravityScale(0.5));
    step(&mut app, 60);
    let g = gravity(&app).y;
    let t = 60.0 * dt(&app);
    // Velocity under constant acceleration is exact in the integrator: v = s g t (1e-4 of
    // rounding over 240 substeps).
    assert!((v(&app, plain).y - g * t).abs() < 1e-3 * g.abs() * t);
    assert!(
        (v(&app, half).y - 0.5 * g * t).abs() < 1e-3 * g.abs() * t,
        "{}",
        v(&app, half)
    );
    // Changed to -1 it falls up, removed it falls at the full rate again.
    app.world_mut().get_mut::<GravityScale>(half).unwrap().0 = -1.0;
    let before = v(&app, half).y;
    step(&mut app, 30);
    let dv = v(&app, half).y - before;
    assert!((dv + g * 30.0 * dt(&app)).abs() < 1e-3, "{dv}");
    app.world_mut().entity_mut(half).remove::<GravityScale>();
    let before = v(&app, half).y;
    step(&mut app, 30);
    let dv = v(&app, half).y - before;
    assert!((dv - g * 30.0 * dt(&app)).abs() < 1e-3, "{dv}");
}

#[test]
fn damping_decays_velocity_as_the_pade_form_predicts() {
    let mut app = app();
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
    let body = free_box(&mut app, 0.0);
    app.world_mut().entity_mut(body).insert((
        LinearDamping(2.0),
        AngularDamping(3.0),
        LinearVelocity(Vec2::new(4.0, -2.0)),
        AngularVelocity(2.0),
    ));
    step(&mut app, 60);
    let h = dt(&app) / SUBSTEPS as f32;
    let n = 60 * SUBSTEPS;
    let linear = (1.0 + h * 2.0f32).powi(-n);
    let angular = (1.0 + h * 3.0f32).powi(-n);
    // Against exp(-c t) (0.135 and 0.050 after 1 s) the Pade form differs by 0.4 % and 1 %:
    // the tolerance (1e-4 relative, f32 rounding over 240 factors) tells them apart.
    let expect = Vec2::new(4.0, -2.0) * linear;
    assert!(
        (v(&app, body) - expect).length() < 1e-4 * expect.length(),
        "{} against {expect}",
        v(&app, body)
    );
    assert!(
        (w(&app, body) - 2.0 * angular).abs() < 1e-4 * 2.0 * angular,
        "{} against {}",
        w(&app, body),
        2.0 * angular
    );
    // Removing the damping stops the decay.
    app.world_mut()
        .entity_mut(body)
        .remove::<(LinearDamping, AngularDamping)>();
    let (v0, w0) = (v(&app, body), w(&app, body));
    step(&mut app, 30);
    assert!((v(&app, body) - v0).length() < 1e-6 && (w(&app, body) - w0).abs() < 1e-6);
}

#[test]
fn an_impulse_changes_momentum_by_exactly_itself_once() {
    let mut app = app();
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
    let body = free_box(&mut app, 0.0);
    app.world_mut()
        .entity_mut(body)
        .insert(ColliderDensity(2.0));
    step(&mut app, 1);
    let (mass, inertia) = {
        let id = app.world().get::<PhysicsBody>(body).unwrap().id();
        let m = app
            .world()
            .resource::<PhysicsWorld>()
            .core()
            .body_mass_data(id)
            .unwrap();
        (m.mass, m.rotational_inertia)
    };
    // A 1 m square of density 2: 2 kg, I = m (1 + 1) / 12.
    assert!((mass - 2.0).abs() < 1e-5 && (inertia - 2.0 * 2.0 / 12.0).abs() < 1e-5);
    app.world_mut().entity_mut(body).insert(ExternalImpulse {
        impulse: Vec2::new(3.0, -1.0),
        angular_impulse: 0.5,
    });
    step(&mut app, 1);
    let p = mass * v(&app, body);
    assert!((p - Vec2::new(3.0, -1.0)).length() < 1e-5, "momentum {p}");
    assert!((inertia * w(&app, body) - 0.5).abs() < 1e-5);
    // Applied once: the component is cleared and the velocity stays.
    assert_eq!(
        *app.world().get::<ExternalImpulse>(body).unwrap(),
        ExternalImpulse::default()
    );
    step(&mut app, 10);
    assert!((mass * v(&app, body) - Vec2::new(3.0, -1.0)).length() < 1e-5);
}

#[test]
fn a_force_accelerates_by_force_over_mass_until_removed() {
    let mut app = app();
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
    let body = free_box(&mut app, 0.0);
    app.world_mut()
        .entity_mut(body)
        .insert(ExternalForce::new(Vec2::new(5.0, 0.0)).with_torque(1.0));
    step(&mut app, 60);
    let t = 60.0 * dt(&app);
    // 1 kg, I = 1/6: dv = F t / m, dw = tau t / I.
    assert!(
        (v(&app, body).x - 5.0 * t).abs() < 1e-3,
        "{}",
        v(&app, body)
    );
    assert!((w(&app, body) - 6.0 * t).abs() < 1e-3, "{}", w(&app, body));
    app.world_mut().entity_mut(body).remove::<ExternalForce>();
    let v0 = v(&app, body);
    step(&mut app, 30);
    assert!((v(&app, body) - v0).length() < 1e-6);
    // A one-step force pushes for one step only.
    app.world_mut()
        .entity_mut(body)
        .insert(ExternalForce::new(Vec2::new(0.0, 6.0)).one_shot());
    step(&mut app, 10);
    assert!(
        (v(&app, body).y - 6.0 * dt(&app)).abs() < 1e-4,
        "{}",
        v(&app, body)
    );
}

#[test]
fn a_locked_rotation_body_lands_on_a_corner_without_turning() {
    // A box dropped with one corner over a ledge's edge tips over it; locked, it slides off
    // upright (its rotation stays the identity to the bit).
    let run = |locked: bool| {
        let mut app = app();
        app.world_mut().spawn((
            RigidBody::Static,
            Collider::rectangle(4.0, 1.0),
            Transform::from_xyz(-2.0, -0.5, 0.0),
        ));
        let body = support::spawn_dynamic(&mut app, Collider::rectangle(1.0, 1.0), 0.3, 1.0);
        if locked {
            app.world_mut().entity_mut(body).insert(LockedRotation);
        }
        step(&mut app, 90);
        let r = app.world().get::<Transform>(body).unwrap().rotation;
        r.to_euler(bevy_math::EulerRot::XYZ).2
    };
    assert!(run(false).abs() > 0.3, "the free box should tip");
    assert_eq!(run(true), 0.0);
}

#[test]
fn changing_friction_changes_the_slide_as_coulomb_predicts() {
    // A box launched at 4 m/s along the ground stops after v^2 / (2 mu g). Both colliders get
    // the same coefficient, so any mixing rule gives it back.
    let slide = |mu: f32, change_to: Option<f32>| {
        let mut app = app();
        app.world_mut().spawn((
            RigidBody::Static,
            Collider::rectangle(100.0, 1.0),
            Friction(change_to.unwrap_or(mu)),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ));
        let body = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::rectangle(1.0, 1.0),
                Friction(mu),
                Transform::from_xyz(0.0, 0.5, 0.0),
            ))
            .id();
        step(&mut app, 10);
        if let Some(new) = change_to {
            app.world_mut().get_mut::<Friction>(body).unwrap().0 = new;
        }
        app.world_mut().get_mut::<LinearVelocity>(body).unwrap().0 = Vec2::new(4.0, 0.0);
        step(&mut app, 240);
        let g = -gravity(&app).y;
        let x = app.world().get::<Transform>(body).unwrap().translation.x;
        (x, 16.0 / (2.0 * change_to.unwrap_or(mu) * g))
    };
    for (mu, change) in [(0.2, None), (0.2, Some(0.5))] {
        let (x, predicted) = slide(mu, change);
        // The discrete slide stops within a step's travel (4 m/s x 1/60 s = 7 cm) of the
        // continuous prediction.
        assert!(
            (x - predicted).abs() < 0.07,
            "mu {mu} -> {change:?}: slid {x} m, Coulomb says {predicted} m"
        );
    }
}

#[test]
fn removing_a_collider_drops_its_contacts_in_the_same_step() {
    let mut app = app();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(10.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let body = support::spawn_dynamic(&mut app, Collider::rectangle(1.0, 1.0), 0.0, 0.5);
    app.world_mut()
        .resource_mut::<PhysicsSettings>()
        .enable_sleep = false;
    step(&mut app, 30);
    let touching = |app: &App| {
        app.world()
            .resource::<PhysicsWorld>()
            .core()
            .touching_contact_count()
    };
    assert_eq!(touching(&app), 1);
    app.world_mut().entity_mut(body).remove::<Collider>();
    step(&mut app, 1);
    assert_eq!(touching(&app), 0, "the contact outlived its collider");
    // Nothing holds the body up any more: it falls from this step on.
    assert!(v(&app, body).y < -0.1, "{}", v(&app, body));
}

/// A ground and a ball dropped from `height` (its bottom), returned with the App.
fn drop_ball(height: f32) -> (App, Entity, Entity) {
    let mut app = app();
    app.world_mut()
        .resource_mut::<PhysicsSettings>()
        .enable_sleep = false;
    let ground = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(20.0, 1.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id();
    let ball = support::spawn_dynamic(&mut app, Collider::circle(0.5), 0.0, height + 0.5);
    (app, ground, ball)
}

fn y(app: &App, e: Entity) -> f32 {
    app.world().get::<Transform>(e).unwrap().translation.y
}

#[test]
fn restitution_changed_on_a_live_collider_sets_the_bounce() {
    // Dropped 2 m, a ball bouncing with restitution e rises back e^2 x 2 m.
    let (mut app, _, ball) = drop_ball(2.0);
    app.world_mut().entity_mut(ball).insert(Restitution(0.0));
    step(&mut app, 1);
    app.world_mut().get_mut::<Restitution>(ball).unwrap().0 = 0.8;
    let mut fell = false;
    let mut highest_after = f32::NEG_INFINITY;
    for _ in 0..150 {
        step(&mut app, 1);
        let vy = v(&app, ball).y;
        fell |= vy < -5.0;
        if fell && vy > 0.0 || highest_after > f32::NEG_INFINITY {
            highest_after = highest_after.max(y(&app, ball) - 0.5);
        }
    }
    // 1.28 m; the step discretises the impact and the apex by a few centimetres.
    assert!(
        (highest_after - 0.64 * 2.0).abs() < 0.06,
        "rose back {highest_after} m"
    );
}

#[test]
fn layers_density_and_sensor_changes_apply_to_a_live_collider() {
    let (mut app, ground, ball) = drop_ball(0.0);
    step(&mut app, 30);
    assert!((y(&app, ball) - 0.5).abs() < 0.01, "resting on the ground");
    // Density: the mass follows (a 0.5 m disk of density 4: pi kg).
    app.world_mut()
        .entity_mut(ball)
        .insert(ColliderDensity(4.0));
    step(&mut app, 1);
    let id = app.world().get::<PhysicsBody>(ball).unwrap().id();
    let mass = app
        .world()
        .resource::<PhysicsWorld>()
        .core()
        .body_mass_data(id)
        .unwrap()
        .mass;
    assert!((mass - std::f32::consts::PI).abs() < 1e-4, "{mass}");
    // Layers that leave the ground out: the ball falls through it.
    app.world_mut()
        .entity_mut(ball)
        .insert(CollisionLayers::new(2, 2));
    step(&mut app, 30);
    assert!(y(&app, ball) < 0.0, "fell through at {}", y(&app, ball));
    // Back on the ground's layer, placed above it: it lands again.
    app.world_mut().entity_mut(ball).remove::<CollisionLayers>();
    app.world_mut()
        .get_mut::<Transform>(ball)
        .unwrap()
        .translation
        .y = 1.0;
    step(&mut app, 60);
    assert!(
        (y(&app, ball) - 0.5).abs() < 0.01,
        "landed at {}",
        y(&app, ball)
    );
    // The ground made a sensor: it holds nothing up.
    app.world_mut().entity_mut(ground).insert(Sensor);
    step(&mut app, 30);
    assert!(
        y(&app, ball) < 0.0,
        "a sensor held the ball at {}",
        y(&app, ball)
    );
}

#[test]
fn removing_a_joint_lets_its_bodies_go() {
    let mut app = app();
    let anchor = app
        .world_mut()
        .spawn((RigidBody::Static, Transform::from_xyz(0.0, 5.0, 0.0)))
        .id();
    let bob = support::spawn_dynamic(&mut app, Collider::circle(0.25), 1.0, 5.0);
    let joint = app
        .world_mut()
        .spawn(Joint::revolute(anchor, bob).with_anchor(Vec2::new(0.0, 5.0)))
        .id();
    step(&mut app, 60);
    // Pinned 1 m from the anchor while it swings.
    let at = app
        .world()
        .get::<Transform>(bob)
        .unwrap()
        .translation
        .truncate();
    assert!(
        (at.distance(Vec2::new(0.0, 5.0)) - 1.0).abs() < 0.005,
        "{at}"
    );
    app.world_mut().entity_mut(joint).remove::<Joint>();
    step(&mut app, 60);
    // Free, it falls away (a pinned bob never gets more than 1 m below the anchor).
    assert!(y(&app, bob) < 3.0, "still held at {}", y(&app, bob));
}

#[test]
fn every_ray_hit_in_order_shape_overlaps_and_masks() {
    // Three boxes in a row along x (layers 1, 2, 1) and a ray through all of them.
    let mut app = app();
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
    let boxes: Vec<Entity> = [(2.0, 1u64), (5.0, 2), (8.0, 1)]
        .into_iter()
        .map(|(x, layer)| {
            app.world_mut()
                .spawn((
                    RigidBody::Static,
                    Collider::rectangle(1.0, 1.0),
                    CollisionLayers::new(layer, u64::MAX),
                    Transform::from_xyz(x, 0.0, 0.0),
                ))
                .id()
        })
        .collect();
    step(&mut app, 1);
    let mut state = bevy_ecs::system::SystemState::<SpatialQuery>::new(app.world_mut());
    let query = state.get(app.world()).unwrap();
    let all = SpatialQueryFilter::default();
    let hits = query.ray_hits(Vec2::ZERO, Vec2::X, 20.0, &all);
    // Each box once, nearest first, at its near face (x - 0.5), normal facing the ray.
    let entities: Vec<Entity> = hits.iter().map(|h| h.entity).collect();
    assert_eq!(entities, boxes);
    for (hit, x) in hits.iter().zip([2.0f32, 5.0, 8.0]) {
        assert!((hit.distance - (x - 0.5)).abs() < 1e-4, "{hit:?}");
        assert!((hit.normal - Vec2::NEG_X).length() < 1e-5, "{hit:?}");
    }
    // A mask that leaves layer 2 out skips the middle box.
    let layer_one = SpatialQueryFilter::default().with_mask(1);
    let masked: Vec<Entity> = query
        .ray_hits(Vec2::ZERO, Vec2::X, 20.0, &layer_one)
        .iter()
        .map(|h| h.entity)
        .collect();
    assert_eq!(masked, vec![boxes[0], boxes[2]]);
    // A 4 m wide box centred between the first two overlaps both, not the third.
    let mut found = query
        .shape_intersections(
            &Collider::rectangle(4.0, 0.5),
            Vec2::new(3.5, 0.0),
            bevy_math::Quat::IDENTITY,
            &all,
        )
        .unwrap();
    found.sort();
    let mut expected = vec![boxes[0], boxes[1]];
    expected.sort();
    assert_eq!(found, expected);
    // Short of the first box: nothing.
    assert!(query.ray_hits(Vec2::ZERO, Vec2::X, 1.0, &all).is_empty());
}
