//! The calls a recording holds, one variant per world-changing method, and how replay makes
//! each again.

use crate::body::BodyDef;
use crate::filter::Filter;
use crate::id::{BodyId, JointId, ShapeId};
use crate::joint::{JointDef, JointKind};
use crate::math::Rot;
use crate::mix_rule::MixRule;
use crate::position::Position;
use crate::shape::{MassData, Shape};
use crate::shape_def::ShapeDef;
use crate::world::{ContactModification, World, WorldDef, WorldSnapshot};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// What the host decided during a step or a stage, so replay can answer the same without the
/// host's closures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ContactDecisions {
    /// New pairs an [`World::update_pairs_filtered`] filter refused.
    pub refused_pairs: Vec<(ShapeId, ShapeId)>,
    /// `Some` when a pre-solve hook ran: the contacts it turned off.
    pub pre_solve_off: Option<Vec<(ShapeId, ShapeId)>>,
    /// The contacts a [`World::collide_modified`] modifier changed or turned off.
    pub modified: Vec<ModifiedContact>,
}

/// A contact a modifier changed: its shapes and what the modifier left in it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ModifiedContact {
    pub shape_a: ShapeId,
    pub shape_b: ShapeId,
    pub enabled: bool,
    pub friction: f32,
    pub restitution: f32,
    pub tangent_speed: f32,
}

impl ModifiedContact {
    /// What a modifier left in `edit` (returning `enabled`), if it changed anything.
    pub fn of(
        before: &ContactModification,
        edit: &ContactModification,
        enabled: bool,
    ) -> Option<ModifiedContact> {
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits();
        let changed = !enabled
            || !same(before.friction, edit.friction)
            || !same(before.restitution, edit.restitution)
            || !same(before.tangent_speed, edit.tangent_speed);
        changed.then_some(ModifiedContact {
            shape_a: edit.shape_a,
            shape_b: edit.shape_b,
            enabled,
            friction: edit.friction,
            restitution: edit.restitution,
            tangent_speed: edit.tangent_speed,
        })
    }
}

/// What the host decided during a call, when it decided anything (most steps ask nothing).
type Decisions = Option<Box<ContactDecisions>>;

/// One world-changing call with its arguments. Large arguments are boxed, so a call is at
/// most 32 bytes in memory (`a_recorded_call_stays_small`): a long session records four
/// calls a step when the stages are run one by one, as the plugin runs them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum RecordedCall {
    Step(f32, Decisions),
    UpdatePairs(Decisions),
    Collide(Decisions),
    Solve(f32),
    Finalize,
    SetDef(Box<WorldDef>),
    Restore(Box<WorldSnapshot>),
    CreateBody(Box<BodyDef>),
    DestroyBody(BodyId),
    SetTransform(BodyId, Position, Rot),
    SetLinearVelocity(BodyId, Vec2),
    SetAngularVelocity(BodyId, f32),
    ApplyForce(BodyId, Vec2),
    ApplyForceAtPoint(BodyId, Vec2, Position),
    ApplyTorque(BodyId, f32),
    ApplyLinearImpulse(BodyId, Vec2),
    ApplyLinearImpulseAtPoint(BodyId, Vec2, Position),
    ApplyAngularImpulse(BodyId, f32),
    SetGravityScale(BodyId, f32),
    SetDamping(BodyId, f32, f32),
    SetFixedRotation(BodyId, bool),
    SetLinearLocks(BodyId, bool, bool),
    SetSleepSettings(BodyId, bool, Option<f32>),
    SetDominance(BodyId, i8),
    SetMassData(BodyId, Option<MassData>),
    SetAwake(BodyId, bool),
    SetAllowFastRotation(BodyId, bool),
    SetBullet(BodyId, bool),
    CreateShape(BodyId, Box<(ShapeDef, Shape)>),
    DestroyShape(ShapeId),
    SetShapeGeometry(ShapeId, Box<Shape>),
    SetShapeDensity(ShapeId, f32),
    SetShapeFilter(ShapeId, Box<Filter>),
    SetShapeContactHooks(ShapeId, bool),
    SetShapeKinematicContacts(ShapeId, bool),
    SetShapeMaterial(ShapeId, f32, f32),
    SetShapeMixing(ShapeId, Option<MixRule>, Option<MixRule>),
    SetShapeSurfaceMotion(ShapeId, f32, f32),
    CreateJoint(Box<JointDef>),
    DestroyJoint(JointId),
    SetJointKind(JointId, Box<JointKind>),
    SetJointEnabled(JointId, bool),
}

impl RecordedCall {
    /// Whether this call ends a step: [`World::step`], or [`World::finalize`] of a host that
    /// runs the stages itself.
    pub fn ends_step(&self) -> bool {
        matches!(self, RecordedCall::Step(..) | RecordedCall::Finalize)
    }

    /// Where this call keeps the host's decisions, if it asks the host any.
    pub fn decisions_mut(&mut self) -> Option<&mut ContactDecisions> {
        match self {
            RecordedCall::Step(_, d) | RecordedCall::UpdatePairs(d) | RecordedCall::Collide(d) => {
                Some(d.get_or_insert_with(Box::default))
            }
            _ => None,
        }
    }

    /// Makes the call again on `world`. A refusal is ignored: the call was refused when it
    /// was recorded too (from the same state), and changed nothing then either.
    pub fn apply(&self, world: &mut World) {
        use RecordedCall as C;
        let _refused = match self {
            C::Step(dt, d) => {
                install_pre_solve(d, world);
                world.step(*dt)
            }
            C::UpdatePairs(d) => {
                let refused: HashSet<(ShapeId, ShapeId)> = d
                    .iter()
                    .flat_map(|d| d.refused_pairs.iter().copied())
                    .collect();
                world.update_pairs_filtered(&mut |a, b| !refused.contains(&(a, b)));
                Ok(())
            }
            C::Collide(d) => {
                install_pre_solve(d, world);
                let modified: HashMap<(ShapeId, ShapeId), ModifiedContact> = d
                    .iter()
                    .flat_map(|d| d.modified.iter())
                    .map(|m| ((m.shape_a, m.shape_b), *m))
                    .collect();
                world.collide_modified(
                    &mut |edit| match modified.get(&(edit.shape_a, edit.shape_b)) {
                        Some(m) => {
                            edit.friction = m.friction;
                            edit.restitution = m.restitution;
                            edit.tangent_speed = m.tangent_speed;
                            m.enabled
                        }
                        None => true,
                    },
                );
                Ok(())
            }
            C::Solve(dt) => world.solve(*dt),
            C::Finalize => {
                world.finalize();
                Ok(())
            }
            C::SetDef(def) => world.set_def(**def),
            C::Restore(snapshot) => world.restore(snapshot),
            C::CreateBody(def) => world.create_body(def).map(drop),
            C::DestroyBody(id) => world.destroy_body(*id),
            C::SetTransform(id, p, q) => world.set_transform(*id, *p, *q),
            C::SetLinearVelocity(id, v) => world.set_linear_velocity(*id, *v),
            C::SetAngularVelocity(id, w) => world.set_angular_velocity(*id, *w),
            C::ApplyForce(id, f) => world.apply_force(*id, *f),
            C::ApplyForceAtPoint(id, f, p) => world.apply_force_at_point(*id, *f, *p),
            C::ApplyTorque(id, t) => world.apply_torque(*id, *t),
            C::ApplyLinearImpulse(id, j) => world.apply_linear_impulse(*id, *j),
            C::ApplyLinearImpulseAtPoint(id, j, p) => {
                world.apply_linear_impulse_at_point(*id, *j, *p)
            }
            C::ApplyAngularImpulse(id, j) => world.apply_angular_impulse(*id, *j),
            C::SetGravityScale(id, s) => world.set_gravity_scale(*id, *s),
            C::SetDamping(id, l, a) => world.set_damping(*id, *l, *a),
            C::SetFixedRotation(id, f) => world.set_fixed_rotation(*id, *f),
            C::SetLinearLocks(id, x, y) => world.set_linear_locks(*id, *x, *y),
            C::SetSleepSettings(id, can, t) => world.set_sleep_settings(*id, *can, *t),
            C::SetDominance(id, d) => world.set_dominance(*id, *d),
            C::SetMassData(id, m) => world.set_mass_data(*id, *m),
            C::SetAwake(id, a) => world.set_awake(*id, *a),
            C::SetAllowFastRotation(id, a) => world.set_allow_fast_rotation(*id, *a),
            C::SetBullet(id, b) => world.set_bullet(*id, *b),
            C::CreateShape(body, parts) => world.create_shape(*body, &parts.0, parts.1).map(drop),
            C::DestroyShape(id) => world.destroy_shape(*id),
            C::SetShapeGeometry(id, shape) => world.set_shape_geometry(*id, **shape),
            C::SetShapeDensity(id, d) => world.set_shape_density(*id, *d),
            C::SetShapeFilter(id, f) => world.set_shape_filter(*id, **f),
            C::SetShapeContactHooks(id, e) => world.set_shape_contact_hooks(*id, *e),
            C::SetShapeKinematicContacts(id, e) => world.set_shape_kinematic_contacts(*id, *e),
            C::SetShapeMaterial(id, f, r) => world.set_shape_material(*id, *f, *r),
            C::SetShapeMixing(id, f, r) => world.set_shape_mixing(*id, *f, *r),
            C::SetShapeSurfaceMotion(id, s, r) => world.set_shape_surface_motion(*id, *s, *r),
            C::CreateJoint(def) => world.create_joint(def).map(drop),
            C::DestroyJoint(id) => world.destroy_joint(*id),
            C::SetJointKind(id, kind) => world.set_joint_kind(*id, **kind),
            C::SetJointEnabled(id, e) => world.set_joint_enabled(*id, *e),
        };
    }
}

/// Puts a hook answering as the recorded one did in the world, or none if none ran.
fn install_pre_solve(decisions: &Decisions, world: &mut World) {
    let off = decisions.as_ref().and_then(|d| d.pre_solve_off.as_ref());
    let hook = off.map(|off| {
        let off: HashSet<(ShapeId, ShapeId)> = off.iter().copied().collect();
        Box::new(move |a, b, _: &crate::collision::Manifold| !off.contains(&(a, b)))
            as crate::world::PreSolveHook
    });
    world.set_pre_solve(hook);
}

#[cfg(test)]
mod tests {
    use super::RecordedCall;

    /// A call is at most 32 bytes in memory: a session recorded for ten minutes at 60 Hz,
    /// four calls a step, holds under 5 MB of calls. (40 in the `large-world` build, whose
    /// teleports carry a double position.)
    #[test]
    fn a_recorded_call_stays_small() {
        let limit = if crate::position::LARGE_WORLD { 40 } else { 32 };
        assert!(
            std::mem::size_of::<RecordedCall>() <= limit,
            "{}",
            std::mem::size_of::<RecordedCall>()
        );
    }
}
