//! What happened during a step, for games to react to: touches, sensor overlaps, hard hits,
//! contact data, and the pre-solve hook that can switch a contact off for one step.

use super::World;
use crate::collision::Manifold;
use crate::id::ShapeId;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// A begin- or end-touch event between two shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactEvent {
    /// First shape.
    pub shape_a: ShapeId,
    /// Second shape.
    pub shape_b: ShapeId,
}

/// A shape began or stopped overlapping a sensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SensorEvent {
    /// The sensor shape.
    pub sensor: ShapeId,
    /// The shape that entered or left it.
    pub visitor: ShapeId,
}

/// Two shapes met faster than the hit threshold (one of them has hit events enabled).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HitEvent {
    /// First shape.
    pub shape_a: ShapeId,
    /// Second shape.
    pub shape_b: ShapeId,
    /// Where they met (world).
    pub point: crate::position::Position,
    /// Unit normal from A to B.
    pub normal: Vec2,
    /// Speed at which they approached along the normal.
    pub approach_speed: f32,
}

/// The manifold of a touching pair, with the impulses of the last step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactData {
    /// First shape.
    pub shape_a: ShapeId,
    /// Second shape.
    pub shape_b: ShapeId,
    /// Points, normal, and the normal and friction impulses of each point.
    pub manifold: Manifold,
}

/// Called for every touching, non-sensor contact after the narrowphase; returning false
/// disables the contact for this step.
pub type PreSolveHook = Box<dyn FnMut(ShapeId, ShapeId, &Manifold) -> bool + Send + Sync>;

/// A pre-solve rule for one-way platforms: a contact with one of `platforms` is kept only
/// while the other shape is on the platform's `up` side (the normal from the platform towards
/// it within 45 degrees of `up`), so bodies jump up through and land on top.
pub fn one_way_platforms(platforms: Vec<ShapeId>, up: Vec2) -> PreSolveHook {
    let up = up.normalize_or(Vec2::Y);
    Box::new(move |a, b, manifold| {
        let towards_other = if platforms.contains(&a) {
            manifold.normal
        } else if platforms.contains(&b) {
            -manifold.normal
        } else {
            return true;
        };
        towards_other.dot(up) > std::f32::consts::FRAC_1_SQRT_2
    })
}

impl World {
    /// Shapes that started overlapping a sensor during the last step.
    pub fn sensor_begin_events(&self) -> &[SensorEvent] {
        &self.sensor_begin_events
    }

    /// Shapes that stopped overlapping a sensor during the last step (or were destroyed while
    /// overlapping it since the step before).
    pub fn sensor_end_events(&self) -> &[SensorEvent] {
        &self.sensor_end_events
    }

    /// Hits faster than the threshold during the last step.
    pub fn hit_events(&self) -> &[HitEvent] {
        &self.hit_events
    }

    /// The manifold of every touching, non-sensor pair, in a fixed order.
    pub fn contact_data(&self) -> Vec<ContactData> {
        self.contacts
            .iter()
            .filter(|(_, c)| c.touching && !c.sensor)
            .map(|(_, c)| ContactData {
                shape_a: self.shape_id(c.shape_a),
                shape_b: self.shape_id(c.shape_b),
                manifold: c.manifold,
            })
            .collect()
    }

    /// The touching contact between two shapes, in O(1) (a hash lookup): its manifold with
    /// the impulses of the last step, with `shape_a` and `shape_b` in the contact's own
    /// order (the normal points from its `shape_a` to its `shape_b`). `None` when they do
    /// not touch, when one is a sensor, when a hook switched the contact off this step, or
    /// when an id is stale.
    pub fn contact_between(&self, a: ShapeId, b: ShapeId) -> Option<ContactData> {
        self.shape_record(a).ok()?;
        self.shape_record(b).ok()?;
        let slot = *self
            .contact_map
            .get(&crate::contact::pair_key(a.index, b.index))?;
        let c = self.contacts.at(slot);
        (c.touching && !c.sensor && c.enabled).then(|| ContactData {
            shape_a: self.shape_id(c.shape_a),
            shape_b: self.shape_id(c.shape_b),
            manifold: c.manifold,
        })
    }

    /// The shapes touching (or, for a sensor or a shape touching a sensor, overlapping) the
    /// shape `id`, in the order its body lists its contacts, leaving out contacts a hook
    /// switched off this step. Empty for a stale id.
    pub fn touching_shapes(&self, id: ShapeId) -> Vec<ShapeId> {
        let Ok(record) = self.shape_record(id) else {
            return Vec::new();
        };
        let body = self.bodies.at(record.body.index);
        body.contacts
            .iter()
            .map(|&slot| self.contacts.at(slot))
            .filter(|c| c.touching && c.enabled && (c.shape_a == id.index || c.shape_b == id.index))
            .map(|c| {
                let other = if c.shape_a == id.index {
                    c.shape_b
                } else {
                    c.shape_a
                };
                self.shape_id(other)
            })
            .collect()
    }

    /// The touching, non-sensor contacts of the shapes of body `id` that a hook did not switch
    /// off, with their manifolds and the impulses of the last step. Empty for a stale id.
    pub fn body_contact_data(&self, id: crate::id::BodyId) -> Vec<ContactData> {
        let Ok(body) = self.body(id) else {
            return Vec::new();
        };
        body.contacts
            .iter()
            .map(|&slot| self.contacts.at(slot))
            .filter(|c| c.touching && !c.sensor && c.enabled)
            .map(|c| ContactData {
                shape_a: self.shape_id(c.shape_a),
                shape_b: self.shape_id(c.shape_b),
                manifold: c.manifold,
            })
            .collect()
    }

    /// The duration of one substep of the last step (s): a manifold point's
    /// `normal_impulse` is the impulse of the last substep, so the force it stands for is
    /// the impulse divided by this. Zero before the first step.
    pub fn last_substep_seconds(&self) -> f32 {
        self.last_dt / self.def.substep_count.max(1) as f32
    }

    /// Installs (or removes) the pre-solve hook.
    pub fn set_pre_solve(&mut self, hook: Option<PreSolveHook>) {
        self.pre_solve = hook;
    }

    /// Counts a contact that began or stopped touching, and records its event, sorted by
    /// whether a sensor is involved (the sensor first).
    pub(crate) fn record_touch_change(
        &mut self,
        shape_a: u32,
        shape_b: u32,
        sensor: bool,
        began: bool,
        pending: bool,
    ) {
        if began {
            self.touching_contacts += 1;
        } else {
            self.touching_contacts -= 1;
        }
        let (a, b) = (self.shape_id(shape_a), self.shape_id(shape_b));
        if sensor {
            let a_is_sensor = self.shapes.at(shape_a).def.is_sensor;
            let event = if a_is_sensor {
                SensorEvent {
                    sensor: a,
                    visitor: b,
                }
            } else {
                SensorEvent {
                    sensor: b,
                    visitor: a,
                }
            };
            match (began, pending) {
                (true, _) => self.sensor_begin_events.push(event),
                (false, true) => self.pending_sensor_end_events.push(event),
                (false, false) => self.sensor_end_events.push(event),
            }
        } else {
            let event = ContactEvent {
                shape_a: a,
                shape_b: b,
            };
            match (began, pending) {
                (true, _) => self.begin_events.push(event),
                (false, true) => self.pending_end_events.push(event),
                (false, false) => self.end_events.push(event),
            }
        }
    }
}
