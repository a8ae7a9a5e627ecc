//! The lightyear example's server under churn: eight clients over links of 150 ms with up to
//! 50 ms of jitter and 10 % of packets lost each way, one of them hostile (its link adds a
//! packet of random bytes every tick and replays an old packet every third tick). Every
//! 200 ticks an honest client leaves, and another joins 100 ticks later; the players keep
//! pressing random inputs. The server must keep
//! stepping, every honest client must install the server's world and run, and the server
//! must hold no more than the players connected (its links, players and bodies back to what
//! they were with the same clients, however many came and went). How closely the clients
//! follow the server's bits under this loss is printed (not yet asserted: they do not,
//! yet).
//! The harness is in `lightyear_sim`.

mod lightyear_sim;

use bevy::prelude::*;
use lightyear::prelude::*;
use lightyear_sim::*;

/// The links of this test: 150 ms, up to 50 ms more, a tenth lost.
const CHURN_LINK: LinkQuality = LinkQuality {
    latency_ticks: 9,
    jitter_ticks: 3,
    loss: 0.10,
};

/// What the server holds: links, players, physics bodies, entities.
fn server_holdings(sim: &mut Sim) -> (usize, usize, usize, usize) {
    let world = sim.server.world_mut();
    let links = world
        .query_filtered::<(), With<LinkOf>>()
        .iter(world)
        .count();
    let players = world.query::<&Player>().iter(world).count();
    let bodies = world
        .resource::<bevy_physics2d::PhysicsWorld>()
        .core()
        .body_count();
    let entities = world.entities().len() as usize;
    (links, players, bodies, entities)
}

/// Ticks the server has logged a state for.
fn server_ticks(sim: &Sim) -> usize {
    sim.server.world().resource::<TickLog>().hash.len()
}

/// One tick with every client's player pressing what `random` says (held for 12 ticks), so
/// the world moves every tick.
fn play(sim: &mut Sim, random: &mut Lcg) {
    if sim.ticks.is_multiple_of(12) {
        for client in 0..sim.clients.len() {
            let bits =
                [0, LEFT, RIGHT, JUMP, LEFT | JUMP, RIGHT | JUMP][(random.next() % 6) as usize];
            sim.set_input(client, bits);
        }
    }
    sim.step();
}

/// Steps until every client has installed a world and synchronised its clock.
fn settle(sim: &mut Sim, limit: usize) -> bool {
    for _ in 0..limit {
        sim.step();
        let ready = sim.clients.iter_mut().all(|app| {
            app.world()
                .resource::<bevy_physics2d::rollback::lightyear::world_state::WorldStateStats>()
                .count
                > 0
                && app.world().resource::<LocalTimelineSync>().is_synced()
        });
        if ready {
            return true;
        }
    }
    false
}

#[test]
fn eight_clients_come_and_go_under_loss_with_a_hostile_peer() {
    let mut sim = Sim::new(0);
    for id in 1..=7 {
        sim.add_client(id, CHURN_LINK, false);
    }
    let hostile = sim.add_client(8, CHURN_LINK, true);
    let mut random = Lcg(11);
    assert!(
        settle(&mut sim, 1200),
        "the first clients did not connect in 20 s: {}",
        sim.status()
    );
    for _ in 0..300 {
        sim.step();
    }
    let before = server_holdings(&mut sim);
    // Churn: an honest client leaves every 200 ticks, a new one joins 100 ticks later.
    let mut hostile_index = hostile;
    for next_id in 100..106 {
        let mut leaving = (random.next() as usize) % sim.clients.len();
        if leaving == hostile_index {
            leaving = (leaving + 1) % sim.clients.len();
        }
        sim.remove_client(leaving);
        if leaving < hostile_index {
            hostile_index -= 1;
        }
        let ticks = server_ticks(&sim);
        for _ in 0..100 {
            play(&mut sim, &mut random);
        }
        assert!(
            server_ticks(&sim) >= ticks + 95,
            "the server stopped stepping"
        );
        sim.add_client(next_id, CHURN_LINK, false);
        for _ in 0..100 {
            play(&mut sim, &mut random);
        }
    }
    assert!(
        settle(&mut sim, 1200),
        "the last clients did not connect in 20 s: {}",
        sim.status()
    );
    // Two keyframes (every 2 s) and the links' delay, the players still playing.
    for _ in 0..300 {
        play(&mut sim, &mut random);
    }
    let server_hash = sim.server.world().resource::<TickLog>().hash.clone();
    // The last ticks each client stepped before the others' inputs for them arrived (up to
    // 200 ms, and a lost packet's resend) are left out.
    let last = *server_hash.keys().last().expect("the server logged ticks") - 30;
    assert_ne!(
        server_hash[&last],
        server_hash[&(last - 1)],
        "the world moves every tick, so a tick's hash names that tick"
    );
    // Every honest client has installed a world since it joined and runs the game; how
    // closely it follows the server's bits under this loss is printed, not asserted: with
    // players pressing inputs, the clients were found off the server's state for the
    // whole of the last second (the stretches after an input lost in every copy, which the
    // two-client test bounds, are not bounded here yet: see the closing note).
    for (i, app) in sim.clients.iter().enumerate() {
        if i == hostile_index {
            continue;
        }
        let installed = app
            .world()
            .resource::<bevy_physics2d::rollback::lightyear::world_state::WorldStateStats>()
            .count;
        assert!(installed > 0, "client {i} installed no world");
        let hashes = &app.world().resource::<TickLog>().hash;
        let compared: Vec<u32> = (last - 600..=last)
            .filter(|t| hashes.contains_key(t) && server_hash.contains_key(t))
            .collect();
        assert!(
            compared.len() >= 250,
            "client {i}: {} ticks stepped",
            compared.len()
        );
        let differing = compared
            .iter()
            .filter(|t| hashes[t] != server_hash[t])
            .count();
        println!(
            "client {i}: {differing} of the server's last {} ticks differ, {installed} worlds installed",
            compared.len()
        );
    }
    let hostile_packets = sim.links[hostile_index].hostile_packets();
    assert!(hostile_packets > 1000, "{hostile_packets} hostile packets");
    // The departed clients' links time out (3 s): the server then holds what it held with
    // the same number of clients before the churn.
    let after = server_holdings(&mut sim);
    println!(
        "server holdings (links, players, bodies, entities): before {before:?}, after {after:?}"
    );
    assert_eq!((after.0, after.1, after.2), (before.0, before.1, before.2));
    assert!(
        after.3 <= before.3 + 8,
        "the server's entities grew: {before:?} -> {after:?}"
    );
}

/// Not ours, recorded so an upgrade shows when it is fixed: lightyear_netcode 0.30.1 reads a
/// packet's sequence number into an 8-byte buffer for a length taken from the first byte's
/// high four bits (up to 15), so one packet of 12 bytes starting with 0xB1 panics the server
/// in every build (packet.rs:73). A server open to the internet needs a transport that drops
/// such packets first (see `docs/networking.md`).
#[test]
#[should_panic(expected = "out of range for slice of length 8")]
fn a_garbage_packet_with_a_long_sequence_crashes_lightyear_netcode() {
    let mut sim = Sim::new(0);
    let client = sim.add_client(1, CHURN_LINK, false);
    for _ in 0..30 {
        sim.step();
    }
    let mut packet = vec![0u8; 40];
    packet[0] = 0xB1;
    sim.links[client].inject_to_server(packet);
    for _ in 0..5 {
        sim.step();
    }
}
