//! The [`Joint`] component: one component for every joint type, built with constructors and
//! builder methods, turned into a core joint when both bodies exist.

use crate::world::game_frame::GameFrame;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use physics_core::joint::JointKind;
use physics_core::position::{Position, to_position, to_vec2};
use serde::{Deserialize, Serialize};

/// Where a joint attaches to its bodies.
#[derive(Clone, Copy, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Debug, PartialEq, Serialize, Deserialize)]
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
/// Build one with a constructor for its type ([`Joint::revolute`], [`Joint::prismatic`],
/// [`Joint::distance`], ...): each returns a [`JointBuilder`](crate::JointBuilder) whose methods are the ones that
/// mean something for that type, so `Joint::weld(a, b).with_motor(1.0, 10.0)` is a compile
/// error rather than a motor that silently does nothing. Spawn the builder as it is (it is a
/// bundle holding the `Joint`).
///
/// `entity_a` may be [`Entity::PLACEHOLDER`] to attach body B to the world itself (a fixed
/// point), as [`Joint::mouse`] does. Changing a joint's parameters (motor speed, limits,
/// springs) at run time keeps its warm-start state; changing its bodies or anchors rebuilds
/// it. When either body is despawned the joint is destroyed with a
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
///
/// A builder method that does not fit the joint type does not compile:
///
/// ```compile_fail
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
/// let (a, b) = (Entity::PLACEHOLDER, Entity::PLACEHOLDER);
/// let glued = Joint::weld(a, b).with_motor(1.0, 10.0);
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect, Serialize, Deserialize)]
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

/// A run-time setter was called on a joint of a type it does not apply to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JointTypeError {
    /// What was asked for.
    pub asked: &'static str,
    /// The joint's type.
    pub joint_type: &'static str,
}

impl std::fmt::Display for JointTypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} does not apply to a {} joint",
            self.asked, self.joint_type
        )
    }
}

impl std::error::Error for JointTypeError {}

/// The name of a joint type, for messages.
pub(crate) fn kind_name(kind: &JointKind) -> &'static str {
    match kind {
        JointKind::Revolute(_) => "revolute",
        JointKind::Prismatic(_) => "prismatic",
        JointKind::Distance(_) => "distance",
        JointKind::Weld(_) => "weld",
        JointKind::Mouse(_) => "mouse",
        JointKind::Wheel(_) => "wheel",
        JointKind::Pulley(_) => "pulley",
        JointKind::Angle(_) => "angle",
        JointKind::Motor(_) => "motor",
    }
}

impl Joint {
    /// A joint of any core kind between `a` and `b`, anchored at both bodies' origins: for
    /// code that builds joints from data (a level file, a scene description). The typed
    /// constructors ([`Joint::revolute`] and the others) are the usual way.
    pub fn from_kind(a: Entity, b: Entity, kind: JointKind) -> Self {
        Joint {
            entity_a: a,
            entity_b: b,
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

    /// The name of the joint's type ("revolute", "weld", ...).
    pub fn type_name(&self) -> &'static str {
        kind_name(&self.kind)
    }

    /// Sets the motor speed of a revolute, prismatic or wheel joint (at run time too);
    /// other types are left as they are and say so.
    pub fn set_motor_speed(&mut self, speed: f32) -> Result<(), JointTypeError> {
        match &mut self.kind {
            JointKind::Revolute(j) => j.motor_speed = speed,
            JointKind::Prismatic(j) => j.motor_speed = speed,
            JointKind::Wheel(j) => j.motor_speed = speed,
            other => {
                return Err(JointTypeError {
                    asked: "a motor speed",
                    joint_type: kind_name(other),
                });
            }
        }
        Ok(())
    }

    /// Moves a mouse joint's target (at run time too); other types say they have none.
    pub fn set_target(&mut self, target: Vec2) -> Result<(), JointTypeError> {
        match &mut self.kind {
            JointKind::Mouse(j) => {
                j.target = to_position(target);
                Ok(())
            }
            other => Err(JointTypeError {
                asked: "a target",
                joint_type: kind_name(other),
            }),
        }
    }
}

/// `kind` with each point it fixes in the world (a mouse joint's target, a pulley's ground
/// points) replaced by `map(point)`; the other kinds name no such point.
fn map_fixed_points(mut kind: JointKind, map: impl Fn(Position) -> Position) -> JointKind {
    match &mut kind {
        JointKind::Mouse(j) => j.target = map(j.target),
        JointKind::Pulley(j) => (j.ground_a, j.ground_b) = (map(j.ground_a), map(j.ground_b)),
        _ => {}
    }
    kind
}

/// The points of a joint's kind (a mouse joint's target, a pulley's ground points) are the
/// game's, like every point the plugin takes: this is the kind with them in the core world's
/// positions (`game`'s origin added).
pub(crate) fn kind_in_world(kind: JointKind, game: GameFrame) -> JointKind {
    map_fixed_points(kind, |p| game.to_world(to_vec2(p)))
}

impl Joint {
    /// The floating origin moved by `by` (game coordinates): the joint's game points (world
    /// anchors, a mouse target, pulley ground points) move by `-by`, so they name the same
    /// world points.
    pub(crate) fn shift_points(&mut self, by: Vec2) {
        match &mut self.anchor {
            JointAnchor::Local { .. } => {}
            JointAnchor::World(p) => *p -= by,
            JointAnchor::WorldPair { a, b } => {
                *a -= by;
                *b -= by;
            }
        }
        self.kind = map_fixed_points(self.kind, |p| to_position(to_vec2(p) - by));
    }
}
