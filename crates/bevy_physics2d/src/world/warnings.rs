//! Invalid input is skipped with a warning: a log line naming the entity and a
//! [`PhysicsWarning`] message games and tests can read.

use bevy_ecs::prelude::*;
use std::fmt::Display;

/// Something the physics plugin could not use and skipped; the rest of the world steps on.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct PhysicsWarning {
    /// The entity whose component was rejected.
    pub entity: Entity,
    /// What was wrong, in words.
    pub message: String,
}

/// Logs and records a skipped entity.
pub(crate) fn warn_skipped(
    warnings: &mut MessageWriter<PhysicsWarning>,
    entity: Entity,
    what: impl Display,
) {
    let message = what.to_string();
    bevy_log::warn!("physics: entity {entity} skipped: {message}");
    warnings.write(PhysicsWarning { entity, message });
}

/// Logs and records something about an entity that the physics still uses (as it says).
pub(crate) fn warn_entity(
    warnings: &mut MessageWriter<PhysicsWarning>,
    entity: Entity,
    what: impl Display,
) {
    let message = what.to_string();
    bevy_log::warn!("physics: entity {entity}: {message}");
    warnings.write(PhysicsWarning { entity, message });
}
