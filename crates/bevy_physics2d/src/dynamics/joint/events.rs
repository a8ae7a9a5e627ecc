//! [`JointBroken`]: a joint broke under load or lost one of its bodies; a message and an
//! entity event on the joint.

use crate::world::physics_world::PhysicsWorld;
use crate::world::sent_events::SentKind;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;

/// Why a joint stopped working.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointBreakReason {
    /// Its force or torque exceeded the break threshold; the core joint is disabled.
    Overloaded {
        /// Force when it broke.
        force: Vec2,
        /// Torque when it broke.
        torque: f32,
    },
    /// One of its bodies was despawned or lost its `RigidBody`; the core joint is destroyed.
    BodyRemoved {
        /// The body entity that went away.
        body: Entity,
    },
}

/// A joint broke. Triggered on the joint entity and sent as a message.
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct JointBroken {
    /// The joint entity.
    #[event_target]
    pub joint: Entity,
    /// Why.
    pub reason: JointBreakReason,
}

/// Writeback stage: the joints that broke under load in this step, each a [`JointBroken`]
/// message and entity event, not sent again when a rollback resimulates the step.
pub(crate) fn send_joint_break_events(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    mut broken: MessageWriter<JointBroken>,
) {
    if physics.world.joint_break_events().is_empty() {
        return;
    }
    physics.send_once(|p, sent| {
        for e in p.world.joint_break_events() {
            let Some(joint) = p.joint_entity(e.joint) else {
                continue;
            };
            if !sent.first_time(SentKind::JointBroken, joint, Entity::PLACEHOLDER) {
                continue;
            }
            let event = JointBroken {
                joint,
                reason: JointBreakReason::Overloaded {
                    force: e.force,
                    torque: e.torque,
                },
            };
            bevy_log::debug!(
                "physics: joint {joint} broke under force {} and torque {}",
                e.force,
                e.torque
            );
            broken.write(event);
            commands.trigger(event);
        }
    });
}
