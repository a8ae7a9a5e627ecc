//! Client: corrections eased on screen. A rollback can move a body far at once (another
//! player's late input changes where their ball is by its speed times the lateness). The
//! body is drawn where it was shown before the rollback and the difference decays, halving
//! every [`CORRECTION_HALF_LIFE`]; the physics never sees the offset: `Transform` holds the
//! simulated pose during the fixed steps and the offset is added after them, for drawing.

use crate::dynamics::body::components::RigidBody;
use crate::world::physics_world::PhysicsWorld;
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec2};
use bevy_time::{Real, Time};
use bevy_transform::components::Transform;
use lightyear::prelude::*;

/// Time for a shown correction to halve, in seconds.
pub const CORRECTION_HALF_LIFE: f32 = 0.2;

/// Below this distance (m) and angle (rad) an eased correction ends.
const CORRECTION_DONE: f32 = 1.0e-4;

/// What is added to a body's simulated pose when it is drawn: the rest of a correction.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct ShownCorrection {
    /// Translation offset, metres.
    pub offset: Vec2,
    /// Rotation offset, radians.
    pub angle: f32,
}

/// Poses shown before this frame's rollback.
#[derive(Resource, Default)]
pub(crate) struct ShownBeforeRollback(EntityHashMap<(Vec2, f32)>);

fn angle_of(q: Quat) -> f32 {
    2.0 * q.z.atan2(q.w)
}

/// `PreUpdate`, before lightyear's rollback check: what each predicted body shows now.
pub(crate) fn remember_shown(
    mut shown: ResMut<ShownBeforeRollback>,
    bodies: Query<(Entity, &Transform), (With<Predicted>, With<RigidBody>)>,
) {
    shown.0.clear();
    for (entity, transform) in &bodies {
        shown.0.insert(
            entity,
            (
                transform.translation.truncate(),
                angle_of(transform.rotation),
            ),
        );
    }
}

/// `PreUpdate`, after the resimulation: the difference between what was shown and the
/// corrected pose becomes the body's shown correction.
pub(crate) fn start_corrections(
    mut commands: Commands,
    shown: Res<ShownBeforeRollback>,
    mut bodies: Query<(Entity, &Transform, Option<&mut ShownCorrection>), With<Predicted>>,
) {
    for (entity, transform, correction) in &mut bodies {
        let Some(&(position, angle)) = shown.0.get(&entity) else {
            continue;
        };
        let offset = position - transform.translation.truncate();
        let turn = angle - angle_of(transform.rotation);
        let turn =
            (turn + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI;
        if !(offset.is_finite() && turn.is_finite()) {
            continue;
        }
        let next = ShownCorrection {
            offset,
            angle: turn,
        };
        match correction {
            Some(mut correction) => *correction = next,
            None if offset.length() > CORRECTION_DONE || turn.abs() > CORRECTION_DONE => {
                commands.entity(entity).insert(next);
            }
            None => {}
        }
    }
}

/// `RunFixedMainLoop`, before the fixed steps: `Transform` back to the simulated pose.
pub(crate) fn hide_corrections(
    physics: Res<PhysicsWorld>,
    mut bodies: Query<(Entity, &mut Transform), With<ShownCorrection>>,
) {
    for (entity, mut transform) in &mut bodies {
        if let Some(Ok(core)) = physics.body(entity).map(|id| physics.world.body_motion(id)) {
            let game = physics.game_frame();
            crate::dynamics::body::writeback::copy_pose(&core, game, &mut transform);
        }
    }
}

/// `PostUpdate`, after the fixed steps: the decayed correction added for drawing.
pub(crate) fn show_corrections(
    mut commands: Commands,
    time: Res<Time<Real>>,
    mut bodies: Query<(Entity, &mut Transform, &mut ShownCorrection)>,
) {
    let keep = 0.5f32.powf(time.delta_secs() / CORRECTION_HALF_LIFE);
    for (entity, mut transform, mut correction) in &mut bodies {
        correction.offset *= keep;
        correction.angle *= keep;
        if correction.offset.length() < CORRECTION_DONE && correction.angle.abs() < CORRECTION_DONE
        {
            commands.entity(entity).remove::<ShownCorrection>();
            continue;
        }
        transform.translation += correction.offset.extend(0.0);
        transform.rotation *= Quat::from_rotation_z(correction.angle);
    }
}
