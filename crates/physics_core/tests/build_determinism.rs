//! The bits a world reaches do not depend on how the engine was built or run: the contact
//! solver's lane count (four, or eight on a processor with AVX2, chosen at run time or
//! forced with `World::set_contact_lanes`) and the worker count change the speed only. The
//! hash below is the same in the default build and in one with
//! `RUSTFLAGS="-C target-cpu=x86-64-v3"` (run this test in both after a change to the solver;
//! a mismatch names the hash the build reached).

use physics_core::parallel::WorkerThreads;
use physics_core::prelude::*;
use std::sync::Arc;

/// `World::state_hash` after [`STEPS`] steps of [`pile`], in every build and on any number of
/// workers, in Box2D's listed point order (`solve_points_together` off).
#[cfg(not(feature = "large-world"))]
const GOLDEN: u64 = 0x8dcc444b2ec77b40;
/// The `large-world` build's: its positions are doubles, so its bits are its own, and as
/// independent of lanes and workers.
#[cfg(feature = "large-world")]
const GOLDEN: u64 = 0x9e29fb678316c459;

/// The same with the block solver on: its groups mix lanes it solves (the boxes' two-point
/// manifolds that hold a box's centre) with lanes it leaves to the point-by-point solve
/// (the balls' one-point manifolds, and the pyramid's boxes bridging two below), which lanes
/// share a group differs between four and eight lanes, and the likely blocks are laid out
/// first in each colour.
#[cfg(not(feature = "large-world"))]
const GOLDEN_BLOCK: u64 = 0x735001d2e2a80d9c;
/// The same in the `large-world` build.
#[cfg(feature = "large-world")]
const GOLDEN_BLOCK: u64 = 0x32342151cc254c3e;

/// The same with the deeper point of a manifold solved first: lanes hold their points in the
/// order the step began with, the deeper first, and a group may still mix lanes that solve
/// the second point first with lanes that do not (three masked point updates); the capsules
/// strike the pyramid faster than the restitution threshold, which keeps the listed order.
#[cfg(not(feature = "large-world"))]
const GOLDEN_DEEPER: u64 = 0x1755f82d1acb97cd;
/// The same in the `large-world` build.
#[cfg(feature = "large-world")]
const GOLDEN_DEEPER: u64 = 0xd64290b9b7c1cbb5;

/// The same with a manifold's two points solved together where they couple loosely (the
/// default): biased, groups mix lanes the block solves (the boxes on a face or bridging two
/// below) with lanes it leaves to the point-by-point solve (the balls' one-point manifolds);
/// relaxing, lanes that read the second point's velocity before the first point's impulse
/// with lanes that read it after.
#[cfg(not(feature = "large-world"))]
const GOLDEN_TOGETHER: u64 = 0x43b3653402caa994;
/// The same in the `large-world` build.
#[cfg(feature = "large-world")]
const GOLDEN_TOGETHER: u64 = 0xcfef4e2830599022;

/// How the pile's two-point manifolds are solved.
#[derive(Clone, Copy, Debug)]
enum TwoPoints {
    /// Box2D v3's order (`WorldDef::solve_points_together` off).
    Listed,
    /// `WorldDef::enable_block_solver`.
    Block,
    /// `WorldDef::solve_deeper_point_first`.
    DeeperFirst,
    /// `WorldDef::solve_points_together`, the default.
    Together,
}

/// Each configuration with its golden hash.
const CONFIGS: [(TwoPoints, u64); 4] = [
    (TwoPoints::Listed, GOLDEN),
    (TwoPoints::Block, GOLDEN_BLOCK),
    (TwoPoints::DeeperFirst, GOLDEN_DEEPER),
    (TwoPoints::Together, GOLDEN_TOGETHER),
];

const STEPS: usize = 180;

/// A 12-row pyramid of boxes with balls and capsules dropped on it: colours full enough to
/// fill groups of eight lanes, one- and two-point manifolds, and sliding, rolling and resting
/// contacts.
fn pile(workers: usize, two_points: TwoPoints, lanes: ContactLanes) -> World {
    let mut w = World::new(WorldDef {
        enable_sleep: false,
        enable_block_solver: matches!(two_points, TwoPoints::Block),
        solve_deeper_point_first: matches!(two_points, TwoPoints::DeeperFirst),
        solve_points_together: matches!(two_points, TwoPoints::Together),
        ..Default::default()
    })
    .unwrap();
    w.set_task_runner(Arc::new(WorkerThreads::new(workers)));
    w.set_contact_lanes(lanes).unwrap();
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

/// The lane widths this processor runs: four always, eight with AVX2.
fn lane_widths() -> Vec<ContactLanes> {
    let all = [ContactLanes::Four, ContactLanes::Eight];
    let widths: Vec<ContactLanes> = all.into_iter().filter(|l| l.is_supported()).collect();
    if widths.len() < all.len() {
        eprintln!("this processor has no AVX2: the eight-lane path is not tested here");
    }
    widths
}

#[test]
fn a_pile_reaches_the_same_bits_in_every_build_and_on_any_worker_count() {
    for (two_points, golden) in CONFIGS {
        for workers in [1, 2] {
            let mut w = pile(workers, two_points, ContactLanes::Detect);
            for _ in 0..STEPS {
                w.step(1.0 / 60.0).unwrap();
            }
            let hash = w.state_hash();
            assert_eq!(
                hash, golden,
                "{workers} workers, {two_points:?}: reached {hash:#018x}, not the \
                 golden hash"
            );
        }
    }
}

/// Each lane width, forced, reaches the golden hashes: the four-lane path on a processor
/// that would pick eight, and the eight-lane path (AVX2 found at run time) in a build for
/// plain x86-64. Switching width halfway through the run changes nothing either.
#[test]
fn each_contact_lane_width_reaches_the_golden_hashes() {
    for (two_points, golden) in CONFIGS {
        for lanes in lane_widths() {
            let mut w = pile(1, two_points, lanes);
            assert_eq!(w.contact_lanes(), lanes);
            for _ in 0..STEPS {
                w.step(1.0 / 60.0).unwrap();
            }
            let hash = w.state_hash();
            assert_eq!(
                hash, golden,
                "{lanes:?} lanes, {two_points:?}: reached {hash:#018x}, not the \
                 golden hash"
            );
        }
        let widths = lane_widths();
        let mut w = pile(2, two_points, widths[0]);
        for step in 0..STEPS {
            if step % 30 == 0 {
                w.set_contact_lanes(widths[(step / 30) % widths.len()])
                    .unwrap();
            }
            w.step(1.0 / 60.0).unwrap();
        }
        assert_eq!(w.state_hash(), golden, "switching widths, {two_points:?}");
    }
}

/// Asking for a path the processor lacks is refused with an error, and the world keeps the
/// path it had.
#[test]
fn eight_lanes_are_refused_without_avx2_and_the_path_is_kept() {
    let mut w = World::new(WorldDef::default()).unwrap();
    w.set_contact_lanes(ContactLanes::Four).unwrap();
    let result = w.set_contact_lanes(ContactLanes::Eight);
    if ContactLanes::Eight.is_supported() {
        assert_eq!(result, Ok(()));
        assert_eq!(w.contact_lanes(), ContactLanes::Eight);
        assert_eq!(ContactLanes::Detect.resolve(), ContactLanes::Eight);
    } else {
        assert!(
            matches!(result, Err(WorldError::Unsupported(_))),
            "{result:?}"
        );
        assert_eq!(w.contact_lanes(), ContactLanes::Four);
        assert_eq!(ContactLanes::Detect.resolve(), ContactLanes::Four);
    }
}
