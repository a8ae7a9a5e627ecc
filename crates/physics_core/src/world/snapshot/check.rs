//! Checking a decoded snapshot before it becomes a world: bytes from an untrusted source (a
//! peer, a save file someone edited) must not be able to send the step out of range, into a
//! loop, or off from NaN. The checksum of `to_bytes` only catches damage; this checks that
//! every internal link holds.

use super::WorldSnapshot;
use crate::broadphase::TreeKind;
use crate::id::{BodyId, ShapeId};
use crate::math::is_finite_vec;
use crate::world::WorldError;
use crate::world::joints::validate_kind;

impl WorldSnapshot {
    /// Checks the snapshot's internal consistency: slot bookkeeping, every link between
    /// bodies, shapes, contacts, joints and broadphase proxies (both ways), both trees'
    /// structure, and finite body state and joint parameters. [`WorldSnapshot::from_bytes`]
    /// runs it; a snapshot deserialised another way (serde with another format) should be
    /// checked with it before [`World::restore`](super::World::restore).
    pub fn validate(&self) -> Result<(), WorldError> {
        self.def.validate()?;
        self.check_links().map_err(WorldError::InvalidSnapshot)
    }

    fn check_links(&self) -> Result<(), &'static str> {
        let ok = |condition: bool, why: &'static str| if condition { Ok(()) } else { Err(why) };
        ok(
            self.bodies.is_consistent()
                && self.shapes.is_consistent()
                && self.contacts.is_consistent()
                && self.joints.is_consistent(),
            "slot bookkeeping does not match the slots",
        )?;
        for (index, body) in self.bodies.iter() {
            let id = BodyId {
                index,
                generation: self.bodies.generation(index),
            };
            let scalars = [
                body.angular_velocity,
                body.torque,
                body.mass,
                body.inv_mass,
                body.inertia,
                body.inv_inertia,
                body.gravity_scale,
                body.linear_damping,
                body.angular_damping,
                body.sleep_time,
            ];
            ok(
                body.transform.is_valid()
                    && crate::position::is_finite_position(body.center)
                    && [body.local_center, body.linear_velocity, body.force]
                        .into_iter()
                        .all(is_finite_vec)
                    && scalars.iter().all(|x| x.is_finite()),
                "a body's state is NaN or infinite",
            )?;
            for shape in &body.shapes {
                let record = self.shapes.get(shape.index, shape.generation);
                ok(
                    record.is_some_and(|r| r.body == id),
                    "a body lists a shape that is not its own",
                )?;
            }
            for &slot in &body.contacts {
                ok(
                    self.contacts.is_live(slot)
                        && [self.contacts.at(slot).body_a, self.contacts.at(slot).body_b]
                            .contains(&index),
                    "a body lists a contact that is not its own",
                )?;
            }
            for &slot in &body.joints {
                ok(
                    self.joints.is_live(slot) && {
                        let def = &self.joints.at(slot).def;
                        def.body_a == id || def.body_b == id
                    },
                    "a body lists a joint that is not its own",
                )?;
            }
        }
        let mut in_tree = [0usize; 2];
        for (index, record) in self.shapes.iter() {
            let id = ShapeId {
                index,
                generation: self.shapes.generation(index),
            };
            let body = self.bodies.get(record.body.index, record.body.generation);
            ok(
                body.is_some_and(|b| b.shapes.contains(&id)),
                "a shape's body does not list it",
            )?;
            ok(
                record.shape.validate().is_ok() && record.def.validate().is_ok(),
                "a shape or its material is invalid",
            )?;
            let tree = self.broadphase.tree(record.proxy.tree);
            ok(
                tree.leaf_user_data(record.proxy.id) == Some(index as u64),
                "a shape's broadphase proxy is not its leaf",
            )?;
            in_tree[(record.proxy.tree == TreeKind::Moving) as usize] += 1;
        }
        for (kind, count) in [TreeKind::Static, TreeKind::Moving]
            .into_iter()
            .zip(in_tree)
        {
            let tree = self.broadphase.tree(kind);
            tree.check_structure()?;
            // With each shape's leaf checked above, equal counts make leaves and shapes match
            // one to one.
            ok(
                tree.proxy_count() == count,
                "a tree holds leaves of no shape",
            )?;
        }
        // The move buffer may name nodes that are no longer proxies (destroyed since they
        // were queued, or any number in a crafted snapshot): the next pair update drops
        // them before it reads anything of theirs (`BroadPhase::find_new_pairs`).
        for (slot, contact) in self.contacts.iter() {
            let ends = [
                (contact.shape_a, contact.body_a),
                (contact.shape_b, contact.body_b),
            ];
            for (shape, body) in ends {
                ok(
                    self.shapes.is_live(shape) && self.shapes.at(shape).body.index == body,
                    "a contact's shapes and bodies disagree",
                )?;
                ok(
                    self.bodies.at(body).contacts.contains(&slot),
                    "a contact's body does not list it",
                )?;
            }
            ok(
                contact.manifold.is_sound()
                    && contact.recycle.as_ref().is_none_or(|r| r.is_sound())
                    && contact.friction.is_finite()
                    && contact.friction >= 0.0
                    && contact.restitution.is_finite()
                    && contact.restitution >= 0.0
                    && contact.tangent_speed.is_finite()
                    && contact.rolling_resistance.is_finite()
                    && contact.rolling_resistance >= 0.0
                    && contact.rolling_impulse.is_finite(),
                "a contact's manifold or material is invalid",
            )?;
        }
        for (slot, joint) in self.joints.iter() {
            let def = &joint.def;
            for end in [def.body_a, def.body_b] {
                ok(
                    self.bodies
                        .get(end.index, end.generation)
                        .is_some_and(|b| b.joints.contains(&slot)),
                    "a joint's body does not list it",
                )?;
            }
            ok(
                def.body_a != def.body_b
                    && is_finite_vec(def.local_anchor_a)
                    && is_finite_vec(def.local_anchor_b)
                    && validate_kind(&def.kind).is_ok(),
                "a joint's definition is invalid",
            )?;
        }
        Ok(())
    }
}
