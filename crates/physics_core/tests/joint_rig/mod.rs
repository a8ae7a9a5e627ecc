//! Building blocks the joint tests share: fixed anchors, pins at a world point, and how far
//! a joint's anchors have come apart.
#![allow(dead_code)]

use physics_core::position::relative;
use physics_core::prelude::*;

/// A fixed body at `p`, to pin things to.
pub fn anchor_body(w: &mut World, p: Vec2) -> BodyId {
    w.create_body(&BodyDef::fixed(p)).unwrap()
}

/// A revolute joint between `a` and `b` at the world point `at`.
pub fn pin(w: &mut World, a: BodyId, b: BodyId, at: Vec2, joint: RevoluteJoint) -> JointId {
    let (la, lb) = w.local_anchors(a, b, at).unwrap();
    w.create_joint(&JointDef::new(a, b, la, lb, JointKind::Revolute(joint)))
        .unwrap()
}

/// How far apart a joint's two anchors are now.
pub fn pin_gap(w: &World, j: JointId) -> f32 {
    let def = w.joint_def(j).unwrap();
    let at = |body, local| w.body_transform(body).unwrap().apply(local);
    relative(
        at(def.body_a, def.local_anchor_a),
        at(def.body_b, def.local_anchor_b),
    )
    .length()
}
