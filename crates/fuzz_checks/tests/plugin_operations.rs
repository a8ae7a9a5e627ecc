//! The plugin under random ECS operations on fixed seeds: 4 runs of 1,000 frames, each with
//! its invariants checked after every frame and a rollback every 50 frames (see
//! `fuzz_checks::plugin_operations` for what is done and checked).

use fuzz_checks::plugin_operations::run_seeded;

#[test]
fn random_ecs_operations_keep_the_core_world_the_plugins_and_finite() {
    for seed in [1u64, 2, 3, 4] {
        let run = run_seeded(seed, 1000);
        eprintln!("seed {seed}: {run:?}");
        assert_eq!(run.frames, 1000, "seed {seed}: a seed never runs out");
        assert_eq!(run.rollbacks, 20, "seed {seed}: a rollback every 50 frames");
        assert!(run.steps > 100, "seed {seed}: the physics clock ran");
        assert!(run.bodies > 10, "seed {seed}: bodies stayed");
    }
}
