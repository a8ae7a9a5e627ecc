//! Rigid-body components: the body type, its velocities, forces and motion settings.
//!
//! Every component here takes effect at the next step when it is added, changed or removed.

use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use bevy_transform::components::Transform;
use serde::{Deserialize, Serialize};

/// Makes an entity a rigid body. Its colliders are on the entity itself and on its
/// descendants, which together form one compound body.
///
/// A body may sit anywhere in a hierarchy: its `Transform` is local to its parent, as for any
/// Bevy entity, and the physics works with the world pose the parent chain gives it. When the
/// parent moves, a static body moves with it, a kinematic body follows it as a velocity (so
/// what it pushes answers), and a dynamic body keeps its own world motion (its local
/// `Transform` is rewritten under the moved parent). A body without a parent has its world
/// pose in its `Transform`.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn spawn(mut commands: Commands) {
///     commands.spawn((RigidBody::Dynamic, Collider::circle(0.5), Transform::from_xyz(0.0, 4.0, 0.0)));
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize,
)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
#[require(
    Transform,
    LinearVelocity,
    AngularVelocity,
    crate::ComputedMass,
    crate::ComputedAngularInertia,
    crate::ComputedCenterOfMass,
    crate::dynamics::body::forces::PendingForces
)]
pub enum RigidBody {
    /// Moves under gravity, forces and contacts.
    #[default]
    Dynamic,
    /// Never moves; infinite mass.
    Static,
    /// Moves with the velocity you give it, pushes dynamic bodies and is never pushed.
    Kinematic,
}

impl RigidBody {
    /// The core body type.
    pub fn to_core(self) -> physics_core::body::BodyType {
        use physics_core::body::BodyType;
        match self {
            RigidBody::Dynamic => BodyType::Dynamic,
            RigidBody::Static => BodyType::Static,
            RigidBody::Kinematic => BodyType::Kinematic,
        }
    }
}

/// Velocity of the body's centre of mass, in units per second. Written back every step;
/// setting it moves the body. A moving body starts with this velocity at its centre of mass
/// once the colliders it is built with are attached, whether it is built in the frame it is
/// spawned or later (enabled, or once a parent it waited on is placed somewhere valid); a
/// collider added in a later step moves the centre of mass and with it this velocity, as
/// the body's rotation carries the new centre.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct LinearVelocity(pub Vec2);

/// Angular velocity in radians per second, counter-clockwise positive.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct AngularVelocity(pub f32);

/// A force (and torque) applied every step until it is changed or removed, at the centre of
/// mass or at a point of the body. Set `persistent` to false to apply it for one step only.
/// With `local` the force turns with the body (a thruster); with a `point` (in the body's
/// frame) it also turns the body by `r x F`. For one-shot pushes from gameplay code the
/// [`Forces`](crate::Forces) query helper is shorter.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// // 30 N along the body's own +y, acting 1 m behind its centre: a rocket motor.
/// let motor = ExternalForce::new(Vec2::new(0.0, 30.0)).local().at_point(Vec2::new(0.0, -1.0));
/// assert!(motor.local && motor.persistent);
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ExternalForce {
    /// Force in newtons (mass units times units per second squared).
    pub force: Vec2,
    /// Torque about the centre of mass.
    pub torque: f32,
    /// Keep applying every step (true) or clear after one step (false).
    pub persistent: bool,
    /// `force` is given in the body's frame and turns with it (false: world space).
    pub local: bool,
    /// Where the force acts, in the body's frame (`None`: the centre of mass, no torque
    /// from it).
    pub point: Option<Vec2>,
}

impl Default for ExternalForce {
    fn default() -> Self {
        ExternalForce {
            force: Vec2::ZERO,
            torque: 0.0,
            persistent: true,
            local: false,
            point: None,
        }
    }
}

impl ExternalForce {
    /// A persistent force at the centre of mass.
    pub fn new(force: Vec2) -> Self {
        ExternalForce {
            force,
            ..Default::default()
        }
    }

    /// The same force with a torque.
    pub fn with_torque(mut self, torque: f32) -> Self {
        self.torque = torque;
        self
    }

    /// The same force in the body's frame, turning with it.
    pub fn local(mut self) -> Self {
        self.local = true;
        self
    }

    /// The same force acting at `point`, in the body's frame.
    pub fn at_point(mut self, point: Vec2) -> Self {
        self.point = Some(point);
        self
    }

    /// The same force for the next step only.
    pub fn one_shot(mut self) -> Self {
        self.persistent = false;
        self
    }
}

/// An impulse (and angular impulse) applied once at the next step, then cleared to zero.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ExternalImpulse {
    /// Linear impulse (mass times velocity).
    pub impulse: Vec2,
    /// Angular impulse.
    pub angular_impulse: f32,
}

impl ExternalImpulse {
    /// A linear impulse at the centre of mass.
    pub fn new(impulse: Vec2) -> Self {
        ExternalImpulse {
            impulse,
            angular_impulse: 0.0,
        }
    }
}

/// Multiplies gravity for this body (0 floats, -1 falls up).
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct GravityScale(pub f32);

impl Default for GravityScale {
    fn default() -> Self {
        GravityScale(1.0)
    }
}

/// Linear velocity damping per second.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct LinearDamping(pub f32);

/// Angular velocity damping per second.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct AngularDamping(pub f32);

/// The body never rotates (infinite rotational inertia); for characters.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct LockedRotation;

/// Overrides the mass properties the colliders give a body, each part on its own: a part
/// left `None` keeps what the colliders give. A mass alone scales the colliders' rotational
/// inertia with it (the same shape, heavier), as in Avian.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// // A 70 kg character whatever its collider's size, turning as its shape says.
/// let character = Mass::new(70.0);
/// // A wheel with its centre of mass low and a given inertia.
/// let wheel = Mass::default().with_center(Vec2::new(0.0, -0.1)).with_inertia(0.5);
/// assert_eq!(character.inertia, None);
/// assert_eq!(wheel.mass, None);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Mass {
    /// Mass, or `None` for the colliders' mass.
    pub mass: Option<f32>,
    /// Rotational inertia about the centre of mass, or `None` for the colliders' inertia
    /// (scaled by the given mass over theirs when a mass is given).
    pub inertia: Option<f32>,
    /// Centre of mass in the body's frame, or `None` for the colliders' centre.
    pub center: Option<Vec2>,
}

impl Mass {
    /// Overrides the mass only.
    pub fn new(mass: f32) -> Self {
        Mass {
            mass: Some(mass),
            ..Default::default()
        }
    }

    /// Overrides every part.
    pub fn full(mass: f32, inertia: f32, center: Vec2) -> Self {
        Mass {
            mass: Some(mass),
            inertia: Some(inertia),
            center: Some(center),
        }
    }

    /// Also overrides the rotational inertia (about the centre of mass).
    pub fn with_inertia(mut self, inertia: f32) -> Self {
        self.inertia = Some(inertia);
        self
    }

    /// Also overrides the centre of mass (in the body's frame).
    pub fn with_center(mut self, center: Vec2) -> Self {
        self.center = Some(center);
        self
    }

    /// The mass properties with this override applied to `computed`, the colliders' own;
    /// `None` when nothing is overridden.
    pub fn applied_to(
        &self,
        computed: physics_core::shape::MassData,
    ) -> Option<physics_core::shape::MassData> {
        if *self == Mass::default() {
            return None;
        }
        let mass = self.mass.unwrap_or(computed.mass);
        let scaled = if computed.mass > 0.0 {
            computed.rotational_inertia * (mass / computed.mass)
        } else {
            0.0
        };
        Some(physics_core::shape::MassData {
            mass,
            center: self.center.unwrap_or(computed.center),
            rotational_inertia: self.inertia.unwrap_or(scaled),
        })
    }
}

/// Marks a body that is asleep. Written by the engine when the body's island falls asleep or
/// wakes; insert it to put a body to sleep, remove it to wake the body.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Sleeping;

/// Continuous collision against dynamic bodies as well as static ones, for small fast
/// projectiles (every dynamic body is already swept against static geometry).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Bullet;

/// Lets a body spin faster than a quarter turn per physics step (47 rad/s at 60 Hz), the
/// limit every other body has, as in Box2D v3: a body knocked into a wild spin would
/// otherwise sweep its ends through thin walls between two steps. Put it on wheels and
/// rotors that must turn fast.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct FastRotation;
