//! [`PhysicsDiagnosticsPlugin`]: the stage times and counts of every step in Bevy's
//! `DiagnosticsStore`, where Bevy's log and overlay diagnostics show them.

use crate::schedule::PhysicsDiagnostics;
use crate::schedule::{PhysicsSchedule, PhysicsSystems};
use bevy_app::{App, FixedPostUpdate, Plugin};
use bevy_diagnostic::{Diagnostic, DiagnosticPath, Diagnostics, RegisterDiagnostic};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;

/// Records the physics step in Bevy's `DiagnosticsStore` after every step: milliseconds of
/// the whole step and of each stage, and the counts of bodies, awake bodies, contacts,
/// touching contacts and joints. Bevy's `LogDiagnosticsPlugin` then prints them with its
/// own; any diagnostics overlay shows them. Add it after `PhysicsPlugins`.
///
/// ```
/// use bevy_app::App;
/// use bevy_physics2d::prelude::*;
/// use bevy_physics2d::PhysicsDiagnosticsPlugin;
///
/// let mut app = App::new();
/// app.add_plugins((PhysicsPlugins::default(), PhysicsDiagnosticsPlugin));
/// // Read back: app.world().resource::<DiagnosticsStore>().get(&PhysicsDiagnosticsPlugin::STEP_MS)
/// ```
#[derive(Default)]
pub struct PhysicsDiagnosticsPlugin;

impl PhysicsDiagnosticsPlugin {
    /// The whole step, ms.
    pub const STEP_MS: DiagnosticPath = DiagnosticPath::const_new("physics/step_ms");
    /// The Prepare stage, ms.
    pub const PREPARE_MS: DiagnosticPath = DiagnosticPath::const_new("physics/prepare_ms");
    /// The broadphase, ms.
    pub const BROADPHASE_MS: DiagnosticPath = DiagnosticPath::const_new("physics/broadphase_ms");
    /// The narrowphase, ms.
    pub const NARROWPHASE_MS: DiagnosticPath = DiagnosticPath::const_new("physics/narrowphase_ms");
    /// The solver, ms.
    pub const SOLVE_MS: DiagnosticPath = DiagnosticPath::const_new("physics/solve_ms");
    /// The integrate stage, ms.
    pub const INTEGRATE_MS: DiagnosticPath = DiagnosticPath::const_new("physics/integrate_ms");
    /// The writeback, ms.
    pub const WRITEBACK_MS: DiagnosticPath = DiagnosticPath::const_new("physics/writeback_ms");
    /// Bodies in the world.
    pub const BODIES: DiagnosticPath = DiagnosticPath::const_new("physics/bodies");
    /// Bodies awake.
    pub const AWAKE_BODIES: DiagnosticPath = DiagnosticPath::const_new("physics/awake_bodies");
    /// Contacts (pairs with overlapping boxes).
    pub const CONTACTS: DiagnosticPath = DiagnosticPath::const_new("physics/contacts");
    /// Contacts whose shapes touch.
    pub const TOUCHING: DiagnosticPath = DiagnosticPath::const_new("physics/touching_contacts");
    /// Joints.
    pub const JOINTS: DiagnosticPath = DiagnosticPath::const_new("physics/joints");

    /// Every path with its value in `d`.
    fn measurements(d: &PhysicsDiagnostics) -> [(DiagnosticPath, f64); 12] {
        [
            (Self::STEP_MS, d.total_ms() as f64),
            (Self::PREPARE_MS, d.prepare_ms as f64),
            (Self::BROADPHASE_MS, d.broadphase_ms as f64),
            (Self::NARROWPHASE_MS, d.narrowphase_ms as f64),
            (Self::SOLVE_MS, d.solve_ms as f64),
            (Self::INTEGRATE_MS, d.integrate_ms as f64),
            (Self::WRITEBACK_MS, d.writeback_ms as f64),
            (Self::BODIES, d.bodies as f64),
            (Self::AWAKE_BODIES, d.awake_bodies as f64),
            (Self::CONTACTS, d.contacts as f64),
            (Self::TOUCHING, d.touching as f64),
            (Self::JOINTS, d.joints as f64),
        ]
    }
}

impl Plugin for PhysicsDiagnosticsPlugin {
    fn build(&self, app: &mut App) {
        for (path, _) in Self::measurements(&PhysicsDiagnostics::default()) {
            let ms = path.as_str().ends_with("_ms");
            app.register_diagnostic(Diagnostic::new(path).with_suffix(if ms { " ms" } else { "" }));
        }
        let schedule = app
            .world()
            .get_resource::<PhysicsSchedule>()
            .map_or(FixedPostUpdate.intern(), |s| s.0);
        app.add_systems(schedule, record_step.after(PhysicsSystems::Writeback));
    }
}

/// Adds this step's numbers to the store, once per step taken (a single step while paused
/// included; a paused schedule run adds nothing).
fn record_step(
    world: Res<crate::PhysicsWorld>,
    physics: Res<PhysicsDiagnostics>,
    mut last: Local<u64>,
    mut diagnostics: Diagnostics,
) {
    let steps = world.step_count();
    if *last == steps {
        return;
    }
    *last = steps;
    for (path, value) in PhysicsDiagnosticsPlugin::measurements(&physics) {
        diagnostics.add_measurement(&path, || value);
    }
}
