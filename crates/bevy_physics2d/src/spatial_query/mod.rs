//! Spatial queries: the [`SpatialQuery`](crate::SpatialQuery) system parameter (rays, shape
//! casts, point and box queries), [`RayCaster`] and
//! [`ShapeCaster`] components updated after every step, and (feature
//! `picking`) a pointer picking backend. [`SpatialQueryPlugin`] updates the casters; the
//! `SpatialQuery` parameter needs only the physics world.

pub(crate) mod casters;
#[cfg(feature = "picking")]
pub(crate) mod picking;
pub(crate) mod query;

use crate::schedule::{PhysicsStageSchedule, WritebackSystems};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use casters::{RayCaster, ShapeCaster};

/// Ray and shape casters (part of [`PhysicsPlugins`](crate::PhysicsPlugins)): their hits
/// are cast again after every step, while some entity has one. A game without casters may
/// disable it; [`SpatialQuery`](crate::SpatialQuery) keeps working.
#[derive(Default)]
pub struct SpatialQueryPlugin;

impl Plugin for SpatialQueryPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PhysicsStageSchedule::Writeback,
            casters::update_casters
                .run_if(any_with_component::<RayCaster>.or_else(any_with_component::<ShapeCaster>))
                .in_set(WritebackSystems::Casters),
        );
    }
}
