//! Character controllers: a kinematic body with a [`CharacterController`]
//! is moved each step by its velocity with the core's move and slide (slopes, steps, snapping,
//! moving and one-way platforms, pushing light bodies). [`CharacterControllerPlugin`]
//! registers it.

pub(crate) mod controller;

use crate::schedule::{PhysicsStageSchedule, PrepareSystems};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use controller::{CharacterController, CharacterState, CharacterVelocity, OneWayPlatform};

/// Character controllers (part of [`PhysicsPlugins`](crate::PhysicsPlugins)): the Prepare
/// step that moves every character, while some entity has a controller. A game without
/// characters may disable it.
#[derive(Default)]
pub struct CharacterControllerPlugin;

impl Plugin for CharacterControllerPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<CharacterController>()
            .register_type::<CharacterVelocity>()
            .register_type::<CharacterState>()
            .register_type::<OneWayPlatform>()
            .add_systems(
                PhysicsStageSchedule::Prepare,
                controller::move_characters
                    .run_if(any_with_component::<CharacterController>)
                    .in_set(PrepareSystems::Characters),
            );
    }
}
