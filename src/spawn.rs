//! Scenes as Bevy entities: the same [`Scene`] the core tests build, spawned as `RigidBody`,
//! `Collider` and `Joint` components for the `bevy_physics2d` plugin (the testbed and the plugin
//! tests use this).

use crate::{BodyDesc, JointDesc, Scene, ShapeDesc};
use bevy_ecs::prelude::*;
use bevy_physics2d::physics_core::body::BodyType;
use bevy_physics2d::physics_core::joint::JointKind;
use bevy_physics2d::physics_core::math::Transform as CoreTransform;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{JointAnchor, PhysicsSettings};
use bevy_transform::components::Transform;

/// Marks every entity spawned from a scene, so a testbed can despawn the scene as a whole.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct SceneEntity;

/// The entities of a spawned scene, index-aligned with [`Scene::bodies`] and [`Scene::joints`].
#[derive(Clone, Debug, Default)]
pub struct SpawnedScene {
    /// One entity per body description.
    pub bodies: Vec<Entity>,
    /// One entity per joint description.
    pub joints: Vec<Entity>,
}

/// Spawns `scene` with `commands`. Bodies with one shape centred on their origin carry the
/// collider themselves; other shapes go on child entities placed in the body's frame.
pub fn spawn_scene(commands: &mut Commands, scene: &Scene) -> SpawnedScene {
    let bodies: Vec<Entity> = scene
        .bodies
        .iter()
        .map(|body| spawn_body(commands, body))
        .collect();
    let joints = scene
        .joints
        .iter()
        .map(|joint| spawn_joint(commands, joint, &bodies))
        .collect();
    SpawnedScene { bodies, joints }
}

/// Plugin settings matching the scene's gravity, all else at the defaults.
pub fn scene_settings(scene: &Scene) -> PhysicsSettings {
    PhysicsSettings {
        gravity: scene.gravity,
        ..PhysicsSettings::default()
    }
}

fn spawn_body(commands: &mut Commands, desc: &BodyDesc) -> Entity {
    let body_type = match desc.body_type {
        BodyType::Static => RigidBody::Static,
        BodyType::Kinematic => RigidBody::Kinematic,
        BodyType::Dynamic => RigidBody::Dynamic,
    };
    let transform = Transform::from_xyz(desc.position.x, desc.position.y, 0.0)
        .with_rotation(bevy_math::Quat::from_rotation_z(desc.angle));
    let mut body = commands.spawn((
        SceneEntity,
        body_type,
        transform,
        LinearVelocity(desc.linear_velocity),
        AngularVelocity(desc.angular_velocity),
    ));
    let placed: Vec<_> = desc
        .shapes
        .iter()
        .map(|shape| (Collider::from_core_shape(&shape.shape), shape))
        .collect();
    match placed.as_slice() {
        [((collider, offset), shape)] if *offset == CoreTransform::IDENTITY => {
            body.insert((collider.clone(), materials(shape)));
        }
        _ => {
            body.with_children(|children| {
                for ((collider, offset), shape) in &placed {
                    let local = Transform::from_xyz(offset.p.x, offset.p.y, 0.0)
                        .with_rotation(bevy_math::Quat::from_rotation_z(offset.q.angle()));
                    children.spawn((SceneEntity, collider.clone(), local, materials(shape)));
                }
            });
        }
    }
    body.id()
}

fn materials(shape: &ShapeDesc) -> impl Bundle {
    let filter = shape.filter;
    (
        ColliderDensity(shape.density),
        Friction(shape.friction),
        Restitution(shape.restitution),
        CollisionLayers::new(filter.category_bits, filter.mask_bits).with_group(filter.group_index),
    )
}

fn spawn_joint(commands: &mut Commands, desc: &JointDesc, bodies: &[Entity]) -> Entity {
    // The scene's kind already carries the reference angle it wants; keep it rather than
    // measuring the bodies' relative angle at creation.
    let reference_angle = match desc.kind {
        JointKind::Revolute(j) => Some(j.reference_angle),
        JointKind::Prismatic(j) => Some(j.reference_angle),
        JointKind::Weld(j) => Some(j.reference_angle),
        _ => None,
    };
    let mut joint = Joint::from_kind(bodies[desc.body_a], bodies[desc.body_b], desc.kind);
    joint.collide_connected = desc.collide_connected;
    joint.reference_angle = reference_angle;
    joint.anchor = JointAnchor::WorldPair {
        a: desc.anchor_a,
        b: desc.anchor_b,
    };
    commands.spawn((SceneEntity, joint)).id()
}
