//! Piles of boxes and balls whose masses span a hundred to one, over many seeds: do the
//! solves that take a manifold's two points without an order (`solve_points_together`,
//! the default, and `enable_block_solver`) keep a pile rocking that Box2D's listed order
//! brings to rest?
//!
//! One pile (`carried_mass.rs`'s) said so: after 20 s it kept 0.65 J without carried mass
//! and 2.8 J with it, with the points solved together (then one Jacobi step in both passes)
//! in the large-world build, where the listed order rested. Over a hundred piles it does
//! not hold (the survey, run by hand: `cargo test --release -p physics_core --test
//! mixed_piles -- --ignored --nocapture`; its tables are in BENCHMARKS.md):
//! - Box2D's listed order leaves about one pile in five moving after 20 s too. A pile comes
//!   to rest or not by chance in every solve.
//! - Dropped from a grid, the balls of one column fall exactly onto each other. The listed
//!   order tilts the boxes under them a little (the point solved first takes more), which
//!   topples those columns at once. Solved without an order, a level box holds a column of
//!   balls balanced for seconds (about 700 ball-on-ball contacts within half a degree of
//!   vertical at 10 s over the hundred piles, against about 25), and it falls later, into a
//!   pile more often still moving at 20 s.
//! - Moved 1 mm sideways at random before the drop, the columns fall in every solve (12 to
//!   30 such contacts), and the order-free solves rest about as often as the listed order.
//! - A pile once at rest stays at rest under every solve: the test below.

mod support;

use physics_core::prelude::*;
use support::mixed_pile::{kinetic_energy, mixed_pile};

const DT: f32 = 1.0 / 60.0;

/// The two-point solves compared: Box2D's listed order, the block, points together.
const SOLVES: [(&str, bool, bool); 3] = [
    ("listed order", false, false),
    ("block solver", true, false),
    ("points together", false, true),
];

/// A pile at rest: kinetic energy under a millijoule, against the tens of kilojoules of its
/// fall.
const AT_REST: f32 = 1e-3;

fn def(block: bool, together: bool) -> WorldDef {
    WorldDef {
        enable_sleep: false,
        enable_block_solver: block,
        solve_points_together: together,
        ..WorldDef::default()
    }
}

fn step_n(world: &mut World, n: usize) {
    for _ in 0..n {
        world.step(DT).unwrap();
    }
}

/// Piles brought to rest by the listed order in 10 s, then stepped 10 s more in the listed
/// order, with the block solver and with points together (the deeper point first is not
/// surveyed): an order-free solve that fed a resting pile would set it rocking here.
/// Over a hundred seeds (scratch survey) every pile at rest stayed at rest under all three
/// solves, in both builds.
#[test]
fn a_pile_at_rest_stays_at_rest_listed_as_a_block_or_together() {
    let mut rested = 0;
    for seed in 0..12 {
        let (mut world, bodies) = mixed_pile(seed, 0.001, def(false, false));
        step_n(&mut world, 600);
        if kinetic_energy(&world, &bodies) > AT_REST {
            continue;
        }
        rested += 1;
        // Each solve steps on from the same pile at rest.
        let at_rest = world.snapshot();
        for (name, block, together) in SOLVES {
            world.restore(&at_rest).unwrap();
            world.set_def(def(block, together)).unwrap();
            step_n(&mut world, 600);
            let energy = kinetic_energy(&world, &bodies);
            assert!(
                energy < AT_REST,
                "pile {seed} at rest under the listed order keeps {energy} J after 10 s of {name}"
            );
        }
    }
    println!("{rested} of 12 piles came to rest");
    // Most piles rest by 10 s (about three in four over a hundred seeds).
    assert!(rested >= 4, "only {rested} of 12 piles came to rest");
}

/// Ball-on-ball contacts pressing within half a degree of vertical: balls balanced on
/// each other.
fn balanced_ball_contacts(world: &World) -> usize {
    let ball = |shape: ShapeId| matches!(world.shape(shape), Ok(Shape::Circle(_)));
    world
        .contact_data()
        .iter()
        .filter(|c| {
            let m = &c.manifold;
            ball(c.shape_a)
                && ball(c.shape_b)
                && m.normal.x.abs() < 0.0087
                && m.points[..m.point_count]
                    .iter()
                    .any(|p| p.normal_impulse > 0.0)
        })
        .count()
}

#[test]
#[ignore = "a measurement: run by hand, see the file's notes"]
fn mixed_piles_by_two_point_solve() {
    const PILES: u32 = 100;
    for jitter in [0.0, 0.001] {
        println!("\nDropped from the grid moved up to {jitter} m sideways, {PILES} piles:");
        println!(
            "| solve | balanced ball contacts at 10 s | moving at 20 s | at 40 s | over 1 J at 20 s |"
        );
        println!("|---|---|---|---|---|");
        for (name, block, together) in SOLVES {
            let (mut balanced, mut moving_20, mut moving_40, mut violent) = (0, 0, 0, 0);
            for seed in 0..PILES {
                let (mut world, bodies) = mixed_pile(seed, jitter, def(block, together));
                step_n(&mut world, 600);
                balanced += balanced_ball_contacts(&world);
                step_n(&mut world, 600);
                let energy = kinetic_energy(&world, &bodies);
                moving_20 += usize::from(energy > AT_REST);
                violent += usize::from(energy > 1.0);
                step_n(&mut world, 1200);
                moving_40 += usize::from(kinetic_energy(&world, &bodies) > AT_REST);
            }
            println!("| {name} | {balanced} | {moving_20} | {moving_40} | {violent} |");
        }
    }
}
