//! The solver reuses last step's contact list and colours only while nothing they depend on
//! changed. Debug builds (these tests) also recompute the reused set and panic if it differs,
//! so every step of every test checks the reuse is exact; these tests check it happens when
//! it should and stops when it must.

use physics_core::position::position_bits;
use physics_core::position::to_vec2;
use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;

/// A ground and a stack of `height` unit boxes, sleeping off so the stack stays solved.
fn stack(height: usize) -> (World, Vec<BodyId>) {
    let mut world = World::new(WorldDef {
        enable_sleep: false,
        ..WorldDef::default()
    })
    .unwrap();
    let ground = world
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_shape(
            ground,
            &ShapeDef::default(),
            Polygon::new_box(20.0, 1.0).unwrap().into(),
        )
        .unwrap();
    let boxes = (0..height)
        .map(|i| {
            let b = world
                .create_body(&BodyDef::dynamic(Vec2::new(0.0, 0.5 + i as f32)))
                .unwrap();
            world
                .create_shape(
                    b,
                    &ShapeDef::default(),
                    Polygon::new_box(0.5, 0.5).unwrap().into(),
                )
                .unwrap();
            b
        })
        .collect();
    (world, boxes)
}

/// [`stack`] after a second of steps, reusing its solve set.
fn settled_stack(height: usize) -> (World, Vec<BodyId>) {
    let (mut world, boxes) = stack(height);
    for _ in 0..60 {
        step(&mut world);
    }
    assert!(
        step(&mut world),
        "the settled stack should reuse its solve set"
    );
    (world, boxes)
}

fn step(world: &mut World) -> bool {
    world.step(DT).unwrap();
    world.counters().solve_set_reused
}

/// Also the regression test of a bug this found: the narrowphase took the moving body of a
/// contact with static ground for the one that might wake, so it revisited every ground
/// contact in its serial pass each step (and here, rebuilt the set each step).
#[test]
fn a_resting_stack_reuses_its_solve_set() {
    let (mut world, _) = stack(5);
    let reused: Vec<bool> = (0..120).map(|_| step(&mut world)).collect();
    // The first step builds the set; contacts begin touching over the first steps.
    assert!(!reused[0]);
    // At rest, every contact keeps touching: from the second second on, every step reuses.
    assert!(
        reused[60..].iter().all(|&r| r),
        "a resting stack rebuilt its solve set: {reused:?}"
    );
    assert_eq!(world.counters().constraints_solved, 5);
}

#[test]
fn a_new_touch_or_body_rebuilds_the_solve_set() {
    let (mut world, _) = settled_stack(3);
    // A new moving body changes the solver's bodies: rebuilt once, then reused in flight.
    let ball = world
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 6.0)))
        .unwrap();
    let shape = world
        .create_shape(
            ball,
            &ShapeDef::default(),
            Circle::new(Vec2::ZERO, 0.25).unwrap().into(),
        )
        .unwrap();
    assert!(!step(&mut world), "a new body must rebuild the set");
    assert!(step(&mut world), "falling, the ball touches nothing new");
    // The step the ball starts touching the stack rebuilds; the set then has one more.
    let mut landed = false;
    for _ in 0..120 {
        let reused = step(&mut world);
        let began = world
            .begin_contact_events()
            .iter()
            .any(|e| e.shape_a == shape || e.shape_b == shape);
        if began {
            assert!(!reused, "a contact began touching, yet the set was reused");
            landed = true;
            break;
        }
    }
    assert!(landed, "the ball never reached the stack");
    assert_eq!(world.counters().constraints_solved, 4);
}

#[test]
fn a_restitution_change_rebuilds_the_solve_set() {
    let (mut world, boxes) = settled_stack(2);
    let top = world.body_shapes(boxes[1]).unwrap()[0];
    world.set_shape_material(top, 0.6, 0.5).unwrap();
    // Whether any solved contact bounces decides whether the restitution stages run.
    assert!(!step(&mut world));
    assert!(step(&mut world));
}

#[test]
fn destroying_a_body_rebuilds_the_solve_set() {
    let (mut world, boxes) = settled_stack(4);
    world.destroy_body(boxes[3]).unwrap();
    assert!(!step(&mut world));
    assert_eq!(world.counters().constraints_solved, 3);
}

/// A hanging chain of `links` boxes pinned to a fixed anchor, sleeping off.
fn chain(links: usize, break_force: f32) -> (World, Vec<BodyId>, Vec<JointId>) {
    let mut world = World::new(WorldDef {
        enable_sleep: false,
        ..WorldDef::default()
    })
    .unwrap();
    let anchor = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let mut bodies = vec![anchor];
    let mut joints = Vec::new();
    for i in 0..links {
        let b = world
            .create_body(&BodyDef::dynamic(Vec2::new(0.0, -0.5 - i as f32)))
            .unwrap();
        world
            .create_shape(
                b,
                &ShapeDef::default(),
                Polygon::new_box(0.1, 0.5).unwrap().into(),
            )
            .unwrap();
        let above = *bodies.last().unwrap();
        let at = Vec2::new(0.0, -(i as f32));
        let (la, lb) = world.local_anchors(above, b, at).unwrap();
        let def = JointDef::new(above, b, la, lb, JointKind::Revolute(Default::default()))
            .with_break_thresholds(break_force, f32::INFINITY);
        joints.push(world.create_joint(&def).unwrap());
        bodies.push(b);
    }
    (world, bodies, joints)
}

fn step_joints(world: &mut World) -> bool {
    world.step(DT).unwrap();
    world.counters().joint_order_reused
}

#[test]
fn a_hanging_chain_reuses_its_joint_order() {
    let (mut world, _, _) = chain(6, f32::INFINITY);
    assert!(!step_joints(&mut world), "the first step builds the order");
    assert!((0..60).all(|_| step_joints(&mut world)));
}

#[test]
fn disabling_a_joint_rebuilds_the_joint_order_and_drops_what_hangs() {
    let (mut world, bodies, joints) = chain(4, f32::INFINITY);
    for _ in 0..30 {
        step_joints(&mut world);
    }
    world.set_joint_enabled(joints[2], false).unwrap();
    assert!(!step_joints(&mut world));
    assert!(step_joints(&mut world));
    for _ in 0..30 {
        step_joints(&mut world);
    }
    // About half a second of free fall (g t^2 / 2 = 1.2 m) for the two links below the cut;
    // the links above still hang where they were.
    let y = |b: BodyId| to_vec2(world.body_position(b).unwrap()).y;
    assert!(y(bodies[4]) < -3.5 - 1.0, "the cut links still hang");
    assert!((y(bodies[2]) - -1.5).abs() < 0.05, "a held link moved");
}

#[test]
fn a_breaking_joint_rebuilds_the_joint_order() {
    // Each link is 0.2 m x 1 m at density 1: 0.2 kg, 1.96 N. The top joint carries all three
    // links (5.9 N), the next two (3.9 N): 5 N breaks the top one only.
    let (mut world, _, joints) = chain(3, 5.0);
    let mut reused = Vec::new();
    let mut broke_at = None;
    for i in 0..10 {
        reused.push(step_joints(&mut world));
        if broke_at.is_none() && !world.joint_break_events().is_empty() {
            broke_at = Some(i);
        }
    }
    let broke_at = broke_at.expect("the top joint should break");
    assert_eq!(world.joint_break_events().len(), 0);
    assert!(!world.joint_enabled(joints[0]).unwrap());
    assert!(world.joint_enabled(joints[1]).unwrap());
    // The step after the break builds the order again; later steps reuse it.
    assert!(!reused[broke_at + 1]);
    assert!(reused[broke_at + 2..].iter().all(|&r| r));
}

/// A ground and a row of boxes and circles thrown at it at angles, some bouncy, so
/// contacts begin, end and are destroyed over many steps; `scan_every_step` touches the
/// ground's material before each step, which names no contact, so that world scans every
/// contact each step where the other mends its set.
fn scattered_throw(scan_every_step: bool) -> Vec<(BodyMotion, bool)> {
    let mut world = World::new(WorldDef {
        enable_sleep: false,
        ..WorldDef::default()
    })
    .unwrap();
    let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let ground_def = ShapeDef {
        friction: 0.6,
        restitution: 0.0,
        ..ShapeDef::default()
    };
    let ground_shape = world
        .create_shape(
            ground,
            &ground_def,
            Polygon::new_box(30.0, 0.5).unwrap().into(),
        )
        .unwrap();
    let mut bodies = Vec::new();
    for i in 0..24 {
        let x = -12.0 + i as f32;
        let body = world
            .create_body(&BodyDef::dynamic(Vec2::new(x, 2.0 + 0.4 * (i % 5) as f32)))
            .unwrap();
        let def = ShapeDef {
            restitution: if i % 3 == 0 { 0.5 } else { 0.0 },
            ..ShapeDef::default()
        };
        let shape: Shape = if i % 2 == 0 {
            Polygon::new_box(0.45, 0.3).unwrap().into()
        } else {
            Circle::new(Vec2::ZERO, 0.35).unwrap().into()
        };
        world.create_shape(body, &def, shape).unwrap();
        let side = if i % 4 < 2 { 1.0 } else { -1.0 };
        world
            .set_linear_velocity(body, Vec2::new(side * (1.0 + 0.3 * i as f32), 3.0))
            .unwrap();
        world.set_angular_velocity(body, side * 2.0).unwrap();
        bodies.push(body);
    }
    let mut trace = Vec::new();
    for _ in 0..240 {
        if scan_every_step {
            world
                .set_shape_material(ground_shape, ground_def.friction, ground_def.restitution)
                .unwrap();
        }
        world.step(DT).unwrap();
        let mended = world.counters().solve_set_mended;
        for &body in &bodies {
            trace.push((world.body_motion(body).unwrap(), mended));
        }
    }
    trace
}

/// Contacts that begin, end or are destroyed name themselves, and the solver mends last
/// step's set with them instead of scanning every contact: the same contacts, colours and
/// so bits as a scan every step. (Debug builds also check each mended set against a scan.)
#[test]
fn a_mended_solve_set_gives_the_bits_of_a_full_scan() {
    let mended = scattered_throw(false);
    let scanned = scattered_throw(true);
    let steps_mended = mended.chunks(24).filter(|step| step[0].1).count();
    assert!(
        steps_mended > 60,
        "contacts changing should mend the set most steps, mended {steps_mended} of 240"
    );
    assert!(
        scanned.iter().all(|&(_, m)| !m),
        "a material change names no contact: that world must scan"
    );
    for (step, (a, b)) in mended.chunks(24).zip(scanned.chunks(24)).enumerate() {
        for (body, (x, y)) in a.iter().zip(b).enumerate() {
            assert!(
                motion_bits(&x.0) == motion_bits(&y.0),
                "step {step}, body {body}: mended {:?} against scanned {:?}",
                x.0,
                y.0
            );
        }
    }
}

/// A body's pose and velocities as bits.
fn motion_bits(m: &BodyMotion) -> [u64; 7] {
    let (xf, v) = (m.transform, m.linear_velocity);
    let [px, py] = position_bits(xf.p);
    let [qc, qs, vx, vy, w] =
        [xf.q.c, xf.q.s, v.x, v.y, m.angular_velocity].map(|x| x.to_bits().into());
    [px, py, qc, qs, vx, vy, w]
}
