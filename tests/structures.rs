//! Structures that stand by friction alone: the arch of 13 mortarless wedges and the
//! three-level card house, kept awake for 10 s, hold their shape; with their friction cut to
//! a tenth the same structures fall, so it is friction (not a lucky balance) that holds them.

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::{Scene, scene};

/// The largest distance any dynamic body of `s` moves from where it started over 600 steps
/// awake, every shape's friction multiplied by `friction_scale`.
fn largest_drift(s: &Scene, friction_scale: f32) -> f32 {
    let mut s = s.clone();
    for body in &mut s.bodies {
        for shape in &mut body.shapes {
            shape.friction *= friction_scale;
        }
    }
    let def = WorldDef {
        enable_sleep: false,
        ..Default::default()
    };
    let mut built = s.build(def).unwrap();
    let mut largest = 0.0f32;
    for step in 0..600 {
        built.step_scene(&s, step).unwrap();
        for (desc, id) in s.bodies.iter().zip(&built.bodies) {
            if desc.body_type == BodyType::Dynamic {
                let p = built.world.body_position(*id).unwrap();
                largest = largest.max(p.distance(desc.position));
            }
        }
    }
    largest
}

/// Soft contacts rest up to about a linear slop (5 mm) deep, and seven stone joints stack
/// from a footing to the keystone: the arch settles by up to 7 x 5 mm = 3.5 cm (2.7 cm
/// measured), so 5 cm holds it. A tenth of the friction lets the wedges slide out: metres.
#[test]
fn the_arch_stands_by_friction() {
    let arch = scene("arch").unwrap();
    let standing = largest_drift(&arch, 1.0);
    assert!(standing < 0.05, "a stone moved {standing} m");
    let slippery = largest_drift(&arch, 0.1);
    assert!(
        slippery > 1.0,
        "with a tenth of the friction a stone moved only {slippery} m"
    );
}

/// Each card rests on two contacts (foot and apex or deck) and the three levels stack six of
/// them under the top card: it settles by up to about 6 x 5 mm = 3 cm (3.7 cm measured, the
/// lean adjusting too), so 5 cm holds it; with a tenth of the friction the feet slide and
/// the house comes down.
#[test]
fn the_card_house_stands_by_friction() {
    let house = scene("card_house").unwrap();
    let standing = largest_drift(&house, 1.0);
    assert!(standing < 0.05, "a card moved {standing} m");
    let slippery = largest_drift(&house, 0.1);
    assert!(
        slippery > 1.0,
        "with a tenth of the friction a card moved only {slippery} m"
    );
}
