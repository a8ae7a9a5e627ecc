//! Differential mode: one scene built in Box2D v3 and in physics_core with the same settings
//! and stepped side by side, to find where (and in what) the two engines part. physics_core
//! solves each manifold one point at a time in listed order, as Box2D does, unless
//! `--together` asks for its default of a manifold's two points together.
//!
//! Every step it takes the largest difference between the engines in any body's position,
//! angle, velocity and angular velocity, with the body it belongs to; it prints those at the
//! steps asked for, and names the first step and quantity where the engines part by more than
//! the tolerance (float noise between two builds of the same maths stays orders of magnitude
//! below the default 1e-4). With `--contacts` it then prints both engines' manifolds of that
//! body at that step and the step before (normal, anchors, separation, impulses, feature ids),
//! which tells a collision difference from a solver difference.
//!
//! ```sh
//! cargo run --release -p bench_compare -- --diff tower_15 --steps 1800 --every 120
//! cargo run --release -p bench_compare -- --diff two_boxes --contacts --recycle 0
//! ```
//!
//! `--mirror` compares physics_core with Box2D's mirror image in x = 0 (x, angle, x velocity
//! and spin change sign): a symmetric scene may lean one way in one engine and the other way
//! in the other when they list a manifold's two points in opposite orders.

use crate::engines::{BodySample, ContactSample, ENGINES, Settings, Simulation, box2d};
use physics2d_demos::Scene;

/// What the differential run is asked for.
pub struct DiffOptions {
    pub steps: usize,
    /// Print a row every this many steps (and at the first parting).
    pub every: usize,
    pub tolerance: f32,
    pub settings: Settings,
    pub mirror: bool,
    pub contacts: bool,
}

/// The compared quantities, in report order.
const QUANTITIES: [&str; 4] = [
    "position (m)",
    "angle (rad)",
    "velocity (m/s)",
    "angular velocity (rad/s)",
];

/// The largest difference of each quantity over the bodies, with the body's index.
type Worst = [(f32, usize); 4];

/// Box2D's sample seen in a mirror at x = 0.
fn mirrored(s: BodySample) -> BodySample {
    BodySample {
        position: bevy_math::Vec2::new(-s.position.x, s.position.y),
        angle: -s.angle,
        linear_velocity: bevy_math::Vec2::new(-s.linear_velocity.x, s.linear_velocity.y),
        angular_velocity: -s.angular_velocity,
    }
}

/// Difference of two angles, wrapped into [0, pi].
fn angle_difference(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(std::f32::consts::TAU);
    d.min(std::f32::consts::TAU - d)
}

/// The largest difference of each quantity between `reference` and `ours` (a NaN counts as
/// infinitely different).
fn worst_differences(reference: &[BodySample], ours: &[BodySample]) -> Worst {
    let mut worst = [(0.0f32, 0usize); 4];
    for (i, (r, o)) in reference.iter().zip(ours).enumerate() {
        let d = [
            r.position.distance(o.position),
            angle_difference(r.angle, o.angle),
            r.linear_velocity.distance(o.linear_velocity),
            (r.angular_velocity - o.angular_velocity).abs(),
        ];
        for (w, d) in worst.iter_mut().zip(d) {
            let d = if d.is_nan() { f32::INFINITY } else { d };
            if d > w.0 {
                *w = (d, i);
            }
        }
    }
    worst
}

fn row(step: usize, worst: &Worst) -> String {
    let cells: Vec<String> = worst
        .iter()
        .map(|(d, body)| format!("{d:9.2e} #{body:<4}"))
        .collect();
    format!("{step:6} | {}", cells.join(" | "))
}

/// The value of quantity `q` of a sample, for the parting message.
fn value(s: &BodySample, q: usize) -> String {
    match q {
        0 => format!("({:.6}, {:.6})", s.position.x, s.position.y),
        1 => format!("{:.6}", s.angle),
        2 => format!("({:.6}, {:.6})", s.linear_velocity.x, s.linear_velocity.y),
        _ => format!("{:.6}", s.angular_velocity),
    }
}

fn print_contacts(engine: &str, contacts: &[ContactSample], body: usize) {
    let mine: Vec<_> = contacts
        .iter()
        .filter(|c| c.body_a == body || c.body_b == body)
        .collect();
    if mine.is_empty() {
        println!("    {engine}: no touching contact");
    }
    for c in mine {
        println!(
            "    {engine}: bodies {} - {}, normal ({:.6}, {:.6})",
            c.body_a, c.body_b, c.normal.x, c.normal.y
        );
        for p in &c.points {
            println!(
                "      anchor A ({:9.6}, {:9.6}) B ({:9.6}, {:9.6}) separation {:10.3e} \
                 normal impulse {:10.4e} tangent impulse {:10.3e} id {:#06x}",
                p.anchor_a.x,
                p.anchor_a.y,
                p.anchor_b.x,
                p.anchor_b.y,
                p.separation,
                p.normal_impulse,
                p.tangent_impulse,
                p.id
            );
        }
    }
}

/// Builds `scene` in Box2D v3 and physics_core, steps both and prints where they part.
/// Returns the first parting (step, quantity index, body), if any.
pub fn run(scene: &Scene, options: &DiffOptions) -> Result<Option<(usize, usize, usize)>, String> {
    // Box2D's point order and contact softness unless asked otherwise: what is compared is
    // the step Box2D takes. Its contacts default to 30 Hz and push overlaps apart at up to
    // 3 m/s; any hertz, given or not, is capped here as Box2D caps it (an eighth of the
    // substep rate), since physics_core's own cap is higher.
    let box2d_hertz = options
        .settings
        .contact_hertz
        .unwrap_or(box2d::CONTACT_HERTZ)
        .min(box2d::CONTACT_HERTZ_PER_SUBSTEP_RATE * options.settings.substeps as f32 / scene.dt);
    let settings = Settings {
        points_together: Some(options.settings.points_together.unwrap_or(false)),
        contact_hertz: Some(box2d_hertz),
        max_push_speed: Some(options.settings.max_push_speed.unwrap_or(box2d::PUSH_SPEED)),
        ..options.settings
    };
    let build = |name: &str| -> Result<Box<dyn Simulation>, String> {
        let (_, build) = ENGINES
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or(format!("no engine {name}"))?;
        build(scene, &settings)
    };
    let (reference_name, ours_name) = ("Box2D v3", "physics_core");
    let mut reference = build(reference_name)?;
    let mut ours = build(ours_name)?;
    let s = &settings;
    let shown = |x: Option<f32>| x.map_or("default".to_string(), |x| x.to_string());
    println!(
        "differential {}: {reference_name} and {ours_name}, {} steps of {} s, {} substeps, \
         contact hertz {}, recycle distance {}{}; tolerance {:e}",
        scene.name,
        options.steps,
        scene.dt,
        s.substeps,
        shown(s.contact_hertz),
        shown(s.recycle_distance),
        if options.mirror {
            ", Box2D mirrored in x = 0"
        } else {
            ""
        },
        options.tolerance
    );
    println!(
        "  step | {}",
        QUANTITIES
            .iter()
            .map(|q| format!("{q:>15}"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let sample = |sim: &mut Box<dyn Simulation>, mirror: bool| {
        let samples = sim.samples();
        if mirror {
            samples.into_iter().map(mirrored).collect()
        } else {
            samples
        }
    };
    let mut largest: Worst = [(0.0, 0); 4];
    let mut largest_step = [0usize; 4];
    let mut parted = None;
    let mut last_contacts = (Vec::new(), Vec::new());
    for step in 1..=options.steps {
        reference.step()?;
        ours.step()?;
        let r = sample(&mut reference, options.mirror);
        let o = sample(&mut ours, false);
        let worst = worst_differences(&r, &o);
        for (q, (l, w)) in largest.iter_mut().zip(&worst).enumerate() {
            if w.0 > l.0 {
                *l = *w;
                largest_step[q] = step;
            }
        }
        let newly_parted = parted.is_none()
            && worst
                .iter()
                .any(|(d, _)| *d > options.tolerance || d.is_nan());
        if step % options.every == 0 || step == 1 || newly_parted {
            println!("{}", row(step, &worst));
        }
        let contacts = if options.contacts {
            (
                reference.contacts().unwrap_or_default(),
                ours.contacts().unwrap_or_default(),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        if newly_parted {
            let q = worst
                .iter()
                .enumerate()
                .max_by(|a, b| {
                    (a.1.0 / options.tolerance.max(f32::MIN_POSITIVE))
                        .total_cmp(&(b.1.0 / options.tolerance.max(f32::MIN_POSITIVE)))
                })
                .map_or(0, |(q, _)| q);
            let body = worst[q].1;
            println!(
                "first parted at step {step}: {} of body {body} differs by {:.3e} \
                 ({reference_name} {}, {ours_name} {})",
                QUANTITIES[q],
                worst[q].0,
                value(&r[body], q),
                value(&o[body], q)
            );
            if options.contacts {
                println!("  contacts of body {body} after step {}:", step - 1);
                print_contacts(reference_name, &last_contacts.0, body);
                print_contacts(ours_name, &last_contacts.1, body);
                println!("  contacts of body {body} after step {step}:");
                print_contacts(reference_name, &contacts.0, body);
                print_contacts(ours_name, &contacts.1, body);
            }
            parted = Some((step, q, body));
        }
        last_contacts = contacts;
    }
    println!("largest over the run:");
    for (q, ((d, body), step)) in largest.iter().zip(largest_step).enumerate() {
        println!(
            "  {:>24}: {d:.3e} (body {body}, step {step})",
            QUANTITIES[q]
        );
    }
    if parted.is_none() {
        println!(
            "the engines never parted by more than {:e}",
            options.tolerance
        );
    }
    Ok(parted)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two engines that agree give zero differences; one body turned by a tenth of a radian
    /// (across the +-pi seam too) is found with its index.
    #[test]
    fn worst_differences_find_the_body_and_wrap_angles() {
        let a = vec![BodySample::default(); 3];
        assert!(worst_differences(&a, &a).iter().all(|(d, _)| *d == 0.0));
        let mut b = a.clone();
        b[2].angle = 0.1;
        let w = worst_differences(&a, &b);
        assert_eq!(w[1].1, 2);
        assert!((w[1].0 - 0.1).abs() < 1e-6);
        let (mut c, mut d) = (a.clone(), a.clone());
        c[1].angle = std::f32::consts::PI - 0.05;
        d[1].angle = -std::f32::consts::PI + 0.05;
        let w = worst_differences(&c, &d);
        assert!((w[1].0 - 0.1).abs() < 1e-5, "{}", w[1].0);
        let mut e = a.clone();
        e[0].position.x = f32::NAN;
        assert_eq!(worst_differences(&a, &e)[0].0, f32::INFINITY);
    }
}
