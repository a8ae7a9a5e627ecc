//! The [`Joint`] component: one component for every joint type, built with constructors and
//! builder methods, turned into a core joint when both bodies exist.

use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use physics_core::joint::{
    AngleJoint, DistanceJoint, JointKind, MotorJoint, MouseJoint, PrismaticJoint, PulleyJoint,
    RevoluteJoint, WeldJoint, WheelJoint,
};
use serde::{Deserialize, Serialize};

/// Where a joint attaches to its bodies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum JointAnchor {
    /// A point in each body's own frame.
    Local {
        /// On body A.
        a: Vec2,
        /// On body B.
        b: Vec2,
    },
    /// One world point, taken into both bodies' frames when the joint is created.
    World(Vec2),
    /// One world point per body, taken into their frames when the joint is created.
    WorldPair {
        /// On body A.
        a: Vec2,
        /// On body B.
        b: Vec2,
    },
}

/// A joint between two rigid-body entities, on an entity of its own.
///
/// `entity_a` may be [`Entity::PLACEHOLDER`] to attach body B to the world itself (a fixed
/// point), as [`Joint::mouse`] does. Changing a joint's parameters (motor speed, limits,
/// springs) at run time keeps its warm-start state; changing its bodies or anchors rebuilds
/// it. When either body is despawned the joint is destroyed with a warning and a
/// [`JointBroken`](crate::JointBroken) event; the component stays so you can see what it was.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn spawn(mut commands: Commands) {
///     let a = commands.spawn((RigidBody::Static, Collider::rectangle(1.0, 1.0))).id();
///     let b = commands.spawn((RigidBody::Dynamic, Collider::capsule(0.2, 1.0))).id();
///     commands.spawn(
///         Joint::revolute(a, b)
///             .with_anchor(Vec2::new(0.5, 0.0))
///             .with_limits(-0.5, 0.5)
///             .with_motor(2.0, 50.0),
///     );
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(opaque)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct Joint {
    /// First body (or [`Entity::PLACEHOLDER`] for the world).
    #[entities]
    pub entity_a: Entity,
    /// Second body.
    #[entities]
    pub entity_b: Entity,
    /// Where the joint attaches.
    pub anchor: JointAnchor,
    /// Whether the two bodies still collide with each other.
    pub collide_connected: bool,
    /// Breaks above this force (disabled, with a [`JointBroken`](crate::JointBroken) event).
    pub break_force: f32,
    /// Breaks above this torque.
    pub break_torque: f32,
    /// Relative angle to keep (revolute, prismatic, weld); `None` takes the bodies' relative
    /// angle when the joint is created.
    pub reference_angle: Option<f32>,
    /// Distance joints: take the rest length from the anchors when the joint is created.
    pub measure_length: bool,
    /// The joint type and its parameters.
    pub kind: JointKind,
}

impl Joint {
    fn new(entity_a: Entity, entity_b: Entity, kind: JointKind) -> Self {
        Joint {
            entity_a,
            entity_b,
            anchor: JointAnchor::Local {
                a: Vec2::ZERO,
                b: Vec2::ZERO,
            },
            collide_connected: false,
            break_force: f32::INFINITY,
            break_torque: f32::INFINITY,
            reference_angle: None,
            measure_length: false,
            kind,
        }
    }

    /// A pin joint: the anchors coincide, rotation is free. Anchored at both bodies' origins
    /// until [`Joint::with_anchor`] or [`Joint::with_local_anchors`] says otherwise.
    pub fn revolute(a: Entity, b: Entity) -> Self {
        Self::new(a, b, JointKind::Revolute(RevoluteJoint::default()))
    }

    /// A slider along `axis` (in A's frame); no relative rotation.
    pub fn prismatic(a: Entity, b: Entity, axis: Vec2) -> Self {
        Self::new(
            a,
            b,
            JointKind::Prismatic(PrismaticJoint {
                local_axis_a: axis.normalize_or(Vec2::X),
                ..Default::default()
            }),
        )
    }

    /// A rigid rod between the anchors whose length is measured when the joint is created
    /// (set one with [`Joint::with_length`]).
    pub fn distance(a: Entity, b: Entity) -> Self {
        let mut joint = Self::new(a, b, JointKind::Distance(DistanceJoint::rigid(1.0)));
        joint.measure_length = true;
        joint
    }

    /// A damped spring between the anchors with rest length measured at creation.
    pub fn spring(a: Entity, b: Entity, hertz: f32, damping_ratio: f32) -> Self {
        let mut joint = Self::new(
            a,
            b,
            JointKind::Distance(DistanceJoint::spring(1.0, hertz, damping_ratio)),
        );
        joint.measure_length = true;
        joint
    }

    /// A rope: slack below `max_length`, taut at it.
    pub fn rope(a: Entity, b: Entity, max_length: f32) -> Self {
        Self::new(a, b, JointKind::Distance(DistanceJoint::rope(max_length)))
    }

    /// Keeps the relative pose (glue), rigid unless given springs.
    pub fn weld(a: Entity, b: Entity) -> Self {
        Self::new(a, b, JointKind::Weld(WeldJoint::default()))
    }

    /// A wheel on a suspension along `axis` (in A's frame, usually up), sprung by default.
    pub fn wheel(a: Entity, b: Entity, axis: Vec2) -> Self {
        Self::new(
            a,
            b,
            JointKind::Wheel(WheelJoint {
                local_axis_a: axis.normalize_or(Vec2::Y),
                ..Default::default()
            }),
        )
    }

    /// Pulls `body` at the grabbed world point `target` towards the target (update
    /// [`Joint::set_target`] as the mouse moves).
    pub fn mouse(body: Entity, target: Vec2) -> Self {
        let mut joint = Self::new(
            Entity::PLACEHOLDER,
            body,
            JointKind::Mouse(MouseJoint {
                target,
                hertz: 5.0,
                damping_ratio: 0.7,
                max_force: f32::INFINITY,
            }),
        );
        joint.anchor = JointAnchor::World(target);
        joint
    }

    /// Two bodies hanging on ropes over the fixed points `ground_a` and `ground_b`, attached at
    /// the world points `anchor_a` and `anchor_b`: length_a + ratio * length_b stays constant.
    pub fn pulley(
        a: Entity,
        b: Entity,
        ground: (Vec2, Vec2),
        anchors: (Vec2, Vec2),
        ratio: f32,
    ) -> Self {
        let kind = PulleyJoint::new(ground.0, ground.1, anchors.0, anchors.1, ratio);
        let mut joint = Self::new(a, b, JointKind::Pulley(kind));
        joint.anchor = JointAnchor::WorldPair {
            a: anchors.0,
            b: anchors.1,
        };
        joint
    }

    /// Keeps the relative rotation of the bodies (angle B - angle A) as it is at creation.
    pub fn angle(a: Entity, b: Entity) -> Self {
        Self::new(a, b, JointKind::Angle(AngleJoint::default()))
    }

    /// A gear: angle B - `ratio` * angle A stays as it is at creation.
    pub fn gear(a: Entity, b: Entity, ratio: f32) -> Self {
        Self::new(
            a,
            b,
            JointKind::Angle(AngleJoint {
                ratio,
                offset: None,
            }),
        )
    }

    /// Drives B towards a pose relative to A with limited force and torque (top-down
    /// friction, character drives).
    pub fn motor(a: Entity, b: Entity) -> Self {
        Self::new(a, b, JointKind::Motor(MotorJoint::default()))
    }

    /// Anchors both bodies at one world point (converted when the joint is created).
    pub fn with_anchor(mut self, world_point: Vec2) -> Self {
        self.anchor = JointAnchor::World(world_point);
        self
    }

    /// Anchors at a point in each body's own frame.
    pub fn with_local_anchors(mut self, a: Vec2, b: Vec2) -> Self {
        self.anchor = JointAnchor::Local { a, b };
        self
    }

    /// Lets the two bodies collide with each other.
    pub fn with_collide_connected(mut self, collide: bool) -> Self {
        self.collide_connected = collide;
        self
    }

    /// Breaks when the joint force exceeds `force`.
    pub fn with_break_force(mut self, force: f32) -> Self {
        self.break_force = force;
        self
    }

    /// Breaks when the joint torque exceeds `torque`.
    pub fn with_break_torque(mut self, torque: f32) -> Self {
        self.break_torque = torque;
        self
    }

    /// The relative angle to keep instead of the one at creation.
    pub fn with_reference_angle(mut self, angle: f32) -> Self {
        self.reference_angle = Some(angle);
        self
    }

    /// Distance joints: the rest length instead of the one measured at creation.
    pub fn with_length(mut self, length: f32) -> Self {
        if let JointKind::Distance(d) = &mut self.kind {
            let rigid = !d.enable_spring;
            d.length = length;
            if rigid {
                d.min_length = length;
                d.max_length = length;
            }
        }
        self.measure_length = false;
        self
    }

    /// Limits: angles for revolute joints, translations for prismatic and wheel joints,
    /// lengths for distance joints. Ignored by the other types.
    pub fn with_limits(mut self, lower: f32, upper: f32) -> Self {
        match &mut self.kind {
            JointKind::Revolute(j) => {
                (j.enable_limit, j.lower_angle, j.upper_angle) = (true, lower, upper);
            }
            JointKind::Prismatic(j) => {
                (j.enable_limit, j.lower_translation, j.upper_translation) = (true, lower, upper);
            }
            JointKind::Wheel(j) => {
                (j.enable_limit, j.lower_translation, j.upper_translation) = (true, lower, upper);
            }
            JointKind::Distance(j) => {
                (j.min_length, j.max_length) = (lower, upper);
                j.enable_spring = true;
            }
            _ => {}
        }
        self
    }

    /// A motor driving the joint at `speed` (rad/s or units/s) with at most `max` torque or
    /// force: revolute, prismatic and wheel joints; a motor joint's force and torque limits.
    pub fn with_motor(mut self, speed: f32, max: f32) -> Self {
        match &mut self.kind {
            JointKind::Revolute(j) => {
                (j.enable_motor, j.motor_speed, j.max_motor_torque) = (true, speed, max);
            }
            JointKind::Prismatic(j) => {
                (j.enable_motor, j.motor_speed, j.max_motor_force) = (true, speed, max);
            }
            JointKind::Wheel(j) => {
                (j.enable_motor, j.motor_speed, j.max_motor_torque) = (true, speed, max);
            }
            JointKind::Motor(j) => {
                (j.max_force, j.max_torque) = (max, max);
            }
            _ => {}
        }
        self
    }

    /// A spring of stiffness `hertz` and `damping_ratio`: towards the reference angle
    /// (revolute), translation zero (prismatic), along the suspension (wheel), the rest length
    /// (distance), the relative pose (weld, both parts), the target (mouse, motor).
    pub fn with_spring(mut self, hertz: f32, damping_ratio: f32) -> Self {
        let z = damping_ratio;
        match &mut self.kind {
            JointKind::Revolute(j) => {
                (j.enable_spring, j.hertz, j.damping_ratio) = (true, hertz, z)
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
            _ => {}
        }
        self
    }

    /// Sets the motor speed of a revolute, prismatic or wheel joint (at run time too).
    pub fn set_motor_speed(&mut self, speed: f32) {
        match &mut self.kind {
            JointKind::Revolute(j) => j.motor_speed = speed,
            JointKind::Prismatic(j) => j.motor_speed = speed,
            JointKind::Wheel(j) => j.motor_speed = speed,
            _ => {}
        }
    }

    /// Moves a mouse joint's target (at run time too).
    pub fn set_target(&mut self, target: Vec2) {
        if let JointKind::Mouse(j) = &mut self.kind {
            j.target = target;
        }
    }

    /// Mouse joints: the largest pulling force.
    pub fn with_max_force(mut self, max_force: f32) -> Self {
        if let JointKind::Mouse(j) = &mut self.kind {
            j.max_force = max_force;
        }
        self
    }
}
