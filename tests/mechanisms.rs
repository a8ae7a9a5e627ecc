//! Joint scenes checked against their geometry: the piston's stroke, the pendulum's swing.

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::scene;
use physics2d_demos::scenes::CRANK_RADIUS;

#[test]
fn piston_stroke_is_twice_the_crank_radius() {
    let s = scene("piston_crank").unwrap();
    let mut built = s.build(WorldDef::default()).unwrap();
    let piston = built.bodies[3];
    let (mut lowest, mut highest) = (f32::INFINITY, f32::NEG_INFINITY);
    // The motor turns at pi rad/s: three full turns in 6 s (the first turn spins up).
    for step in 0..360 {
        built.world.step(s.dt).unwrap();
        if step >= 120 {
            let y = built.world.body_position(piston).unwrap().y;
            lowest = lowest.min(y);
            highest = highest.max(y);
        }
    }
    let stroke = highest - lowest;
    assert!(
        (stroke - 2.0 * CRANK_RADIUS).abs() < 0.01 * 2.0 * CRANK_RADIUS,
        "stroke {stroke}, crank radius {CRANK_RADIUS}"
    );
    // The piston stays on its slide.
    assert!(built.world.body_position(piston).unwrap().x.abs() < 0.001);
}

#[test]
fn car_drives_over_the_bumps() {
    let s = scene("car").unwrap();
    let mut built = s.build(WorldDef::default()).unwrap();
    let chassis = built.bodies[1];
    for _ in 0..600 {
        built.world.step(s.dt).unwrap();
    }
    let p = built.world.body_position(chassis).unwrap();
    let up = built.world.body_rotation(chassis).unwrap().rotate(Vec2::Y);
    // 12 rad/s on 0.4 m wheels is up to 4.8 m/s; over 10 s of bumps it covers well past 10 m
    // and stays upright on its wheels.
    assert!(p.x > 10.0, "car only reached x = {}", p.x);
    assert!(up.y > 0.7, "car tipped over: up is {up}");
}
