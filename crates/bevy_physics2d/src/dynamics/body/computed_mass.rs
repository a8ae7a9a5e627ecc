//! The mass properties the engine computed for each body, as read-only components.

use crate::world::handle::PhysicsBody;
use crate::world::physics_world::PhysicsWorld;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;

/// The body's mass as the engine uses it: its colliders' (density times area), or the
/// [`Mass`](crate::Mass) override. Written by the engine at the step after a change; read it
/// (for a jump impulse `m * v`, or a force that must give a set acceleration), set
/// [`Mass`](crate::Mass) to change it. Zero for static and kinematic bodies.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// // An impulse that changes the body's speed by 5 m/s upwards whatever it weighs.
/// fn jump(mut bodies: Query<(&ComputedMass, &mut ExternalImpulse)>) {
///     for (mass, mut impulse) in &mut bodies {
///         impulse.impulse = Vec2::new(0.0, 5.0 * mass.get());
///     }
/// }
/// # bevy_ecs::system::assert_is_system(jump);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct ComputedMass(f32);

impl ComputedMass {
    /// The mass.
    pub fn get(&self) -> f32 {
        self.0
    }

    /// One over the mass, zero for a body that cannot be pushed.
    pub fn inverse(&self) -> f32 {
        if self.0 > 0.0 { 1.0 / self.0 } else { 0.0 }
    }
}

/// The body's rotational inertia about its centre of mass, as the engine uses it (zero with
/// locked rotation). Written by the engine; see [`ComputedMass`].
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct ComputedAngularInertia(f32);

impl ComputedAngularInertia {
    /// The rotational inertia.
    pub fn get(&self) -> f32 {
        self.0
    }
}

/// The body's centre of mass in its own frame (add the body's pose for the world point).
/// Written by the engine; see [`ComputedMass`].
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct ComputedCenterOfMass(Vec2);

impl ComputedCenterOfMass {
    /// The centre of mass in the body's frame.
    pub fn get(&self) -> Vec2 {
        self.0
    }
}

/// Copies every body's mass data into its computed components when some body's may have
/// changed (the core's mass revision moved), at the end of the Prepare stage. A world whose
/// bodies and colliders stay as they are pays one comparison per step.
pub(crate) fn write_computed_mass(
    physics: Res<PhysicsWorld>,
    mut seen: Local<Option<u64>>,
    mut bodies: Query<(
        &PhysicsBody,
        &mut ComputedMass,
        &mut ComputedAngularInertia,
        &mut ComputedCenterOfMass,
    )>,
) {
    let revision = physics.world.mass_revision();
    if *seen == Some(revision) {
        return;
    }
    *seen = Some(revision);
    for (handle, mut mass, mut inertia, mut center) in &mut bodies {
        let Ok(data) = physics.world.body_mass_data(handle.id) else {
            continue;
        };
        mass.set_if_neq(ComputedMass(data.mass));
        inertia.set_if_neq(ComputedAngularInertia(data.rotational_inertia));
        center.set_if_neq(ComputedCenterOfMass(data.center));
    }
}
