//! The floating origin: the world point the game's coordinates are measured from.
//!
//! Bevy's `Transform` is float, and a float far out is coarse: its step is a millimetre at
//! 10 km and a metre at 10,000 km. With the `large-world` feature the core keeps positions in
//! double, and the game's coordinates (every `Transform`, every point the plugin takes or
//! gives: queries, contact points, joint anchors, debug drawing) are measured from the
//! [`PhysicsOrigin`], a double point the game moves with it. Things near the origin are then
//! drawn and written in float to full precision wherever the origin is.
//!
//! The origin moves two ways: [`PhysicsOrigin::move_to`], or by itself, following the entity
//! that has [`FloatingOrigin`] once it is farther than
//! [`PhysicsOrigin::recenter_distance`] from the game's (0, 0). Either way the move happens
//! in the physics step, before the bodies are written back: every root entity's `Transform`
//! (cameras, sprites and bodies alike; children ride their parents) shifts by the move, so
//! nothing the game sees jumps, and the bodies are written at their poses from the new
//! origin.
//!
//! Why not `big_space`: it places every entity on an integer grid of cells, each
//! `Transform` relative to its cell, so a body's world place is a cell plus a translation and
//! every system that reads one (the plugin's, and the game's) must know which. Its latest
//! release (0.12) is for Bevy 0.18, not 0.19. One origin for the whole scene keeps every
//! `Transform` what it has always been, near the player, and costs nothing until it moves.
//!
//! The float build has the same API: its origin is a float point, and an origin far out
//! gains nothing there (its positions are float anyway).
//!
//! [`PhysicsOriginPlugin`] registers the [`PhysicsOrigin`] resource, the [`FloatingOrigin`]
//! component and the system that moves the origin (part of
//! [`PhysicsPlugins`](crate::PhysicsPlugins)). Disabled, the origin stays at the world's.

use crate::dynamics::joint::components::Joint;
use crate::interpolation::InterpolationPoses;
use crate::schedule::{PhysicsStageSchedule, WritebackSystems};
use crate::world::PhysicsWorld;
use crate::world::game_frame::GameFrame;
use bevy_app::{App, Plugin};
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use bevy_transform::components::Transform;
use physics_core::position::{Position, offset, relative};

/// The floating origin (see the module documentation): [`PhysicsOrigin`],
/// [`FloatingOrigin`] and the move at the start of each step's writeback.
#[derive(Default)]
pub struct PhysicsOriginPlugin;

impl Plugin for PhysicsOriginPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PhysicsOrigin>()
            .register_type::<PhysicsOrigin>()
            .register_type::<FloatingOrigin>()
            .add_systems(
                PhysicsStageSchedule::Writeback,
                move_origin
                    .run_if(origin_may_move)
                    .in_set(WritebackSystems::Origin),
            );
    }
}

/// The floating origin, as the game moves it: where to, and whether it follows the
/// [`FloatingOrigin`] entity. See the module documentation; where the origin is now is
/// [`PhysicsWorld::origin`](crate::PhysicsWorld::origin).
///
/// ```
/// use bevy_ecs::prelude::*;
/// use bevy_physics2d::prelude::*;
///
/// #[derive(Component)]
/// struct Ship;
///
/// fn recenter_on_the_ship(
///     mut origin: ResMut<PhysicsOrigin>,
///     ship: Single<&Transform, With<Ship>>,
/// ) {
///     // At the next physics step everything shifts by the ship's place: the ship is then
///     // at (0, 0), and the world point under it is the origin.
///     origin.move_by(ship.translation.truncate());
/// }
/// # bevy_ecs::system::assert_is_system(recenter_on_the_ship);
/// ```
#[derive(Resource, Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct PhysicsOrigin {
    #[reflect(ignore)]
    requested: Option<OriginMove>,
    /// The [`FloatingOrigin`] entity may go this far from the game's (0, 0) (metres) before
    /// the origin moves under it. At 1 km a float's step is 0.06 mm; infinity turns following
    /// off.
    pub recenter_distance: f32,
}

/// A move of the origin the game asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum OriginMove {
    /// To this world point.
    To(Position),
    /// By this much, in the game's coordinates at the next step.
    By(Vec2),
}

impl Default for PhysicsOrigin {
    fn default() -> Self {
        PhysicsOrigin {
            requested: None,
            recenter_distance: 1000.0,
        }
    }
}

impl PhysicsOrigin {
    /// Moves the origin to the world point `position` at the next physics step.
    pub fn move_to(&mut self, position: impl Into<Position>) {
        self.requested = Some(OriginMove::To(position.into()));
    }

    /// Moves the origin by `by` (in the game's coordinates) at the next physics step: what
    /// is at `by` then is at (0, 0) after.
    pub fn move_by(&mut self, by: Vec2) {
        self.requested = Some(match self.requested {
            Some(OriginMove::To(p)) => OriginMove::To(offset(p, by)),
            Some(OriginMove::By(before)) => OriginMove::By(before + by),
            None => OriginMove::By(by),
        });
    }

    /// Whether a move waits for the next physics step.
    pub fn is_moving(&self) -> bool {
        self.requested.is_some()
    }
}

/// The entity the floating origin follows, usually the camera or the player: once it is
/// farther than [`PhysicsOrigin::recenter_distance`] from the game's (0, 0), the origin moves
/// under it. At most one entity should have it (with more, the first found is followed).
/// Its `Transform` is read as a place in the game's coordinates, so give it to an entity
/// without a parent.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Default)]
pub struct FloatingOrigin;

/// Run condition of [`move_origin`]: a move was asked for, or some entity is followed.
pub(crate) fn origin_may_move(
    origin: Option<Res<PhysicsOrigin>>,
    followed: Query<(), With<FloatingOrigin>>,
) -> bool {
    origin.is_some_and(|o| o.is_moving()) || !followed.is_empty()
}

/// Writeback stage, first: moves the origin where it was asked to, or under the followed
/// entity when that is too far out, and shifts every root `Transform` by the move so the
/// scene stays where it is in the world. Bodies are then written back from the new origin
/// (and their `Transform`s shifted here are overwritten with their exact poses from it).
pub(crate) fn move_origin(
    mut physics: ResMut<PhysicsWorld>,
    mut origin: ResMut<PhysicsOrigin>,
    mut transforms: ParamSet<(
        Query<&Transform, With<FloatingOrigin>>,
        Query<(&mut Transform, Option<&mut InterpolationPoses>), Without<ChildOf>>,
    )>,
    mut joints: Query<&mut Joint>,
) {
    let frame = physics.game_frame();
    let followed = transforms
        .p0()
        .iter()
        .next()
        .map(|t| t.translation.truncate());
    let target = match origin.requested {
        Some(OriginMove::To(target)) => target,
        Some(OriginMove::By(by)) => frame.to_world(by),
        None => {
            let Some(at) = followed else {
                return;
            };
            if !(at.is_finite() && at.length() > origin.recenter_distance) {
                return;
            }
            frame.to_world(at)
        }
    };
    origin.requested = None;
    if !(target.x.is_finite() && target.y.is_finite()) || target == frame.origin() {
        return;
    }
    // The shift in the game's coordinates; exact for every point the game can hold near
    // both origins.
    let shift = relative(target, frame.origin()).extend(0.0);
    for (mut transform, poses) in &mut transforms.p1() {
        transform.translation -= shift;
        if let Some(mut poses) = poses {
            poses.bypass_change_detection().shift(-shift);
        }
    }
    // Joints name game points too (world anchors, mouse targets, pulley ground points):
    // moved without a change mark, as is the plugin's copy, so no joint is rebuilt.
    let by = shift.truncate();
    for mut joint in &mut joints {
        joint.bypass_change_detection().shift_points(by);
    }
    for source in physics.joint_source.values_mut() {
        source.shift_points(by);
    }
    physics.set_game_frame(GameFrame::at(target));
}
