//! Collision, sensor and hit events ([`CollisionEventsPlugin`]): each one is a message (read with `MessageReader`) and
//! an entity event (observe it with `On<...>` on the entity involved).

use crate::collision::contacts::{
    CollidingEntities, ContactForce, ContactForceEventThreshold, send_contact_forces,
    update_colliding_entities,
};
use crate::collision::material::CollisionEventsEnabled;
use crate::schedule::{PhysicsStageSchedule, WritebackSystems};
use crate::world::physics_world::PhysicsWorld;
use crate::world::sent_events::SentKind;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use bevy_math::Vec2;

/// Collision, sensor and hit events, contact forces and colliding entities (part of
/// [`PhysicsPlugins`](crate::PhysicsPlugins)): the messages and entity events the Writeback
/// stage sends, [`ContactForce`] events above a collider's threshold and the
/// [`CollidingEntities`] component. A game that reads no events may disable it; the step
/// and the [`Collisions`](crate::Collisions) parameter work without it.
#[derive(Default)]
pub struct CollisionEventsPlugin;

impl Plugin for CollisionEventsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<crate::world::RetiredShapesRead>()
            .add_message::<CollisionStart>()
            .add_message::<CollisionEnd>()
            .add_message::<SensorEntered>()
            .add_message::<SensorExited>()
            .add_message::<CollisionHit>()
            .add_message::<ContactForce>()
            .register_type::<CollidingEntities>()
            .register_type::<ContactForceEventThreshold>()
            .add_systems(
                PhysicsStageSchedule::Writeback,
                (
                    send_events.in_set(WritebackSystems::Events),
                    (
                        send_contact_forces
                            .run_if(any_with_component::<ContactForceEventThreshold>),
                        update_colliding_entities.run_if(any_with_component::<CollidingEntities>),
                    )
                        .chain()
                        .in_set(WritebackSystems::Contacts),
                ),
            );
    }
}

/// Two colliders began touching. Sent once per pair as a message when either collider has
/// [`CollisionEventsEnabled`], and triggered on each collider that has it (with `collider1`
/// being that collider).
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionStart {
    /// The collider the event is about (the observed entity).
    #[event_target]
    pub collider1: Entity,
    /// The other collider.
    pub collider2: Entity,
    /// The body of `collider1`.
    pub body1: Option<Entity>,
    /// The body of `collider2`.
    pub body2: Option<Entity>,
}

/// Two colliders stopped touching (or one of them was removed). Sent like
/// [`CollisionStart`].
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionEnd {
    /// The collider the event is about (the observed entity).
    #[event_target]
    pub collider1: Entity,
    /// The other collider.
    pub collider2: Entity,
    /// The body of `collider1`.
    pub body1: Option<Entity>,
    /// The body of `collider2`.
    pub body2: Option<Entity>,
}

/// A collider began overlapping a [`Sensor`](crate::Sensor). Triggered on the sensor when it
/// has [`CollisionEventsEnabled`], always sent as a message.
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SensorEntered {
    /// The sensor collider.
    #[event_target]
    pub sensor: Entity,
    /// The collider that entered.
    pub visitor: Entity,
}

/// A collider stopped overlapping a sensor. Sent like [`SensorEntered`].
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SensorExited {
    /// The sensor collider.
    #[event_target]
    pub sensor: Entity,
    /// The collider that left.
    pub visitor: Entity,
}

/// Two colliders met faster than [`PhysicsSettings::hit_event_threshold`](crate::PhysicsSettings)
/// (an impact, for sounds, damage, particles). Sent as a message when either collider has
/// [`CollisionEventsEnabled`], and triggered on each collider that has it (with `collider1`
/// being that collider).
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct CollisionHit {
    /// The collider the event is about (the observed entity).
    #[event_target]
    pub collider1: Entity,
    /// The other collider.
    pub collider2: Entity,
    /// Where they met (world).
    pub point: Vec2,
    /// Unit normal from `collider1` towards `collider2`.
    pub normal: Vec2,
    /// Speed at which they approached along the normal (positive).
    pub speed: f32,
}

/// The body entity a collider belongs to.
pub(crate) fn body_of_collider(physics: &PhysicsWorld, collider: Entity) -> Option<Entity> {
    let shape = physics.shape(collider)?;
    physics.body_entity(physics.world.shape_body(shape).ok()?)
}

/// Writeback stage: turns the core's events of this step into messages and entity events. A
/// step simulated again after a rollback sends only the events its first run did not (see
/// [the rollback notes](crate::rollback)).
pub(crate) fn send_events(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    enabled: Query<(), With<CollisionEventsEnabled>>,
    mut starts: MessageWriter<CollisionStart>,
    mut ends: MessageWriter<CollisionEnd>,
    mut entered: MessageWriter<SensorEntered>,
    mut exited: MessageWriter<SensorExited>,
    mut hits: MessageWriter<CollisionHit>,
) {
    physics.send_once(|p, sent| {
        let body_of = |collider: Entity| body_of_collider(p, collider);
        // Collision events are opt-in: with no collider asking, every begin and end would be
        // looked up only to be skipped (a crowd that churns has hundreds a step).
        let any_enabled = !enabled.is_empty();
        for (events, begin) in [
            (p.world.begin_contact_events(), true),
            (p.world.end_contact_events(), false),
        ] {
            for e in events.iter().filter(|_| any_enabled) {
                let (Some(c1), Some(c2)) =
                    (p.collider_entity(e.shape_a), p.collider_entity(e.shape_b))
                else {
                    continue;
                };
                let (on1, on2) = (enabled.contains(c1), enabled.contains(c2));
                if !(on1 || on2) {
                    continue;
                }
                let kind = if begin {
                    SentKind::CollisionStart
                } else {
                    SentKind::CollisionEnd
                };
                if !sent.first_time(kind, c1, c2) {
                    continue;
                }
                let (b1, b2) = (body_of(c1), body_of(c2));
                if begin {
                    starts.write(CollisionStart {
                        collider1: c1,
                        collider2: c2,
                        body1: b1,
                        body2: b2,
                    });
                } else {
                    ends.write(CollisionEnd {
                        collider1: c1,
                        collider2: c2,
                        body1: b1,
                        body2: b2,
                    });
                }
                for (on, me, other, my_body, other_body) in
                    [(on1, c1, c2, b1, b2), (on2, c2, c1, b2, b1)]
                {
                    if !on {
                        continue;
                    }
                    if begin {
                        commands.trigger(CollisionStart {
                            collider1: me,
                            collider2: other,
                            body1: my_body,
                            body2: other_body,
                        });
                    } else {
                        commands.trigger(CollisionEnd {
                            collider1: me,
                            collider2: other,
                            body1: my_body,
                            body2: other_body,
                        });
                    }
                }
            }
        }
        for (events, begin) in [
            (p.world.sensor_begin_events(), true),
            (p.world.sensor_end_events(), false),
        ] {
            for e in events {
                let (Some(sensor), Some(visitor)) =
                    (p.collider_entity(e.sensor), p.collider_entity(e.visitor))
                else {
                    continue;
                };
                let kind = if begin {
                    SentKind::SensorEntered
                } else {
                    SentKind::SensorExited
                };
                if !sent.first_time(kind, sensor, visitor) {
                    continue;
                }
                let observed = enabled.contains(sensor);
                if begin {
                    entered.write(SensorEntered { sensor, visitor });
                    if observed {
                        commands.trigger(SensorEntered { sensor, visitor });
                    }
                } else {
                    exited.write(SensorExited { sensor, visitor });
                    if observed {
                        commands.trigger(SensorExited { sensor, visitor });
                    }
                }
            }
        }
        for e in p.world.hit_events() {
            let (Some(c1), Some(c2)) = (p.collider_entity(e.shape_a), p.collider_entity(e.shape_b))
            else {
                continue;
            };
            if !sent.first_time(SentKind::Hit, c1, c2) {
                continue;
            }
            let hit = CollisionHit {
                collider1: c1,
                collider2: c2,
                point: p.to_game(e.point),
                normal: e.normal,
                speed: e.approach_speed,
            };
            hits.write(hit);
            for (me, other, normal) in [(c1, c2, e.normal), (c2, c1, -e.normal)] {
                if enabled.contains(me) {
                    commands.trigger(CollisionHit {
                        collider1: me,
                        collider2: other,
                        normal,
                        ..hit
                    });
                }
            }
        }
    });
    // End events of shapes destroyed before this step have been delivered. (Shapes an
    // observer of these events destroys are retired after this, for the next step's ends.)
    physics.retired_shapes.clear();
}
