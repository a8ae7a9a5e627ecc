//! Fuzz check: a world built from an arbitrary scene description steps without panics or
//! NaN, and refuses what it cannot simulate.

use crate::input::{assert_unit, bounded, count, magnitude, point, raw};
use crate::shapes::shape;
use arbitrary::Unstructured;
use physics_core::body::{BodyDef, BodyType};
use physics_core::id::BodyId;
use physics_core::joint::{JointDef, JointKind, RevoluteJoint};
use physics_core::math::Rot;
use physics_core::shape_def::ShapeDef;
use physics_core::world::{World, WorldDef, WorldSnapshot};

/// Steps each scene runs.
const STEPS: usize = 60;

/// A float that is usually `bounded(limit)` but one time in eight anything at all, so that
/// both the clamped range and the refusals get exercised.
fn mostly_bounded(u: &mut Unstructured, limit: f32) -> f32 {
    if count(u, 7) == 0 {
        raw(u)
    } else {
        bounded(u, limit)
    }
}

/// As [`mostly_bounded`], but non-negative except for the raw values.
fn mostly_magnitude(u: &mut Unstructured, limit: f32) -> f32 {
    if count(u, 7) == 0 {
        raw(u)
    } else {
        magnitude(u, limit)
    }
}

/// World settings: the defaults with gravity, substeps, softness and speed limit from the bytes.
fn world_def(u: &mut Unstructured) -> WorldDef {
    WorldDef {
        gravity: physics_core::Vec2::new(mostly_bounded(u, 100.0), mostly_bounded(u, 100.0)),
        substep_count: if count(u, 15) == 0 {
            0
        } else {
            1 + count(u, 7) as u32
        },
        contact_hertz: mostly_magnitude(u, 240.0),
        joint_hertz: mostly_magnitude(u, 240.0),
        max_linear_speed: mostly_magnitude(u, 1.0e3),
        enable_sleep: u.arbitrary().unwrap_or(true),
        // Every joint tree exact (the default), or heavy-ended trees only.
        exact_joint_mass_ratio: if u.arbitrary().unwrap_or(false) {
            10.0
        } else {
            WorldDef::default().exact_joint_mass_ratio
        },
        ..WorldDef::default()
    }
}

/// A body of any type placed within 4 m of the origin (so bodies meet), with velocities, damping and flags
/// from the bytes.
fn body_def(u: &mut Unstructured) -> BodyDef {
    let body_type = [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic][count(u, 2)];
    BodyDef {
        body_type,
        position: physics_core::Vec2::new(mostly_bounded(u, 4.0), mostly_bounded(u, 4.0)),
        rotation: Rot::from_angle(bounded(u, 10.0)),
        linear_velocity: point(u, 100.0),
        angular_velocity: mostly_bounded(u, 100.0),
        gravity_scale: bounded(u, 10.0),
        linear_damping: mostly_magnitude(u, 10.0),
        angular_damping: mostly_magnitude(u, 10.0),
        fixed_rotation: u.arbitrary().unwrap_or(false),
        bullet: u.arbitrary().unwrap_or(false),
        ..BodyDef::default()
    }
}

/// Material and flags of a shape.
fn shape_def(u: &mut Unstructured) -> ShapeDef {
    ShapeDef {
        density: mostly_magnitude(u, 100.0),
        friction: magnitude(u, 2.0),
        restitution: magnitude(u, 2.0),
        is_sensor: count(u, 7) == 0,
        enable_kinematic_contacts: count(u, 3) == 0,
        ..ShapeDef::default()
    }
}

/// A joint of any kind between two of the bodies: the kind and every parameter come from
/// decoding the bytes as a serialised `JointKind`, so each field may be any value at all.
fn joint_def(u: &mut Unstructured, bodies: &[BodyId]) -> Option<JointDef> {
    let a = bodies[count(u, bodies.len() - 1)];
    let b = bodies[count(u, bodies.len() - 1)];
    let len = count(u, 64);
    let encoded = u.bytes(len).unwrap_or(&[]);
    let kind =
        bincode::serde::decode_from_slice::<JointKind, _>(encoded, bincode::config::standard())
            .map(|(kind, _)| kind)
            .unwrap_or(JointKind::Revolute(RevoluteJoint::default()));
    let mut def = JointDef::new(a, b, point(u, 2.0), point(u, 2.0), kind);
    def.collide_connected = u.arbitrary().unwrap_or(false);
    if count(u, 3) == 0 {
        def.break_force = mostly_bounded(u, 1.0e4);
        def.break_torque = mostly_bounded(u, 1.0e4);
    }
    Some(def)
}

/// Panics unless every body has a finite pose with a unit rotation and finite velocities, and
/// every touching contact a unit normal.
pub(crate) fn assert_sane(world: &World, step: usize) {
    for id in world.body_ids() {
        let xf = world.body_transform(id).expect("listed bodies exist");
        let v = world.linear_velocity(id).expect("listed bodies exist");
        let w = world.angular_velocity(id).expect("listed bodies exist");
        assert!(
            xf.is_valid() && v.is_finite() && w.is_finite(),
            "step {step}: body {id:?} at {xf:?} moving {v:?}, {w} rad/s"
        );
    }
    for contact in world.contact_data() {
        if contact.manifold.point_count > 0 {
            assert_unit(contact.manifold.normal, 1.0e-3, "contact normal");
        }
    }
}

/// Builds a world from the bytes: settings, up to 12 bodies with up to 3 shapes each, up to 8
/// joints. Any of these may be refused with an error; what is accepted then steps 60 times
/// with impulses (some non-finite), a destroyed body and a snapshot round trip on the way.
/// Every step must succeed and leave every body finite. Returns whether the scene had a
/// contact or a joint at some step (and so exercised the solver).
pub fn check_scene(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    let Ok(mut world) = World::new(world_def(&mut u)) else {
        return false;
    };
    let mut bodies = Vec::new();
    for _ in 0..count(&mut u, 12) {
        let Ok(body) = world.create_body(&body_def(&mut u)) else {
            continue;
        };
        bodies.push(body);
        for _ in 0..count(&mut u, 3) {
            let def = shape_def(&mut u);
            if let Some(s) = shape(&mut u, 1.0) {
                let _ = world.create_shape(body, &def, s);
            }
        }
    }
    if !bodies.is_empty() {
        for _ in 0..count(&mut u, 8) {
            if let Some(def) = joint_def(&mut u, &bodies) {
                let _ = world.create_joint(&def);
            }
        }
    }
    assert_sane(&world, 0);
    let mut exercised = world.joint_count() > 0;
    for step in 1..=STEPS {
        if step % 20 == 0 && !bodies.is_empty() {
            let body = bodies[count(&mut u, bodies.len() - 1)];
            let impulse = physics_core::Vec2::new(mostly_bounded(&mut u, 1.0e3), raw(&mut u));
            let _ = world.apply_linear_impulse(body, impulse);
            if count(&mut u, 3) == 0 {
                let _ = world.destroy_body(body);
            }
        }
        if step == STEPS / 2 {
            let bytes = world.snapshot().to_bytes();
            let snapshot = WorldSnapshot::from_bytes(&bytes).expect("a snapshot reads back");
            world
                .restore(&snapshot)
                .expect("a world's own snapshot restores");
        }
        world.step(1.0 / 60.0).expect("a step of 1/60 s is valid");
        assert_sane(&world, step);
        exercised |= world.touching_contact_count() > 0;
    }
    exercised
}
