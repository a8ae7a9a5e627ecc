//! Joint features the broader joint tests leave out: the upper side of a revolute limit, the
//! wheel joint's motor and travel limits, the prismatic motor's force cap, the reaction a pin
//! reports, and the angle joint's offset.

use physics_core::position::to_vec2;
use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;
const G: f32 = 10.0;

fn world(gravity: Vec2) -> World {
    World::new(WorldDef {
        gravity,
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap()
}

fn fixed(w: &mut World, p: Vec2) -> BodyId {
    w.create_body(&BodyDef::fixed(p)).unwrap()
}

fn boxed(w: &mut World, p: Vec2, hx: f32, hy: f32) -> BodyId {
    let b = w.create_body(&BodyDef::dynamic(p)).unwrap();
    let shape = Polygon::new_box(hx, hy).unwrap().into();
    w.create_shape(b, &ShapeDef::default(), shape).unwrap();
    b
}

fn disk(w: &mut World, p: Vec2, radius: f32) -> BodyId {
    let b = w.create_body(&BodyDef::dynamic(p)).unwrap();
    let shape = Circle::new(Vec2::ZERO, radius).unwrap().into();
    w.create_shape(b, &ShapeDef::default(), shape).unwrap();
    b
}

fn joint(w: &mut World, a: BodyId, b: BodyId, at: Vec2, kind: JointKind) -> JointId {
    let (la, lb) = w.local_anchors(a, b, at).unwrap();
    w.create_joint(&JointDef::new(a, b, la, lb, kind)).unwrap()
}

/// A bar hinged at its right end falls turning counter-clockwise, onto the upper limit: it
/// reaches the limit (so the limit is what stops it) and goes no more than 0.01 rad past it
/// (the soft limit row gives a little under the bar's swing).
#[test]
fn a_revolute_upper_limit_stops_a_bar_turning_the_positive_way() {
    let mut w = world(Vec2::new(0.0, -G));
    let ground = fixed(&mut w, Vec2::ZERO);
    let bar = boxed(&mut w, Vec2::new(-1.0, 0.0), 1.0, 0.1);
    let limited = RevoluteJoint {
        enable_limit: true,
        lower_angle: -0.5,
        upper_angle: 0.5,
        ..Default::default()
    };
    joint(
        &mut w,
        ground,
        bar,
        Vec2::ZERO,
        JointKind::Revolute(limited),
    );
    let mut highest = f32::NEG_INFINITY;
    for _ in 0..300 {
        w.step(DT).unwrap();
        highest = highest.max(w.body_rotation(bar).unwrap().angle());
    }
    assert!(
        highest > 0.49,
        "the bar never reached its limit: {highest} rad"
    );
    assert!(
        highest < 0.5 + 0.01,
        "the bar passed its limit: {highest} rad"
    );
    let resting = w.body_rotation(bar).unwrap().angle();
    assert!((resting - 0.5).abs() < 0.01, "rests at {resting} rad");
}

/// A wheel on a fixed axle (the chassis is static) with its motor: it spins up to the motor
/// speed, and a torque-limited motor accelerates it no faster than torque / inertia.
#[test]
fn a_wheel_motor_reaches_its_speed_within_its_torque() {
    let mut w = world(Vec2::ZERO);
    let chassis = fixed(&mut w, Vec2::ZERO);
    let wheel = disk(&mut w, Vec2::ZERO, 0.5);
    let drive = WheelJoint {
        enable_motor: true,
        motor_speed: -6.0,
        max_motor_torque: 100.0,
        ..Default::default()
    };
    let j = joint(&mut w, chassis, wheel, Vec2::ZERO, JointKind::Wheel(drive));
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let spin = w.angular_velocity(wheel).unwrap();
    assert!((spin + 6.0).abs() < 0.02 * 6.0, "spins at {spin} rad/s");
    let weak = WheelJoint {
        max_motor_torque: 0.05,
        motor_speed: 1000.0,
        ..drive
    };
    w.set_joint_kind(j, JointKind::Wheel(weak)).unwrap();
    let inertia = w.body_mass_data(wheel).unwrap().rotational_inertia;
    let before = w.angular_velocity(wheel).unwrap();
    w.step(DT).unwrap();
    let gained = w.angular_velocity(wheel).unwrap() - before;
    let most = 0.05 / inertia * DT;
    assert!(
        gained > 0.0 && gained <= most * 1.001 + 1e-6,
        "gained {gained} rad/s in a step, the torque allows {most}"
    );
}

/// A chassis dropped on a wheel standing on the ground, on a spring far too soft to hold it:
/// the suspension's lower travel limit stops the chassis 0.2 m down, within a centimetre.
#[test]
fn a_wheel_joint_travel_limit_stops_a_soft_suspension() {
    let mut w = world(Vec2::new(0.0, -G));
    let ground = fixed(&mut w, Vec2::new(0.0, -1.0));
    let floor = Polygon::new_box(20.0, 1.0).unwrap().into();
    w.create_shape(ground, &ShapeDef::default(), floor).unwrap();
    let chassis = boxed(&mut w, Vec2::new(0.0, 1.5), 1.0, 0.25);
    w.set_fixed_rotation(chassis, true).unwrap();
    let wheel = disk(&mut w, Vec2::new(0.0, 0.5), 0.5);
    let suspension = WheelJoint {
        hertz: 0.2,
        damping_ratio: 0.7,
        enable_limit: true,
        lower_translation: -0.2,
        upper_translation: 0.2,
        ..Default::default()
    };
    // The axis is the chassis's up: the chassis sinking onto the wheel moves the wheel's
    // anchor up along it, towards the upper limit.
    joint(
        &mut w,
        chassis,
        wheel,
        Vec2::new(0.0, 0.5),
        JointKind::Wheel(suspension),
    );
    let mut lowest = f32::INFINITY;
    for _ in 0..240 {
        w.step(DT).unwrap();
        lowest = lowest.min(to_vec2(w.body_position(chassis).unwrap()).y);
    }
    let sunk = 1.5 - lowest;
    assert!(
        sunk > 0.19 && sunk < 0.2 + 0.01,
        "the chassis sank {sunk} m on a 0.2 m travel"
    );
}

/// A block on a horizontal rail in zero gravity, its motor asking for far more speed than its
/// force allows: it accelerates at the force over its mass, never faster.
#[test]
fn a_prismatic_motor_pushes_with_no_more_than_its_force() {
    let mut w = world(Vec2::ZERO);
    let ground = fixed(&mut w, Vec2::ZERO);
    let block = boxed(&mut w, Vec2::ZERO, 0.5, 0.5);
    let mass = w.body_mass_data(block).unwrap().mass;
    let rail = PrismaticJoint {
        local_axis_a: Vec2::X,
        enable_motor: true,
        motor_speed: 100.0,
        max_motor_force: 2.0,
        ..Default::default()
    };
    joint(
        &mut w,
        ground,
        block,
        Vec2::ZERO,
        JointKind::Prismatic(rail),
    );
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    // One second at a = F / m from rest.
    let speed = w.linear_velocity(block).unwrap().x;
    let expected = 2.0 / mass;
    assert!(
        (speed - expected).abs() < 0.01 * expected,
        "{speed} m/s after 1 s, F t / m = {expected}"
    );
}

/// A ball hanging at rest from a pin: the pin reports the ball's weight, upwards on the ball
/// (B), and no torque.
#[test]
fn a_pin_reports_the_weight_it_holds() {
    let mut w = world(Vec2::new(0.0, -G));
    let pivot = fixed(&mut w, Vec2::ZERO);
    let ball = disk(&mut w, Vec2::new(0.0, -1.0), 0.25);
    let mass = w.body_mass_data(ball).unwrap().mass;
    let pin = JointKind::Revolute(RevoluteJoint::default());
    let j = joint(&mut w, pivot, ball, Vec2::ZERO, pin);
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    let (force, torque) = w.joint_reaction(j).unwrap();
    let weight = mass * G;
    assert!(
        (force - Vec2::new(0.0, weight)).length() < 0.01 * weight,
        "reaction {force} N holding {weight} N"
    );
    assert!(torque.abs() < 1e-3 * weight, "reaction torque {torque}");
}

/// An angle joint with an explicit offset holds theta_B - ratio theta_A at the offset, not at
/// the angles the bodies had when it was made.
#[test]
fn an_angle_joint_holds_its_offset() {
    let mut w = world(Vec2::ZERO);
    let (a, b) = (
        disk(&mut w, Vec2::new(-2.0, 0.0), 0.5),
        disk(&mut w, Vec2::new(2.0, 0.0), 0.5),
    );
    for (body, x) in [(a, -2.0), (b, 2.0)] {
        let axle = fixed(&mut w, Vec2::new(x, 0.0));
        let hinge = JointKind::Revolute(RevoluteJoint::default());
        joint(&mut w, axle, body, Vec2::new(x, 0.0), hinge);
    }
    let gear = AngleJoint {
        ratio: -2.0,
        offset: Some(0.3),
    };
    w.create_joint(&JointDef::new(
        a,
        b,
        Vec2::ZERO,
        Vec2::ZERO,
        JointKind::Angle(gear),
    ))
    .unwrap();
    w.set_angular_velocity(a, 1.0).unwrap();
    // A second: the angles stay inside (-pi, pi] (B turns twice as fast as A).
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let (ta, tb) = (
        w.body_rotation(a).unwrap().angle(),
        w.body_rotation(b).unwrap().angle(),
    );
    let held = tb - -2.0 * ta;
    assert!(
        (held - 0.3).abs() < 0.01,
        "theta_B - ratio theta_A = {held}"
    );
    assert!(
        w.angular_velocity(a).unwrap().abs() > 0.1,
        "the gear stopped turning"
    );
}

/// Weld, prismatic and distance joints report the load they carry, as the pin does: a body
/// held at rest feels the joint's force equal to its weight, upwards, and a weld holding a
/// ball 1 m out to the side carries the ball's weight times that metre as torque.
#[test]
fn weld_prismatic_and_distance_joints_report_the_load_they_hold() {
    let mut w = world(Vec2::new(0.0, -G));
    let anchor = fixed(&mut w, Vec2::ZERO);
    // A ball welded 1 m to the right of the weld point (which is on the anchor).
    let welded = disk(&mut w, Vec2::new(1.0, 0.0), 0.25);
    let (la, lb) = w.local_anchors(anchor, welded, Vec2::ZERO).unwrap();
    let weld = w
        .create_joint(&JointDef::new(
            anchor,
            welded,
            la,
            lb,
            JointKind::Weld(WeldJoint::default()),
        ))
        .unwrap();
    // A block on a horizontal rail: the row across the rail holds its weight.
    let rail_anchor = fixed(&mut w, Vec2::new(5.0, 0.0));
    let block = boxed(&mut w, Vec2::new(5.0, 0.0), 0.5, 0.5);
    let rail = PrismaticJoint {
        local_axis_a: Vec2::X,
        ..Default::default()
    };
    let slide = joint(
        &mut w,
        rail_anchor,
        block,
        Vec2::new(5.0, 0.0),
        JointKind::Prismatic(rail),
    );
    // A ball on a 1 m rod below a pivot.
    let pivot = fixed(&mut w, Vec2::new(10.0, 0.0));
    let hanging = disk(&mut w, Vec2::new(10.0, -1.0), 0.25);
    let rod = w
        .create_joint(&JointDef::new(
            pivot,
            hanging,
            Vec2::ZERO,
            Vec2::ZERO,
            JointKind::Distance(DistanceJoint::rigid(1.0)),
        ))
        .unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    for (name, j, body, torque) in [
        ("weld", weld, welded, Some(1.0)),
        ("prismatic", slide, block, Some(0.0)),
        ("distance", rod, hanging, None),
    ] {
        let weight = w.body_mass_data(body).unwrap().mass * G;
        let (force, moment) = w.joint_reaction(j).unwrap();
        assert!(
            (force - Vec2::new(0.0, weight)).length() < 0.01 * weight,
            "{name}: reaction {force} N holding {weight} N"
        );
        if let Some(lever) = torque {
            let expected = lever * weight;
            assert!(
                (moment.abs() - expected).abs() < 0.01 * weight,
                "{name}: reaction torque {moment} N m, expected {expected} in size"
            );
        }
    }
}
