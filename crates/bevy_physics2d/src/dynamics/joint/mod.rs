//! Joints: the [`Joint`] component with its typed builders, the core joints
//! built from it once both bodies exist, and [`JointBroken`] events. [`JointPlugin`]
//! registers them.

pub(crate) mod builder;
pub(crate) mod components;
pub(crate) mod events;
pub(crate) mod prepare;

use crate::dynamics::body::control::RigidBodyDisabled;
use crate::schedule::{PhysicsStageSchedule, PrepareSystems, WritebackSystems};
use crate::world::physics_world::PhysicsWorld;
use bevy_app::{App, Plugin};
use bevy_ecs::lifecycle::{Insert, Remove};
use bevy_ecs::prelude::*;
use components::Joint;
pub use events::{JointBreakReason, JointBroken};

/// Joints (part of [`PhysicsPlugins`](crate::PhysicsPlugins)): the `Joint` component's
/// observers, the Prepare step that builds and updates core joints, and the [`JointBroken`]
/// message. A game without joints may disable it; a `Joint` spawned then is ignored.
#[derive(Default)]
pub struct JointPlugin;

impl Plugin for JointPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<Joint>()
            .add_message::<JointBroken>()
            .add_observer(|on: On<Insert, Joint>, mut physics: ResMut<PhysicsWorld>| {
                physics.pending.joints.push(on.entity);
            })
            .add_observer(|on: On<Remove, Joint>, mut physics: ResMut<PhysicsWorld>| {
                if let Some(joint) = physics.unmap_joint(on.entity) {
                    let _ = physics.world.destroy_joint(joint);
                }
            })
            .add_observer(queue_joints_of_enabled_body)
            .add_systems(
                PhysicsStageSchedule::Prepare,
                (prepare::queue_changed_joints, prepare::create_joints)
                    .chain()
                    .in_set(PrepareSystems::Joints),
            )
            .add_systems(
                PhysicsStageSchedule::Writeback,
                events::send_joint_break_events.in_set(WritebackSystems::JointEvents),
            );
    }
}

/// Joints to a body wait while the body is disabled: once it is back, they are queued to be
/// built (in entity order, so every peer builds them alike).
fn queue_joints_of_enabled_body(
    on: On<Remove, RigidBodyDisabled>,
    mut physics: ResMut<PhysicsWorld>,
    joints: Query<(Entity, &Joint)>,
) {
    let mut waiting: Vec<Entity> = joints
        .iter()
        .filter(|(_, j)| j.entity_a == on.entity || j.entity_b == on.entity)
        .map(|(e, _)| e)
        .collect();
    waiting.sort_unstable();
    for joint in waiting {
        physics.pending.joints.push(joint);
    }
}
