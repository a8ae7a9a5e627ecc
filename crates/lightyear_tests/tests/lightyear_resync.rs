//! A client knocked off the server's bits by less than lightyear's state checks can see asks
//! for the server's world and is back on its bits well before the next keyframe.
//!
//! The server and two clients of the lightyear example, players idle. Right after a
//! keyframe reached the first client, one body of that client's world gets 10 µm/s more
//! speed, far below the state checks' tolerances (1 mm/s), so lightyear never corrects it:
//! without the hash check the client would stay off the server's state until the next
//! keyframe (2 s later). With it, the client finds its hash off the server's, asks for the
//! server's world, and computes the server's bits again from a world the server sent before
//! its next keyframe was due. The harness is in `lightyear_sim`.

mod lightyear_sim;

use bevy_physics2d::rollback::lightyear::resync::ResyncStats;
use bevy_physics2d::rollback::lightyear::world_state::{KEYFRAME_INTERVAL_TICKS, WorldStateStats};
use lightyear::prelude::*;
use lightyear_sim::*;

/// The first client's installed worlds and its last one's server tick.
fn installed(sim: &Sim) -> (u32, Option<u32>) {
    let stats = sim.clients[0].world().resource::<WorldStateStats>();
    (stats.count, stats.last_tick.map(|t| t.0))
}

#[test]
fn a_client_off_the_server_state_by_a_hair_is_back_before_the_next_keyframe() {
    let mut sim = Sim::new(2);
    assert!(
        sim.settle(900),
        "the clients did not connect in 15 s: {}",
        sim.status()
    );
    for _ in 0..200 {
        sim.step();
    }
    // Wait for a keyframe to arrive, so the next one is two seconds away.
    let (count, _) = installed(&sim);
    let mut steps = 0;
    while installed(&sim).0 == count {
        sim.step();
        steps += 1;
        assert!(steps < 300, "no keyframe arrived in 5 s");
    }
    let keyframe = installed(&sim).1.expect("a world was installed");
    // Knock the client's first dynamic body off by 10 µm/s, out of lightyear's sight.
    let nudged_at = {
        let world = sim.clients[0].world_mut();
        let tick = world.resource::<LocalTimeline>().tick().0;
        let mut physics = world.resource_mut::<bevy_physics2d::PhysicsWorld>();
        let core = physics.core_mut();
        let body = core
            .body_ids()
            .into_iter()
            .find(|&id| {
                core.body_type(id).ok()
                    == Some(bevy_physics2d::physics_core::body::BodyType::Dynamic)
            })
            .expect("a dynamic body");
        let velocity = core.body_motion(body).unwrap().linear_velocity;
        core.set_linear_velocity(body, velocity + bevy::math::Vec2::new(1.0e-5, 0.0))
            .unwrap();
        tick
    };
    for _ in 0..360 {
        sim.step();
    }
    let server = &sim.server.world().resource::<TickLog>().hash;
    let client = &sim.clients[0].world().resource::<TickLog>().hash;
    let last = *server.keys().last().expect("the server stepped") - 10;
    let equal = |t: &u32| client.get(t).is_some_and(|h| server.get(t) == Some(h));
    // The nudge put the client off the server's state.
    assert!(
        (nudged_at + 1..nudged_at + 30).any(|t| server.contains_key(&t) && !equal(&t)),
        "the nudge at tick {nudged_at} did not change the client's state"
    );
    // From some tick on, the client computes the server's bits to the end; that tick comes
    // before the next keyframe's, so a world the server sent on request put it back.
    let back = (nudged_at..=last)
        .find(|t| (*t..=last).all(|u| equal(&u)))
        .expect("the client never came back to the server's state");
    let next_keyframe = keyframe + KEYFRAME_INTERVAL_TICKS;
    let stats = *sim.clients[0].world().resource::<ResyncStats>();
    println!(
        "nudged at tick {nudged_at}, back on the server's bits from tick {back}; last keyframe \
         {keyframe}, next due {next_keyframe}; client {stats:?}"
    );
    // The keyframe of `next_keyframe` can only put back the ticks after it; a resync world
    // comes well before (the margin keeps a keyframe one tick early from passing).
    assert!(
        back + 20 < next_keyframe,
        "back at tick {back}, not before the next keyframe ({next_keyframe}): the keyframe, not \
         a resync, put the client back"
    );
    assert!(stats.desyncs >= 1 && stats.requests >= 1, "{stats:?}");
    let served = sim.server.world().resource::<ResyncStats>().requests;
    assert!(served >= 1, "the server sent no world on request");
    // The other client was not touched and never asked.
    let other = *sim.clients[1].world().resource::<ResyncStats>();
    assert_eq!(other.requests, 0, "the untouched client asked: {other:?}");
}
