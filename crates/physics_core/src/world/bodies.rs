//! Creating, destroying, reading and driving bodies.

use super::{World, WorldError};
use crate::body::{Body, BodyDef, BodyExtents, BodyType, validate_body_def};
use crate::id::BodyId;
use crate::math::{Rot, cross, cross_sv, is_finite_vec};
use crate::position::{Position, WorldTransform, is_finite_position, relative};
use crate::shape::MassData;
use crate::world::recording::RecordedCall;
use bevy_math::Vec2;

fn check_vec(v: Vec2, what: &'static str) -> Result<(), WorldError> {
    if is_finite_vec(v) {
        Ok(())
    } else {
        Err(WorldError::NonFinite(what))
    }
}

fn check_position(p: Position, what: &'static str) -> Result<(), WorldError> {
    if is_finite_position(p) {
        Ok(())
    } else {
        Err(WorldError::NonFinite(what))
    }
}

fn check_scalar(x: f32, what: &'static str) -> Result<(), WorldError> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(WorldError::NonFinite(what))
    }
}

impl World {
    /// Creates a body (without shapes: add them with [`World::create_shape`]).
    pub fn create_body(&mut self, def: &BodyDef) -> Result<BodyId, WorldError> {
        self.note(|| RecordedCall::CreateBody(Box::new(*def)));
        validate_body_def(def)?;
        if self.bodies.len() >= self.def.max_bodies as usize {
            return Err(WorldError::TooManyBodies {
                limit: self.def.max_bodies,
            });
        }
        let mut body = Body::new(def);
        if def.body_type == BodyType::Static {
            // A static body never moves; a velocity would only corrupt contact bounces.
            body.linear_velocity = Vec2::ZERO;
            body.angular_velocity = 0.0;
        }
        if def.body_type == BodyType::Dynamic {
            // Until shapes give it mass, a dynamic body weighs 1 kg.
            body.mass = 1.0;
            body.inv_mass = 1.0;
            self.mass_revision = self.mass_revision.wrapping_add(1);
        }
        self.simulated_bodies += usize::from(body.is_simulated());
        self.drop_kept_solver_bodies();
        let (index, generation) = self.bodies.insert(body);
        Ok(BodyId { index, generation })
    }

    /// Destroys a body with its shapes, contacts and joints.
    pub fn destroy_body(&mut self, id: BodyId) -> Result<(), WorldError> {
        self.note(|| RecordedCall::DestroyBody(id));
        let joints = self.body(id)?.joints.clone();
        for slot in joints {
            let joint = crate::id::JointId {
                index: slot,
                generation: self.joints.generation(slot),
            };
            self.destroy_joint(joint)?;
        }
        let shapes = self.body(id)?.shapes.clone();
        let contacts = self.body(id)?.contacts.clone();
        // Whatever rested on the body wakes and falls.
        for &c in &contacts {
            let other = self.contacts.at(c).other_body(id.index);
            self.wake_island(other);
        }
        for slot in contacts {
            self.destroy_contact(slot);
        }
        for shape in shapes {
            if let Some(record) = self.shapes.remove(shape.index, shape.generation) {
                self.broadphase.destroy_proxy(record.proxy);
            }
        }
        self.drop_kept_solver_bodies();
        if let Some(body) = self.bodies.remove(id.index, id.generation) {
            self.simulated_bodies -= usize::from(body.is_simulated());
        }
        Ok(())
    }

    /// The joints attached to a body, in the order they were created.
    pub fn body_joints(&self, id: BodyId) -> Result<Vec<crate::id::JointId>, WorldError> {
        Ok(self
            .body(id)?
            .joints
            .iter()
            .map(|&slot| crate::id::JointId {
                index: slot,
                generation: self.joints.generation(slot),
            })
            .collect())
    }

    /// True when the id refers to a live body.
    pub fn body_exists(&self, id: BodyId) -> bool {
        self.bodies.get(id.index, id.generation).is_some()
    }

    /// Ids of all bodies, in storage order.
    pub fn body_ids(&self) -> Vec<BodyId> {
        self.bodies.iter().map(|(i, _)| self.body_id(i)).collect()
    }

    /// The body's type.
    pub fn body_type(&self, id: BodyId) -> Result<BodyType, WorldError> {
        Ok(self.body(id)?.body_type)
    }

    /// Transform of the body origin.
    pub fn body_transform(&self, id: BodyId) -> Result<WorldTransform, WorldError> {
        Ok(self.body(id)?.transform)
    }

    /// Position of the body origin.
    pub fn body_position(&self, id: BodyId) -> Result<Position, WorldError> {
        Ok(self.body(id)?.transform.p)
    }

    /// Rotation of the body.
    pub fn body_rotation(&self, id: BodyId) -> Result<Rot, WorldError> {
        Ok(self.body(id)?.transform.q)
    }

    /// World centre of mass.
    pub fn body_center_of_mass(&self, id: BodyId) -> Result<Position, WorldError> {
        Ok(self.body(id)?.center)
    }

    /// Asks the cache for what [`World::body_motion`] reads of body `id`, a few bodies before
    /// reading it: a host engine walking its own objects in its own order copies back from
    /// records the hardware cannot foresee, and each would otherwise wait on a miss. Only a
    /// hint: nothing is read, and a stale or unknown id costs nothing.
    #[inline]
    pub fn prefetch_body_motion(&self, id: BodyId) {
        // The record's head: flags, pose and velocities (`Body`'s field order).
        let head = std::mem::offset_of!(crate::body::Body, inv_mass);
        self.bodies.prefetch(id.index, head);
    }

    /// Pose, velocities and awake flag in one read: what a host engine copies back to its
    /// own objects after every step, with one id check instead of four.
    #[inline]
    pub fn body_motion(&self, id: BodyId) -> Result<BodyMotion, WorldError> {
        let b = self.body(id)?;
        Ok(BodyMotion {
            transform: b.transform,
            linear_velocity: b.linear_velocity,
            angular_velocity: b.angular_velocity,
            awake: b.awake,
        })
    }

    /// The def that would create this body again as it is now: type, pose, velocities and
    /// settings. Its shapes, joints and any mass override are not part of it.
    pub fn body_def(&self, id: BodyId) -> Result<BodyDef, WorldError> {
        Ok(self.body(id)?.def())
    }

    /// Velocity of the centre of mass.
    pub fn linear_velocity(&self, id: BodyId) -> Result<Vec2, WorldError> {
        Ok(self.body(id)?.linear_velocity)
    }

    /// Angular velocity (rad/s).
    pub fn angular_velocity(&self, id: BodyId) -> Result<f32, WorldError> {
        Ok(self.body(id)?.angular_velocity)
    }

    /// Mass, centre of mass (body frame) and rotational inertia in use.
    pub fn body_mass_data(&self, id: BodyId) -> Result<MassData, WorldError> {
        let b = self.body(id)?;
        Ok(MassData {
            mass: b.mass,
            center: b.local_center,
            rotational_inertia: b.inertia,
        })
    }

    /// A number that changes whenever some body's mass data may have changed (a shape
    /// added, removed or edited, a mass override, a locked rotation, a type change): a
    /// caller mirroring mass data reads it again only then. Restoring a snapshot changes it
    /// too.
    pub fn mass_revision(&self) -> u64 {
        self.mass_revision
    }

    /// The mass properties the body's shapes give it (mass, centre in the body's frame,
    /// inertia about that centre), whatever override [`World::set_mass_data`] gave it: what a
    /// caller overriding only part of them starts from.
    pub fn body_shapes_mass_data(&self, id: BodyId) -> Result<MassData, WorldError> {
        self.body(id)?;
        Ok(self.shapes_mass_data(id.index))
    }

    /// Teleports the body (no velocity change); contacts update next step.
    pub fn set_transform(
        &mut self,
        id: BodyId,
        position: impl Into<Position>,
        rotation: Rot,
    ) -> Result<(), WorldError> {
        let position = position.into();
        self.note(|| RecordedCall::SetTransform(id, position, rotation));
        check_position(position, "position")?;
        crate::body::check_world_coordinate(position)?;
        if !rotation.is_valid() {
            return Err(WorldError::NonFinite("rotation"));
        }
        let body = self.body_mut(id)?;
        body.transform = WorldTransform::new(position, rotation);
        body.collide_pose = body.transform;
        body.center = body.transform.apply(body.local_center);
        self.refresh_shape_bounds(id.index, true);
        self.wake_island(id.index);
        Ok(())
    }

    /// Sets the velocity of the centre of mass (ignored for static bodies).
    pub fn set_linear_velocity(&mut self, id: BodyId, velocity: Vec2) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetLinearVelocity(id, velocity));
        check_vec(velocity, "linear velocity")?;
        let body = self.body_mut(id)?;
        if body.is_moving() {
            body.linear_velocity = velocity;
        }
        self.wake_island(id.index);
        Ok(())
    }

    /// Sets the angular velocity (ignored for static bodies and fixed rotation).
    pub fn set_angular_velocity(&mut self, id: BodyId, velocity: f32) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetAngularVelocity(id, velocity));
        check_scalar(velocity, "angular velocity")?;
        let body = self.body_mut(id)?;
        if body.is_moving() && !body.fixed_rotation {
            body.angular_velocity = velocity;
        }
        self.wake_island(id.index);
        Ok(())
    }

    /// Adds a force at the centre of mass for the next step.
    pub fn apply_force(&mut self, id: BodyId, force: Vec2) -> Result<(), WorldError> {
        self.note(|| RecordedCall::ApplyForce(id, force));
        check_vec(force, "force")?;
        let body = self.body_mut(id)?;
        if body.body_type == BodyType::Dynamic {
            body.force += force;
        }
        self.wake_island(id.index);
        Ok(())
    }

    /// Adds a force at a world point for the next step (also a torque about the centre).
    pub fn apply_force_at_point(
        &mut self,
        id: BodyId,
        force: Vec2,
        point: impl Into<Position>,
    ) -> Result<(), WorldError> {
        let point = point.into();
        self.note(|| RecordedCall::ApplyForceAtPoint(id, force, point));
        check_vec(force, "force")?;
        check_position(point, "point")?;
        let body = self.body_mut(id)?;
        if body.body_type == BodyType::Dynamic {
            body.force += force;
            body.torque += cross(relative(point, body.center), force);
        }
        self.wake_island(id.index);
        Ok(())
    }

    /// Adds a torque for the next step.
    pub fn apply_torque(&mut self, id: BodyId, torque: f32) -> Result<(), WorldError> {
        self.note(|| RecordedCall::ApplyTorque(id, torque));
        check_scalar(torque, "torque")?;
        let body = self.body_mut(id)?;
        if body.body_type == BodyType::Dynamic {
            body.torque += torque;
        }
        self.wake_island(id.index);
        Ok(())
    }

    /// Changes the velocity at once by `impulse / mass`.
    pub fn apply_linear_impulse(&mut self, id: BodyId, impulse: Vec2) -> Result<(), WorldError> {
        self.note(|| RecordedCall::ApplyLinearImpulse(id, impulse));
        check_vec(impulse, "impulse")?;
        let body = self.body_mut(id)?;
        if body.body_type == BodyType::Dynamic {
            body.linear_velocity += body.inv_mass * impulse;
        }
        self.wake_island(id.index);
        Ok(())
    }

    /// An impulse at a world point: changes linear and angular velocity.
    pub fn apply_linear_impulse_at_point(
        &mut self,
        id: BodyId,
        impulse: Vec2,
        point: impl Into<Position>,
    ) -> Result<(), WorldError> {
        let point = point.into();
        self.note(|| RecordedCall::ApplyLinearImpulseAtPoint(id, impulse, point));
        check_vec(impulse, "impulse")?;
        check_position(point, "point")?;
        let body = self.body_mut(id)?;
        if body.body_type == BodyType::Dynamic {
            body.linear_velocity += body.inv_mass * impulse;
            body.angular_velocity +=
                body.inv_inertia * cross(relative(point, body.center), impulse);
        }
        self.wake_island(id.index);
        Ok(())
    }

    /// Changes the angular velocity at once by `impulse / inertia`.
    pub fn apply_angular_impulse(&mut self, id: BodyId, impulse: f32) -> Result<(), WorldError> {
        self.note(|| RecordedCall::ApplyAngularImpulse(id, impulse));
        check_scalar(impulse, "angular impulse")?;
        let body = self.body_mut(id)?;
        if body.body_type == BodyType::Dynamic {
            body.angular_velocity += body.inv_inertia * impulse;
        }
        self.wake_island(id.index);
        Ok(())
    }

    /// Scales the world's gravity for this body.
    pub fn set_gravity_scale(&mut self, id: BodyId, scale: f32) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetGravityScale(id, scale));
        check_scalar(scale, "gravity scale")?;
        self.body_mut(id)?.gravity_scale = scale;
        self.wake_island(id.index);
        Ok(())
    }

    /// Sets linear and angular damping (per second, not negative).
    pub fn set_damping(&mut self, id: BodyId, linear: f32, angular: f32) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetDamping(id, linear, angular));
        check_scalar(linear, "linear damping")?;
        check_scalar(angular, "angular damping")?;
        if linear < 0.0 || angular < 0.0 {
            return Err(WorldError::InvalidSetting("damping must not be negative"));
        }
        let body = self.body_mut(id)?;
        body.linear_damping = linear;
        body.angular_damping = angular;
        Ok(())
    }

    /// Stops (or allows) rotation.
    pub fn set_fixed_rotation(&mut self, id: BodyId, fixed: bool) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetFixedRotation(id, fixed));
        self.body_mut(id)?.fixed_rotation = fixed;
        self.update_mass(id.index);
        self.wake_island(id.index);
        Ok(())
    }

    /// Locks (or frees) the centre of mass's motion along the world x and y axes. A change
    /// wakes the body.
    pub fn set_linear_locks(&mut self, id: BodyId, x: bool, y: bool) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetLinearLocks(id, x, y));
        let body = self.body_mut(id)?;
        if body.lock_linear != [x, y] {
            body.lock_linear = [x, y];
            self.wake_island(id.index);
        }
        Ok(())
    }

    /// Whether the body may sleep, and its own resting speed in world units per second
    /// (`None`: the world's; see [`BodyDef::sleep_threshold`](crate::body::BodyDef)). A
    /// body that may not sleep keeps its island awake; turning sleep off wakes it.
    pub fn set_sleep_settings(
        &mut self,
        id: BodyId,
        can_sleep: bool,
        threshold: Option<f32>,
    ) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetSleepSettings(id, can_sleep, threshold));
        crate::body::validate_sleep_threshold(threshold)?;
        let body = self.body_mut(id)?;
        let woken = body.can_sleep && !can_sleep;
        body.can_sleep = can_sleep;
        body.sleep_threshold = threshold;
        if woken {
            self.wake_island(id.index);
        }
        Ok(())
    }

    /// Sets the body's dominance (see [`BodyDef::dominance`](crate::body::BodyDef::dominance)).
    pub fn set_dominance(&mut self, id: BodyId, dominance: i8) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetDominance(id, dominance));
        let body = self.body_mut(id)?;
        if body.dominance != dominance {
            body.dominance = dominance;
            self.wake_island(id.index);
        }
        Ok(())
    }

    /// The body's locks, sleep settings and dominance: (lock x, lock y), can sleep, its own
    /// sleep threshold, dominance.
    pub fn body_motion_settings(
        &self,
        id: BodyId,
    ) -> Result<([bool; 2], bool, Option<f32>, i8), WorldError> {
        let body = self.body(id)?;
        Ok((
            body.lock_linear,
            body.can_sleep,
            body.sleep_threshold,
            body.dominance,
        ))
    }

    /// Overrides the mass data computed from the shapes (`None` goes back to the shapes').
    pub fn set_mass_data(
        &mut self,
        id: BodyId,
        mass_data: Option<MassData>,
    ) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetMassData(id, mass_data));
        if let Some(m) = mass_data {
            if !m.mass.is_finite() || m.mass < 0.0 {
                return Err(WorldError::InvalidMass("mass"));
            }
            if !m.rotational_inertia.is_finite() || m.rotational_inertia < 0.0 {
                return Err(WorldError::InvalidMass("rotational inertia"));
            }
            check_vec(m.center, "centre of mass")?;
        }
        self.body_mut(id)?.mass_override = mass_data;
        self.update_mass(id.index);
        self.wake_island(id.index);
        Ok(())
    }

    /// Wakes the body's island, or puts it to sleep (a sleeping island costs nothing per step
    /// until something touches, pushes or moves it).
    pub fn set_awake(&mut self, id: BodyId, awake: bool) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetAwake(id, awake));
        self.body(id)?;
        if awake {
            self.wake_island(id.index);
        } else {
            self.sleep_island(id.index);
        }
        Ok(())
    }

    /// Lets the body turn faster than a quarter turn per step (wheels, rotors), or clamps its
    /// spin to that again (see [`BodyDef::allow_fast_rotation`]).
    pub fn set_allow_fast_rotation(&mut self, id: BodyId, allow: bool) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetAllowFastRotation(id, allow));
        self.body_mut(id)?.allow_fast_rotation = allow;
        Ok(())
    }

    /// Flags the body as a bullet: swept against dynamic bodies too, not only static ones.
    pub fn set_bullet(&mut self, id: BodyId, bullet: bool) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetBullet(id, bullet));
        self.body_mut(id)?.bullet = bullet;
        Ok(())
    }

    /// True when the body is awake.
    pub fn is_awake(&self, id: BodyId) -> Result<bool, WorldError> {
        Ok(self.body(id)?.awake)
    }

    /// Kinetic energy of all bodies (for tests and diagnostics).
    pub fn kinetic_energy(&self) -> f32 {
        self.bodies
            .iter()
            .map(|(_, b)| {
                0.5 * b.mass * b.linear_velocity.length_squared()
                    + 0.5 * b.inertia * b.angular_velocity * b.angular_velocity
            })
            .sum()
    }

    /// Recomputes mass, centre and inertia from the shapes (or the override), keeping the
    /// velocity of the body's material points, then the body's extents.
    pub(crate) fn update_mass(&mut self, body_index: u32) {
        self.mass_revision = self.mass_revision.wrapping_add(1);
        self.update_mass_data(body_index);
        self.update_extents(body_index);
    }

    /// [`World::update_mass`] after shape `shape_index` joined the body. A body that is not
    /// dynamic has no mass and its centre at its origin whatever its shapes, so its extents
    /// take the new shape in without walking the others, to the same bits (the extents are a
    /// minimum and a maximum over the shapes, folded in the same order). Walking them all made
    /// a level's ground of thousands of shapes quadratic to build: rain's 2,505 took some 600
    /// million instructions.
    pub(crate) fn update_mass_with_new_shape(&mut self, body_index: u32, shape_index: u32) {
        let body = self.bodies.at(body_index);
        if body.body_type == BodyType::Dynamic || body.shapes.len() < 2 {
            self.update_mass(body_index);
            return;
        }
        self.mass_revision = self.mass_revision.wrapping_add(1);
        self.update_mass_data(body_index);
        let body = self.bodies.at(body_index);
        debug_assert_eq!(body.local_center, Vec2::ZERO);
        let slop = self.tolerances.linear_slop;
        let (lo, hi) = self
            .shapes
            .at(shape_index)
            .shape
            .extents(body.local_center, slop);
        let body = self.bodies.at_mut(body_index);
        body.extents.min = body.extents.min.min(lo);
        body.extents.max = body.extents.max.max(hi);
        body.only_shape = None;
    }

    /// Recomputes the smallest and largest extent of a body's shapes around its centre of
    /// mass (see `continuous.rs`), and its only shape if it has one.
    pub(crate) fn update_extents(&mut self, body_index: u32) {
        let body = self.bodies.at(body_index);
        let slop = self.tolerances.linear_slop;
        let mut extents = BodyExtents {
            min: f32::INFINITY,
            max: 0.0,
        };
        for id in &body.shapes {
            let shape = &self.shapes.at(id.index).shape;
            let (lo, hi) = shape.extents(body.local_center, slop);
            extents.min = extents.min.min(lo);
            extents.max = extents.max.max(hi);
        }
        let only_shape = match body.shapes[..] {
            [id] => Some(id.index),
            _ => None,
        };
        let body = self.bodies.at_mut(body_index);
        body.extents = extents;
        body.only_shape = only_shape;
    }

    /// Mass, centre and inertia (about that centre) that a body's shapes give it.
    fn shapes_mass_data(&self, body_index: u32) -> MassData {
        let shape_ids = &self.bodies.at(body_index).shapes;
        let parts: Vec<MassData> = shape_ids
            .iter()
            .map(|s| {
                let r = self.shapes.at(s.index);
                r.shape.mass_data(r.def.density)
            })
            .collect();
        let mass: f32 = parts.iter().map(|p| p.mass).sum();
        let (mut center, mut inertia) = (Vec2::ZERO, 0.0);
        if mass > 0.0 {
            center = parts.iter().map(|p| p.mass * p.center).sum::<Vec2>() / mass;
            // A centre within a millionth of the body's size from its origin is the
            // origin: the mass sums of a centred box round to about 1e-8 m, and an exact
            // zero lets recycled contacts skip carrying a centre offset (on the pyramid
            // benchmarks, half of the recycling's rotations).
            let reach = shape_ids
                .iter()
                .map(|s| self.shapes.at(s.index).reach)
                .fold(0.0f32, f32::max);
            if center.length() <= 1e-6 * reach {
                center = Vec2::ZERO;
            }
            // Parallel axis: each part's inertia moved to the common centre.
            inertia = parts
                .iter()
                .map(|p| p.rotational_inertia + p.mass * (p.center - center).length_squared())
                .sum();
        }
        MassData {
            mass,
            center,
            rotational_inertia: inertia,
        }
    }

    /// Mass, centre and inertia from the shapes (or the override).
    fn update_mass_data(&mut self, body_index: u32) {
        let body = self.bodies.at(body_index);
        let dynamic = body.body_type == BodyType::Dynamic;
        let (mut mass, mut inertia, mut center) = (0.0f32, 0.0f32, Vec2::ZERO);
        if dynamic {
            let m = body
                .mass_override
                .unwrap_or_else(|| self.shapes_mass_data(body_index));
            (mass, inertia, center) = (m.mass, m.rotational_inertia, m.center);
        }
        self.drop_kept_solver_bodies();
        let body = self.bodies.at_mut(body_index);
        if !dynamic {
            body.mass = 0.0;
            body.inv_mass = 0.0;
            body.inertia = 0.0;
            body.inv_inertia = 0.0;
            body.local_center = Vec2::ZERO;
            body.center = body.transform.p;
            return;
        }
        // A mass too small for its reciprocal (subnormal densities) counts as no mass, like
        // a body without shapes: 1 kg, and no rotational inertia from the shapes.
        if !(mass > 0.0 && (1.0 / mass).is_finite()) {
            mass = 1.0;
            inertia = 0.0;
        }
        body.mass = mass;
        body.inv_mass = 1.0 / mass;
        let inertia_usable = !body.fixed_rotation && inertia > 0.0 && (1.0 / inertia).is_finite();
        body.inertia = if inertia_usable { inertia } else { 0.0 };
        body.inv_inertia = if inertia_usable { 1.0 / inertia } else { 0.0 };
        if body.fixed_rotation {
            body.angular_velocity = 0.0;
        }
        let old_center = body.center;
        body.local_center = center;
        body.center = body.transform.apply(center);
        // Keep the velocity of material points: v_new_centre = v + w x (c_new - c_old).
        body.linear_velocity += cross_sv(body.angular_velocity, relative(body.center, old_center));
    }
}

/// A body's state after a step, as [`World::body_motion`] reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyMotion {
    /// Transform of the body origin ([`World::body_transform`]).
    pub transform: WorldTransform,
    /// Velocity of the centre of mass ([`World::linear_velocity`]).
    pub linear_velocity: Vec2,
    /// Angular velocity in rad/s ([`World::angular_velocity`]).
    pub angular_velocity: f32,
    /// Whether the body is awake ([`World::is_awake`]).
    pub awake: bool,
}
