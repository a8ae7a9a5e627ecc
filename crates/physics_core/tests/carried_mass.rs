//! Heavy bodies on light ones: with `WorldDef::carried_mass_fraction` a body carrying a
//! heavier one is solved heavier, so Solver2D's high mass ratio scenes rest on their crates
//! instead of sinking into them, while stacks of equal masses step as before to the bit.
//!
//! The depth a soft contact settles at is its load over the lighter body's stiffness,
//! s = K F / w^2 (`world/step/carried_mass.rs`): at the default 30 Hz a 1 m crate under a
//! 400 kg box settles some 4 cm deep per contact, 0.1 mm under its own weight. The tests hold
//! the heavy box within 2 cm of where rigid crates would hold it, after 10 s.

use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;

fn def(fraction: f32) -> WorldDef {
    WorldDef {
        carried_mass_fraction: fraction,
        enable_sleep: false,
        ..WorldDef::default()
    }
}

fn add_box(world: &mut World, at: Vec2, half: Vec2, density: f32, friction: f32) -> BodyId {
    let body = world.create_body(&BodyDef::dynamic(at)).unwrap();
    let shape = ShapeDef {
        density,
        friction,
        ..ShapeDef::default()
    };
    world
        .create_shape(
            body,
            &shape,
            Polygon::new_box(half.x, half.y).unwrap().into(),
        )
        .unwrap();
    body
}

fn ground_segment(world: &mut World, half_width: f32, friction: f32) -> BodyId {
    let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let shape = ShapeDef {
        friction,
        ..ShapeDef::default()
    };
    let segment = Segment::new(Vec2::new(-half_width, 0.0), Vec2::new(half_width, 0.0)).unwrap();
    world.create_shape(ground, &shape, segment.into()).unwrap();
    ground
}

/// Solver2D's "high mass ratio 2": a 20 m box (400 times a crate's mass) dropped onto two
/// 1 m crates 18 m apart. Returns the world and the big box.
fn big_box_on_two_crates(fraction: f32) -> (World, BodyId) {
    let mut world = World::new(def(fraction)).unwrap();
    let _ = ground_segment(&mut world, 20.0, 0.6);
    for x in [-9.0, 9.0] {
        add_box(&mut world, Vec2::new(x, 0.5), Vec2::splat(0.5), 1.0, 0.6);
    }
    let big = add_box(
        &mut world,
        Vec2::new(0.0, 26.0),
        Vec2::splat(10.0),
        1.0,
        0.6,
    );
    (world, big)
}

/// Solver2D's "high mass ratio 1": three pyramids of ten rows of 2 m boxes, each topped by a
/// box dropped from 2 m above its place, of density 100, 200 and 300 (100 to 300 times a
/// crate). Returns the world and the three heavy boxes.
fn heavy_boxes_on_pyramids(fraction: f32) -> (World, Vec<BodyId>) {
    let mut world = World::new(def(fraction)).unwrap();
    let _ = ground_segment(&mut world, 66.0, 0.5);
    let mut heavy = Vec::new();
    for j in 0..3 {
        let offset = -20.0 + 22.0 * j as f32;
        let mut y = 1.0;
        for count in (1..=10usize).rev() {
            for i in 0..count {
                let x = 2.0 * (i as f32 - 0.5 * count as f32) + offset;
                let top = count == 1;
                let density = if top { 100.0 * (j + 1) as f32 } else { 1.0 };
                let at = Vec2::new(x, if top { y + 2.0 } else { y });
                let body = add_box(&mut world, at, Vec2::ONE, density, 0.5);
                if top {
                    heavy.push(body);
                }
            }
            y += 2.0;
        }
    }
    (world, heavy)
}

fn run(world: &mut World, seconds: f32) {
    for _ in 0..(seconds / DT).round() as usize {
        world.step(DT).unwrap();
    }
}

/// How far below `rest` the body's centre is.
fn sink(world: &World, body: BodyId, rest: f32) -> f32 {
    rest - world.body_position(body).unwrap().y
}

#[test]
fn a_big_box_rests_on_two_crates_instead_of_sinking_into_them() {
    for fraction in [0.0, 0.9] {
        let (mut world, big) = big_box_on_two_crates(fraction);
        run(&mut world, 10.0);
        let sunk = sink(&world, big, 11.0);
        println!("fraction {fraction}: big box sank {sunk:.4} m");
        if fraction == 0.0 {
            // Box2D v3's soft contacts: measured 8.6 cm there and here.
            assert!(sunk > 0.05, "the unscaled step sank only {sunk} m");
        } else {
            assert!(sunk.abs() < 0.02, "sank {sunk} m");
        }
    }
}

#[test]
fn heavy_boxes_rest_on_pyramids_instead_of_sinking_into_them() {
    for fraction in [0.0, 0.9] {
        let (mut world, heavy) = heavy_boxes_on_pyramids(fraction);
        run(&mut world, 10.0);
        for (j, &body) in heavy.iter().enumerate() {
            let sunk = sink(&world, body, 19.0);
            let x = world.body_position(body).unwrap().x;
            println!("fraction {fraction}: heavy box {j} sank {sunk:.4} m, x {x:.3}");
            if fraction == 0.0 {
                // Box2D v3's soft contacts: 8 to 22 cm, the heavier the deeper.
                assert!(sunk > 0.05, "the unscaled step sank only {sunk} m");
            } else {
                assert!(sunk.abs() < 0.02, "heavy box {j} sank {sunk} m");
            }
        }
    }
}

/// Every body's position, rotation and velocities, as bits.
fn state_bits(world: &World, bodies: &[BodyId]) -> Vec<[u32; 6]> {
    bodies
        .iter()
        .map(|&b| {
            let m = world.body_motion(b).unwrap();
            let (p, q, v) = (m.transform.p, m.transform.q, m.linear_velocity);
            [p.x, p.y, q.s, v.x, v.y, m.angular_velocity].map(f32::to_bits)
        })
        .collect()
}

/// A pyramid of equal boxes and, beside it, a pile of boxes and balls whose masses differ by
/// up to three times, with a light crate dropped onto a box 30 times its mass: no body
/// carries one much heavier than itself.
fn scene_without_heavy_loads(fraction: f32) -> (World, Vec<BodyId>) {
    let mut world = World::new(def(fraction)).unwrap();
    let _ = ground_segment(&mut world, 60.0, 0.6);
    let mut bodies = Vec::new();
    for row in 0..12 {
        for i in 0..(12 - row) {
            let x = -30.0 + i as f32 * 1.05 + row as f32 * 0.525;
            let at = Vec2::new(x, 0.5 + row as f32 * 1.0);
            bodies.push(add_box(&mut world, at, Vec2::splat(0.5), 1.0, 0.6));
        }
    }
    for k in 0..40 {
        let at = Vec2::new(5.0 + (k % 8) as f32 * 1.1, 0.6 + (k / 8) as f32 * 1.3);
        let density = 1.0 + (k % 3) as f32;
        if k % 2 == 0 {
            bodies.push(add_box(&mut world, at, Vec2::splat(0.5), density, 0.6));
        } else {
            let ball = world.create_body(&BodyDef::dynamic(at)).unwrap();
            let shape = ShapeDef {
                density,
                ..ShapeDef::default()
            };
            let circle = Circle::new(Vec2::ZERO, 0.5).unwrap();
            world.create_shape(ball, &shape, circle.into()).unwrap();
            bodies.push(ball);
        }
    }
    let heavy = add_box(&mut world, Vec2::new(30.0, 1.0), Vec2::splat(1.0), 7.5, 0.6);
    let light = add_box(&mut world, Vec2::new(30.0, 4.0), Vec2::splat(0.5), 1.0, 0.6);
    bodies.extend([heavy, light]);
    (world, bodies)
}

#[test]
fn stacks_without_heavy_loads_step_as_box2d_does_to_the_bit() {
    let (mut scaled, bodies) = scene_without_heavy_loads(0.9);
    let (mut unscaled, _) = scene_without_heavy_loads(0.0);
    for step in 0..300 {
        scaled.step(DT).unwrap();
        unscaled.step(DT).unwrap();
        assert_eq!(
            state_bits(&scaled, &bodies),
            state_bits(&unscaled, &bodies),
            "parted at step {step}"
        );
    }
    // The scene did something: the crate landed on the heavy box and rests there.
    let light = *bodies.last().unwrap();
    let y = scaled.body_position(light).unwrap().y;
    assert!((y - 2.5).abs() < 0.01, "the light crate is at {y}");
}

#[test]
fn the_ground_carries_the_weight_of_what_rests_on_it_not_the_solver_mass() {
    let (mut world, big) = big_box_on_two_crates(0.9);
    run(&mut world, 10.0);
    let h = world.last_substep_seconds();
    let gravity = -world.def().gravity.y;
    let mass_on_ground = 400.0 + 2.0;
    // Every contact of the big box is with a crate; every crate touches the ground once.
    let crates: Vec<BodyId> = world
        .body_contact_data(big)
        .iter()
        .map(|c| {
            let other = if world.shape_body(c.shape_a).unwrap() == big {
                c.shape_b
            } else {
                c.shape_a
            };
            world.shape_body(other).unwrap()
        })
        .collect();
    assert_eq!(crates.len(), 2, "the big box rests on both crates");
    let mut on_ground = 0.0;
    for &c in &crates {
        for contact in world.body_contact_data(c) {
            let bodies = [contact.shape_a, contact.shape_b].map(|s| world.shape_body(s).unwrap());
            if !bodies.contains(&big) {
                on_ground += contact
                    .manifold
                    .points()
                    .iter()
                    .map(|p| p.normal_impulse)
                    .sum::<f32>();
            }
        }
    }
    let force = on_ground / h;
    let weight = mass_on_ground * gravity;
    // At rest the support equals the weight; the solver's crates, 360 kg each, would add
    // 3,560 N (88 %) if their own weight were scaled with their mass.
    assert!(
        (force - weight).abs() < 0.01 * weight,
        "the ground carries {force} N of {weight} N"
    );
}

#[test]
fn a_carried_mass_fraction_of_one_or_more_or_nan_is_refused() {
    for fraction in [1.0, 2.0, -0.1, f32::NAN] {
        assert!(
            matches!(
                World::new(def(fraction)),
                Err(WorldError::InvalidSetting(_))
            ),
            "{fraction} was accepted"
        );
    }
}
