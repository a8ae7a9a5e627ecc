//! The plugin under many random ECS operations a frame, as a game makes them: bodies with
//! child colliders spawned and despawned whole, reparented colliders, bodies moved under
//! other bodies and back, zero and mirrored scales, disabled bodies and colliders, body
//! types switched, joints to bodies that come and go, teleports and velocities, gravity
//! scales, damping and friction (some of them NaN or out of range), colliders swapped for
//! meshes still loading (some of which arrive unusable), collision hooks switched on and
//! off, ray and shape casters, character controllers, the physics clock paused and sped up.
//! After every frame:
//! - nothing panicked, and no transform or velocity holds a NaN the game did not write;
//! - the core world holds a body for exactly the entities the plugin maps, all alive; after
//!   a step every core shape and joint belongs to a live enabled collider or joint, and
//!   every enabled body whose components were good at the step before has its body;
//! - every bad value gave one warning naming its entity, and no warning names an entity that
//!   was given none.
//!
//! Every 50 frames, a rollback: the rollback set is saved, eight frames of game input run,
//! the set is restored and the same input runs again, giving the same bits.
//!
//! The suite runs it on fixed seeds ([`run_seeded`], `tests/plugin_operations.rs`); the fuzz
//! target `plugin_operations` reads the choices from its bytes ([`check_plugin_operations`]).

mod choices;
mod invariants;
mod operations;
mod rollback;
mod trace;

pub use choices::{Choices, FromBytes, Seeded};
pub use operations::RandomHooks;

use bevy_app::App;
use bevy_ecs::message::{MessageCursor, Messages};
use bevy_physics2d::PhysicsWarning;
use bevy_physics2d::prelude::*;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use operations::{Tracked, forget_the_dead, operate};
use std::time::Duration;

/// What a run did, for the suite to check that it did something.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunSummary {
    /// Frames run.
    pub frames: usize,
    /// Physics steps taken.
    pub steps: u64,
    /// Rollbacks replayed and compared.
    pub rollbacks: usize,
    /// Bodies in the core world at the end.
    pub bodies: usize,
    /// Joints in the core world at the end.
    pub joints: usize,
}

/// A headless App at 60 Hz, one physics step per update, with the run's collision hooks
/// and a 20 m ground.
fn app() -> App {
    let mut app = App::new();
    let physics = PhysicsPlugins::default().with_collision_hooks::<RandomHooks>();
    app.add_plugins((
        bevy_app::TaskPoolPlugin::default(),
        TimePlugin,
        bevy_transform::TransformPlugin,
        bevy_asset::AssetPlugin::default(),
        physics,
    ));
    bevy_asset::AssetApp::init_asset::<bevy_mesh::Mesh>(&mut app);
    app.insert_resource(Time::<Fixed>::from_hz(60.0));
    let frame = Duration::from_secs_f64(1.0 / 60.0);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
    app.update();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(20.0, 1.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    app
}

/// Runs up to `frames` frames of operations chosen by `choices` (fewer when it runs out),
/// checking the invariants after each; panics with the frame when one fails.
pub fn run(choices: &mut impl Choices, frames: usize) -> RunSummary {
    let mut app = app();
    let mut t = Tracked::default();
    let mut cursor = MessageCursor::<PhysicsWarning>::default();
    let mut warned = Vec::new();
    let mut summary = RunSummary::default();
    for frame in 0..frames {
        if choices.exhausted() {
            break;
        }
        if frame % 50 == 25 {
            rollback::rollback_check(&mut app, choices, &mut t, frame);
            cursor.clear(app.world().resource::<Messages<PhysicsWarning>>());
            t.rolled_back();
            summary.rollbacks += 1;
        }
        for _ in 0..1 + choices.below(6) {
            operate(app.world_mut(), choices, &mut t);
        }
        let before = app.world().resource::<PhysicsWorld>().step_count();
        trace::trace(&app, frame, "before", &t);
        app.update();
        trace::trace(&app, frame, "after", &t);
        let stepped = app.world().resource::<PhysicsWorld>().step_count() > before;
        forget_the_dead(app.world(), &mut t);
        let messages = app.world().resource::<Messages<PhysicsWarning>>();
        let new: Vec<PhysicsWarning> = cursor.read(messages).cloned().collect();
        for w in new {
            if invariants::check_warning_cause(frame, &w, &t, app.world()) {
                warned.push(w);
            }
        }
        t.buildable_last_frame = invariants::check_world(&mut app, frame, stepped, &t);
        if stepped {
            invariants::check_warnings(frame, &warned, &t, app.world());
            warned.clear();
            t.stepped();
        }
        summary.frames = frame + 1;
    }
    let physics = app.world().resource::<PhysicsWorld>();
    summary.steps = physics.step_count();
    summary.bodies = physics.core().body_count();
    summary.joints = physics.core().joint_count();
    summary
}

/// [`run`] on a seed, for the suite.
pub fn run_seeded(seed: u64, frames: usize) -> RunSummary {
    run(&mut Seeded(seed), frames)
}

/// The fuzz check: up to 300 frames of operations read from `data`. Returns whether the
/// bytes lasted for at least one frame.
pub fn check_plugin_operations(data: &[u8]) -> bool {
    run(&mut FromBytes::new(data), 300).frames > 0
}
