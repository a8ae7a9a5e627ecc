//! Offset towers surveyed. The survey is measured by hand (ignored by default):
//!
//! cargo test --release --test offset_towers -- --ignored --nocapture
//!
//! and the block solver's figures in it are held by a test.
//!
//! The fidelity table's `tower_offset_20` is one tower stepped for 30 s, and how far its top
//! drifts swings by centimetres when a solve order changes by a rounding (1.2 to 3.6 cm under
//! margins of 0 to 0.5 mm on the deeper point first, BENCHMARKS.md). Four ways of solving a
//! two-point manifold are ranked here over twenty towers instead: 10 to 30 unit boxes,
//! every other box shifted by 1 or 2 cm (alternating sides), dropped onto each other from
//! gaps of 5 or 10 cm, friction 0.3, awake. Each line prints the top box's largest sideways
//! drift over the half minute for every tower, then their mean, median and largest.

mod common;

use physics2d_demos::physics_core::prelude::WorldDef;
use physics2d_demos::scenes::{TowerLayout, tower};

/// The top box's largest sideways drift (m) of the tower `layout` over its half minute.
fn top_drift(layout: TowerLayout, def: WorldDef) -> f32 {
    common::top_drift(&tower("offset_tower", layout), def)
}

/// The twenty layouts: gaps of 10 and 5 cm, offsets of 1 and 2 cm, 10 to 30 boxes.
fn layouts() -> Vec<TowerLayout> {
    let mut all = Vec::new();
    for gap in [0.1, 0.05] {
        for offset in [0.01, 0.02] {
            for count in [10, 15, 20, 25, 30] {
                all.push(TowerLayout {
                    count,
                    friction: 0.3,
                    offset,
                    gap,
                    box_width: 1.0,
                });
            }
        }
    }
    all
}

/// The block solver holds the twenty towers: their median drift under 1.5 cm and every one
/// under 10 cm (it measures 0.83 cm and 8.5 cm). Rapier's single offset tower of the fidelity
/// table drifts 1.2 cm; the listed order's median is 14 cm and the deeper point first's worst
/// 41 cm, so either bound fails on the sequential solves.
#[test]
fn the_block_solver_holds_twenty_offset_towers() {
    holds_twenty_offset_towers(WorldDef {
        enable_sleep: false,
        enable_block_solver: true,
        ..WorldDef::default()
    });
}

/// A manifold's points solved together (`WorldDef::solve_points_together`) hold the twenty
/// towers within the block solver's bounds.
#[test]
fn points_solved_together_hold_twenty_offset_towers() {
    holds_twenty_offset_towers(WorldDef {
        enable_sleep: false,
        solve_points_together: true,
        ..WorldDef::default()
    });
}

/// The twenty towers' median drift under 1.5 cm and every one under 10 cm, built with `def`.
fn holds_twenty_offset_towers(def: WorldDef) {
    let mut drifts: Vec<f32> = layouts()
        .into_iter()
        .map(|layout| top_drift(layout, def))
        .collect();
    drifts.sort_by(f32::total_cmp);
    let median = 0.5 * (drifts[9] + drifts[10]);
    assert!(median < 0.015, "median drift {median} m: {drifts:?}");
    assert!(
        drifts[19] < 0.10,
        "largest drift {} m: {drifts:?}",
        drifts[19]
    );
}

#[test]
#[ignore = "a measurement: run by hand, see the file's notes"]
fn offset_towers_by_two_point_solve() {
    let awake = WorldDef {
        enable_sleep: false,
        ..WorldDef::default()
    };
    let solves = [
        (
            "listed order",
            WorldDef {
                solve_points_together: false,
                ..awake
            },
        ),
        (
            "deeper point first",
            WorldDef {
                solve_deeper_point_first: true,
                ..awake
            },
        ),
        (
            "block solver",
            WorldDef {
                enable_block_solver: true,
                ..awake
            },
        ),
        ("points together (default)", awake),
    ];
    println!("| solve | mean | median | largest | every tower (m) |");
    println!("|---|---|---|---|---|");
    for (name, def) in solves {
        let drifts: Vec<f32> = layouts()
            .into_iter()
            .map(|layout| top_drift(layout, def))
            .collect();
        let mut sorted = drifts.clone();
        sorted.sort_by(f32::total_cmp);
        let mean = drifts.iter().sum::<f32>() / drifts.len() as f32;
        // The mean of the two middle values of twenty.
        let median = 0.5 * (sorted[9] + sorted[10]);
        let every: Vec<String> = drifts.iter().map(|d| format!("{d:.4}")).collect();
        println!(
            "| {name} | {mean:.4} | {median:.4} | {:.4} | {} |",
            sorted[19],
            every.join(" ")
        );
    }
}
