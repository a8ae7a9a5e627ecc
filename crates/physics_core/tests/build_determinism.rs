//! The bits a world reaches do not depend on how the engine was built or run: the contact
//! solver's lane count (four, or eight in a build with AVX2) and the worker count change the
//! speed only. The hash below is the same in the default build and in one with
//! `RUSTFLAGS="-C target-cpu=x86-64-v3"` (run this test in both after a change to the solver;
//! a mismatch names the hash the build reached).

use physics_core::parallel::WorkerThreads;
use physics_core::prelude::*;
use std::sync::Arc;

/// `World::state_hash` after [`STEPS`] steps of [`pile`], in every build and on any number of
/// workers.
const GOLDEN: u64 = 0xdb5cb9316917a5f6;

/// The same with the block solver on: its groups mix lanes it solves (the boxes' two-point
/// manifolds) with lanes it leaves to the point-by-point solve (the balls' one-point ones),
/// and which lanes share a group differs between four and eight lanes.
const GOLDEN_BLOCK: u64 = 0x210bb753c30b6fcf;

const STEPS: usize = 180;

/// A 12-row pyramid of boxes with balls and capsules dropped on it: colours full enough to
/// fill groups of eight lanes, one- and two-point manifolds, and sliding, rolling and resting
/// contacts.
fn pile(workers: usize, block_solver: bool) -> World {
    let mut w = World::new(WorldDef {
        enable_sleep: false,
        enable_block_solver: block_solver,
        ..Default::default()
    })
    .unwrap();
    w.set_task_runner(Arc::new(WorkerThreads::new(workers)));
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    let flat = Polygon::new_box(30.0, 1.0).unwrap().into();
    w.create_shape(ground, &ShapeDef::default(), flat).unwrap();
    let rows = 12;
    for row in 0..rows {
        for k in 0..rows - row {
            let x = (k as f32 - 0.5 * (rows - row - 1) as f32) * 1.05;
            let y = 0.5 + row as f32;
            let b = w.create_body(&BodyDef::dynamic(Vec2::new(x, y))).unwrap();
            let shape = Polygon::new_box(0.5, 0.5).unwrap().into();
            w.create_shape(b, &ShapeDef::default(), shape).unwrap();
        }
    }
    for k in 0..16 {
        let at = Vec2::new(-6.0 + 0.8 * k as f32, 16.0 + 0.7 * (k % 3) as f32);
        let b = w.create_body(&BodyDef::dynamic(at)).unwrap();
        let shape = if k % 2 == 0 {
            Circle::new(Vec2::ZERO, 0.3).unwrap().into()
        } else {
            Capsule::new(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.2)
                .unwrap()
                .into()
        };
        w.create_shape(b, &ShapeDef::default(), shape).unwrap();
    }
    w
}

#[test]
fn a_pile_reaches_the_same_bits_in_every_build_and_on_any_worker_count() {
    for (block_solver, golden) in [(false, GOLDEN), (true, GOLDEN_BLOCK)] {
        for workers in [1, 2] {
            let mut w = pile(workers, block_solver);
            for _ in 0..STEPS {
                w.step(1.0 / 60.0).unwrap();
            }
            let hash = w.state_hash();
            assert_eq!(
                hash, golden,
                "{workers} workers, block solver {block_solver}: reached {hash:#018x}, not the \
                 golden hash"
            );
        }
    }
}
