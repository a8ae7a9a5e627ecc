//! bevy_ggrs integration (feature `ggrs`): the [rollback set](crate::rollback) registered
//! with bevy_ggrs, and checksums over every body's transform and velocity.

use crate::dynamics::body::components::{
    AngularVelocity, ExternalForce, ExternalImpulse, LinearVelocity, RigidBody, Sleeping,
};
use crate::interpolation::InterpolationPoses;
use crate::rollback::PhysicsWorldSnapshot;
use crate::world::handle::PhysicsBody;
use crate::world::physics_world::PhysicsWorld;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use bevy_ggrs::{
    ResourceMapEntitiesPlugin, ResourceSnapshotPlugin, Rollback, RollbackApp, Strategy,
};
use bevy_transform::components::Transform;
use physics_core::world::WorldDef;

/// Makes physics roll back with bevy_ggrs. Add it next to `GgrsPlugin` and run the physics
/// stages in `GgrsSchedule` (`PhysicsPlugins::new(GgrsSchedule)`, with
/// `PhysicsInterpolationPlugin` disabled, since rollback needs `Transform` to hold the pose
/// of the last step). It:
/// - saves and restores the [`PhysicsWorld`] resource with [`PhysicsWorld::save_snapshot`]
///   and [`PhysicsWorld::restore_snapshot`];
/// - rolls back the rigid-body components of the [rollback set](crate::rollback);
/// - renames the entities inside the restored world through bevy_ggrs's `RollbackEntityMap`,
///   for entities respawned by a rollback;
/// - adds bevy_ggrs's `Rollback` marker to every `RigidBody` entity, since the world snapshot
///   rolls every body back whether marked or not;
/// - adds checksums of every body's `Transform`, `LinearVelocity` and `AngularVelocity`
///   (their bits), and of the core state ([`PhysicsWorld::state_hash`]), so a
///   `SyncTestSession` or a peer notices the first frame that differs.
///
/// Order game systems that drive bodies in `GgrsSchedule` before
/// [`PhysicsSystems::Prepare`](crate::PhysicsSystems::Prepare).
#[derive(Default)]
pub struct PhysicsRollbackPlugin;

impl Plugin for PhysicsRollbackPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            ResourceSnapshotPlugin::<PhysicsWorldStrategy>::default(),
            ResourceMapEntitiesPlugin::<PhysicsWorld>::default(),
        ))
        .rollback_component_with_clone::<Transform>()
        .rollback_component_with_copy::<LinearVelocity>()
        .rollback_component_with_copy::<AngularVelocity>()
        .rollback_component_with_copy::<ExternalForce>()
        .rollback_component_with_copy::<ExternalImpulse>()
        .rollback_component_with_copy::<PhysicsBody>()
        .rollback_component_with_copy::<InterpolationPoses>()
        .rollback_component_with_copy::<Sleeping>()
        .checksum_component::<Transform>(hash_transform)
        .checksum_component::<LinearVelocity>(|v| hash_bits(&[v.0.x, v.0.y]))
        .checksum_component::<AngularVelocity>(|w| hash_bits(&[w.0]))
        .checksum_resource::<PhysicsWorld>(|physics| physics.state_hash())
        .add_observer(|on: On<Add, RigidBody>, mut commands: Commands| {
            commands.entity(on.entity).insert_if_new(Rollback);
        });
    }
}

/// Saves the [`PhysicsWorld`] as a [`PhysicsWorldSnapshot`] and restores it in place.
pub struct PhysicsWorldStrategy;

impl Strategy for PhysicsWorldStrategy {
    type Target = PhysicsWorld;
    type Stored = PhysicsWorldSnapshot;

    fn store(target: &PhysicsWorld) -> PhysicsWorldSnapshot {
        target.save_snapshot()
    }

    fn load(stored: &PhysicsWorldSnapshot) -> PhysicsWorld {
        let mut physics =
            PhysicsWorld::new(WorldDef::default()).expect("the default settings are valid");
        Self::update(&mut physics, stored);
        physics
    }

    fn update(target: &mut PhysicsWorld, stored: &PhysicsWorldSnapshot) {
        if let Err(error) = target.restore_snapshot(stored) {
            bevy_log::warn!("physics: a saved frame could not be restored ({error})");
        }
    }
}

/// FNV-1a over the bits of `values`.
fn hash_bits(values: &[f32]) -> u64 {
    values.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, value| {
        value.to_bits().to_le_bytes().iter().fold(hash, |h, &b| {
            (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
        })
    })
}

/// The bits of a transform's translation and rotation (scale is not physics state).
fn hash_transform(t: &Transform) -> u64 {
    let (p, q) = (t.translation, t.rotation);
    hash_bits(&[p.x, p.y, p.z, q.x, q.y, q.z, q.w])
}
