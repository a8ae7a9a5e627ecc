//! The testbed: runs any scene of the scene library and reports what the physics does.
//!
//! ```sh
//! cargo run --release --example testbed                       # pyramid, 10 s
//! cargo run --release --example testbed -- --list
//! cargo run --release --example testbed -- --scene rain --steps 600 --block
//! ```
//!
//! This version runs headless: once a second of simulated time it prints awake bodies, joints,
//! contacts, kinetic energy and the time each stage took. (The windowed testbed with the debug
//! overlay arrives with the Bevy plugin.)

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::{SCENE_NAMES, scene};

struct Options {
    scene: String,
    steps: Option<usize>,
    block: bool,
}

fn parse() -> Result<Options, String> {
    let mut options = Options {
        scene: "pyramid".into(),
        steps: None,
        block: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--list" => {
                println!("{}", SCENE_NAMES.join("\n"));
                std::process::exit(0);
            }
            "--scene" => options.scene = args.next().ok_or("--scene needs a name")?,
            "--steps" => {
                let n = args.next().ok_or("--steps needs a number")?;
                options.steps = Some(n.parse().map_err(|_| format!("bad step count {n}"))?);
            }
            "--block" => options.block = true,
            // Accepted for forward compatibility with the windowed testbed.
            "--headless" => {}
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(options)
}

fn main() {
    let options = parse().unwrap_or_else(|e| {
        eprintln!("testbed: {e}\nusage: testbed [--list] [--scene NAME] [--steps N] [--block]");
        std::process::exit(2);
    });
    let Some(s) = scene(&options.scene) else {
        eprintln!("testbed: no scene {}; try --list", options.scene);
        std::process::exit(2);
    };
    let def = WorldDef {
        enable_block_solver: options.block,
        ..WorldDef::default()
    };
    let mut built = s.build(def).unwrap_or_else(|e| {
        eprintln!("testbed: scene {} does not build: {e}", s.name);
        std::process::exit(1);
    });
    let steps = options.steps.unwrap_or(s.steps);
    let per_second = (1.0 / s.dt).round() as usize;
    println!(
        "scene {} ({} bodies, {} dynamic), {steps} steps of {:.4} s, {} solver",
        s.name,
        s.bodies.len(),
        s.dynamic_count(),
        s.dt,
        if options.block { "block" } else { "sequential" }
    );
    println!(
        "    t   awake  joints   contacts  touching   kinetic J   pairs ms  collide ms  solve ms  finalize ms"
    );
    for step in 1..=steps {
        if let Err(e) = built.world.step(s.dt) {
            eprintln!("testbed: step failed: {e}");
            std::process::exit(1);
        }
        if step % per_second == 0 || step == steps {
            let w = &built.world;
            let p = w.profile();
            println!(
                "{:5.1}  {:6}  {:6}  {:9}  {:8}  {:10.3}  {:9.3}  {:10.3}  {:8.3}  {:11.3}",
                step as f32 * s.dt,
                w.awake_body_count(),
                w.joint_count(),
                w.contact_count(),
                w.touching_contact_count(),
                w.kinetic_energy(),
                p.update_pairs_ms,
                p.collide_ms,
                p.solve_ms,
                p.finalize_ms
            );
        }
    }
}
