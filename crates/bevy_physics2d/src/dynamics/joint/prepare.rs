//! Prepare stage, joints: build the core joint of every queued `Joint` once both bodies exist;
//! parameter changes are applied in place, changes of bodies or anchors rebuild the joint.

use crate::dynamics::joint::components::{Joint, JointAnchor, kind_in_world};
use crate::world::physics_world::PhysicsWorld;
use crate::world::warnings::{PhysicsWarning, warn_skipped};
use bevy_ecs::prelude::*;
use physics_core::id::BodyId;
use physics_core::joint::{JointDef, JointKind};
use physics_core::world::WorldError;

/// Queues the joints mutated in place, in core id order.
pub(crate) fn queue_changed_joints(
    mut physics: ResMut<PhysicsWorld>,
    changed: Query<Entity, Changed<Joint>>,
) {
    let mut queued: Vec<(u32, Entity)> = changed
        .iter()
        .filter_map(|e| physics.joint(e).map(|id| (id.index, e)))
        .collect();
    queued.sort_unstable();
    for (_, e) in queued {
        physics.pending.joints.push(e);
    }
}

/// Creates, updates or rebuilds the core joint of every queued joint entity.
pub(crate) fn create_joints(
    mut physics: ResMut<PhysicsWorld>,
    mut warnings: MessageWriter<PhysicsWarning>,
    joints: Query<&Joint>,
    disabled: Query<(), With<crate::dynamics::body::control::RigidBodyDisabled>>,
) {
    if physics.pending.joints.is_empty() {
        return;
    }
    for entity in physics.pending.joints.take() {
        let Ok(joint) = joints.get(entity) else {
            continue;
        };
        if disabled.contains(joint.entity_a) || disabled.contains(joint.entity_b) {
            // Out with its body (`RigidBodyDisabled`): built again when the body is back.
            if let Some(old) = physics.unmap_joint(entity) {
                let _ = physics.world.destroy_joint(old);
            }
            continue;
        }
        // Only parameters changed: keep the joint and its warm-start impulses.
        if let (Some(id), Some(old)) = (physics.joint(entity), physics.joint_source.get(&entity))
            && same_attachment(old, joint)
        {
            let mut kind = kind_in_world(joint.kind, physics.game_frame());
            keep_measured_values(&mut kind, &physics.world.joint_def(id).map(|d| d.kind).ok());
            match physics.world.set_joint_kind(id, kind) {
                Ok(()) => {
                    physics.joint_source.insert(entity, joint.clone());
                }
                Err(error) => warn_skipped(&mut warnings, entity, format_args!("joint: {error}")),
            }
            continue;
        }
        if let Some(old) = physics.unmap_joint(entity) {
            let _ = physics.world.destroy_joint(old);
        }
        match build_def(&mut physics, joint) {
            Ok(def) => match physics.world.create_joint(&def) {
                Ok(id) => {
                    physics.map_joint(entity, id);
                    physics.joint_source.insert(entity, joint.clone());
                }
                Err(error) => warn_skipped(&mut warnings, entity, format_args!("joint: {error}")),
            },
            Err(why) => warn_skipped(&mut warnings, entity, format_args!("joint: {why}")),
        }
    }
}

/// Same bodies, anchors and reference values: the core joint can be updated in place.
fn same_attachment(old: &Joint, new: &Joint) -> bool {
    old.entity_a == new.entity_a
        && old.entity_b == new.entity_b
        && old.anchor == new.anchor
        && old.collide_connected == new.collide_connected
        && old.break_force == new.break_force
        && old.break_torque == new.break_torque
        && old.reference_angle == new.reference_angle
        && old.measure_length == new.measure_length
        && std::mem::discriminant(&old.kind) == std::mem::discriminant(&new.kind)
}

/// Values measured at creation (reference angles, rest lengths) survive parameter updates.
fn keep_measured_values(kind: &mut JointKind, built: &Option<JointKind>) {
    match (kind, built) {
        (JointKind::Revolute(j), Some(JointKind::Revolute(b))) => {
            j.reference_angle = b.reference_angle
        }
        (JointKind::Prismatic(j), Some(JointKind::Prismatic(b))) => {
            j.reference_angle = b.reference_angle
        }
        (JointKind::Weld(j), Some(JointKind::Weld(b))) => j.reference_angle = b.reference_angle,
        (JointKind::Distance(j), Some(JointKind::Distance(b))) => {
            j.length = b.length;
            if !j.enable_spring {
                (j.min_length, j.max_length) = (b.min_length, b.max_length);
            }
        }
        _ => {}
    }
}

fn resolve_body(physics: &mut PhysicsWorld, entity: Entity) -> Result<BodyId, String> {
    if entity == Entity::PLACEHOLDER {
        return Ok(physics.ground());
    }
    physics
        .body(entity)
        .ok_or_else(|| format!("body entity {entity} has no rigid body in the physics world"))
}

/// The core def of a joint component, with anchors converted and measured values filled in.
fn build_def(physics: &mut PhysicsWorld, joint: &Joint) -> Result<JointDef, String> {
    let a = resolve_body(physics, joint.entity_a)?;
    let b = resolve_body(physics, joint.entity_b)?;
    if a == b {
        return Err(format!("both ends are entity {}", joint.entity_b));
    }
    let world = &physics.world;
    let game = physics.game_frame();
    let err = |e: WorldError| e.to_string();
    let (xa, xb) = (
        world.body_transform(a).map_err(err)?,
        world.body_transform(b).map_err(err)?,
    );
    // World anchors are the game's points, measured from the floating origin.
    let (local_a, local_b) = match joint.anchor {
        JointAnchor::Local { a, b } => (a, b),
        JointAnchor::World(p) => {
            let p = game.to_world(p);
            (xa.apply_inverse(p), xb.apply_inverse(p))
        }
        JointAnchor::WorldPair { a, b } => (
            xa.apply_inverse(game.to_world(a)),
            xb.apply_inverse(game.to_world(b)),
        ),
    };
    let relative = joint
        .reference_angle
        .unwrap_or_else(|| xa.q.relative_angle(xb.q));
    let mut kind = kind_in_world(joint.kind, game);
    match &mut kind {
        JointKind::Revolute(j) => j.reference_angle = relative,
        JointKind::Prismatic(j) => j.reference_angle = relative,
        JointKind::Weld(j) => j.reference_angle = relative,
        JointKind::Distance(j) if joint.measure_length => {
            let length =
                physics_core::position::relative(xb.apply(local_b), xa.apply(local_a)).length();
            j.length = length;
            if !j.enable_spring {
                (j.min_length, j.max_length) = (length, length);
            }
        }
        _ => {}
    }
    let mut def = JointDef::new(a, b, local_a, local_b, kind)
        .with_break_thresholds(joint.break_force, joint.break_torque);
    def.collide_connected = joint.collide_connected;
    Ok(def)
}
