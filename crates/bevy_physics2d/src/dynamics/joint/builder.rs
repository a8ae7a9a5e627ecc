//! [`JointBuilder`]: a [`Joint`] under construction, typed by its joint type so that only the
//! builder methods that mean something for that type exist.
//!
//! Each constructor on [`Joint`] returns a `JointBuilder<T>` for a marker type `T` of
//! [`joint_types`]; the methods shared by every joint are on any builder, the others on the
//! builders whose type implements the matching trait ([`HasLimits`], [`HasMotor`],
//! [`HasSpring`], [`HasReferenceAngle`]) or on one type alone. A builder is a bundle: spawn it
//! as it is, or take the [`Joint`] out with [`JointBuilder::build`] (or `.into()`).

use crate::dynamics::joint::components::{Joint, JointAnchor};
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use physics_core::joint::{
    AngleJoint, DistanceJoint, JointKind, MotorJoint, MouseJoint, PrismaticJoint, PulleyJoint,
    RevoluteJoint, WeldJoint, WheelJoint,
};
use std::marker::PhantomData;

/// Marker types naming the joint types, for [`JointBuilder`].
pub mod joint_types {
    macro_rules! marker {
        ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
            $(
                $(#[$doc])*
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
                pub struct $name;
                impl super::JointType for $name {}
            )*
        };
    }
    marker!(
        /// A pin ([`Joint::revolute`](crate::Joint::revolute)).
        Revolute,
        /// A slider ([`Joint::prismatic`](crate::Joint::prismatic)).
        Prismatic,
        /// A rod, spring or rope ([`Joint::distance`](crate::Joint::distance),
        /// [`Joint::spring`](crate::Joint::spring), [`Joint::rope`](crate::Joint::rope)).
        Distance,
        /// Glue ([`Joint::weld`](crate::Joint::weld)).
        Weld,
        /// A wheel on a suspension ([`Joint::wheel`](crate::Joint::wheel)).
        Wheel,
        /// A mouse drag ([`Joint::mouse`](crate::Joint::mouse)).
        Mouse,
        /// A pulley ([`Joint::pulley`](crate::Joint::pulley)).
        Pulley,
        /// A kept relative angle or a gear ([`Joint::angle`](crate::Joint::angle),
        /// [`Joint::gear`](crate::Joint::gear)).
        Angle,
        /// A drive towards a relative pose ([`Joint::motor`](crate::Joint::motor)).
        Motor,
    );
}

use joint_types::*;

/// A joint type marker (the types in [`joint_types`]).
pub trait JointType: Send + Sync + 'static {}

/// Joint types with limits: revolute (angles), prismatic and wheel (translations).
pub trait HasLimits: JointType {}
impl HasLimits for Revolute {}
impl HasLimits for Prismatic {}
impl HasLimits for Wheel {}

/// Joint types with a motor: revolute, prismatic, wheel.
pub trait HasMotor: JointType {}
impl HasMotor for Revolute {}
impl HasMotor for Prismatic {}
impl HasMotor for Wheel {}

/// Joint types with a spring: revolute, prismatic, wheel, distance, weld, mouse, motor.
pub trait HasSpring: JointType {}
impl HasSpring for Revolute {}
impl HasSpring for Prismatic {}
impl HasSpring for Wheel {}
impl HasSpring for Distance {}
impl HasSpring for Weld {}
impl HasSpring for Mouse {}
impl HasSpring for Motor {}

/// Joint types that keep a relative angle: revolute, prismatic, weld.
pub trait HasReferenceAngle: JointType {}
impl HasReferenceAngle for Revolute {}
impl HasReferenceAngle for Prismatic {}
impl HasReferenceAngle for Weld {}

/// A [`Joint`] being built, typed by its joint type `T` (see the module docs). Spawn it as
/// a bundle or turn it into the `Joint` with [`JointBuilder::build`].
#[derive(Bundle, Clone, Debug)]
pub struct JointBuilder<T: JointType> {
    joint: Joint,
    #[bundle(ignore)]
    joint_type: PhantomData<T>,
}

impl<T: JointType> From<JointBuilder<T>> for Joint {
    fn from(builder: JointBuilder<T>) -> Joint {
        builder.joint
    }
}

impl<T: JointType> std::ops::Deref for JointBuilder<T> {
    type Target = Joint;
    fn deref(&self) -> &Joint {
        &self.joint
    }
}

impl<T: JointType> JointBuilder<T> {
    fn new(a: Entity, b: Entity, kind: JointKind) -> Self {
        JointBuilder {
            joint: Joint::from_kind(a, b, kind),
            joint_type: PhantomData,
        }
    }

    /// The finished component.
    pub fn build(self) -> Joint {
        self.joint
    }

    /// Anchors both bodies at one world point (converted when the joint is created).
    pub fn with_anchor(mut self, world_point: Vec2) -> Self {
        self.joint.anchor = JointAnchor::World(world_point);
        self
    }

    /// Anchors at a point in each body's own frame.
    pub fn with_local_anchors(mut self, a: Vec2, b: Vec2) -> Self {
        self.joint.anchor = JointAnchor::Local { a, b };
        self
    }

    /// Lets the two bodies collide with each other.
    pub fn with_collide_connected(mut self, collide: bool) -> Self {
        self.joint.collide_connected = collide;
        self
    }

    /// Breaks when the joint force exceeds `force`.
    pub fn with_break_force(mut self, force: f32) -> Self {
        self.joint.break_force = force;
        self
    }

    /// Breaks when the joint torque exceeds `torque`.
    pub fn with_break_torque(mut self, torque: f32) -> Self {
        self.joint.break_torque = torque;
        self
    }
}

impl<T: HasReferenceAngle> JointBuilder<T> {
    /// The relative angle to keep instead of the one at creation.
    pub fn with_reference_angle(mut self, angle: f32) -> Self {
        self.joint.reference_angle = Some(angle);
        self
    }
}

impl<T: HasLimits> JointBuilder<T> {
    /// Limits: angles (revolute) or translations along the axis (prismatic, wheel).
    pub fn with_limits(mut self, lower: f32, upper: f32) -> Self {
        match &mut self.joint.kind {
            JointKind::Revolute(j) => {
                (j.enable_limit, j.lower_angle, j.upper_angle) = (true, lower, upper);
            }
            JointKind::Prismatic(j) => {
                (j.enable_limit, j.lower_translation, j.upper_translation) = (true, lower, upper);
            }
            JointKind::Wheel(j) => {
                (j.enable_limit, j.lower_translation, j.upper_translation) = (true, lower, upper);
            }
            _ => unreachable!("HasLimits is implemented for revolute, prismatic and wheel"),
        }
        self
    }
}

impl<T: HasMotor> JointBuilder<T> {
    /// A motor driving the joint at `speed` (rad/s for revolute and wheel joints, units/s
    /// for prismatic ones) with at most `max` torque (revolute, wheel) or force (prismatic).
    pub fn with_motor(mut self, speed: f32, max: f32) -> Self {
        match &mut self.joint.kind {
            JointKind::Revolute(j) => {
                (j.enable_motor, j.motor_speed, j.max_motor_torque) = (true, speed, max);
            }
            JointKind::Prismatic(j) => {
                (j.enable_motor, j.motor_speed, j.max_motor_force) = (true, speed, max);
            }
            JointKind::Wheel(j) => {
                (j.enable_motor, j.motor_speed, j.max_motor_torque) = (true, speed, max);
            }
            _ => unreachable!("HasMotor is implemented for revolute, prismatic and wheel"),
        }
        self
    }
}

impl<T: HasSpring> JointBuilder<T> {
    /// A spring of stiffness `hertz` and `damping_ratio`: towards the reference angle
    /// (revolute), translation zero (prismatic), along the suspension (wheel), the rest
    /// length (distance), the relative pose (weld, both parts), the target (mouse, motor).
    pub fn with_spring(mut self, hertz: f32, damping_ratio: f32) -> Self {
        let z = damping_ratio;
        match &mut self.joint.kind {
            JointKind::Revolute(j) => {
                (j.enable_spring, j.hertz, j.damping_ratio) = (true, hertz, z);
            }
            JointKind::Prismatic(j) => {
                (j.enable_spring, j.hertz, j.damping_ratio) = (true, hertz, z);
            }
            JointKind::Wheel(j) => (j.enable_spring, j.hertz, j.damping_ratio) = (true, hertz, z),
            JointKind::Distance(j) => {
                (j.enable_spring, j.hertz, j.damping_ratio) = (true, hertz, z);
            }
            JointKind::Weld(j) => {
                (j.linear_hertz, j.linear_damping_ratio) = (hertz, z);
                (j.angular_hertz, j.angular_damping_ratio) = (hertz, z);
            }
            JointKind::Mouse(j) => (j.hertz, j.damping_ratio) = (hertz, z),
            JointKind::Motor(j) => (j.hertz, j.damping_ratio) = (hertz, z),
            _ => unreachable!("HasSpring is implemented for the types matched above"),
        }
        self
    }
}

impl JointBuilder<Distance> {
    /// The rest length instead of the one measured at creation (a rigid rod keeps exactly
    /// this length; a spring pulls towards it).
    pub fn with_length(mut self, length: f32) -> Self {
        if let JointKind::Distance(d) = &mut self.joint.kind {
            d.length = length;
            if !d.enable_spring {
                (d.min_length, d.max_length) = (length, length);
            }
        }
        self.joint.measure_length = false;
        self
    }

    /// The length may range freely from `min` to `max`. A spring keeps its pull towards its
    /// rest length within the range; a rigid rod becomes slack within it (a rope that also
    /// stops at `min`), since a rigid length has no range.
    pub fn with_length_range(mut self, min: f32, max: f32) -> Self {
        if let JointKind::Distance(d) = &mut self.joint.kind {
            (d.min_length, d.max_length) = (min, max);
            if !d.enable_spring {
                (d.enable_spring, d.hertz, d.damping_ratio) = (true, 0.0, 0.0);
            }
        }
        self
    }
}

impl JointBuilder<Mouse> {
    /// The largest pulling force.
    pub fn with_max_force(mut self, max_force: f32) -> Self {
        if let JointKind::Mouse(j) = &mut self.joint.kind {
            j.max_force = max_force;
        }
        self
    }
}

impl JointBuilder<Motor> {
    /// The largest force and torque the drive may use.
    pub fn with_max_force_and_torque(mut self, force: f32, torque: f32) -> Self {
        if let JointKind::Motor(j) = &mut self.joint.kind {
            (j.max_force, j.max_torque) = (force, torque);
        }
        self
    }

    /// The pose of B relative to A the drive pulls towards: B's centre at `offset` in A's
    /// frame, turned by `angle`.
    pub fn with_target_offset(mut self, offset: Vec2, angle: f32) -> Self {
        if let JointKind::Motor(j) = &mut self.joint.kind {
            (j.linear_offset, j.angular_offset) = (offset, angle);
        }
        self
    }
}

impl Joint {
    /// A pin joint: the anchors coincide, rotation is free. Anchored at both bodies' origins
    /// until [`JointBuilder::with_anchor`] or [`JointBuilder::with_local_anchors`] says
    /// otherwise.
    pub fn revolute(a: Entity, b: Entity) -> JointBuilder<Revolute> {
        JointBuilder::new(a, b, JointKind::Revolute(RevoluteJoint::default()))
    }

    /// A slider along `axis` (in A's frame); no relative rotation.
    pub fn prismatic(a: Entity, b: Entity, axis: Vec2) -> JointBuilder<Prismatic> {
        JointBuilder::new(
            a,
            b,
            JointKind::Prismatic(PrismaticJoint {
                local_axis_a: axis.normalize_or(Vec2::X),
                ..Default::default()
            }),
        )
    }

    /// A rigid rod between the anchors whose length is measured when the joint is created
    /// (set one with [`JointBuilder::with_length`]).
    pub fn distance(a: Entity, b: Entity) -> JointBuilder<Distance> {
        let mut builder = JointBuilder::new(a, b, JointKind::Distance(DistanceJoint::rigid(1.0)));
        builder.joint.measure_length = true;
        builder
    }

    /// A damped spring between the anchors with rest length measured at creation.
    pub fn spring(a: Entity, b: Entity, hertz: f32, damping_ratio: f32) -> JointBuilder<Distance> {
        let kind = JointKind::Distance(DistanceJoint::spring(1.0, hertz, damping_ratio));
        let mut builder = JointBuilder::new(a, b, kind);
        builder.joint.measure_length = true;
        builder
    }

    /// A rope: slack below `max_length`, taut at it.
    pub fn rope(a: Entity, b: Entity, max_length: f32) -> JointBuilder<Distance> {
        JointBuilder::new(a, b, JointKind::Distance(DistanceJoint::rope(max_length)))
    }

    /// Keeps the relative pose (glue), rigid unless given springs.
    pub fn weld(a: Entity, b: Entity) -> JointBuilder<Weld> {
        JointBuilder::new(a, b, JointKind::Weld(WeldJoint::default()))
    }

    /// A wheel on a suspension along `axis` (in A's frame, usually up), sprung by default.
    pub fn wheel(a: Entity, b: Entity, axis: Vec2) -> JointBuilder<Wheel> {
        JointBuilder::new(
            a,
            b,
            JointKind::Wheel(WheelJoint {
                local_axis_a: axis.normalize_or(Vec2::Y),
                ..Default::default()
            }),
        )
    }

    /// Pulls `body` at the grabbed world point `target` towards the target (move it with
    /// [`Joint::set_target`] as the mouse moves).
    pub fn mouse(body: Entity, target: Vec2) -> JointBuilder<Mouse> {
        let kind = JointKind::Mouse(MouseJoint {
            target: physics_core::position::to_position(target),
            hertz: 5.0,
            damping_ratio: 0.7,
            max_force: f32::INFINITY,
        });
        let mut builder = JointBuilder::new(Entity::PLACEHOLDER, body, kind);
        builder.joint.anchor = JointAnchor::World(target);
        builder
    }

    /// Two bodies hanging on ropes over the fixed points `ground.0` and `ground.1`, attached
    /// at the world points `anchors.0` and `anchors.1`: length_a + ratio * length_b stays
    /// constant.
    pub fn pulley(
        a: Entity,
        b: Entity,
        ground: (Vec2, Vec2),
        anchors: (Vec2, Vec2),
        ratio: f32,
    ) -> JointBuilder<Pulley> {
        let kind = PulleyJoint::new(ground.0, ground.1, anchors.0, anchors.1, ratio);
        let mut builder = JointBuilder::new(a, b, JointKind::Pulley(kind));
        builder.joint.anchor = JointAnchor::WorldPair {
            a: anchors.0,
            b: anchors.1,
        };
        builder
    }

    /// Keeps the relative rotation of the bodies (angle B - angle A) as it is at creation.
    pub fn angle(a: Entity, b: Entity) -> JointBuilder<Angle> {
        JointBuilder::new(a, b, JointKind::Angle(AngleJoint::default()))
    }

    /// A gear: angle B - `ratio` * angle A stays as it is at creation.
    pub fn gear(a: Entity, b: Entity, ratio: f32) -> JointBuilder<Angle> {
        let kind = JointKind::Angle(AngleJoint {
            ratio,
            offset: None,
        });
        JointBuilder::new(a, b, kind)
    }

    /// Drives B towards a pose relative to A with limited force and torque (top-down
    /// friction, character drives).
    pub fn motor(a: Entity, b: Entity) -> JointBuilder<Motor> {
        JointBuilder::new(a, b, JointKind::Motor(MotorJoint::default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_set_what_their_type_has() {
        let mut world = World::new();
        let (a, b) = (world.spawn_empty().id(), world.spawn_empty().id());
        let hinge = Joint::revolute(a, b)
            .with_limits(-1.0, 1.0)
            .with_motor(2.0, 5.0)
            .build();
        let JointKind::Revolute(r) = hinge.kind else {
            panic!("{hinge:?}");
        };
        assert!(r.enable_limit && r.enable_motor);
        assert_eq!(
            (r.lower_angle, r.upper_angle, r.motor_speed),
            (-1.0, 1.0, 2.0)
        );

        // A rod given a range becomes slack within it; a spring keeps its stiffness.
        let rod = Joint::distance(a, b)
            .with_length(2.0)
            .with_length_range(1.0, 3.0)
            .build();
        let JointKind::Distance(d) = rod.kind else {
            panic!("{rod:?}");
        };
        assert!(d.enable_spring && d.hertz == 0.0);
        assert_eq!((d.length, d.min_length, d.max_length), (2.0, 1.0, 3.0));
        let spring = Joint::spring(a, b, 4.0, 0.5)
            .with_length_range(1.0, 3.0)
            .build();
        let JointKind::Distance(s) = spring.kind else {
            panic!("{spring:?}");
        };
        assert_eq!((s.hertz, s.min_length, s.max_length), (4.0, 1.0, 3.0));
        // A rigid rod keeps its spring off when given a length.
        let JointKind::Distance(r) = Joint::distance(a, b).with_length(2.0).kind else {
            unreachable!()
        };
        assert!(!r.enable_spring && r.min_length == 2.0 && r.max_length == 2.0);
    }

    #[test]
    fn run_time_setters_refuse_joint_types_they_do_not_fit() {
        let mut world = World::new();
        let (a, b) = (world.spawn_empty().id(), world.spawn_empty().id());
        let mut glue = Joint::weld(a, b).build();
        let before = glue.clone();
        let error = glue.set_motor_speed(3.0).unwrap_err();
        assert_eq!(
            error.to_string(),
            "a motor speed does not apply to a weld joint"
        );
        assert!(glue.set_target(Vec2::ONE).is_err());
        assert_eq!(glue, before);
        let mut wheel = Joint::wheel(a, b, Vec2::Y).with_motor(0.0, 10.0).build();
        wheel.set_motor_speed(3.0).unwrap();
        let JointKind::Wheel(w) = wheel.kind else {
            unreachable!()
        };
        assert_eq!(w.motor_speed, 3.0);
    }
}
