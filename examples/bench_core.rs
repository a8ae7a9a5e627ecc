//! Milliseconds per step of physics_core on the benchmark scenes, with a stability column.
//!
//! ```sh
//! cargo run --release --example bench_core                      # the four default scenes
//! cargo run --release --example bench_core -- --scene pyramid --solver all
//! ```
//! Options: `--scene NAME` (repeatable), `--steps N` (default: the scene's own count),
//! `--solver together|listed|block|all` (default `together`, the default solve: a two-point
//! manifold's points together; `listed`: Box2D v3's point order; `block`: the block solver).
//!
//! Stability: for scenes that should come to rest, the largest distance any dynamic body moved
//! over the last quarter of the run (0 for a perfectly still pile); for the others, the
//! lowest body height (a body falling out of the world shows up as a large negative number).

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::{SCENE_NAMES, scene};
use std::time::Instant;

const DEFAULT_SCENES: [&str; 4] = ["large_pyramid", "many_pyramids", "shape_rain", "tumbler"];
const RESTING: [&str; 6] = [
    "pyramid",
    "large_pyramid",
    "many_pyramids",
    "vertical_stack",
    "high_mass_ratio",
    "arch",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut scenes: Vec<String> = Vec::new();
    let mut steps_override = None;
    let mut solvers = vec![Solver::Together];
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--scene" => scenes.push(value),
            "--steps" => steps_override = value.parse().ok(),
            "--solver" => {
                solvers = match value.as_str() {
                    "listed" => vec![Solver::Listed],
                    "block" => vec![Solver::Block],
                    "all" => vec![Solver::Together, Solver::Listed, Solver::Block],
                    "together" => vec![Solver::Together],
                    other => {
                        eprintln!("unknown solver {other}: together, listed, block or all");
                        std::process::exit(2);
                    }
                }
            }
            other => {
                eprintln!("unknown option {other}; scenes: {}", SCENE_NAMES.join(", "));
                std::process::exit(2);
            }
        }
        i += 2;
    }
    if scenes.is_empty() {
        scenes = DEFAULT_SCENES.iter().map(|s| s.to_string()).collect();
    }

    println!(
        "| scene | solver | bodies | steps | ms/step | pairs | collide | solve | finalize | stability |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for name in &scenes {
        let Some(s) = scene(name) else {
            eprintln!("no scene {name}; scenes: {}", SCENE_NAMES.join(", "));
            std::process::exit(2);
        };
        let steps = steps_override.unwrap_or(s.steps);
        for &solver in &solvers {
            // The benchmark scenes are specified with sleeping off.
            let def = WorldDef {
                enable_block_solver: solver == Solver::Block,
                solve_points_together: solver == Solver::Together,
                enable_sleep: false,
                ..WorldDef::default()
            };
            let mut built = s.build(def).expect("scene builds");
            let dynamic: Vec<BodyId> = s
                .bodies
                .iter()
                .zip(&built.bodies)
                .filter(|(d, _)| d.body_type == BodyType::Dynamic)
                .map(|(_, id)| *id)
                .collect();
            let mut stage_totals = [0.0f64; 4];
            let mut snapshot = Vec::new();
            let start = Instant::now();
            for step in 0..steps {
                if step == steps - steps / 4 {
                    snapshot = positions(&built.world, &dynamic);
                }
                built.world.step(s.dt).expect("valid step");
                let p = built.world.profile();
                for (total, ms) in stage_totals.iter_mut().zip([
                    p.update_pairs_ms,
                    p.collide_ms,
                    p.solve_ms,
                    p.finalize_ms,
                ]) {
                    *total += ms as f64;
                }
            }
            let ms_per_step = start.elapsed().as_secs_f64() * 1000.0 / steps as f64;
            let end = positions(&built.world, &dynamic);
            let stability = if RESTING.contains(&name.as_str()) {
                let drift = snapshot
                    .iter()
                    .zip(&end)
                    .map(|(a, b)| a.distance(*b))
                    .fold(0.0f32, f32::max);
                format!("max drift {drift:.4} m")
            } else {
                let lowest = end.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
                format!("lowest y {lowest:.2} m")
            };
            let per = |t: f64| t / steps as f64;
            println!(
                "| {name} | {} | {} | {steps} | {ms_per_step:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {stability} |",
                solver.name(),
                dynamic.len(),
                per(stage_totals[0]),
                per(stage_totals[1]),
                per(stage_totals[2]),
                per(stage_totals[3]),
            );
        }
    }
}

/// How a two-point manifold's normal points are solved.
#[derive(Clone, Copy, PartialEq)]
enum Solver {
    /// Together where they couple loosely (`WorldDef::solve_points_together`, the default).
    Together,
    /// One at a time in listed order, as Box2D v3 does.
    Listed,
    /// The 2x2 block solver (`WorldDef::enable_block_solver`).
    Block,
}

impl Solver {
    fn name(self) -> &'static str {
        match self {
            Solver::Together => "together",
            Solver::Listed => "listed",
            Solver::Block => "block",
        }
    }
}

fn positions(world: &World, bodies: &[BodyId]) -> Vec<Vec2> {
    bodies
        .iter()
        .map(|b| world.body_position(*b).expect("live body"))
        .collect()
}
