//! The component API says what it does: partial mass overrides, joints that reflect their
//! fields, regular polygons of any side count.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsBody, PhysicsWarning};
use bevy_reflect::{GetPath, PartialReflect, ReflectRef};
use support::{app, step};

fn mass_data(app: &App, body: Entity) -> physics_core::shape::MassData {
    let id = app.world().get::<PhysicsBody>(body).unwrap().id();
    app.world()
        .resource::<PhysicsWorld>()
        .core()
        .body_mass_data(id)
        .unwrap()
}

use bevy_physics2d::physics_core;

#[test]
fn a_mass_override_keeps_what_it_leaves_out_from_the_colliders() {
    let mut app = app();
    // A 1 m box of density 1: mass 1, inertia (1 + 1) / 12 about its centre.
    let box_inertia = 2.0 / 12.0;
    let heavy = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Mass::new(5.0),
        ))
        .id();
    let offset = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            Mass::default().with_center(Vec2::new(0.0, -0.25)),
            Transform::from_xyz(5.0, 0.0, 0.0),
        ))
        .id();
    step(&mut app, 1);
    let m = mass_data(&app, heavy);
    assert!((m.mass - 5.0).abs() < 1e-5);
    // The same shape five times heavier turns five times harder.
    assert!(
        (m.rotational_inertia - 5.0 * box_inertia).abs() < 1e-5,
        "{m:?}"
    );
    assert_eq!(m.center, Vec2::ZERO);
    let m = mass_data(&app, offset);
    assert!((m.mass - 1.0).abs() < 1e-5 && (m.rotational_inertia - box_inertia).abs() < 1e-5);
    assert_eq!(m.center, Vec2::new(0.0, -0.25));

    // A second collider doubles what the colliders give: the mass stays 5, the inertia
    // follows the new shape (two boxes side by side: 2 (1/6 + 0.5^2) about their middle,
    // scaled by 5 / 2).
    app.world_mut().spawn((
        Collider::rectangle(1.0, 1.0),
        Transform::from_xyz(1.0, 0.0, 0.0),
        ChildOf(heavy),
    ));
    step(&mut app, 1);
    let m = mass_data(&app, heavy);
    let pair_inertia = 2.0 * (box_inertia + 0.25);
    assert!((m.mass - 5.0).abs() < 1e-5);
    assert!(
        (m.rotational_inertia - 2.5 * pair_inertia).abs() < 1e-4,
        "{m:?}"
    );
    // Without the override the colliders decide again.
    app.world_mut().entity_mut(heavy).remove::<Mass>();
    step(&mut app, 1);
    let m = mass_data(&app, heavy);
    assert!((m.mass - 2.0).abs() < 1e-5 && (m.rotational_inertia - pair_inertia).abs() < 1e-4);
}

#[test]
fn a_joint_shows_its_fields_to_reflection() {
    let mut app = app();
    let a = app.world_mut().spawn(RigidBody::Static).id();
    let b = app
        .world_mut()
        .spawn((RigidBody::Dynamic, Collider::circle(0.5)))
        .id();
    let joint: Joint = Joint::revolute(a, b)
        .with_motor(2.0, 5.0)
        .with_break_force(100.0)
        .into();
    let ReflectRef::Struct(fields) = joint.reflect_ref() else {
        panic!("a Joint should reflect as a struct");
    };
    assert!(fields.field("collide_connected").is_some());
    assert_eq!(*joint.path::<f32>("break_force").unwrap(), 100.0);
    assert_eq!(*joint.path::<f32>("kind.0.motor_speed").unwrap(), 2.0);
    // Registered for inspectors, with its component data.
    let registry = app.world().resource::<AppTypeRegistry>().read();
    let registration = registry.get(std::any::TypeId::of::<Joint>()).unwrap();
    assert!(registration.data::<ReflectComponent>().is_some());
    // Editing a field through reflection reaches the core like any change.
    drop(registry);
    let entity = app.world_mut().spawn(joint).id();
    step(&mut app, 1);
    let mut component = app.world_mut().get_mut::<Joint>(entity).unwrap();
    *component.path_mut::<f32>("kind.0.motor_speed").unwrap() = -3.0;
    step(&mut app, 1);
    let physics = app.world().resource::<PhysicsWorld>();
    let def = physics
        .core()
        .joint_def(physics.joint(entity).unwrap())
        .unwrap();
    let physics_core::joint::JointKind::Revolute(r) = def.kind else {
        panic!("{def:?}");
    };
    assert_eq!(r.motor_speed, -3.0);
}

#[test]
fn regular_polygons_of_many_sides_become_compounds_and_roll() {
    let mut app = app();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(40.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let wheel = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::regular_polygon(1.0, 24),
            Transform::from_xyz(0.0, 1.0, 0.0),
            LinearVelocity(Vec2::new(4.0, 0.0)),
        ))
        .id();
    let mut warnings = bevy_ecs::message::MessageCursor::<PhysicsWarning>::default();
    step(&mut app, 60);
    let sent = support::read(&mut app, &mut warnings);
    assert!(sent.is_empty(), "{sent:?}");
    // Its mass is the 24-gon's: (n / 2) r^2 sin(2 pi / n) at density 1.
    let n = 24.0f32;
    let area = 0.5 * n * (std::f32::consts::TAU / n).sin();
    let m = mass_data(&app, wheel);
    assert!(
        (m.mass - area).abs() < 1e-3,
        "mass {} against {area}",
        m.mass
    );
    assert!(m.center.length() < 1e-5);
    // A near-circle rolls: it has gone forward and spins as it rolls.
    let id = app.world().get::<PhysicsBody>(wheel).unwrap().id();
    let core = app.world().resource::<PhysicsWorld>().core();
    let x = core.body_position(id).unwrap().x;
    let (v, w) = (
        core.linear_velocity(id).unwrap().x,
        core.angular_velocity(id).unwrap(),
    );
    assert!(x > 2.0, "x = {x}");
    assert!((v + w * 0.99).abs() < 0.2, "v {v}, w {w}: not rolling");
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
