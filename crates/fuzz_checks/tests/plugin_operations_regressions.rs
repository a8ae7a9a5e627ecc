//! Seeds on which the plugin operations run once failed, each named after the bug it found
//! (each bug also has a plain regression test in `crates/bevy_physics2d/tests`, where one
//! could be written; these keep the exact runs that found them).

use fuzz_checks::plugin_operations::run_seeded;

/// A rollback replayed a collider rescale queued before the save with another velocity:
/// the restored `LinearVelocity` overwrote the core's after the centre of mass moved.
#[test]
fn regression_seed_2018_a_restored_velocity_overwrote_a_moved_centre_of_mass() {
    run_seeded(2018, 200);
}

/// A restore marked a child body's `Transform` changed, which read as the game's move and
/// teleported it where the first run had it follow.
#[test]
fn regression_seed_2016_a_restored_child_transform_read_as_a_teleport() {
    run_seeded(2016, 500);
}

/// A rollback restored the colliders but not the scale they were built at, so the replay
/// rebuilt them at the next move of the body.
#[test]
fn regression_seed_3082_a_restore_kept_the_built_scale_of_the_future() {
    run_seeded(3082, 700);
}

/// A body refused under a parent at infinity stayed out once taken off the parent while
/// physics was paused.
#[test]
fn regression_seed_3140_a_body_taken_off_its_parent_was_never_tried_again() {
    run_seeded(3140, 150);
}

/// A teleport to infinity in the frame of a type change was neither applied nor named: the
/// rebuilt body's interpolation poses took the refused pose for the physics pose.
#[test]
fn regression_seed_3051_a_refused_teleport_at_a_type_change_went_unnamed() {
    run_seeded(3051, 800);
}

/// Frictions of 1e30 (finite, so accepted) on two touching colliders mixed to infinity, a
/// point with no normal impulse got a NaN friction bound, and the step panicked in `clamp`:
/// mixed coefficients are now held finite.
#[test]
fn regression_seed_7211_a_huge_friction_mixed_to_infinity_panicked_the_step() {
    run_seeded(7211, 1500);
}
