//! The lightyear example's server under churn: eight clients over links of 150 ms with up to
//! 50 ms of jitter and 10 % of packets lost each way, one of them hostile (its link adds a
//! packet of random bytes every tick and replays an old packet every third tick). Every
//! 200 ticks an honest client leaves, and another joins 100 ticks later; the players keep
//! pressing random inputs. The server must keep
//! stepping, every honest client must install the server's world and run, and the server
//! must hold no more than the players connected (its links, players and bodies back to what
//! they were with the same clients, however many came and went). Every stretch a client
//! spends off the server's state must have a cause (another input than the server applied,
//! other bodies, or a state check's correction under it); how long those stretches last is
//! printed, not asserted (they do not yet end at the next keyframe under this loss).
//! The harness is in `lightyear_sim`.

mod lightyear_sim;

use bevy::prelude::*;
use lightyear::prelude::input::native::InputMarker;
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

/// A random honest client leaves; 100 ticks of play later (the server must keep stepping),
/// client `next_id` joins. Returns the hostile client's index after the departure.
fn churn_round(sim: &mut Sim, random: &mut Lcg, mut hostile_index: usize, next_id: u64) -> usize {
    let mut leaving = (random.next() as usize) % sim.clients.len();
    if leaving == hostile_index {
        leaving = (leaving + 1) % sim.clients.len();
    }
    sim.remove_client(leaving);
    if leaving < hostile_index {
        hostile_index -= 1;
    }
    let ticks = server_ticks(sim);
    for _ in 0..100 {
        play(sim, random);
    }
    assert!(
        server_ticks(sim) >= ticks + 95,
        "the server stopped stepping"
    );
    sim.add_client(next_id, CHURN_LINK, false);
    hostile_index
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
        sim.settle(1200),
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
        hostile_index = churn_round(&mut sim, &mut random, hostile_index, next_id);
        for _ in 0..100 {
            play(&mut sim, &mut random);
        }
    }
    assert!(
        sim.settle(1200),
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
    // Every honest client has installed a world since it joined and runs the game. How
    // closely it follows the server's bits under this loss is printed, not asserted: inputs
    // reach the server late often enough here (a joining client's for its first second or
    // two, the others' now and then) that the clients spend a third of the time off the
    // server's state, each time until a world from the server (asked for after a differing
    // state hash, or a keyframe) puts them back. What is asserted: every stretch off the
    // server's state starts where the client had another input than the server applied, or
    // other bodies, or rests on a state check's correction; none starts from nothing.
    let own_players: Vec<Option<u64>> = sim
        .clients
        .iter_mut()
        .map(|app| {
            let world = app.world_mut();
            world
                .query_filtered::<&Player, With<InputMarker<PlayerInput>>>()
                .iter(world)
                .next()
                .map(|p| p.0)
        })
        .collect();
    for (i, app) in sim.clients.iter().enumerate() {
        if i == hostile_index {
            continue;
        }
        let installed = app
            .world()
            .resource::<bevy_physics2d::rollback::lightyear::world_state::WorldStateStats>()
            .count;
        assert!(installed > 0, "client {i} installed no world");
        let client_log = app.world().resource::<TickLog>();
        let server_log = sim.server.world().resource::<TickLog>();
        let compared: Vec<u32> = (last - 600..=last)
            .filter(|t| client_log.hash.contains_key(t) && server_log.hash.contains_key(t))
            .collect();
        assert!(
            compared.len() >= 250,
            "client {i}: {} ticks stepped",
            compared.len()
        );
        let report = divergence_report(
            client_log,
            server_log,
            &app.world().resource::<RollbackLog>().0,
            &compared,
        );
        let applied_otherwise = own_players[i].map_or(0, |me| {
            compared
                .iter()
                .filter(|t| {
                    client_log
                        .inputs
                        .get(&(**t, me))
                        .is_some_and(|v| server_log.inputs.get(&(**t, me)) != Some(v))
                })
                .count()
        });
        let resync = *app
            .world()
            .resource::<bevy_physics2d::rollback::lightyear::resync::ResyncStats>();
        println!(
            "client {i}: {} of the server's last {} ticks differ; stretches start on a state \
             check's correction {}, other bodies {}, other inputs {}; the server applied \
             another of its own inputs on {applied_otherwise} ticks; {installed} worlds \
             installed, {} asked for after {} differing hashes",
            report.differing,
            compared.len(),
            report.on_correction,
            report.other_bodies,
            report.other_inputs,
            resync.requests,
            resync.desyncs,
        );
        assert!(
            report.unexplained.is_empty(),
            "client {i} left the server's state with its inputs and bodies and no correction \
             under it at ticks {:?}",
            report.unexplained
        );
    }
    let served = sim
        .server
        .world()
        .resource::<bevy_physics2d::rollback::lightyear::resync::ResyncStats>()
        .requests;
    println!("the server sent {served} worlds on request");
    // Under this loss clients do leave the server's state, find it by the hashes and ask.
    assert!(served > 0, "no client asked for the server's world");
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

/// Counts the bytes every App of this process holds on the heap (allocated and not yet
/// freed), so the long run sees growth that the allocator's own caching would hide in the
/// resident size.
struct CountingAllocator;

/// Bytes allocated and not freed.
static LIVE_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only a counter is added.
// (`unsafe` is denied in the workspace; a global allocator cannot be written without it.)
#[allow(unsafe_code)]
unsafe impl std::alloc::GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let pointer = unsafe { std::alloc::System.alloc(layout) };
        if !pointer.is_null() {
            LIVE_BYTES.fetch_add(layout.size(), std::sync::atomic::Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: as above.
        unsafe { std::alloc::System.dealloc(pointer, layout) };
        LIVE_BYTES.fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
    }

    unsafe fn realloc(
        &self,
        pointer: *mut u8,
        layout: std::alloc::Layout,
        new_size: usize,
    ) -> *mut u8 {
        // SAFETY: as above.
        let moved = unsafe { std::alloc::System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            LIVE_BYTES.fetch_add(new_size, std::sync::atomic::Ordering::Relaxed);
            LIVE_BYTES.fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Kilobytes every App of this process holds on the heap.
fn live_kb() -> usize {
    LIVE_BYTES.load(std::sync::atomic::Ordering::Relaxed) / 1024
}

/// Resident memory of this process, kilobytes (Linux).
fn resident_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmRSS:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Keeps the last `ticks` of every App's test logs, so the process's memory is the Apps' own.
fn trim_logs(sim: &mut Sim, ticks: u32) {
    for app in std::iter::once(&mut sim.server).chain(sim.clients.iter_mut()) {
        let now = app.world().resource::<LocalTimeline>().tick().0;
        let keep = |t: u32| t + ticks > now;
        let mut log = app.world_mut().resource_mut::<TickLog>();
        log.hash.retain(|t, _| keep(*t));
        log.bodies.retain(|(t, _), _| keep(*t));
        log.inputs.retain(|(t, _), _| keep(*t));
        if let Some(mut rollbacks) = app.world_mut().get_resource_mut::<RollbackLog>() {
            rollbacks.0.retain(|r| keep(r.at));
        }
        if let Some(mut starts) = app.world_mut().get_resource_mut::<StartsSeen>() {
            starts.0.retain(|(t, ..)| keep(*t));
        }
    }
}

/// By hand: `CHURN_MINUTES` (default 10) minutes of game time of the churn above, an honest
/// client leaving every 200 ticks and another joining 100 ticks later, under the same loss
/// and hostile peer. Prints the server's holdings, the heap every App holds and this
/// process's resident memory once a minute; at the end the server must hold what it held
/// with the same clients, and the heap (the server and eight clients, with the test's logs
/// cut to their last 600 ticks) must not have grown by more than a tenth from the first
/// minute's reading to the last's, both taken 100 ticks after a join.
/// `cargo test -p lightyear_tests --test lightyear_churn -- --ignored --nocapture`
#[test]
#[ignore = "a measurement, run by hand (about 3 minutes of wall time per game minute)"]
fn churn_for_minutes() {
    let minutes: u32 = std::env::var("CHURN_MINUTES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(10)
        .max(1);
    let mut sim = Sim::new(0);
    for id in 1..=7 {
        sim.add_client(id, CHURN_LINK, false);
    }
    let mut hostile_index = sim.add_client(8, CHURN_LINK, true);
    let mut random = Lcg(17);
    assert!(sim.settle(1200), "{}", sim.status());
    for _ in 0..300 {
        play(&mut sim, &mut random);
    }
    trim_logs(&mut sim, 600);
    let before = server_holdings(&mut sim);
    let (heap_before, memory_before) = (live_kb(), resident_kb());
    println!(
        "start: holdings (links, players, bodies, entities) {before:?}, heap {heap_before} kB, \
         resident {memory_before} kB"
    );
    let rounds = minutes * 60 * 60 / 200;
    let mut joins = 0;
    // The heap at the same point of a round each minute (100 ticks after a join).
    let mut minute_heaps = Vec::new();
    for round in 1..=rounds {
        hostile_index = churn_round(
            &mut sim,
            &mut random,
            hostile_index,
            1000 + u64::from(round),
        );
        joins += 1;
        for _ in 0..100 {
            play(&mut sim, &mut random);
        }
        trim_logs(&mut sim, 600);
        if round % 18 == 0 {
            let heap = live_kb();
            minute_heaps.push(heap);
            println!(
                "minute {}: holdings {:?}, heap {heap} kB, resident {} kB, {joins} joins",
                round / 18,
                server_holdings(&mut sim),
                resident_kb()
            );
        }
    }
    // The last leaver's link times out (3 s) and the last joiner connects.
    for _ in 0..300 {
        play(&mut sim, &mut random);
    }
    trim_logs(&mut sim, 600);
    let after = server_holdings(&mut sim);
    let (heap_after, memory_after) = (live_kb(), resident_kb());
    let hostile_packets = sim.links[hostile_index].hostile_packets();
    println!(
        "end after {minutes} min, {joins} joins and as many leaves, {hostile_packets} hostile \
         packets: holdings {after:?}, heap {heap_after} kB, resident {memory_after} kB (start \
         {before:?}, heap {heap_before} kB, resident {memory_before} kB)"
    );
    assert_eq!((after.0, after.1, after.2), (before.0, before.1, before.2));
    assert!(after.3 <= before.3 + 8, "{before:?} -> {after:?}");
    // Compared at the same point of a round: the first minute's against the last's. (The
    // start and the end are read at other points: every client then holds a full history.)
    let (first, last) = (minute_heaps[0], minute_heaps[minute_heaps.len() - 1]);
    assert!(
        last <= first + first / 10,
        "the heap grew from {first} kB in the first minute to {last} kB in the last"
    );
}

/// One tick's inputs in a [`TickLog`]: ((tick, player), bits).
type TickInputs = Vec<((u32, u64), u8)>;

/// Why a client's stretches off the server's state started.
struct DivergenceReport {
    differing: usize,
    on_correction: usize,
    other_bodies: usize,
    other_inputs: usize,
    unexplained: Vec<u32>,
}

/// Classifies each stretch of `compared` ticks whose hash differs from the server's by what
/// its tick's last simulation rested on: a state check's correction or a clock shift (not
/// the server's bits), or, since a world install or the start, other bodies or other inputs
/// than the server's at some tick.
fn divergence_report(
    client: &TickLog,
    server: &TickLog,
    rollbacks: &[RollbackRecord],
    compared: &[u32],
) -> DivergenceReport {
    let entries = |log: &TickLog, t: u32| -> (Vec<u64>, TickInputs) {
        let bodies = log
            .bodies
            .range((t, 0)..=(t, u64::MAX))
            .map(|((_, id), _)| *id);
        let inputs = log
            .inputs
            .range((t, 0)..=(t, u64::MAX))
            .map(|(k, v)| (*k, *v));
        (bodies.collect(), inputs.collect())
    };
    let differs = |t: &u32| client.hash[t] != server.hash[t];
    let mut report = DivergenceReport {
        differing: compared.iter().filter(|t| differs(t)).count(),
        on_correction: 0,
        other_bodies: 0,
        other_inputs: 0,
        unexplained: Vec::new(),
    };
    for (k, t) in compared.iter().enumerate() {
        if !differs(t) || (k > 0 && differs(&compared[k - 1])) {
            continue;
        }
        let base = prediction_base(rollbacks, t - 1);
        if base.is_some_and(RollbackRecord::leaves_server_bits) {
            report.on_correction += 1;
            continue;
        }
        let first = base.map_or(0, |r| r.from + 1);
        let (bodies, inputs): (Vec<bool>, Vec<bool>) = (first..=*t)
            .map(|tick| {
                let (cb, ci) = entries(client, tick);
                let (sb, si) = entries(server, tick);
                (cb != sb, ci != si)
            })
            .unzip();
        if bodies.contains(&true) {
            report.other_bodies += 1;
        } else if inputs.contains(&true) {
            report.other_inputs += 1;
        } else {
            report.unexplained.push(*t);
        }
    }
    report
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
