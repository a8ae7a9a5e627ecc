//! Step times and counts reach Bevy's diagnostics store.

mod support;

use support::app;
use support::ground_20m;
use support::spawn_box;
use support::step;

#[test]
fn step_times_and_counts_reach_bevys_diagnostics_store() {
    use bevy_diagnostic::DiagnosticsStore;
    use bevy_physics2d::PhysicsDiagnosticsPlugin as P;
    let mut app = app();
    app.add_plugins(P);
    ground_20m(&mut app);
    spawn_box(&mut app, 0.0, 2.0);
    spawn_box(&mut app, 3.0, 2.0);
    step(&mut app, 3);
    let store = app.world().resource::<DiagnosticsStore>();
    let last = |path: bevy_diagnostic::DiagnosticPath| {
        store
            .get(&path)
            .and_then(|d| d.measurement())
            .map(|m| m.value)
            .unwrap_or(-1.0)
    };
    // Two dynamic boxes and the ground's static body; both boxes awake and falling.
    assert_eq!(last(P::BODIES), 3.0);
    assert_eq!(last(P::AWAKE_BODIES), 2.0);
    assert_eq!(last(P::JOINTS), 0.0);
    let step_ms = last(P::STEP_MS);
    assert!(step_ms > 0.0 && step_ms < 1000.0, "{step_ms}");
    // One measurement per step taken.
    let history = store.get(&P::BODIES).unwrap().measurements().count();
    assert_eq!(history, 3);
}
