//! Character controllers: a kinematic body moved each step by the core's move and slide,
//! with what platformers expect (slopes, steps, snapping, moving and one-way platforms,
//! pushing light bodies), steered by a velocity the game sets.

use crate::dynamics::body::components::RigidBody;
use crate::world::physics_world::PhysicsWorld;
use crate::world::settings::PhysicsSettings;
use crate::world::warnings::{PhysicsWarning, warn_entity};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use bevy_time::Time;
use physics_core::body::BodyType;
use physics_core::id::ShapeId;
use physics_core::world::{CharacterExceptions, CharacterSettings, QueryFilter};

/// Makes a body a character: each physics step it moves by its [`CharacterVelocity`] as far
/// as the world lets it, sliding along walls, walking up slopes up to `max_slope_angle`,
/// climbing steps up to `step_height`, following the ground down over drops up to
/// `snap_distance`, riding what it stands on, standing on [`OneWayPlatform`]s only from
/// above, and pushing dynamic bodies of at most `max_push_mass`. Its collider (the first on
/// its body) must be round: a capsule or a circle. The body is kinematic: other bodies
/// meet it as a wall, and its [`CharacterState`] says what it stands on.
///
/// ```
/// use bevy_ecs::prelude::*;
/// use bevy_physics2d::prelude::*;
/// use bevy_physics2d::{CharacterController, CharacterVelocity};
///
/// fn spawn_player(mut commands: Commands) {
///     commands.spawn((
///         CharacterController::default(),
///         Collider::capsule(0.3, 1.0),
///         Transform::from_xyz(0.0, 2.0, 0.0),
///     ));
/// }
///
/// /// Walk with the arrow keys' axis; gravity is the controller's.
/// fn steer(mut players: Query<&mut CharacterVelocity>) {
///     for mut velocity in &mut players {
///         velocity.0.x = 5.0;
///     }
/// }
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
#[require(RigidBody = RigidBody::Kinematic, CharacterVelocity, CharacterState)]
pub struct CharacterController {
    /// Steepest ground walked on, radians (default 50 degrees); steeper is a wall.
    pub max_slope_angle: f32,
    /// Highest step climbed without a jump, metres (default 0.4).
    pub step_height: f32,
    /// Deepest drop the character follows down while walking, metres (default 0.3).
    pub snap_distance: f32,
    /// Heaviest dynamic body pushed, kilograms (default 50); heavier ones stop it.
    pub max_push_mass: f32,
    /// How much of the world's gravity the controller adds to the velocity every step
    /// (default 1; 0 for top-down games).
    pub gravity_scale: f32,
    /// Unit vector pointing up (default +y).
    pub up: Vec2,
}

impl Default for CharacterController {
    fn default() -> Self {
        let core = CharacterSettings::default();
        CharacterController {
            max_slope_angle: core.max_slope_angle,
            step_height: core.step_height,
            snap_distance: core.snap_distance,
            max_push_mass: 50.0,
            gravity_scale: 1.0,
            up: core.up,
        }
    }
}

/// The velocity a character asks for, m/s. Set the walking part each frame; the controller
/// adds gravity, and after each step holds what is left once surfaces took their part (no
/// falling speed while grounded, no speed into a wall), so a jump is `velocity.y = speed`.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct CharacterVelocity(pub Vec2);

/// What a character's last step found.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct CharacterState {
    /// Standing on walkable ground.
    pub grounded: bool,
    /// The ground's normal, when grounded.
    pub ground_normal: Option<Vec2>,
    /// The entity whose body the character stands on.
    pub ground_entity: Option<Entity>,
    /// Climbed a step in the last step.
    pub stepped_up: bool,
    /// Collider entities within reach at the end of the last step.
    pub touching: Vec<Entity>,
}

/// A collider (or every collider of a body) that holds characters only from above: they
/// jump up through it and land on it.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct OneWayPlatform;

/// A reason a character was refused a move, to warn once per bad value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CharacterRefusal {
    /// Its `CharacterVelocity` is NaN or infinite.
    Velocity = 1,
    /// Its body is not kinematic.
    NotKinematic = 2,
    /// The core refused the move (says why).
    Move = 4,
}

/// Whether a check of a character passed (`ok`). A failed one is warned about once per bad
/// value: named once, until that check passes or the character moves again, so a later bad
/// value is named too. `warned` holds each character's named refusals as bits.
fn passes(
    warned: &mut EntityHashMap<u8>,
    warnings: &mut MessageWriter<PhysicsWarning>,
    entity: Entity,
    ok: bool,
    refusal: CharacterRefusal,
    what: &dyn Fn() -> String,
) -> bool {
    let bit = refusal as u8;
    let named = warned.get(&entity).copied().unwrap_or(0);
    if ok {
        if named & bit != 0 {
            warned.insert(entity, named & !bit);
        }
    } else if named & bit == 0 {
        warned.insert(entity, named | bit);
        warn_entity(warnings, entity, format_args!("character: {}", what()));
    }
    ok
}

/// Moves every character for this step (Prepare stage, after user motion is applied).
pub(crate) fn move_characters(
    time: Res<Time<crate::schedule::physics_time::Physics>>,
    settings: Res<PhysicsSettings>,
    mut physics: ResMut<PhysicsWorld>,
    mut warnings: MessageWriter<PhysicsWarning>,
    mut characters: Query<(
        Entity,
        &CharacterController,
        &mut CharacterVelocity,
        &mut CharacterState,
    )>,
    one_way: Query<Entity, With<OneWayPlatform>>,
    mut warned: Local<EntityHashMap<u8>>,
) {
    // Characters gone (despawned, controller taken off) are forgotten, so a long session
    // of churn does not grow this.
    if !warned.is_empty() {
        warned.retain(|e, _| characters.contains(*e));
    }
    let dt = time.delta_secs();
    if characters.is_empty() || dt <= 0.0 {
        return;
    }
    let mut one_way_shapes: Vec<ShapeId> = Vec::new();
    for entity in &one_way {
        one_way_shapes.extend(physics.shapes(entity));
        if let Some(body) = physics.body(entity) {
            one_way_shapes.extend_from_slice(physics.core().body_shapes(body).unwrap_or(&[]));
        }
    }
    one_way_shapes.sort_unstable();
    let is_one_way = |s: ShapeId| one_way_shapes.binary_search(&s).is_ok();
    let mut order: Vec<_> = characters.iter().map(|(e, ..)| e).collect();
    order.sort_by_key(|e| physics.body(*e).map(|b| b.index));
    for entity in order {
        let Ok((_, controller, mut velocity, mut state)) = characters.get_mut(entity) else {
            continue;
        };
        let Some(body) = physics.body(entity) else {
            continue;
        };
        let mut check = |ok: bool, refusal: CharacterRefusal, what: &dyn Fn() -> String| {
            passes(&mut warned, &mut warnings, entity, ok, refusal, what)
        };
        // Checked before its shapes are looked up, so a bad velocity or type is named even
        // while the character has no collider to move with.
        // Both checked, so both are named when both are wrong.
        let velocity_ok = check(velocity.0.is_finite(), CharacterRefusal::Velocity, &|| {
            format!("not moved: its velocity {} is not finite", velocity.0)
        });
        let kinematic = physics.core().body_type(body) == Ok(BodyType::Kinematic);
        let kinematic_ok = check(kinematic, CharacterRefusal::NotKinematic, &|| {
            "not moved: its RigidBody must be Kinematic".to_string()
        });
        if !(velocity_ok && kinematic_ok) {
            continue;
        }
        let core = physics.core();
        let own: Vec<ShapeId> = core.body_shapes(body).unwrap_or(&[]).to_vec();
        let (Some(&first), Ok(xf)) = (own.first(), core.body_transform(body)) else {
            continue;
        };
        let Ok(&mover) = core.shape(first) else {
            continue;
        };
        let core_settings = CharacterSettings {
            up: controller.up,
            max_slope_angle: controller.max_slope_angle,
            step_height: controller.step_height,
            snap_distance: controller.snap_distance,
            filter: character_filter(core, first),
        };
        let asked = velocity.0 + controller.gravity_scale * dt * settings.gravity;
        let exceptions = CharacterExceptions {
            own: &own,
            one_way: &is_one_way,
        };
        let moved = match core.move_character(&mover, xf, asked, dt, &core_settings, &exceptions) {
            // Moved again: a later bad value is a new one, worth its own warning.
            Ok(moved) => {
                warned.remove(&entity);
                moved
            }
            Err(error) => {
                let what = || format!("not moved: {error}");
                passes(
                    &mut warned,
                    &mut warnings,
                    entity,
                    false,
                    CharacterRefusal::Move,
                    &what,
                );
                continue;
            }
        };
        let world = physics.core_mut();
        let _ = world.set_linear_velocity(body, moved.translation / dt);
        let _ = world.set_angular_velocity(body, 0.0);
        if controller.max_push_mass > 0.0 {
            world.push_touched_bodies(&moved, &core_settings, controller.max_push_mass);
        }
        velocity.0 = moved.velocity;
        let touching: Vec<Entity> = moved
            .touching
            .iter()
            .filter_map(|q| physics.collider_entity(q.shape))
            .collect();
        let next = CharacterState {
            grounded: moved.ground.is_some(),
            ground_normal: moved.ground.map(|g| g.normal),
            ground_entity: moved.ground.and_then(|g| physics.body_entity(g.body)),
            stepped_up: moved.stepped_up,
            touching,
        };
        state.set_if_neq(next);
    }
}

/// The character's own collision filter as a query filter: it is stopped by what its
/// collider collides with.
fn character_filter(core: &physics_core::world::World, shape: ShapeId) -> QueryFilter {
    let own = core.shape_def(shape).map(|d| d.filter).unwrap_or_default();
    QueryFilter {
        category_bits: own.category_bits,
        mask_bits: own.mask_bits,
        include_sensors: false,
    }
}
