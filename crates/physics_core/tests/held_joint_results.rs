//! Joint results held in the solver between steps (`world/joint_results.rs`): whatever makes
//! the world write them back into the joint records (a rebuilt joint order, a destroyed or
//! re-enabled joint), the simulation goes on as if they had been written every step.

mod support;

use physics_core::position::relative;
use physics_core::position::to_vec2;
use physics_core::prelude::*;
use support::motion_bits;

const DT: f32 = 1.0 / 60.0;

/// A chain of eight hinged planks hanging from a fixed anchor, released level so it swings
/// hard: every joint carries a large, changing impulse. Each hinge has a little friction (a
/// motor held at zero speed by at most 0.2 N m), whose impulse is warm started: the pins'
/// own rows are solved exactly for so small an island, from zero each step. Returns the
/// world, the planks and the hinges (hinge k holds plank k to the one before it).
fn swinging_chain() -> (World, Vec<BodyId>, Vec<JointId>) {
    let mut w = World::new(WorldDef::default()).unwrap();
    let anchor = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, 20.0)))
        .unwrap();
    let (mut planks, mut hinges) = (Vec::new(), Vec::new());
    let mut previous = anchor;
    for link in 0..8 {
        let p = Vec2::new(0.5 + link as f32, 20.0);
        let plank = w.create_body(&BodyDef::dynamic(p)).unwrap();
        let shape = Polygon::new_box(0.5, 0.125).unwrap().into();
        w.create_shape(plank, &ShapeDef::default(), shape).unwrap();
        let pin = p - Vec2::X * 0.5;
        let (la, lb) = w.local_anchors(previous, plank, pin).unwrap();
        let def = JointDef::new(
            previous,
            plank,
            la,
            lb,
            JointKind::Revolute(RevoluteJoint {
                enable_motor: true,
                max_motor_torque: 0.2,
                ..RevoluteJoint::default()
            }),
        );
        hinges.push(w.create_joint(&def).unwrap());
        planks.push(plank);
        previous = plank;
    }
    (w, planks, hinges)
}

fn step(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(DT).unwrap();
    }
}

/// Steps both worlds 30 more steps and asserts the planks move alike in them, bit for bit.
fn assert_same_future(a: &mut World, b: &mut World, planks: &[BodyId], why: &str) {
    step(a, 30);
    step(b, 30);
    assert!(motion_bits(a, planks) == motion_bits(b, planks), "{why}");
}

/// The hinge's anchor points on its two bodies, in the world.
fn anchor_gap(w: &World, hinge: JointId) -> f32 {
    let def = *w.joint_def(hinge).unwrap();
    let a = w.body_transform(def.body_a).unwrap();
    let b = w.body_transform(def.body_b).unwrap();
    relative(a.apply(def.local_anchor_a), b.apply(def.local_anchor_b)).length()
}

#[test]
fn a_rebuilt_joint_order_warm_starts_from_the_last_step() {
    // The same chain twice; the first world also has a floating ball, far away, that is put
    // to sleep after 30 steps. The solver's bodies change, so the joint order is built again
    // from the joint records, which must hold the last step's impulses by then. The ball is
    // created after the chain, so the chain's solver indices, colours and results are the
    // same in both worlds, bit for bit.
    let (mut with_ball, planks, _) = swinging_chain();
    let (mut plain, _, _) = swinging_chain();
    let ball = with_ball
        .create_body(&BodyDef::dynamic(Vec2::new(100.0, 0.0)))
        .unwrap();
    with_ball
        .create_shape(
            ball,
            &ShapeDef::default(),
            Circle::new(Vec2::ZERO, 0.5).unwrap().into(),
        )
        .unwrap();
    with_ball.set_gravity_scale(ball, 0.0).unwrap();
    step(&mut with_ball, 30);
    step(&mut plain, 30);
    assert!(with_ball.counters().joint_order_reused, "the order held");
    with_ball.set_awake(ball, false).unwrap();
    with_ball.step(DT).unwrap();
    plain.step(DT).unwrap();
    assert!(
        !with_ball.counters().joint_order_reused,
        "putting the ball to sleep rebuilt the joint order"
    );
    assert!(plain.counters().joint_order_reused);
    assert_same_future(
        &mut with_ball,
        &mut plain,
        &planks,
        "the rebuilt order started from other impulses",
    );
}

#[test]
fn a_joint_in_a_freed_slot_starts_without_the_old_joints_results() {
    let (mut w, planks, hinges) = swinging_chain();
    step(&mut w, 20);
    let top = hinges[0];
    let (force, _) = w.joint_reaction(top).unwrap();
    // The top hinge holds the whole swinging chain (2 kg): more than a newton for sure.
    assert!(force.length() > 1.0, "the hinge carries a load: {force}");
    let def = *w.joint_def(top).unwrap();
    w.destroy_joint(top).unwrap();
    let again = w.create_joint(&def).unwrap();
    assert_eq!(again.index, top.index, "the new joint reuses the slot");
    assert_eq!(
        w.joint_reaction(again).unwrap(),
        (Vec2::ZERO, 0.0),
        "a joint that has not been solved yet reports no reaction"
    );
    // And it holds the plank on from the next step on: the soft hinge lets its anchors part
    // by a few millimetres while the chain swings, not by the centimetres of a free fall.
    step(&mut w, 30);
    assert!(anchor_gap(&w, again) < 0.02, "{}", anchor_gap(&w, again));
    assert!(to_vec2(w.body_position(planks[0]).unwrap()).is_finite());
}

#[test]
fn a_joint_disabled_and_enabled_between_steps_starts_like_a_new_joint() {
    // Re-enabling clears a joint's impulses: it goes on exactly as the same joint destroyed
    // and created again (which lands in the same slot, so in the same order).
    let (mut toggled, planks, hinges) = swinging_chain();
    let (mut recreated, _, _) = swinging_chain();
    step(&mut toggled, 20);
    step(&mut recreated, 20);
    let last = *hinges.last().unwrap();
    toggled.set_joint_enabled(last, false).unwrap();
    toggled.set_joint_enabled(last, true).unwrap();
    let def = *recreated.joint_def(last).unwrap();
    recreated.destroy_joint(last).unwrap();
    recreated.create_joint(&def).unwrap();
    assert_same_future(
        &mut toggled,
        &mut recreated,
        &planks,
        "the re-enabled joint warm started from its old impulses",
    );
}

#[test]
fn reactions_read_between_steps_hold_up_a_chain_at_rest() {
    // A chain hanging still: the top hinge carries the whole chain, m g = 8 planks of
    // 0.25 kg (density 1, 1 m by 0.25 m) at 10 m/s^2 = 20 N, straight up. The results are
    // read while the solver still holds them, and again after a snapshot writes them out.
    // Awake throughout, so the solver holds the results (a sleeping chain's are written out).
    let mut w = World::new(WorldDef {
        enable_sleep: false,
        ..WorldDef::default()
    })
    .unwrap();
    let anchor = w.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let mut previous = anchor;
    let mut hinges = Vec::new();
    for link in 0..8 {
        let p = Vec2::new(0.0, -0.5 - link as f32);
        let plank = w.create_body(&BodyDef::dynamic(p)).unwrap();
        let shape = Polygon::new_box(0.125, 0.5).unwrap().into();
        w.create_shape(plank, &ShapeDef::default(), shape).unwrap();
        let (la, lb) = w.local_anchors(previous, plank, p + Vec2::Y * 0.5).unwrap();
        let def = JointDef::new(
            previous,
            plank,
            la,
            lb,
            JointKind::Revolute(RevoluteJoint::default()),
        );
        hinges.push(w.create_joint(&def).unwrap());
        previous = plank;
    }
    step(&mut w, 60);
    let gravity = -w.def().gravity.y;
    for (k, &hinge) in hinges.iter().enumerate() {
        let (force, torque) = w.joint_reaction(hinge).unwrap();
        let carried = (8 - k) as f32 * 0.25 * gravity;
        // A still chain: only the solver's convergence (well under a percent) is left.
        assert!(
            (force - Vec2::Y * carried).length() < 0.01 * carried,
            "hinge {k}: {force} for {carried} N"
        );
        assert!(torque.abs() < 1e-3, "hinge {k} turns: {torque}");
    }
    let held: Vec<_> = hinges
        .iter()
        .map(|&h| w.joint_reaction(h).unwrap())
        .collect();
    let mut restored = World::new(WorldDef::default()).unwrap();
    restored.restore(&w.snapshot()).unwrap();
    let read_back: Vec<_> = hinges
        .iter()
        .map(|&h| restored.joint_reaction(h).unwrap())
        .collect();
    assert_eq!(held, read_back, "the snapshot stores the held reactions");
}

#[test]
fn a_zero_length_step_keeps_the_joint_results() {
    // A step of zero length solves nothing and drops the joint constraints; the results they
    // held must reach the records first, so the chain goes on as if it never happened.
    let (mut paused, planks, _) = swinging_chain();
    let (mut plain, _, _) = swinging_chain();
    step(&mut paused, 20);
    step(&mut plain, 20);
    paused.step(0.0).unwrap();
    assert_same_future(
        &mut paused,
        &mut plain,
        &planks,
        "the pause lost the warm start",
    );
}
