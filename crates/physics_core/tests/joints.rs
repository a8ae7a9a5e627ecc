//! Joint behaviour against mechanics: periods, limits, motors, springs, ropes, breaking.

mod joint_rig;

use joint_rig::{anchor_body, pin, pin_gap};
use physics_core::position::to_position;
use physics_core::position::to_vec2;
use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;
const G: f32 = 10.0;

fn world() -> World {
    World::new(WorldDef::default()).unwrap()
}

fn ball(w: &mut World, p: Vec2, radius: f32, density: f32) -> BodyId {
    let b = w.create_body(&BodyDef::dynamic(p)).unwrap();
    let def = ShapeDef {
        density,
        ..Default::default()
    };
    w.create_shape(b, &def, Circle::new(Vec2::ZERO, radius).unwrap().into())
        .unwrap();
    b
}

fn boxed(w: &mut World, p: Vec2, hx: f32, hy: f32) -> BodyId {
    let b = w.create_body(&BodyDef::dynamic(p)).unwrap();
    w.create_shape(
        b,
        &ShapeDef::default(),
        Polygon::new_box(hx, hy).unwrap().into(),
    )
    .unwrap();
    b
}

/// Times of upward zero crossings of `signal`, linearly interpolated between steps.
fn upward_crossings(samples: &[f32]) -> Vec<f32> {
    samples
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] < 0.0 && w[1] >= 0.0)
        .map(|(i, w)| (i as f32 + w[0] / (w[0] - w[1])) * DT)
        .collect()
}

#[test]
fn pendulum_period_matches_two_pi_root_l_over_g() {
    let mut w = world();
    let (length, radius) = (2.0f32, 0.05f32);
    let pivot = anchor_body(&mut w, Vec2::ZERO);
    let amplitude = 0.05f32;
    let bob_at = Vec2::new(length * amplitude.sin(), -length * amplitude.cos());
    let bob = ball(&mut w, bob_at, radius, 100.0);
    pin(&mut w, pivot, bob, Vec2::ZERO, RevoluteJoint::default());
    let mut xs = Vec::new();
    for _ in 0..900 {
        w.step(DT).unwrap();
        xs.push(to_vec2(w.body_position(bob).unwrap()).x);
    }
    let crossings = upward_crossings(&xs);
    assert!(crossings.len() >= 5);
    let measured = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f32;
    // Physical pendulum: the disk's own inertia adds r^2/2 to L^2.
    let predicted = 2.0
        * std::f32::consts::PI
        * ((length * length + 0.5 * radius * radius) / (G * length)).sqrt();
    assert!(
        (measured - predicted).abs() < 0.01 * predicted,
        "period {measured} s, predicted {predicted} s"
    );
}

#[test]
fn swinging_chain_keeps_its_pins_together() {
    // Awake all the way: the swing that loads the pins is the first second.
    let mut w = World::new(WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    let links = 10;
    let half = 0.25f32;
    let ground = anchor_body(&mut w, Vec2::new(0.0, 10.0));
    let mut prev = ground;
    let mut joints = Vec::new();
    for i in 0..links {
        // Released horizontally: the chain swings down and whips.
        let link = boxed(
            &mut w,
            Vec2::new(half + 2.0 * half * i as f32, 10.0),
            half,
            0.05,
        );
        joints.push(pin(
            &mut w,
            prev,
            link,
            Vec2::new(2.0 * half * i as f32, 10.0),
            RevoluteJoint::default(),
        ));
        prev = link;
    }
    let mut worst = 0.0f32;
    for _ in 0..600 {
        w.step(DT).unwrap();
        for j in &joints {
            worst = worst.max(pin_gap(&w, *j));
        }
    }
    // Every step of the 10 s, from the release: joint trees are solved exactly, so pins stay
    // within the README's 0.01 mm; a tenth of a millimetre leaves f32 room along the chain.
    // (A soft solve, as Box2D's, opens them by millimetres in the whip.)
    assert!(worst < 1e-4, "a pin opened by {worst} m");
}

#[test]
fn revolute_limits_hold_and_motor_reaches_speed_within_its_torque() {
    let mut w = world();
    let ground = anchor_body(&mut w, Vec2::ZERO);
    // A bar hinged at its end, falling under gravity onto limits at +-0.5 rad.
    let bar = boxed(&mut w, Vec2::new(1.0, 0.0), 1.0, 0.1);
    let limited = RevoluteJoint {
        enable_limit: true,
        lower_angle: -0.5,
        upper_angle: 0.5,
        ..Default::default()
    };
    pin(&mut w, ground, bar, Vec2::ZERO, limited);
    let mut lowest = f32::INFINITY;
    for _ in 0..300 {
        w.step(DT).unwrap();
        lowest = lowest.min(w.body_rotation(bar).unwrap().angle());
    }
    assert!(lowest > -0.5 - 0.01, "bar passed its limit: {lowest} rad");

    // A wheel driven by a motor: reaches its speed when torque allows...
    let wheel = ball(&mut w, Vec2::new(10.0, 0.0), 0.5, 1.0);
    let hub = anchor_body(&mut w, Vec2::new(10.0, 0.0));
    let motor = RevoluteJoint {
        enable_motor: true,
        motor_speed: 4.0,
        max_motor_torque: 50.0,
        ..Default::default()
    };
    let j = pin(&mut w, hub, wheel, Vec2::new(10.0, 0.0), motor);
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let speed = w.angular_velocity(wheel).unwrap();
    assert!((speed - 4.0).abs() < 0.02 * 4.0, "motor speed {speed}");
    // ...and never exceeds its torque: a weak motor accelerates at torque / inertia.
    let weak = RevoluteJoint {
        max_motor_torque: 0.1,
        motor_speed: 1000.0,
        ..motor
    };
    w.set_joint_kind(j, JointKind::Revolute(weak)).unwrap();
    let before = w.angular_velocity(wheel).unwrap();
    w.step(DT).unwrap();
    let inertia = w.body_mass_data(wheel).unwrap().rotational_inertia;
    let gained = w.angular_velocity(wheel).unwrap() - before;
    assert!(
        gained <= 0.1 / inertia * DT * 1.001 + 1e-5,
        "gained {gained} rad/s in a step"
    );
    let (_, torque) = w.joint_reaction(j).unwrap();
    assert!(torque.abs() <= 0.1 * 1.001, "reported torque {torque}");
}

#[test]
fn prismatic_stays_on_its_axis_and_within_its_limits() {
    let mut w = world();
    let ground = anchor_body(&mut w, Vec2::ZERO);
    let slider = boxed(&mut w, Vec2::ZERO, 0.5, 0.25);
    // A 45 degree rail: the block slides down it under gravity and stops at -2 m.
    let axis = Vec2::new(1.0, 1.0).normalize();
    let rail = PrismaticJoint {
        local_axis_a: axis,
        enable_limit: true,
        lower_translation: -2.0,
        upper_translation: 1.0,
        ..Default::default()
    };
    w.create_joint(&JointDef::new(
        ground,
        slider,
        Vec2::ZERO,
        Vec2::ZERO,
        JointKind::Prismatic(rail),
    ))
    .unwrap();
    let (mut worst_off_axis, mut lowest, mut worst_angle) = (0.0f32, f32::INFINITY, 0.0f32);
    for _ in 0..300 {
        w.step(DT).unwrap();
        let p = to_vec2(w.body_position(slider).unwrap());
        worst_off_axis = worst_off_axis.max(p.dot(Vec2::new(-axis.y, axis.x)).abs());
        lowest = lowest.min(p.dot(axis));
        worst_angle = worst_angle.max(w.body_rotation(slider).unwrap().angle().abs());
    }
    assert!(
        worst_off_axis < 0.001,
        "left the axis by {worst_off_axis} m"
    );
    assert!(lowest > -2.0 - 0.01, "passed the lower limit: {lowest}");
    assert!(worst_angle < 0.01, "rotated by {worst_angle} rad");
}

#[test]
fn distance_spring_oscillates_at_its_frequency_and_rope_stays_short() {
    let mut w = World::new(WorldDef {
        gravity: Vec2::ZERO,
        ..Default::default()
    })
    .unwrap();
    let ground = anchor_body(&mut w, Vec2::ZERO);
    // A lightly damped spring, stretched 0.2 m and released.
    let hertz = 1.5f32;
    let mass_body = ball(&mut w, Vec2::new(2.2, 0.0), 0.1, 50.0);
    let spring = DistanceJoint::spring(2.0, hertz, 0.02);
    w.create_joint(&JointDef::new(
        ground,
        mass_body,
        Vec2::ZERO,
        Vec2::ZERO,
        JointKind::Distance(spring),
    ))
    .unwrap();
    let mut xs = Vec::new();
    for _ in 0..600 {
        w.step(DT).unwrap();
        xs.push(to_vec2(w.body_position(mass_body).unwrap()).x - 2.0);
    }
    let crossings = upward_crossings(&xs);
    let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f32;
    assert!(
        (1.0 / period - hertz).abs() < 0.05 * hertz,
        "spring at {} Hz, set to {hertz} Hz",
        1.0 / period
    );

    // A rope under gravity never stretches past its length by more than 1 cm.
    let mut w = world();
    let top = anchor_body(&mut w, Vec2::new(0.0, 10.0));
    let weight = ball(&mut w, Vec2::new(0.5, 10.0), 0.2, 20.0);
    w.create_joint(&JointDef::new(
        top,
        weight,
        Vec2::ZERO,
        Vec2::ZERO,
        JointKind::Distance(DistanceJoint::rope(3.0)),
    ))
    .unwrap();
    let mut longest = 0.0f32;
    for _ in 0..600 {
        w.step(DT).unwrap();
        longest =
            longest.max(to_vec2(w.body_position(weight).unwrap()).distance(Vec2::new(0.0, 10.0)));
    }
    assert!(longest < 3.0 + 0.01, "rope stretched to {longest} m");
}

#[test]
fn a_joint_breaks_above_its_threshold_and_not_below() {
    // A 10 kg weight hangs from a pin: the pin carries 100 N.
    let hang = |threshold: f32| {
        let mut w = world();
        let top = anchor_body(&mut w, Vec2::new(0.0, 5.0));
        let weight = boxed(&mut w, Vec2::new(0.0, 4.5), 0.5, 0.5);
        w.set_mass_data(
            weight,
            Some(MassData {
                mass: 10.0,
                center: Vec2::ZERO,
                rotational_inertia: 1.0,
            }),
        )
        .unwrap();
        let (la, lb) = w.local_anchors(top, weight, Vec2::new(0.0, 5.0)).unwrap();
        let def = JointDef::new(
            top,
            weight,
            la,
            lb,
            JointKind::Revolute(RevoluteJoint::default()),
        )
        .with_break_thresholds(threshold, f32::INFINITY);
        let j = w.create_joint(&def).unwrap();
        let mut broke = false;
        for _ in 0..120 {
            w.step(DT).unwrap();
            broke |= w.joint_break_events().iter().any(|e| e.joint == j);
        }
        (
            broke,
            w.joint_enabled(j).unwrap(),
            to_vec2(w.body_position(weight).unwrap()).y,
        )
    };
    let (broke, enabled, y) = hang(120.0);
    assert!(
        !broke && enabled && y > 4.0,
        "held 100 N under a 120 N threshold"
    );
    let (broke, enabled, y) = hang(80.0);
    assert!(
        broke && !enabled && y < 0.0,
        "a 100 N load must break an 80 N joint"
    );
}

#[test]
fn welded_beam_keeps_its_shape_under_gravity() {
    let mut w = world();
    let wall = anchor_body(&mut w, Vec2::ZERO);
    let mut prev = wall;
    let mut boxes = Vec::new();
    let mut welds = Vec::new();
    for i in 0..5 {
        let b = boxed(&mut w, Vec2::new(0.5 + i as f32, 0.0), 0.5, 0.125);
        let at = Vec2::new(i as f32, 0.0);
        let (la, lb) = w.local_anchors(prev, b, at).unwrap();
        welds.push(
            w.create_joint(&JointDef::new(
                prev,
                b,
                la,
                lb,
                JointKind::Weld(WeldJoint::default()),
            ))
            .unwrap(),
        );
        boxes.push(b);
        prev = b;
    }
    for _ in 0..300 {
        w.step(DT).unwrap();
    }
    for j in &welds {
        let def = *w.joint_def(*j).unwrap();
        let (xa, xb) = (
            w.body_transform(def.body_a).unwrap(),
            w.body_transform(def.body_b).unwrap(),
        );
        let gap = xa
            .apply(def.local_anchor_a)
            .distance(xb.apply(def.local_anchor_b));
        let bend = xa.q.relative_angle(xb.q).abs();
        assert!(gap < 0.001, "weld opened by {gap} m");
        assert!(bend < 0.01, "weld bent by {bend} rad");
    }
}

#[test]
fn joint_validation_and_connected_bodies_do_not_collide() {
    let mut w = world();
    let a = boxed(&mut w, Vec2::ZERO, 0.5, 0.5);
    let b = boxed(&mut w, Vec2::new(0.5, 0.0), 0.5, 0.5);
    let rev = JointKind::Revolute(RevoluteJoint::default());
    assert!(matches!(
        w.create_joint(&JointDef::new(a, a, Vec2::ZERO, Vec2::ZERO, rev)),
        Err(WorldError::InvalidJoint(_))
    ));
    assert!(matches!(
        w.create_joint(&JointDef::new(a, b, Vec2::NAN, Vec2::ZERO, rev)),
        Err(WorldError::InvalidJoint(_))
    ));
    let bad_limits = RevoluteJoint {
        enable_limit: true,
        lower_angle: 1.0,
        upper_angle: -1.0,
        ..Default::default()
    };
    assert!(
        w.create_joint(&JointDef::new(
            a,
            b,
            Vec2::ZERO,
            Vec2::ZERO,
            JointKind::Revolute(bad_limits)
        ))
        .is_err()
    );
    assert_eq!(w.joint_count(), 0);
    // Overlapping boxes joined by a pin do not push each other apart.
    let (la, lb) = w.local_anchors(a, b, Vec2::new(0.25, 0.0)).unwrap();
    let j = w.create_joint(&JointDef::new(a, b, la, lb, rev)).unwrap();
    w.set_gravity_scale(a, 0.0).unwrap();
    w.set_gravity_scale(b, 0.0).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    assert_eq!(w.touching_contact_count(), 0);
    assert!(w.linear_velocity(b).unwrap().length() < 1e-3);
    // Destroying a body destroys its joints; the stale id is an error.
    w.destroy_body(a).unwrap();
    assert_eq!(w.joint_count(), 0);
    assert_eq!(w.joint_def(j).err(), Some(WorldError::StaleJoint(j)));
}

#[test]
fn pulley_keeps_its_rope_length_constant() {
    // Block and tackle at 2:1: B's rope counts twice, so 0.5 kg on A balances 1 kg on B. Pushed
    // apart, the pair coasts for the whole 10 s without either box reaching its pulley wheel.
    let mut w = world();
    let (ga, gb) = (Vec2::new(-2.0, 10.0), Vec2::new(2.0, 10.0));
    let a = boxed(&mut w, Vec2::new(-2.0, 5.0), 0.5, 0.5);
    let b = boxed(&mut w, Vec2::new(2.0, 6.0), 0.5, 0.5);
    let light = MassData {
        mass: 0.5,
        center: Vec2::ZERO,
        rotational_inertia: 0.1,
    };
    w.set_mass_data(a, Some(light)).unwrap();
    w.set_linear_velocity(a, Vec2::new(0.0, -0.2)).unwrap();
    w.set_linear_velocity(b, Vec2::new(0.0, 0.1)).unwrap();
    let ratio = 2.0;
    let pulley = PulleyJoint::new(ga, gb, Vec2::new(-2.0, 5.5), Vec2::new(2.0, 6.5), ratio);
    let (ta, tb) = (Vec2::new(0.0, 0.5), Vec2::new(0.0, 0.5));
    w.create_joint(&JointDef::new(a, b, ta, tb, JointKind::Pulley(pulley)))
        .unwrap();
    let rope = |w: &World| {
        let pa = to_vec2(w.body_transform(a).unwrap().apply(ta));
        let pb = to_vec2(w.body_transform(b).unwrap().apply(tb));
        pa.distance(ga) + ratio * pb.distance(gb)
    };
    let start = rope(&w);
    let y0 = to_vec2(w.body_position(b).unwrap()).y;
    let mut worst = 0.0f32;
    for _ in 0..600 {
        w.step(DT).unwrap();
        worst = worst.max((rope(&w) - start).abs());
    }
    assert!(worst < 0.01, "rope length drifted by {worst} m");
    // Balanced, the pair keeps its momentum: B rises at 0.1 m/s for 10 s.
    let risen = to_vec2(w.body_position(b).unwrap()).y - y0;
    assert!(
        (risen - 1.0).abs() < 0.05,
        "B rose {risen} m, balanced coasting gives 1 m"
    );
}

#[test]
fn gear_holds_its_ratio_and_motor_joint_reaches_its_target() {
    let mut w = World::new(WorldDef {
        gravity: Vec2::ZERO,
        ..Default::default()
    })
    .unwrap();
    let frame = anchor_body(&mut w, Vec2::ZERO);
    let big = ball(&mut w, Vec2::new(0.0, 0.0), 1.0, 1.0);
    let small = ball(&mut w, Vec2::new(3.0, 0.0), 0.5, 1.0);
    pin(
        &mut w,
        frame,
        big,
        Vec2::ZERO,
        RevoluteJoint {
            enable_motor: true,
            motor_speed: 2.0,
            max_motor_torque: 100.0,
            ..Default::default()
        },
    );
    pin(
        &mut w,
        frame,
        small,
        Vec2::new(3.0, 0.0),
        RevoluteJoint::default(),
    );
    // Meshing gears: the small one turns twice as fast the other way.
    let gear = AngleJoint {
        ratio: -2.0,
        offset: None,
    };
    w.create_joint(&JointDef::new(
        big,
        small,
        Vec2::ZERO,
        Vec2::ZERO,
        JointKind::Angle(gear),
    ))
    .unwrap();
    let mut turned_big = 0.0f32;
    let mut turned_small = 0.0f32;
    for _ in 0..300 {
        w.step(DT).unwrap();
        turned_big += w.angular_velocity(big).unwrap() * DT;
        turned_small += w.angular_velocity(small).unwrap() * DT;
    }
    assert!(
        turned_big > 6.0,
        "several radians, past any wrap: {turned_big}"
    );
    assert!(
        (turned_small + 2.0 * turned_big).abs() < 0.02 * turned_big,
        "big {turned_big} small {turned_small}"
    );

    // A motor joint pulls a free box to (2, 5) from the frame, turned by 1 rad.
    // Its path at y = 5 stays clear of the gears at y = 0.
    let target = boxed(&mut w, Vec2::new(-3.0, 5.0), 0.5, 0.5);
    let drive = MotorJoint {
        linear_offset: Vec2::new(2.0, 5.0),
        angular_offset: 1.0,
        max_force: 50.0,
        max_torque: 50.0,
        hertz: 5.0,
        damping_ratio: 1.0,
    };
    w.create_joint(&JointDef::new(
        frame,
        target,
        Vec2::ZERO,
        Vec2::ZERO,
        JointKind::Motor(drive),
    ))
    .unwrap();
    for _ in 0..300 {
        w.step(DT).unwrap();
    }
    let reached = to_vec2(w.body_position(target).unwrap());
    assert!(
        reached.distance(Vec2::new(2.0, 5.0)) < 0.01,
        "motor joint reached {reached}"
    );
    assert!((w.body_rotation(target).unwrap().angle() - 1.0).abs() < 0.01);
}

#[test]
fn wheel_suspension_settles_at_its_static_deflection() {
    // A 1 kg chassis on a 1 kg wheel resting on the ground, joined by a 4 Hz spring. A soft
    // spring's stiffness is w^2 times the row's effective mass m_eff = (1/mc + 1/mw)^-1, so
    // at rest it carries the chassis weight mc g at a compression of mc g / (w^2 m_eff).
    let mut w = world();
    let ground = anchor_body(&mut w, Vec2::new(0.0, -1.0));
    let floor = Polygon::new_box(20.0, 1.0).unwrap();
    w.create_shape(ground, &ShapeDef::default(), floor.into())
        .unwrap();
    let chassis = boxed(&mut w, Vec2::new(0.0, 1.5), 1.0, 0.25);
    let unit = MassData {
        mass: 1.0,
        center: Vec2::ZERO,
        rotational_inertia: 1.0,
    };
    w.set_mass_data(chassis, Some(unit)).unwrap();
    w.set_fixed_rotation(chassis, true).unwrap();
    let wheel = ball(
        &mut w,
        Vec2::new(0.0, 0.5),
        0.5,
        1.0 / (std::f32::consts::PI * 0.25),
    );
    let suspension = WheelJoint {
        hertz: 4.0,
        damping_ratio: 1.0,
        ..Default::default()
    };
    let (la, lb) = w
        .local_anchors(chassis, wheel, Vec2::new(0.0, 0.5))
        .unwrap();
    w.create_joint(&JointDef::new(
        chassis,
        wheel,
        la,
        lb,
        JointKind::Wheel(suspension),
    ))
    .unwrap();
    for _ in 0..300 {
        w.step(DT).unwrap();
    }
    let (mc, mw) = (1.0f32, w.body_mass_data(wheel).unwrap().mass);
    let m_eff = 1.0 / (1.0 / mc + 1.0 / mw);
    let omega = 2.0 * std::f32::consts::PI * 4.0;
    let predicted = mc * G / (omega * omega * m_eff);
    let deflection = 1.5 - to_vec2(w.body_position(chassis).unwrap()).y;
    assert!(
        (deflection - predicted).abs() < 0.05 * predicted,
        "deflection {deflection}, predicted {predicted}"
    );
    assert!(
        to_vec2(w.body_position(wheel).unwrap()).x.abs() < 1e-3,
        "the wheel stayed under the chassis"
    );
}

#[test]
fn mouse_joint_drags_within_its_force() {
    let mut w = world();
    let ground = anchor_body(&mut w, Vec2::new(0.0, -1.0));
    w.create_shape(
        ground,
        &ShapeDef::default(),
        Polygon::new_box(20.0, 1.0).unwrap().into(),
    )
    .unwrap();
    let b = boxed(&mut w, Vec2::new(0.0, 0.5), 0.5, 0.5);
    let mouse = |target: Vec2, max_force: f32| {
        JointKind::Mouse(MouseJoint {
            target: to_position(target),
            hertz: 5.0,
            damping_ratio: 0.7,
            max_force,
        })
    };
    // 1 kg needs 10 N to lift: 5 N cannot.
    let j = w
        .create_joint(&JointDef::new(
            ground,
            b,
            Vec2::ZERO,
            Vec2::ZERO,
            mouse(Vec2::new(0.0, 3.0), 5.0),
        ))
        .unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    assert!(
        to_vec2(w.body_position(b).unwrap()).y < 0.52,
        "lifted with 5 N"
    );
    // 100 N can: the box hangs at the target, below it by the weight over the stiffness.
    w.set_joint_kind(j, mouse(Vec2::new(2.0, 3.0), 100.0))
        .unwrap();
    for _ in 0..300 {
        w.step(DT).unwrap();
    }
    let omega = 2.0 * std::f32::consts::PI * 5.0;
    let sag = G / (omega * omega);
    let p = to_vec2(w.body_position(b).unwrap());
    assert!(p.distance(Vec2::new(2.0, 3.0 - sag)) < 0.01, "held at {p}");
}

#[test]
fn springs_and_motors_of_revolute_and_prismatic_joints() {
    let mut w = World::new(WorldDef {
        gravity: Vec2::ZERO,
        ..Default::default()
    })
    .unwrap();
    let frame = anchor_body(&mut w, Vec2::ZERO);
    // Rotational spring: a spun wheel returns to its reference angle.
    let wheel = ball(&mut w, Vec2::ZERO, 0.5, 1.0);
    let spring = RevoluteJoint {
        enable_spring: true,
        hertz: 2.0,
        damping_ratio: 1.0,
        ..Default::default()
    };
    pin(&mut w, frame, wheel, Vec2::ZERO, spring);
    w.set_angular_velocity(wheel, 5.0).unwrap();
    for _ in 0..180 {
        w.step(DT).unwrap();
    }
    assert!(w.body_rotation(wheel).unwrap().angle().abs() < 0.01);
    // Prismatic motor: slides at its speed; then its spring pulls it back to zero.
    let slider = boxed(&mut w, Vec2::new(5.0, 0.0), 0.5, 0.5);
    let motorised = PrismaticJoint {
        enable_motor: true,
        motor_speed: 1.5,
        max_motor_force: 100.0,
        ..Default::default()
    };
    let j = w
        .create_joint(&JointDef::new(
            frame,
            slider,
            Vec2::new(5.0, 0.0),
            Vec2::ZERO,
            JointKind::Prismatic(motorised),
        ))
        .unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    assert!((w.linear_velocity(slider).unwrap().x - 1.5).abs() < 0.03);
    let sprung = PrismaticJoint {
        enable_spring: true,
        hertz: 2.0,
        damping_ratio: 1.0,
        ..Default::default()
    };
    w.set_joint_kind(j, JointKind::Prismatic(sprung)).unwrap();
    for _ in 0..240 {
        w.step(DT).unwrap();
    }
    assert!((to_vec2(w.body_position(slider).unwrap()).x - 5.0).abs() < 0.01);
}

#[test]
fn soft_weld_bends_more_than_a_rigid_one() {
    let droop = |weld: WeldJoint| {
        let mut w = world();
        let wall = anchor_body(&mut w, Vec2::ZERO);
        let beam = boxed(&mut w, Vec2::new(1.0, 0.0), 1.0, 0.1);
        let (la, lb) = w.local_anchors(wall, beam, Vec2::ZERO).unwrap();
        w.create_joint(&JointDef::new(wall, beam, la, lb, JointKind::Weld(weld)))
            .unwrap();
        for _ in 0..300 {
            w.step(DT).unwrap();
        }
        -w.body_rotation(beam).unwrap().angle()
    };
    let rigid = droop(WeldJoint::default());
    let soft = droop(WeldJoint {
        angular_hertz: 1.0,
        angular_damping_ratio: 1.0,
        ..Default::default()
    });
    assert!(rigid.abs() < 0.01, "rigid weld drooped {rigid} rad");
    assert!(soft > 0.05, "soft weld drooped only {soft} rad");
}

#[test]
fn collide_connected_enable_disable_stale_ids_and_breaking_torque() {
    let mut w = world();
    let ground = anchor_body(&mut w, Vec2::new(0.0, 5.0));
    let a = boxed(&mut w, Vec2::ZERO, 0.5, 0.5);
    let b = boxed(&mut w, Vec2::new(0.6, 0.0), 0.5, 0.5);
    w.set_gravity_scale(a, 0.0).unwrap();
    w.set_gravity_scale(b, 0.0).unwrap();
    // With collide_connected, overlapping joined boxes still push each other.
    let (la, lb) = w.local_anchors(a, b, Vec2::new(0.3, 0.0)).unwrap();
    let mut def = JointDef::new(a, b, la, lb, JointKind::Distance(DistanceJoint::rope(3.0)));
    def.collide_connected = true;
    w.create_joint(&def).unwrap();
    w.step(DT).unwrap();
    assert!(
        w.touching_contact_count() > 0,
        "connected bodies should collide"
    );

    // Stale body ids are refused.
    let gone = boxed(&mut w, Vec2::new(9.0, 9.0), 0.5, 0.5);
    w.destroy_body(gone).unwrap();
    let stale = JointDef::new(
        ground,
        gone,
        Vec2::ZERO,
        Vec2::ZERO,
        JointKind::Revolute(RevoluteJoint::default()),
    );
    assert_eq!(w.create_joint(&stale), Err(WorldError::StaleBody(gone)));

    // A disabled pendulum falls; re-enabled it holds again.
    let bob = ball(&mut w, Vec2::new(0.0, 3.0), 0.2, 1.0);
    let j = pin(
        &mut w,
        ground,
        bob,
        Vec2::new(0.0, 5.0),
        RevoluteJoint::default(),
    );
    w.set_joint_enabled(j, false).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    assert!(to_vec2(w.body_position(bob).unwrap()).y < 2.0);
    assert!(!w.joint_enabled(j).unwrap());

    // A weld holding a 1 kg, 2 m beam carries about m g L/2 = 10 N m: it breaks at 5 N m.
    let wall = anchor_body(&mut w, Vec2::new(20.0, 0.0));
    let beam = boxed(&mut w, Vec2::new(21.0, 0.0), 1.0, 0.25);
    w.set_mass_data(
        beam,
        Some(MassData {
            mass: 1.0,
            center: Vec2::ZERO,
            rotational_inertia: 0.35,
        }),
    )
    .unwrap();
    let (la, lb) = w.local_anchors(wall, beam, Vec2::new(20.0, 0.0)).unwrap();
    let weld = JointDef::new(wall, beam, la, lb, JointKind::Weld(WeldJoint::default()))
        .with_break_thresholds(f32::INFINITY, 5.0);
    let wj = w.create_joint(&weld).unwrap();
    let mut broke = false;
    for _ in 0..30 {
        w.step(DT).unwrap();
        broke |= w
            .joint_break_events()
            .iter()
            .any(|e| e.joint == wj && e.torque.abs() > 5.0);
    }
    assert!(broke && !w.joint_enabled(wj).unwrap());
}
