//! The comparison: the same scenes in Box2D v3, physics_core, bevy_physics2d, rapier2d and
//! avian2d, stepped in one process at 60 Hz with 4 substeps, sleeping off and one thread
//! (`--threads N` gives Box2D, physics_core and bevy_physics2d N workers and the Bevy Apps'
//! compute pools N threads), timed per step.
//!
//! The Bevy Apps (bevy_physics2d, avian2d) run Bevy's single-threaded executor in the
//! default build. Built with `--features bevy-multi-threaded` they run the multi-threaded
//! executor and transform propagation, as games on Bevy's default features do; that build
//! writes its own section of the markdown file per pool size, and every run prints the
//! plugins' time over physics_core's, race by race.
//! `--engine bevy_floor` (only when named) adds the floor under any Bevy plugin to that
//! table: physics_core stepped in a bare App that only copies poses into `Transform`s
//! (`engines/floor.rs`), so Bevy's own cost shows apart from the plugin's.
//! The engines of a scene take turns of a few steps each (`race.rs`), so a drift in the
//! machine's speed falls on all of them alike.
//! `--repeat N` races each scene N times and reports medians (the ratio is the median of
//! the per-race ratios).
//! `--engine NAME` (repeatable) runs only those engines besides Box2D; `--no-reference` leaves
//! Box2D out too (no ratios: for profiling one engine). An engine that
//! spends more than `--budget` seconds (default 120) on one scene is stopped there and its row
//! says after how many steps.
//!
//! ```sh
//! cargo run --release -p bench_compare                          # every scene
//! cargo run --release -p bench_compare -- --scene large_pyramid
//! cargo run --release -p bench_compare -- --scene large_pyramid --threads 2 --engine physics_core
//! cargo run --release -p bench_compare -- --steps 50 --markdown BENCHMARKS.md
//! cargo run --release -p bench_compare -- --diff tower_15 --every 120 --contacts
//! ```
//!
//! `--fidelity` measures the stress scenes of `fidelity.rs` in every engine instead (lower is
//! better; `--scene` picks some; `--engine` keeps Box2D v3 and the engines named, with their
//! variant columns, and `--no-reference` drops Box2D; `--markdown PATH` writes the whole table
//! into that file's fidelity section, which the speed run keeps).
//!
//! `--scaling` races Box2D v3 and physics_core on one thread and on `--threads N` (2 by
//! default) in pairs (`--repeat`, at least 3) and gives the speed-ups beside the machine's own
//! ceiling (`scaling.rs`, `machine.rs`; scenes large_pyramid and smash unless `--scene` names
//! others; `--markdown PATH` writes its section).
//!
//! `--diff SCENE` is the differential mode (`differential.rs`): the scene in Box2D v3 and
//! physics_core side by side, with where they part (`--steps`, `--every`, `--tolerance`,
//! `--substeps`, `--hertz`, `--recycle`, `--mirror`, `--contacts`).
//!
//! `--joint-mass-ratio R` sets physics_core's and bevy_physics2d's
//! `WorldDef::exact_joint_mass_ratio` in the race and the differential mode, to time and
//! compare the exact joint-tree solve (1: every tree exact; the default 10: trees held by
//! the world or heavy-ended past 10:1; `inf`: none, every joint on Box2D's soft rows).
//!
//! `--block-solver` turns on physics_core's and bevy_physics2d's 2x2 block solver for
//! two-point manifolds (`WorldDef::enable_block_solver`) in the race and the differential
//! mode, to time and compare it; `--deeper-first` likewise solves a two-point manifold's
//! deeper point first (`WorldDef::solve_deeper_point_first`), and `--listed` solves every
//! manifold one point at a time in listed order, as Box2D v3 does, instead of a manifold's
//! two points together (`WorldDef::solve_points_together` off). The differential mode
//! compares Box2D's point order unless `--together` is given.
//!
//! `--carried-mass F` sets physics_core's and bevy_physics2d's
//! `WorldDef::carried_mass_fraction` in the race and the differential mode (0: off, Box2D
//! v3's soft contacts under any load).
//!
//! `--lanes four|eight` forces physics_core's and bevy_physics2d's contact SIMD path
//! (`World::set_contact_lanes`; by default the widest the processor runs), to time one
//! against the other in one build.
//!
//! `--exact-islands N` turns on physics_core's exact contact islands of up to N bodies
//! (`WorldDef::exact_contact_island_bodies`) in the race and the differential mode, to time
//! and compare them.
//!
//! Ratios are against Box2D v3 measured in the same run; absolute times drift on a shared
//! machine, ratios much less.

mod charts;
mod differential;
mod engines;
mod fidelity;
mod machine;
mod race;
mod scaling;
mod stability;

use engines::ENGINES;
use physics2d_demos::scene;

/// Box2D's benchmark scenes that the scene library builds identically for every engine.
const SCENES: &[&str] = &[
    "large_pyramid",
    "many_pyramids",
    "joint_grid",
    "rain",
    "smash",
    "spinner",
    "tumbler",
];

/// What differs from Box2D's own benchmark, printed under the tables.
const NOTES: &str = "Notes:
- Box2D v3 is the `boxdd` 0.6 build of its C source with `-O3 -DNDEBUG` (set in
  `.cargo/config.toml`; without NDEBUG its assertions stay on), one worker; the build line
  above says which SIMD path each engine's contact solver takes.
- Every engine reuses the manifolds of touching pairs that barely moved (contact recycling,
  each engine's default: Box2D v3 and physics_core within 5 cm of relative motion, rapier2d
  its own rule).
- rapier2d: `warmstart_joints` on like the others; stiff motors; Box2D's friction and
  restitution mixing.
- avian2d 0.7: its default plugins without interpolation (no debug renderer, picking or
  threads), `SubstepCount(4)`, `SleepingDisabled` on every body, geometric-mean friction and
  max restitution; a body's several shapes become one compound collider; motors are
  force-based with damping 1e6 (its stiffest velocity drive).
- `tumbler`: the scene library drives the frame kinematically at 25 degrees/s instead of with a
  motor on a revolute joint, in every engine.
- `joint_grid`: the circles are in category 2 and their mask leaves it out, as in Box2D's
  sample, in every engine. physics_core's broadphase skips the subtrees a moved proxy's mask
  leaves out, where Box2D v3 queries every overlap and filters afterwards: compare the pairs
  stage with the rest of the step (the stage times above).
- `rain`: Box2D's drops (a column of five groups of five ragdolls every eight steps, the
  oldest column destroyed and dropped again once all 40 are in; five floors of 501 boxes)
  with the project's 12-bone ragdoll in every engine, in place of Box2D's 11-bone human (no joint
  friction or springs, limits only; 0.8 m between the ragdolls of a group instead of 0.5 m, as
  its arms are wider). Creating and destroying the groups is part of the timed step.
- rapier2d gets its cuboid shape for axis-aligned boxes (as polygons its pyramids collapse);
  its substeps are `num_solver_iterations = 4`.
- The top of the 100-row pyramid settles 0.73 m in Box2D, 0.79 m in physics_core and 0.80 m in
  rapier2d (the stability column): 7 to 8 mm per contact layer below it, soft contacts resting
  a little past the 5 mm contact slop under the weight of the rows above.
";

struct Options {
    scenes: Vec<String>,
    steps: Option<usize>,
    markdown: Option<String>,
    /// Seconds an engine may spend on one scene's timed steps before it is stopped.
    budget: f64,
    /// Worker threads for Box2D, physics_core and bevy_physics2d.
    threads: usize,
    /// Engines to run besides Box2D (the reference); empty: all.
    engines: Vec<String>,
    /// Leave the reference out too.
    no_reference: bool,
    /// Races per scene; the table gives medians.
    repeat: usize,
    /// `--fidelity`: the fidelity table instead of the race.
    fidelity: bool,
    /// `--scaling`: the speed-up of `--threads` workers over one instead of the race.
    scaling: bool,
    /// `--diff SCENE`: the differential mode instead of the race.
    diff: Option<String>,
    /// Differential mode: print every this many steps.
    every: usize,
    /// Differential mode: the difference counted as the engines parting.
    tolerance: f32,
    /// Differential mode: compare with Box2D's mirror image.
    mirror: bool,
    /// Differential mode: print the manifolds where the engines part.
    contacts: bool,
    /// Engine settings (substeps, contact hertz, recycling); the race keeps the defaults.
    settings: engines::Settings,
}

/// Default for `--budget`: an engine 100x slower than Box2D on the largest scene still
/// finishes; one that blows up does not hold the table up for an hour.
const DEFAULT_BUDGET_SECONDS: f64 = 120.0;

/// `text` as a count within `range`, or an error naming `what` and the range.
fn count_in(
    text: &str,
    range: std::ops::RangeInclusive<usize>,
    what: &str,
) -> Result<usize, String> {
    text.parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or(format!(
            "bad {what} count {text} ({} to {})",
            range.start(),
            range.end()
        ))
}

/// `text` as a positive finite number, or an error naming `what`.
fn positive(text: &str, what: &str) -> Result<f32, String> {
    text.parse()
        .ok()
        .filter(|x: &f32| *x > 0.0 && x.is_finite())
        .ok_or(format!("bad {what} {text} (a positive number)"))
}

fn parse() -> Result<Options, String> {
    let mut options = Options {
        scenes: Vec::new(),
        steps: None,
        markdown: None,
        budget: DEFAULT_BUDGET_SECONDS,
        repeat: 1,
        threads: 1,
        engines: Vec::new(),
        no_reference: false,
        fidelity: false,
        scaling: false,
        diff: None,
        every: 60,
        tolerance: 1e-4,
        mirror: false,
        contacts: false,
        settings: engines::Settings::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--scene" => options.scenes.push(value()?),
            "--steps" => {
                let n = value()?;
                options.steps = Some(n.parse().map_err(|_| format!("bad step count {n}"))?);
            }
            "--markdown" => options.markdown = Some(value()?),
            "--budget" => {
                let s = value()?;
                options.budget = s
                    .parse()
                    .ok()
                    .filter(|b: &f64| *b > 0.0)
                    .ok_or(format!("bad budget {s} (seconds, positive)"))?;
            }
            "--engine" => options.engines.push(value()?),
            "--no-reference" => options.no_reference = true,
            "--repeat" => options.repeat = count_in(&value()?, 1..=99, "repeat")?,
            "--threads" => options.threads = count_in(&value()?, 1..=32, "thread")?,
            "--diff" => options.diff = Some(value()?),
            "--fidelity" => options.fidelity = true,
            "--scaling" => options.scaling = true,
            "--every" => options.every = count_in(&value()?, 1..=1_000_000, "every")?,
            "--tolerance" => options.tolerance = positive(&value()?, "tolerance")?,
            "--mirror" => options.mirror = true,
            "--contacts" => options.contacts = true,
            "--substeps" => {
                options.settings.substeps = count_in(&value()?, 1..=64, "substep")? as u32
            }
            "--hertz" => options.settings.contact_hertz = Some(positive(&value()?, "hertz")?),
            "--joint-mass-ratio" => {
                let text = value()?;
                options.settings.exact_joint_mass_ratio = Some(
                    text.parse()
                        .ok()
                        .filter(|r: &f32| *r >= 1.0)
                        .ok_or(format!("bad joint mass ratio {text} (1 or more, or inf)"))?,
                );
            }
            "--block-solver" => options.settings.block_solver = Some(true),
            "--deeper-first" => options.settings.deeper_point_first = Some(true),
            "--together" => options.settings.points_together = Some(true),
            "--listed" => options.settings.points_together = Some(false),
            "--carried-mass" => {
                let text = value()?;
                options.settings.carried_mass_fraction = Some(
                    text.parse()
                        .ok()
                        .filter(|f: &f32| (0.0..1.0).contains(f))
                        .ok_or(format!("bad carried mass fraction {text} (0 to below 1)"))?,
                );
            }
            "--lanes" => {
                use physics_core::world::ContactLanes;
                let text = value()?;
                let lanes = match text.as_str() {
                    "four" => ContactLanes::Four,
                    "eight" => ContactLanes::Eight,
                    _ => return Err(format!("bad lanes {text} (four or eight)")),
                };
                if !lanes.is_supported() {
                    return Err(format!(
                        "{text} lanes need AVX2, which this processor lacks"
                    ));
                }
                options.settings.contact_lanes = lanes;
            }
            "--exact-islands" => {
                options.settings.exact_contact_island_bodies =
                    count_in(&value()?, 0..=1_000_000, "exact island body")? as u32
            }
            "--recycle" => {
                let text = value()?;
                options.settings.recycle_distance = Some(
                    text.parse()
                        .ok()
                        .filter(|d: &f32| *d >= 0.0 && d.is_finite())
                        .ok_or(format!("bad recycle distance {text} (metres, 0 or more)"))?,
                );
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if options.scenes.is_empty() && options.scaling {
        options.scenes = scaling::SCALING_SCENES
            .iter()
            .map(|s| s.to_string())
            .collect();
    }
    if options.scenes.is_empty() && !options.fidelity {
        options.scenes = SCENES.iter().map(|s| s.to_string()).collect();
    }
    Ok(options)
}

fn main() {
    let options = parse().unwrap_or_else(|e| {
        eprintln!("bench_compare: {e}");
        std::process::exit(2);
    });
    engines::set_threads(options.threads);
    if let Some(name) = &options.diff {
        let Some(scene) = scene(name) else {
            eprintln!("bench_compare: no scene {name}");
            std::process::exit(2);
        };
        let diff = differential::DiffOptions {
            steps: options.steps.unwrap_or(scene.steps),
            every: options.every,
            tolerance: options.tolerance,
            settings: options.settings,
            mirror: options.mirror,
            contacts: options.contacts,
        };
        if let Err(e) = differential::run(&scene, &diff) {
            eprintln!("bench_compare: {e}");
            std::process::exit(1);
        }
        return;
    }
    if options.scaling {
        let threads = options.threads.max(2);
        let pairs = options.repeat.max(3);
        let report = scaling::report(&options.scenes, threads, pairs, options.budget)
            .unwrap_or_else(|e| {
                eprintln!("bench_compare: {e}");
                std::process::exit(1);
            });
        print!("{report}");
        if let Some(path) = &options.markdown {
            let command = format!("--scaling --threads {threads} --repeat {pairs}");
            let columns = ["Box2D v3, 2 threads against 1", "physics_core"];
            let chart = draw_chart(
                path,
                "scaling.svg",
                &format!("Speed-up of {threads} threads over one"),
                "times faster",
                &report,
                &columns,
                charts::Axis::Linear,
            );
            write_section(
                path,
                SCALING,
                &format!("{threads} threads"),
                &command,
                &format!("{chart}{report}"),
            );
        }
        return;
    }
    if options.fidelity {
        if options.markdown.is_some() && (!options.engines.is_empty() || options.no_reference) {
            eprintln!(
                "bench_compare: --fidelity --markdown writes the whole table: no --engine or --no-reference"
            );
            std::process::exit(2);
        }
        let filter = fidelity::ColumnFilter {
            engines: &options.engines,
            no_reference: options.no_reference,
        };
        let report = fidelity::run(&options.scenes, &filter);
        print!("{report}");
        if let Some(path) = &options.markdown {
            let columns = [
                "Box2D v3",
                "physics_core",
                "rapier2d",
                "avian2d",
                "physics_core, block solver",
            ];
            let chart = draw_chart(
                path,
                "fidelity.svg",
                "Fidelity on stress scenes (lower is better, each in its own unit; no bar: under 1e-4)",
                "figure (log scale)",
                &report,
                &columns,
                charts::Axis::Log { floor: 1e-4 },
            );
            write_section(
                path,
                FIDELITY,
                "Fidelity",
                "--fidelity",
                &format!("{chart}{report}"),
            );
        }
        return;
    }
    // The race keeps the benchmark's settings, but for exact contact islands and the exact
    // joint-tree rule (physics_core and bevy_physics2d only), to time them.
    let race_settings = engines::Settings {
        exact_contact_island_bodies: options.settings.exact_contact_island_bodies,
        exact_joint_mass_ratio: options.settings.exact_joint_mass_ratio,
        block_solver: options.settings.block_solver,
        deeper_point_first: options.settings.deeper_point_first,
        points_together: options.settings.points_together,
        carried_mass_fraction: options.settings.carried_mass_fraction,
        ..engines::Settings::default()
    };
    let mut table = String::new();
    let names: Vec<&str> = ENGINES
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| *n != engines::floor::NAME)
        .collect();
    table += &format!(
        "| scene | steps | {} |\n|---|---|{}\n",
        names.join(" | "),
        "---|".repeat(names.len())
    );
    let mut legend = Vec::new();
    let mut stability_rows = String::new();
    let mut plugin_rows = String::new();
    for name in &options.scenes {
        let Some(scene) = scene(name) else {
            eprintln!("bench_compare: no scene {name}");
            std::process::exit(2);
        };
        let steps = options.steps.unwrap_or(scene.steps);
        let mut cells = Vec::new();
        let mut figures = Vec::new();
        let wanted = |engine: &str| {
            if engine == ENGINES[0].0 {
                !options.no_reference
            } else if engine == engines::floor::NAME {
                options.engines.iter().any(|e| e == engine)
            } else {
                options.engines.is_empty() || options.engines.iter().any(|e| e == engine)
            }
        };
        let entered: Vec<_> = ENGINES.iter().filter(|(e, _)| wanted(e)).collect();
        let names: Vec<&str> = entered.iter().map(|(e, _)| *e).collect();
        eprintln!("{name}: {} taking turns...", names.join(", "));
        let builds: Vec<_> = entered.iter().map(|(_, b)| *b).collect();
        let results = race::race_repeated(
            &builds,
            &scene,
            &race_settings,
            steps,
            options.budget,
            options.repeat,
        );
        let summary_of = |engine: &str| {
            names
                .iter()
                .position(|n| *n == engine)
                .and_then(|i| results[i].as_ref().ok())
        };
        if let Some(core) = summary_of("physics_core") {
            let cells: Vec<String> = ["bevy_physics2d", "avian2d", engines::floor::NAME]
                .into_iter()
                .map(|engine| {
                    summary_of(engine).map_or("-".into(), |plugin| {
                        format!("{:.3}x", race::median_ratio(plugin, core))
                    })
                })
                .collect();
            plugin_rows += &format!("| {name} | {} |\n", cells.join(" | "));
        }
        let mut results = results.into_iter();
        // Ratios are to Box2D's time (the first engine when it runs), never another engine's.
        let mut reference = false;
        for (engine, _) in ENGINES {
            if *engine == engines::floor::NAME {
                if wanted(engine) {
                    match results.next().expect("one result per engine entered") {
                        Ok(r) => eprintln!("  {engine}: {:.3} ms/step", r.ms_per_step),
                        Err(e) => eprintln!("  {engine} failed: {e}"),
                    }
                }
                continue;
            }
            if !wanted(engine) {
                cells.push("-".into());
                figures.push("-".into());
                continue;
            }
            match results.next().expect("one result per engine entered") {
                Ok(r) => {
                    eprintln!("  {engine}: {:.3} ms/step", r.ms_per_step);
                    let stopped = if r.steps < steps {
                        format!(", stopped after {} steps", r.steps)
                    } else {
                        String::new()
                    };
                    if *engine == ENGINES[0].0 {
                        reference = true;
                    }
                    cells.push(if reference {
                        format!(
                            "{:.2} ms ({:.2}x{stopped})",
                            r.ms_per_step, r.ratio_to_first
                        )
                    } else {
                        format!("{:.2} ms (n/a{stopped})", r.ms_per_step)
                    });
                    figures.push(format!("{:.4}", r.stability));
                }
                Err(e) => {
                    eprintln!("  {engine} failed: {e}");
                    cells.push("n/a".into());
                    figures.push("n/a".into());
                }
            }
        }
        table += &format!("| {name} | {steps} | {} |\n", cells.join(" | "));
        stability_rows += &format!("| {name} | {} |\n", figures.join(" | "));
        legend.push(format!("- {name}: {}", stability::describe(&scene)));
    }
    let plugin_table = if plugin_rows.is_empty() {
        String::new()
    } else {
        format!(
            "The Bevy plugins against physics_core in the same races (median of the per-race \
             ratios; the executor: {EXECUTOR}, {} pool thread(s)). The floor is physics_core \
             stepped by one exclusive system of a headless App that copies each body's pose \
             into a `Transform`, and nothing else, its entities in the hierarchy the plugin's \
             scene spawner makes (`--engine bevy_floor`): what it costs over physics_core is \
             Bevy's own schedules and transform propagation, which any plugin writing \
             `Transform` pays.\n\n\
             | scene | bevy_physics2d / physics_core | avian2d / physics_core | floor / physics_core |\n\
             |---|---|---|---|\n\
             {plugin_rows}\n",
            engines::threads()
        )
    };
    let report = format!(
        "Milliseconds per step (ratio to Box2D v3 in the same run):\n\n{table}\n{plugin_table}\
         Stability at the end of the run (smaller is better):\n\n\
         | scene | {} |\n|---|{}\n{stability_rows}\n{}\n\n{NOTES}",
        names.join(" | "),
        "---|".repeat(names.len()),
        legend.join("\n")
    );
    print!("{report}");
    if let Some(path) = options.markdown {
        let args = std::env::args()
            .skip(1)
            .map(|a| format!(" {a}"))
            .collect::<String>()
            .replace(&format!(" --markdown {path}"), "");
        // Arguments go to the program, after cargo's own.
        let args = if args.is_empty() {
            args
        } else {
            format!(" --{args}")
        };
        let avx2 = cfg!(target_feature = "avx2");
        // Body positions in double: a section of its own, whatever the instruction set.
        let large_world = physics_core::position::LARGE_WORLD;
        let command = if large_world {
            format!("cargo run --release -p bench_compare --features large-world{args}")
        } else if avx2 {
            let features = if cfg!(feature = "box2d-avx2") {
                " --features box2d-avx2"
            } else {
                ""
            };
            format!(
                "RUSTFLAGS=\"-C target-cpu=x86-64-v3\" cargo run --release -p bench_compare\
                 {features}{args}"
            )
        } else if MULTI_THREADED_EXECUTOR {
            format!("cargo run --release -p bench_compare --features bevy-multi-threaded{args}")
        } else {
            format!("cargo run --release -p bench_compare{args}")
        };
        let pool = engines::threads();
        let heading = if large_world {
            "## Large-world build (body positions in double)".to_string()
        } else if avx2 {
            "## AVX2 build".to_string()
        } else if MULTI_THREADED_EXECUTOR {
            format!("## Bevy's multi-threaded executor, {pool} pool thread(s)")
        } else {
            "# Benchmarks".to_string()
        };
        let chart_file = if large_world {
            "ms_per_step_large_world.svg".to_string()
        } else if avx2 {
            "ms_per_step_avx2.svg".to_string()
        } else if MULTI_THREADED_EXECUTOR {
            format!("ms_per_step_multi_threaded_{pool}.svg")
        } else {
            "ms_per_step.svg".to_string()
        };
        // avian2d's bars, several times Box2D's, would flatten the others: the table has them.
        let chart = draw_chart(
            &path,
            &chart_file,
            "Milliseconds per step (avian2d in the table only)",
            "ms per step",
            &report,
            &["Box2D v3", "physics_core", "bevy_physics2d", "rapier2d"],
            charts::Axis::Linear,
        );
        let text = format!(
            "{heading}\n\nMachine: {}, {} cores. Date: {}.\nCommand: `{command}`.\n\
             Build: {}. Bevy: {EXECUTOR}.\n\
             All engines in one process, taking turns of {} steps{}: 60 Hz, 4 substeps, \
             sleeping off, {pool} thread(s).\n\n{chart}{report}",
            cpu_model(),
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            today(),
            build_line(options.settings.contact_lanes.resolve()),
            race::TURN_STEPS,
            if options.repeat > 1 {
                format!(
                    "; each scene raced {} times, times and ratios are medians",
                    options.repeat
                )
            } else {
                String::new()
            },
        );
        // The default build rewrites the file, keeping the sections the fidelity mode and the
        // AVX2 and large-world builds wrote; those builds write their own sections only.
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let executor_markers = |pool: usize| {
            (
                format!(
                    "<!-- multi-threaded executor, {pool} pool threads: written by bench_compare --features bevy-multi-threaded -->"
                ),
                format!("<!-- end of multi-threaded executor, {pool} pool threads -->"),
            )
        };
        let text = if large_world {
            let section = format!("{}\n{text}{}\n", LARGE_WORLD_RUN.0, LARGE_WORLD_RUN.1);
            with_block(&old, &section, LARGE_WORLD_RUN)
        } else if avx2 {
            let section = format!("{}\n{text}{}\n", AVX2_RUN.0, AVX2_RUN.1);
            with_block(&old, &section, AVX2_RUN)
        } else if MULTI_THREADED_EXECUTOR {
            let (start, end) = executor_markers(pool);
            let section = format!("{start}\n{text}{end}\n");
            let markers = (start.as_str(), end.as_str());
            if block(&old, markers).is_some() {
                with_block(&old, &section, markers)
            } else {
                // A new section goes after the first table's run, before the others.
                match old.find(FIDELITY.0) {
                    Some(at) => format!("{}{section}{}", &old[..at], &old[at..]),
                    None => format!("{old}\n{section}"),
                }
            }
        } else {
            // The run's own section is the file's head, up to the first section another run
            // wrote; from there on the file is kept as it is, hand-written sections included.
            let executor_sections: Vec<(String, String)> = (1..=2).map(executor_markers).collect();
            let rest = executor_sections
                .iter()
                .map(|(a, _)| a.as_str())
                .chain([FIDELITY.0, SCALING.0, AVX2_RUN.0, LARGE_WORLD_RUN.0])
                .filter_map(|marker| old.find(marker))
                .min()
                .map_or("", |at| &old[at..]);
            if rest.is_empty() {
                text
            } else {
                format!("{text}\n{rest}")
            }
        };
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("bench_compare: cannot write {path}: {e}");
            std::process::exit(1);
        }
    }
}

/// Markers around the fidelity section of the markdown file.
const FIDELITY: (&str, &str) = (
    "<!-- fidelity: written by bench_compare --fidelity -->",
    "<!-- end of fidelity -->",
);
/// Markers around the scaling section of the markdown file.
const SCALING: (&str, &str) = (
    "<!-- scaling: written by bench_compare --scaling -->",
    "<!-- end of scaling -->",
);
/// Markers around the section an AVX2 build writes (see [`build_line`]).
const AVX2_RUN: (&str, &str) = (
    "<!-- avx2: written by an x86-64-v3 build of bench_compare -->",
    "<!-- end of avx2 -->",
);

/// Markers around the section a large-world build writes (body positions in double).
const LARGE_WORLD_RUN: (&str, &str) = (
    "<!-- large world: written by bench_compare --features large-world -->",
    "<!-- end of large world -->",
);

/// The section of `text` between `markers` (with them), if it has one.
fn block<'a>(text: &'a str, markers: (&str, &str)) -> Option<&'a str> {
    let start = text.find(markers.0)?;
    let end = text[start..].find(markers.1)? + start + markers.1.len();
    Some(&text[start..end])
}

/// Draws the first table of `report` (the `columns` named) as the chart `file` in the charts
/// folder beside the markdown file at `markdown_path`, and gives the markdown line that shows
/// it (nothing, with a message, when it cannot be drawn).
fn draw_chart(
    markdown_path: &str,
    file: &str,
    title: &str,
    value_label: &str,
    report: &str,
    columns: &[&str],
    axis: charts::Axis,
) -> String {
    let Some(table) = charts::Table::from_markdown(report, columns) else {
        eprintln!("bench_compare: no table to draw {file} from");
        return String::new();
    };
    let path = charts::chart_dir(markdown_path).join(file);
    match charts::grouped_bars(&path, title, value_label, &table, axis) {
        Ok(()) => format!("![{title}](docs/charts/{file})\n\n"),
        Err(e) => {
            eprintln!("bench_compare: cannot draw {file}: {e}");
            String::new()
        }
    }
}

/// Writes `report` as the section between `markers` of the markdown file at `path` (replacing
/// the old one, or appended), under `## heading` with the machine, the date and the command
/// (`args` after cargo's); exits with a message if the file cannot be written.
fn write_section(path: &str, markers: (&str, &str), heading: &str, args: &str, report: &str) {
    let section = format!(
        "{}\n## {heading}\n\nMachine: {}. Date: {}.\n\
         Command: `cargo run --release -p bench_compare -- {args}`.\n\n{report}{}\n",
        markers.0,
        cpu_model(),
        today(),
        markers.1
    );
    let old = std::fs::read_to_string(path).unwrap_or_default();
    if let Err(e) = std::fs::write(path, with_block(&old, &section, markers)) {
        eprintln!("bench_compare: cannot write {path}: {e}");
        std::process::exit(1);
    }
}

/// `text` with its section between `markers` replaced by `new` (which carries the markers),
/// or `new` appended.
fn with_block(text: &str, new: &str, markers: (&str, &str)) -> String {
    match block(text, markers) {
        Some(old) => text.replacen(old, new.trim_end(), 1),
        None if text.is_empty() => new.to_string(),
        None => format!("{}\n\n{new}", text.trim_end()),
    }
}

/// Whether this build's Bevy runs the multi-threaded executor (feature `bevy-multi-threaded`).
const MULTI_THREADED_EXECUTOR: bool = cfg!(feature = "bevy-multi-threaded");

/// How the Bevy plugins' Apps of this build run their systems.
const EXECUTOR: &str = if MULTI_THREADED_EXECUTOR {
    "the multi-threaded executor (a build with `--features bevy-multi-threaded`: bevy_ecs and \
     bevy_transform with `multi_threaded`, as Bevy's default features give every game)"
} else {
    "the single-threaded executor (bevy_ecs and bevy_transform without `multi_threaded`)"
};

/// How this binary was built and which contact path physics_core takes (`lanes`, already
/// resolved): Box2D's SIMD path is fixed when it is compiled, ours is chosen at run time.
fn build_line(lanes: physics_core::world::ContactLanes) -> String {
    let build = if cfg!(target_feature = "avx2") {
        "x86-64-v3"
    } else {
        "default"
    };
    let box2d = if cfg!(feature = "box2d-avx2") {
        "Box2D v3 with its AVX2 path (`simd-avx2`, compiled in)"
    } else {
        "Box2D v3 in four SSE2 lanes (compiled in)"
    };
    let ours = match lanes {
        physics_core::world::ContactLanes::Eight => "eight AVX2 lanes",
        _ => "four SSE2 lanes",
    };
    let positions = if physics_core::position::LARGE_WORLD {
        "; body positions in double in physics_core and bevy_physics2d (`large-world`)"
    } else {
        ""
    };
    format!(
        "{build}: {box2d}; physics_core's contact solver in {ours} (chosen at run time){positions}"
    )
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

/// Today's date (UTC) as YYYY-MM-DD, from the days since 1970 (civil-from-days).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every adapter builds the same geometry: the pendulum swings and the vertical stack
    /// settles alike in all engines (positions within a few centimetres after one second).
    #[test]
    fn every_engine_builds_the_same_world() {
        for name in ["vertical_stack", "pendulum"] {
            let scene = scene(name).unwrap();
            let mut ends = Vec::new();
            for (engine, build) in ENGINES {
                let mut simulation = build(&scene, &engines::Settings::default())
                    .unwrap_or_else(|e| panic!("{engine}: {e}"));
                let start = simulation.positions();
                assert_eq!(start.len(), scene.bodies.len(), "{engine}");
                for (p, b) in start.iter().zip(&scene.bodies) {
                    assert!(
                        p.distance(b.position) < 1e-4,
                        "{engine} placed a body at {p}"
                    );
                }
                for _ in 0..60 {
                    simulation.step().unwrap();
                }
                let end = simulation.positions();
                assert_eq!(end.len(), scene.bodies.len(), "{engine}");
                ends.push((engine, end));
            }
            let (reference, expected) = &ends[0];
            for (engine, got) in &ends[1..] {
                for (a, b) in expected.iter().zip(got) {
                    // Solvers differ in softness and iteration order, not in where things are
                    // after a second: a pendulum bob or a stacked box within 5 cm.
                    assert!(
                        a.distance(*b) < 0.05,
                        "{name}: {engine} {b} vs {reference} {a}"
                    );
                }
            }
        }
    }
}
