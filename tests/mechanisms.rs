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
    let (chassis, rear) = (built.bodies[1], built.bodies[2]);
    let (motor_speed, wheel_radius) = (12.0f32, 0.4f32);
    let mut x_at_2s = 0.0;
    let mut spin = 0.0f32;
    for i in 0..600 {
        built.world.step(s.dt).unwrap();
        if i == 119 {
            x_at_2s = built.world.body_position(chassis).unwrap().x;
        }
        if i >= 120 {
            spin += -built.world.angular_velocity(rear).unwrap() / 480.0;
        }
    }
    let p = built.world.body_position(chassis).unwrap();
    let up = built.world.body_rotation(chassis).unwrap().rotate(Vec2::Y);
    // The motor holds the wheel near its 12 rad/s (the 20 N m cap gives a little on climbs),
    // and rolling without slipping, 0.4 m wheels cover w r = 4.8 m/s along the ground: from
    // 2 s to 10 s at most 38.4 m. The bumps' slopes and climbs take some of it off the
    // horizontal; a slipping or undriven car covers far less.
    assert!(
        (spin - motor_speed).abs() < 0.05 * motor_speed,
        "wheel at {spin} rad/s"
    );
    let rolled = motor_speed * wheel_radius * 8.0;
    let covered = p.x - x_at_2s;
    assert!(
        covered > 0.9 * rolled && covered < 1.05 * rolled,
        "covered {covered} m where rolling gives {rolled} m"
    );
    assert!(up.y > 0.7, "car tipped over: up is {up}");
}
