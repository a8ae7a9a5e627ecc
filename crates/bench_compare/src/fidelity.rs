//! The fidelity table: stress scenes that break engines, each stepped in every engine with the
//! common settings (60 Hz, 4 substeps, sleeping off), and one figure per scene, lower is better.
//!
//! The figures come from what every engine reports, body poses and velocities each step, so
//! the same measurement applies to all of them:
//!
//! | scene | figure |
//! |---|---|
//! | `tower_15`, `tower_20`, `tower_30`, `tower_offset_20` | largest sideways drift of the top box over 30 s (m) |
//! | `pyramid` | largest drift of any box from where it started after 10 s (m) |
//! | `pyramid_orders`, `overlap_recovery_orders` | the scene's figure, mean over the scene, its mirror image and both with the bodies created in reverse order |
//! | `ball_pile` | deepest overlap of two balls, or a ball and the box, after 10 s, mean of 32 drops (m) |
//! | `high_mass_ratio_1` | how far the heaviest top box sinks below its rigid stacked height (m) |
//! | `high_mass_ratio_2`, `_3` | how far the big box sinks below its rigid rest height (m) |
//! | `friction_ramp` | largest error of a box's travel down its ramp after 2 s against Coulomb's law (m) |
//! | `overlap_recovery` | fastest any box moves while the overlapping pyramid pushes apart (m/s) |
//! | `restitution` | largest error of a ball's first bounce height against e^2 h (m) |
//! | `pendulum` | amplitude lost or gained over 10 s of swinging (rad) |
//! | `chain_light`, `chain_heavy_*` | widest gap of any pin over 10 s (m) |
//! | `ragdoll` | widest gap of any of a falling ragdoll's pins over 10 s (m) |
//!
//! A sequential solve leans the way its order of contacts favours, and that order follows
//! the order bodies are created in; a mirror image turns the lean round. On `pyramid` and
//! `overlap_recovery` the four orders of `scenes::order_variants` move the figure by more
//! than the engines differ, so the `_orders` rows give their mean as well.

use crate::engines::{BodySample, ENGINES, Settings, Simulation, box2d};
use bevy_math::Vec2;
use physics_core::body::BodyType;
use physics_core::math::{Rot, Transform};
use physics_core::shape::Shape;
use physics2d_demos::scenes::{
    BALL_RESTITUTIONS, BIG_BOX_REST_HEIGHT, DROP_HEIGHT, PILE_BALL_RADIUS, PILE_DROPS, RAMP_ANGLE,
    RAMP_FRICTIONS, ball_pile_drop, high_mass_ratio_1_heavy_boxes, order_variants,
};
use physics2d_demos::{Scene, scene};

/// The scenes of the table, in order.
pub const FIDELITY_SCENES: &[&str] = &[
    "tower_15",
    "tower_20",
    "tower_30",
    "tower_offset_20",
    "pyramid",
    "pyramid_orders",
    "ball_pile",
    "high_mass_ratio_1",
    "high_mass_ratio_2",
    "high_mass_ratio_3",
    "friction_ramp",
    "overlap_recovery",
    "overlap_recovery_orders",
    "restitution",
    "pendulum",
    "chain_light",
    "chain_heavy_100",
    "chain_heavy_1000",
    "chain_heavy_2500",
    "chain_heavy_10000",
    "ragdoll",
];

/// What the figure of `name` measures, for the legend.
pub fn describe(name: &str) -> &'static str {
    match name {
        n if n.starts_with("tower") => "largest sideways drift of the top box over 30 s (m)",
        "pyramid" => "largest drift of a box from where it started, after 10 s (m)",
        "ball_pile" => {
            "deepest overlap of two balls or a ball and the box after 10 s, mean of 32 drops (m)"
        }
        "high_mass_ratio_1" => {
            "how far the heaviest top box (300x) sinks below its rigid stacked height (m)"
        }
        "high_mass_ratio_2" | "high_mass_ratio_3" => {
            "how far the big box (400x) sinks below its rigid rest height (m)"
        }
        "friction_ramp" => "largest error of a box's travel down its ramp after 2 s (m)",
        "overlap_recovery" => "fastest speed of any box while the overlap is pushed out (m/s)",
        "pyramid_orders" | "overlap_recovery_orders" => {
            "the scene's figure, mean over its mirror image and creation orders"
        }
        "restitution" => "largest error of a first bounce height against e^2 h (m)",
        "pendulum" => "swing amplitude lost or gained over 10 s (rad)",
        n if n.starts_with("chain") => "widest gap of any pin over 10 s (m)",
        "ragdoll" => "widest gap of any of the ragdoll's pins over its fall and 10 s (m)",
        _ => "",
    }
}

/// Steps each scene runs for its figure.
fn steps_of(scene: &Scene) -> usize {
    match scene.name {
        "friction_ramp" => 120,
        _ => scene.steps,
    }
}

/// Accumulates a scene's figure from the samples of every step.
struct Meter<'a> {
    scene: &'a Scene,
    start: Vec<BodySample>,
    /// Running figure for the measures taken over the whole run.
    running: f32,
    /// Per body: lowest height reached and highest after it (restitution), or the largest
    /// angle in the last three seconds, a period and a bit (pendulum).
    track: Vec<(f32, f32)>,
    /// Per body: 0 falling, 1 on its first rebound, 2 done (restitution).
    phase: Vec<u8>,
    step: usize,
    steps: usize,
}

/// A joint's anchor on each body, in the body's frame.
fn local_anchors(scene: &Scene) -> Vec<(usize, Vec2, usize, Vec2)> {
    scene
        .joints
        .iter()
        .map(|j| {
            let frame = |i: usize| {
                let b = &scene.bodies[i];
                Transform::new(b.position, Rot::from_angle(b.angle))
            };
            (
                j.body_a,
                frame(j.body_a).apply_inverse(j.anchor_a),
                j.body_b,
                frame(j.body_b).apply_inverse(j.anchor_b),
            )
        })
        .collect()
}

fn world_point(s: &BodySample, local: Vec2) -> Vec2 {
    Transform::new(s.position, Rot::from_angle(s.angle)).apply(local)
}

/// Largest NaN-aware value: a NaN makes the figure infinite.
fn worst(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::INFINITY
    } else {
        a.max(b)
    }
}

impl<'a> Meter<'a> {
    fn new(scene: &'a Scene, start: Vec<BodySample>, steps: usize) -> Self {
        let track = vec![(f32::INFINITY, f32::NEG_INFINITY); scene.bodies.len()];
        Meter {
            scene,
            start,
            running: 0.0,
            phase: vec![0; track.len()],
            track,
            step: 0,
            steps,
        }
    }

    /// Takes the samples after one more step.
    fn observe(&mut self, now: &[BodySample]) {
        self.step += 1;
        let name = self.scene.name;
        if name.starts_with("tower") {
            let top = now.len() - 1;
            let drift = (now[top].position.x - self.start[top].position.x).abs();
            self.running = worst(self.running, drift);
        } else if name == "overlap_recovery" {
            for s in now {
                self.running = worst(self.running, s.linear_velocity.length());
            }
        } else if name.starts_with("chain") || name == "ragdoll" {
            for (a, la, b, lb) in local_anchors(self.scene) {
                let gap = world_point(&now[a], la).distance(world_point(&now[b], lb));
                self.running = worst(self.running, gap);
            }
        } else if name == "restitution" {
            // (lowest height before the first rebound, highest height of that rebound); the
            // rebound starts when the ball first moves up and ends when it falls again.
            for ((t, phase), s) in self.track.iter_mut().zip(&mut self.phase).zip(now) {
                match phase {
                    0 if s.linear_velocity.y > 0.0 => *phase = 1,
                    0 => t.0 = t.0.min(s.position.y),
                    1 if s.linear_velocity.y < 0.0 => *phase = 2,
                    1 => t.1 = t.1.max(s.position.y),
                    _ => {}
                }
            }
        } else if name == "pendulum" && self.step + 180 > self.steps {
            let bob = &now[1];
            let pivot = self.scene.bodies[0].position;
            let d = bob.position - pivot;
            self.track[1].1 = self.track[1].1.max(d.x.atan2(-d.y).abs());
        }
    }

    /// The figure after the last step.
    fn figure(&self, end: &[BodySample]) -> f32 {
        let scene = self.scene;
        let dynamic = |i: usize| scene.bodies[i].body_type == BodyType::Dynamic;
        match scene.name {
            n if n.starts_with("tower")
                || n == "overlap_recovery"
                || n.starts_with("chain")
                || n == "ragdoll" =>
            {
                self.running
            }
            "pyramid" => (0..end.len())
                .filter(|&i| dynamic(i))
                .map(|i| end[i].position.distance(self.start[i].position))
                .fold(0.0, worst),
            "ball_pile" => deepest_pile_overlap(scene, end),
            "high_mass_ratio_1" => high_mass_ratio_1_heavy_boxes()
                .iter()
                .map(|&(i, rest)| rest - end[i].position.y)
                .fold(0.0, worst),
            "high_mass_ratio_2" | "high_mass_ratio_3" => BIG_BOX_REST_HEIGHT - end[3].position.y,
            "friction_ramp" => {
                let t = self.steps as f32 * scene.dt;
                let (sin, cos) = RAMP_ANGLE.sin_cos();
                let g = -scene.gravity.y;
                RAMP_FRICTIONS
                    .iter()
                    .enumerate()
                    .map(|(k, mu)| {
                        let i = 2 * k + 1;
                        let travelled = end[i].position.distance(self.start[i].position);
                        let accel = (g * (sin - mu * cos)).max(0.0);
                        (travelled - 0.5 * accel * t * t).abs()
                    })
                    .fold(0.0, worst)
            }
            "restitution" => BALL_RESTITUTIONS
                .iter()
                .enumerate()
                .map(|(k, e)| {
                    let (lowest, highest) = self.track[k + 1];
                    // A ball that never rose did not bounce.
                    let bounce = if highest.is_finite() {
                        highest - lowest
                    } else {
                        0.0
                    };
                    // Ball centres: the drop is from DROP_HEIGHT above the ground to resting
                    // on it, so the bounce apex above the lowest point should be e^2 of that.
                    (bounce - e * e * DROP_HEIGHT).abs()
                })
                .fold(0.0, worst),
            "pendulum" => (0.5 - self.track[1].1).abs(),
            _ => f32::NAN,
        }
    }
}

/// Deepest overlap of two balls, or of a ball and the box, in the pile's final state.
fn deepest_pile_overlap(scene: &Scene, end: &[BodySample]) -> f32 {
    let r = PILE_BALL_RADIUS;
    let balls: Vec<Vec2> = end[1..].iter().map(|s| s.position).collect();
    if balls.iter().any(|p| !p.is_finite()) {
        return f32::INFINITY;
    }
    let mut deepest = 0.0f32;
    for (i, a) in balls.iter().enumerate() {
        for b in &balls[i + 1..] {
            deepest = deepest.max(2.0 * r - a.distance(*b));
        }
    }
    // The box: its floor's top and the walls' inner faces, from its shapes.
    let container = &scene.bodies[0];
    for shape in &container.shapes {
        let Shape::Polygon(p) = &shape.shape else {
            continue;
        };
        for a in &balls {
            let local = *a - container.position;
            // Distance from the ball centre into the box (positive outside).
            let outside = p
                .vertices()
                .iter()
                .zip(p.normals())
                .map(|(v, n)| n.dot(local - *v))
                .fold(f32::NEG_INFINITY, f32::max);
            deepest = deepest.max(r - outside);
        }
    }
    deepest
}

/// Contact islands of at most this many bodies are solved exactly in the table's last column
/// (physics_core with `WorldDef::exact_contact_island_bodies`).
pub const EXACT_ISLAND_BODIES: u32 = 64;

/// The column of physics_core with Box2D v3's contact solve: its point order and contacts.
const LISTED_AT_30_HZ: &str = "physics_core, listed order, 30 Hz";

/// The table's columns: every engine with its defaults, then physics_core with exact contact
/// islands, with the block solver, with the deeper point first, with Box2D v3's contact solve
/// (every manifold one point at a time in listed order, Box2D's point order, with its 30 Hz
/// contacts pushed out at up to 3 m/s, where physics_core's default is 45 Hz and 2 m/s), and
/// without carried mass (the soft contacts under any load).
fn columns() -> Vec<(String, crate::engines::Build, Settings)> {
    // The floor steps physics_core itself: its column would repeat physics_core's.
    let mut out: Vec<_> = ENGINES
        .iter()
        .filter(|(name, _)| *name != crate::engines::floor::NAME)
        .map(|(name, build)| (name.to_string(), *build, Settings::default()))
        .collect();
    let core = ENGINES
        .iter()
        .find(|(name, _)| *name == "physics_core")
        .map(|(_, build)| *build);
    if let Some(build) = core {
        let exact = Settings {
            exact_contact_island_bodies: EXACT_ISLAND_BODIES,
            ..Settings::default()
        };
        out.push((
            format!("physics_core, exact islands <= {EXACT_ISLAND_BODIES}"),
            build,
            exact,
        ));
        let block = Settings {
            block_solver: Some(true),
            ..Settings::default()
        };
        out.push(("physics_core, block solver".to_string(), build, block));
        let deeper = Settings {
            deeper_point_first: Some(true),
            ..Settings::default()
        };
        out.push((
            "physics_core, deeper point first".to_string(),
            build,
            deeper,
        ));
        let listed = Settings {
            points_together: Some(false),
            contact_hertz: Some(box2d::CONTACT_HERTZ),
            max_push_speed: Some(box2d::PUSH_SPEED),
            ..Settings::default()
        };
        out.push((LISTED_AT_30_HZ.to_string(), build, listed));
        let soft = Settings {
            carried_mass_fraction: Some(0.0),
            ..Settings::default()
        };
        out.push(("physics_core, no carried mass".to_string(), build, soft));
    }
    out
}

/// The scene a row of the table measures: an `_orders` row measures its base scene.
fn row_scene(name: &str) -> Option<Scene> {
    scene(name.strip_suffix(ORDERS_SUFFIX).unwrap_or(name))
}

/// The suffix of a row whose figure is the mean over the base scene's order variants.
const ORDERS_SUFFIX: &str = "_orders";

/// One engine's figure on one row, or why there is none. An `_orders` row's is the mean
/// over the order variants of its scene.
fn measure_row(
    build: crate::engines::Build,
    settings: &Settings,
    row: &str,
    scene: &Scene,
) -> Result<f32, String> {
    if row.ends_with(ORDERS_SUFFIX) {
        mean_figure(build, settings, order_variants(scene))
    } else {
        measure(build, settings, scene)
    }
}

/// One engine's figure on one scene, or why there is none. The pile's is the mean over its
/// drops.
fn measure(
    build: crate::engines::Build,
    settings: &Settings,
    scene: &Scene,
) -> Result<f32, String> {
    if scene.name == "ball_pile" {
        return mean_figure(build, settings, (0..PILE_DROPS).map(ball_pile_drop));
    }
    measure_one(build, settings, scene)
}

/// The mean of one engine's figures on `scenes` (each measured as it is: a drop of the pile
/// is a scene of its own), or why one has none.
fn mean_figure(
    build: crate::engines::Build,
    settings: &Settings,
    scenes: impl IntoIterator<Item = Scene>,
) -> Result<f32, String> {
    let (mut sum, mut count) = (0.0, 0);
    for scene in scenes {
        sum += measure_one(build, settings, &scene)?;
        count += 1;
    }
    Ok(sum / count as f32)
}

/// One engine's figure on one scene.
fn measure_one(
    build: crate::engines::Build,
    settings: &Settings,
    scene: &Scene,
) -> Result<f32, String> {
    let mut simulation: Box<dyn Simulation> = build(scene, settings)?;
    let steps = steps_of(scene);
    // Every engine starts from the description.
    let start: Vec<BodySample> = scene
        .bodies
        .iter()
        .map(|b| BodySample {
            position: b.position,
            angle: b.angle,
            linear_velocity: b.linear_velocity,
            angular_velocity: b.angular_velocity,
        })
        .collect();
    let mut meter = Meter::new(scene, start, steps);
    let mut last = Vec::new();
    for _ in 0..steps {
        simulation.step()?;
        last = simulation.samples();
        meter.observe(&last);
    }
    Ok(meter.figure(&last))
}

/// Which of the table's columns a run keeps: all of them with no `--engine`; otherwise Box2D
/// v3 (unless `no_reference`) and each engine named, with its variant columns ("physics_core"
/// keeps "physics_core, block solver" too).
pub struct ColumnFilter<'a> {
    pub engines: &'a [String],
    pub no_reference: bool,
}

impl ColumnFilter<'_> {
    /// Whether the column `column` is kept.
    fn keeps(&self, column: &str) -> bool {
        if column == ENGINES[0].0 {
            return !self.no_reference;
        }
        self.engines.is_empty()
            || self.engines.iter().any(|e| {
                column == e
                    || column
                        .strip_prefix(e.as_str())
                        .is_some_and(|rest| rest.starts_with(", "))
            })
    }
}

/// Runs every fidelity scene (or those in `only`) in the engines `filter` keeps and returns
/// the report.
pub fn run(only: &[String], filter: &ColumnFilter) -> String {
    let columns: Vec<_> = columns()
        .into_iter()
        .filter(|(name, _, _)| filter.keeps(name))
        .collect();
    let names: Vec<&str> = columns.iter().map(|(n, _, _)| n.as_str()).collect();
    let mut table = format!(
        "| scene | {} |\n|---|{}\n",
        names.join(" | "),
        "---|".repeat(names.len())
    );
    let mut legend = Vec::new();
    for name in FIDELITY_SCENES {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let Some(s) = row_scene(name) else {
            continue;
        };
        eprintln!("fidelity {name}...");
        let cells: Vec<String> = columns
            .iter()
            .map(|(engine, build, settings)| {
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    measure_row(*build, settings, name, &s)
                }))
                .unwrap_or_else(|_| Err("panicked".into()));
                match result {
                    Ok(f) => {
                        eprintln!("  {engine}: {f:.4}");
                        format!("{f:.4}")
                    }
                    Err(e) => {
                        eprintln!("  {engine}: {e}");
                        "n/a".into()
                    }
                }
            })
            .collect();
        table += &format!("| {name} | {} |\n", cells.join(" | "));
        legend.push(format!("- {name}: {}", describe(name)));
    }
    format!(
        "Fidelity on stress scenes (60 Hz, 4 substeps, sleeping off; lower is better):\n\n\
         {table}\n{}\n",
        legend.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--engine physics_core` keeps Box2D v3 and physics_core with its variants, not the
    /// other engines or bevy_physics2d (whose name does not start "physics_core, ");
    /// `--no-reference` drops Box2D v3; no `--engine` keeps every column.
    #[test]
    fn the_column_filter_keeps_the_named_engines_and_their_variants() {
        let names: Vec<String> = columns().into_iter().map(|(n, _, _)| n).collect();
        let kept = |engines: &[&str], no_reference: bool| -> Vec<String> {
            let engines: Vec<String> = engines.iter().map(|e| e.to_string()).collect();
            let filter = ColumnFilter {
                engines: &engines,
                no_reference,
            };
            names.iter().filter(|n| filter.keeps(n)).cloned().collect()
        };
        assert_eq!(kept(&[], false), names);
        let core = kept(&["physics_core"], false);
        assert_eq!(core[0], "Box2D v3");
        assert!(core.contains(&"physics_core, block solver".to_string()));
        assert!(core.contains(&"physics_core, deeper point first".to_string()));
        assert!(core.contains(&LISTED_AT_30_HZ.to_string()));
        assert!(core[1..].iter().all(|n| n.starts_with("physics_core")));
        assert!(
            !core
                .iter()
                .any(|n| n == "bevy_physics2d" || n == "rapier2d")
        );
        assert_eq!(kept(&["physics_core"], true).len(), core.len() - 1);
        assert_eq!(kept(&["rapier2d"], true), vec!["rapier2d".to_string()]);
    }
}
