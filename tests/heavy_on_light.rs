//! Heavy bodies on light ones, with the default settings: Solver2D's high mass ratio scenes
//! rest on their light boxes (`WorldDef::carried_mass_fraction`), where Box2D v3's soft
//! contacts, rapier's and this engine's without carried mass sink 8.6 to 22 cm
//! (`bench_compare --fidelity`).
//!
//! Why they sink without it: a soft contact settles at s = K F / w^2, K the light body's
//! inverse mass, F the heavy body's load (`physics_core/src/world/step/carried_mass.rs`).

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::scenes::{BIG_BOX_REST_HEIGHT, high_mass_ratio_1_heavy_boxes};
use physics2d_demos::{BuiltScene, scene};

/// The scene built with the default settings but `fraction` and no sleeping (these tests
/// watch bodies at rest, which sleep would freeze), stepped for its 10 s.
fn settled(name: &str, fraction: f32) -> BuiltScene {
    settled_with(
        name,
        WorldDef {
            carried_mass_fraction: fraction,
            ..WorldDef::default()
        },
    )
}

/// [`settled`] with the settings `def`, sleeping turned off.
fn settled_with(name: &str, def: WorldDef) -> BuiltScene {
    let s = scene(name).unwrap();
    let fraction = def.carried_mass_fraction;
    let def = WorldDef {
        enable_sleep: false,
        ..def
    };
    let mut built = s.build(def).unwrap();
    for _ in 0..s.steps {
        built.world.step(s.dt).unwrap();
    }
    // Carried mass at work while the heavy bodies rest, and only then.
    let carrying = built.world.counters().bodies_carrying;
    assert_eq!(
        carrying > 0,
        fraction > 0.0,
        "{name}: {carrying} bodies carrying"
    );
    built
}

/// (body index, rigid rest height) of the heavy boxes of a high mass ratio scene.
fn heavy_boxes(name: &str) -> Vec<(usize, f32)> {
    if name == "high_mass_ratio_1" {
        high_mass_ratio_1_heavy_boxes().to_vec()
    } else {
        vec![(3, BIG_BOX_REST_HEIGHT)]
    }
}

const SCENES: [&str; 3] = [
    "high_mass_ratio_1",
    "high_mass_ratio_2",
    "high_mass_ratio_3",
];

/// How far the light box that moved furthest sideways is from where it started.
fn furthest_sideways(name: &str, built: &BuiltScene) -> f32 {
    let s = scene(name).unwrap();
    s.bodies
        .iter()
        .zip(&built.bodies)
        .skip(1)
        .map(|(desc, id)| (built.world.body_position(*id).unwrap().x - desc.position.x).abs())
        .fold(0.0, f32::max)
}

/// Solver2D's three high mass ratio scenes, default settings: every heavy box within 2 cm of
/// its rigid rest height after 10 s, and at rest.
#[test]
fn regression_heavy_boxes_sank_into_light_ones_at_the_light_bodys_stiffness() {
    let fraction = WorldDef::default().carried_mass_fraction;
    for name in SCENES {
        let built = settled(name, fraction);
        for (index, rest) in heavy_boxes(name) {
            let id = built.bodies[index];
            let sink = rest - built.world.body_position(id).unwrap().y;
            assert!(sink.abs() < 0.02, "{name}: heavy box {index} sank {sink} m");
            let v = built.world.linear_velocity(id).unwrap();
            assert!(v.length() < 0.01, "{name}: box {index} still moves at {v}");
        }
        // The light boxes are squeezed out no further than soft contacts squeeze them: under
        // the big box they stay put (soft contacts push one out a metre), and the flanks of
        // the pyramids slide as they do without carried mass (about 20 cm, under the 300x box).
        let moved = furthest_sideways(name, &built);
        let soft = furthest_sideways(name, &settled(name, 0.0));
        let allowed = if name == "high_mass_ratio_1" {
            soft
        } else {
            0.05
        };
        assert!(
            moved <= allowed,
            "{name}: a box moved {moved} m sideways ({soft} m soft)"
        );
    }
}

/// Regression: solving the deeper point first (`WorldDef::solve_deeper_point_first`) gives
/// that point more than its share of a crate's impulse, which turns a resting crate against
/// its tilt. Under the 400:1 box landing at 17 m/s the same share, taken from the blow, turned
/// the crates past level; the other point became the deeper, the order swung back and forth
/// and the big box slid 22 cm off its line. Points struck faster than the restitution
/// threshold now keep the listed order for the step: the 5 cm the default solve is held to
/// above holds with the option too.
#[test]
fn regression_solving_the_deeper_point_first_rocked_crates_under_a_heavy_blow() {
    for name in ["high_mass_ratio_2", "high_mass_ratio_3"] {
        let def = WorldDef {
            solve_deeper_point_first: true,
            ..WorldDef::default()
        };
        let built = settled_with(name, def);
        let moved = furthest_sideways(name, &built);
        assert!(
            moved <= 0.05,
            "{name}, deeper point first: a box moved {moved} m sideways"
        );
        let (index, rest) = heavy_boxes(name)[0];
        let sink = rest - built.world.body_position(built.bodies[index]).unwrap().y;
        assert!(sink.abs() < 0.02, "{name}: the big box sank {sink} m");
    }
}

/// The guard of the first test: without carried mass the same scenes sink past the 2 cm it
/// allows at the default 45 Hz, and with Box2D v3's contacts (30 Hz, pushed out at 3 m/s) as
/// far as Box2D's do.
#[test]
fn without_carried_mass_the_heavy_boxes_sink_as_in_box2d() {
    let box2d_contacts = WorldDef {
        carried_mass_fraction: 0.0,
        contact_hertz: 30.0,
        max_contact_push_speed: 3.0,
        ..WorldDef::default()
    };
    for name in SCENES {
        let deepest = |built: &BuiltScene| {
            heavy_boxes(name)
                .into_iter()
                .map(|(index, rest)| {
                    rest - built.world.body_position(built.bodies[index]).unwrap().y
                })
                .fold(0.0f32, f32::max)
        };
        let default = deepest(&settled(name, 0.0));
        assert!(default > 0.02, "{name}: sank only {default} m");
        let as_box2d = deepest(&settled_with(name, box2d_contacts));
        // Box2D v3: 8.58 cm (2 and 3) and 21.7 cm (1).
        assert!(
            as_box2d > 0.08,
            "{name}, Box2D's contacts: sank only {as_box2d} m"
        );
    }
}

/// Carried mass changes how a loaded body moves, never what it weighs: at rest the ground
/// under the two crates of "high mass ratio 2" carries the big box and the crates, 402 kg.
#[test]
fn the_ground_carries_the_weight_of_what_rests_on_it_not_the_solver_mass() {
    let built = settled(
        "high_mass_ratio_2",
        WorldDef::default().carried_mass_fraction,
    );
    let world = &built.world;
    let ground = built.bodies[0];
    let support: f32 = world
        .body_contact_data(ground)
        .iter()
        .flat_map(|c| c.manifold.points().iter().map(|p| p.normal_impulse))
        .sum::<f32>()
        / world.last_substep_seconds();
    let mass: f32 = built.bodies[1..]
        .iter()
        .map(|&b| world.body_mass_data(b).unwrap().mass)
        .sum();
    let weight = mass * -world.def().gravity.y;
    // Were the crates' weights scaled with their solver mass (0.8 of 400 kg each), the
    // ground would carry some 640 kg more.
    assert!(
        (support - weight).abs() < 0.01 * weight,
        "the ground carries {support} N of {weight} N"
    );
}

/// Without carried mass, 45 Hz contacts topple Solver2D's high mass ratio 1 pyramids when
/// their top boxes are 50 to 100 times the light boxes' mass (they sink 5 to 8 cm at 30 Hz):
/// the light boxes' contacts are as stiff in hertz under any load, and the sequential solve
/// passes the heavy load down worse than at 30 Hz. Carried mass is what keeps the default
/// safe there, and at every ratio it must hold the top boxes within 2 cm, including the
/// ratios where the solve without it falls (carrying, which starts above four to one) and
/// just under the ratio at which it starts (3.9, where the soft contacts alone hold).
#[test]
fn by_default_every_mass_ratio_of_the_pyramids_rests() {
    let base = scene("high_mass_ratio_1").unwrap();
    let tops: Vec<usize> = high_mass_ratio_1_heavy_boxes()
        .iter()
        .map(|&(i, _)| i)
        .collect();
    for density in [3.9f32, 10.0, 50.0, 70.0, 100.0] {
        let mut s = base.clone();
        for &i in &tops {
            s.bodies[i].shapes[0].density = density;
        }
        let def = WorldDef {
            enable_sleep: false,
            ..WorldDef::default()
        };
        let mut built = s.build(def).unwrap();
        let mut carrying = 0;
        for _ in 0..s.steps {
            built.world.step(s.dt).unwrap();
            carrying = carrying.max(built.world.counters().bodies_carrying);
        }
        assert_eq!(
            carrying > 0,
            density > 4.0,
            "top boxes {density} times as heavy: {carrying} bodies carrying"
        );
        for (i, rest) in high_mass_ratio_1_heavy_boxes() {
            let sink = rest - built.world.body_position(built.bodies[i]).unwrap().y;
            assert!(
                sink.abs() < 0.02,
                "top boxes {density} times as heavy: one sank {sink} m"
            );
        }
    }
}
