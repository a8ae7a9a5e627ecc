//! lightyear integration (feature `lightyear`): server-authoritative physics with client
//! prediction and rollback.
//!
//! # How it fits together
//! - **Replication.** The server's rigid bodies are replicated with their `RigidBody`,
//!   `Collider`, `Transform`, `LinearVelocity`, `AngularVelocity` and a [`PhysicsNetId`] (the
//!   server's name for the entity). Clients predict every replicated body: the three motion
//!   components are predicted components, compared with the server's at each confirmed tick.
//! - **The whole solver state, not only poses.** Contacts with their warm-start impulses,
//!   sleep timers and the broadphase decide the next step as much as poses do. Each client
//!   keeps the [`PhysicsWorld`](crate::PhysicsWorld) snapshot of every recent tick
//!   ([`history`]) and, when lightyear rolls back to tick `T`, restores the one of `T` before
//!   the resimulation. The server sends its whole world as bytes ([`world_state`]) when a
//!   client connects, whenever bodies come or go, every 2 s, and to a client whose state
//!   hash differs from the server's ([`resync`]: an input reached the server late, or a body
//!   came or went on the way). After a client's first world, the later ones go to it as the
//!   changes since the last one it acknowledged ([`keyframes`]). The client installs it at its tick, so from then on a client that has every
//!   player's inputs computes the server's future bit for bit: its only mispredictions come
//!   from inputs that arrived late.
//! - **Corrections on screen.** A rollback can move a body far at once (another player's
//!   late input); the client draws it where it was shown and eases the difference away
//!   ([`correction`]), while the physics keeps the corrected pose.
//! - **Events.** A resimulated tick does not send its collision events again (see the
//!   [rollback notes](crate::rollback)).
//!
//! # Use
//! Add [`PhysicsLightyearPlugin`] after lightyear's `ServerPlugins` or `ClientPlugins`, on
//! both sides, in the same order as the rest of the protocol. Run physics in its default
//! schedule (`FixedPostUpdate`) with transform interpolation off
//! (`PhysicsPlugins::default().build().disable::<PhysicsInterpolationPlugin>()`): lightyear
//! resimulates by running `FixedMain` again. Game systems that drive bodies from inputs run in
//! `FixedUpdate` and read lightyear's `ActionState`.

pub mod correction;
pub mod history;
pub mod keyframes;
pub mod resync;
pub mod world_state;

use crate::collision::collider::Collider;
use crate::dynamics::body::components::{AngularVelocity, LinearVelocity, RigidBody};
use crate::schedule::PhysicsSystems;
use bevy_app::{App, FixedPostUpdate, Plugin, PreUpdate};
use bevy_ecs::prelude::*;
use bevy_math::Vec4;
use bevy_transform::components::Transform;
use lightyear::prelude::*;
use serde::{Deserialize, Serialize};

/// The server's name for a physics entity, the same on every peer: the bits of the server's
/// `Entity`. Added by the server to every rigid body, collider and joint, and replicated, so
/// a client can read the entity maps of the server's world snapshots.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PhysicsNetId(pub u64);

/// How far (metres) a client's predicted position may be from the server's at a confirmed
/// tick before lightyear rolls back. A client with every input computes the server's bits
/// exactly, so the tolerances only catch real mispredictions; they are far below what a
/// player could see and below the 1 mm a client converges to.
pub const POSITION_TOLERANCE: f32 = 1.0e-4;
/// The same for rotation, in radians.
pub const ROTATION_TOLERANCE: f32 = 1.0e-4;
/// The same for linear velocity, in metres per second.
pub const LINEAR_VELOCITY_TOLERANCE: f32 = 1.0e-3;
/// The same for angular velocity, in radians per second.
pub const ANGULAR_VELOCITY_TOLERANCE: f32 = 1.0e-3;

/// Registers physics with lightyear's replication and prediction. Add it on the server and on
/// every client (see the [module notes](self)).
///
/// ```no_run
/// use bevy_app::{App, PluginGroup};
/// use bevy_physics2d::prelude::*;
/// use bevy_physics2d::{PhysicsInterpolationPlugin, PhysicsLightyearPlugin};
/// use lightyear::prelude::server::ServerPlugins;
///
/// let mut server = App::new();
/// server.add_plugins((
///     ServerPlugins::default(),
///     PhysicsPlugins::default().build().disable::<PhysicsInterpolationPlugin>(),
///     PhysicsLightyearPlugin,
/// ));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct PhysicsLightyearPlugin;

// Rollback conditions: `true` when the server's value and the prediction differ by the
// tolerance or more (or either is not finite).
fn transform_differs(server: &Transform, predicted: &Transform) -> bool {
    let moved = server
        .translation
        .truncate()
        .distance(predicted.translation.truncate());
    // Twice the chord between the quaternions is the angle for small angles; the angle
    // from their dot product (`acos`) loses everything below 1e-3 rad in f32.
    let (a, b) = (Vec4::from(server.rotation), Vec4::from(predicted.rotation));
    let turned = 2.0 * (a - b).length().min((a + b).length());
    let close = moved < POSITION_TOLERANCE && turned < ROTATION_TOLERANCE;
    !close
}

fn linear_velocity_differs(server: &LinearVelocity, predicted: &LinearVelocity) -> bool {
    let close = server.0.distance(predicted.0) < LINEAR_VELOCITY_TOLERANCE;
    !close
}

fn angular_velocity_differs(server: &AngularVelocity, predicted: &AngularVelocity) -> bool {
    let close = (server.0 - predicted.0).abs() < ANGULAR_VELOCITY_TOLERANCE;
    !close
}

/// Sets for ordering against the plugin's own systems.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsNetSystems {
    /// Client, `PreUpdate` after lightyear received messages and before its rollback check:
    /// install a received server world.
    InstallWorld,
    /// Client, `PreUpdate` between lightyear's rollback preparation and resimulation: put the
    /// physics world back as it was at the rollback tick.
    RestoreWorld,
    /// `FixedPostUpdate` after the physics writeback: record the tick's world (client), send
    /// the world to clients that need it (server).
    RecordWorld,
}

impl Plugin for PhysicsLightyearPlugin {
    fn build(&self, app: &mut App) {
        app.component::<PhysicsNetId>().replicate();
        app.component::<RigidBody>().replicate();
        app.component::<Collider>().replicate();
        app.component::<Transform>()
            .replicate()
            .predict()
            .with_rollback_condition(transform_differs);
        app.component::<LinearVelocity>()
            .replicate()
            .predict()
            .with_rollback_condition(linear_velocity_differs);
        app.component::<AngularVelocity>()
            .replicate()
            .predict()
            .with_rollback_condition(angular_velocity_differs);
        world_state::register(app);
        keyframes::register(app);
        resync::register(app);

        app.init_resource::<history::WorldHistory>()
            .init_resource::<correction::ShownBeforeRollback>()
            .add_observer(history::shift_history)
            .add_observer(resync::shift_resync)
            .add_observer(name_server_entities::<RigidBody>)
            .add_observer(name_server_entities::<Collider>)
            .add_observer(name_server_entities::<crate::dynamics::joint::components::Joint>)
            .configure_sets(
                PreUpdate,
                (
                    PhysicsNetSystems::InstallWorld
                        .after(MessageSystems::Receive)
                        .before(RollbackSystems::Check),
                    PhysicsNetSystems::RestoreWorld
                        .after(RollbackSystems::Prepare)
                        .before(RollbackSystems::Rollback),
                ),
            )
            .configure_sets(
                FixedPostUpdate,
                (
                    PhysicsSystems::Prepare,
                    PhysicsSystems::Broadphase,
                    PhysicsSystems::Narrowphase,
                    PhysicsSystems::Solve,
                    PhysicsSystems::Integrate,
                    PhysicsSystems::Writeback,
                )
                    .run_if(history::physics_steps),
            )
            .configure_sets(
                FixedPostUpdate,
                PhysicsNetSystems::RecordWorld
                    .after(PhysicsSystems::Writeback)
                    .before(PredictionSystems::UpdateHistory),
            )
            .add_systems(
                PreUpdate,
                (
                    world_state::install_world
                        .in_set(PhysicsNetSystems::InstallWorld)
                        .run_if(resource_exists::<PredictionManager>),
                    history::restore_world
                        .in_set(PhysicsNetSystems::RestoreWorld)
                        .run_if(is_in_rollback),
                    (resync::receive_resync_requests, keyframes::receive_acks)
                        .after(MessageSystems::Receive)
                        .run_if(is_server),
                    correction::remember_shown
                        .before(RollbackSystems::Check)
                        .run_if(resource_exists::<PredictionManager>),
                    correction::start_corrections
                        .after(RollbackSystems::Rollback)
                        .before(RollbackSystems::EndRollback)
                        .run_if(is_in_rollback),
                ),
            )
            .add_systems(
                bevy_app::RunFixedMainLoop,
                correction::hide_corrections
                    .in_set(bevy_app::RunFixedMainLoopSystems::BeforeFixedMainLoop)
                    .run_if(resource_exists::<PredictionManager>),
            )
            .add_systems(
                bevy_app::PostUpdate,
                correction::show_corrections
                    .before(bevy_transform::TransformSystems::Propagate)
                    .run_if(resource_exists::<PredictionManager>),
            )
            .add_systems(
                bevy_app::FixedPreUpdate,
                history::undo_snap_to_confirmed
                    .after(PredictionSystems::SnapToConfirmed)
                    .run_if(is_in_rollback),
            )
            .add_systems(
                FixedPostUpdate,
                (
                    (history::hold_components, history::record_world)
                        .run_if(resource_exists::<PredictionManager>),
                    (resync::serve_resyncs, world_state::send_world)
                        .chain()
                        .run_if(is_server),
                )
                    .in_set(PhysicsNetSystems::RecordWorld),
            )
            .add_systems(
                bevy_app::PostUpdate,
                resync::check_hashes.run_if(resource_exists::<PredictionManager>),
            );
    }
}

/// Whether this App is a started lightyear server.
fn is_server(started: Query<(), With<lightyear::prelude::server::Started>>) -> bool {
    !started.is_empty()
}

/// On the server, names each physics entity for the network (clients receive the name).
fn name_server_entities<C: Component>(
    on: On<Add, C>,
    mut commands: Commands,
    remote: Query<(), With<lightyear::prelude::client::Remote>>,
    prediction: Option<Res<PredictionManager>>,
) {
    // Replicated entities on a client carry the server's name already.
    if prediction.is_some() || remote.contains(on.entity) {
        return;
    }
    commands
        .entity(on.entity)
        .insert_if_new(PhysicsNetId(on.entity.to_bits()));
}
