//! What the lightyear integration costs, measured by hand: bytes per tick and resimulation
//! time (`cargo test --release -p lightyear_tests --test lightyear_network_costs -- --ignored --nocapture`).

mod lightyear_sim;

use bevy::prelude::*;
use bevy_physics2d::prelude::*;
use lightyear::prelude::server::LinkOf;
use lightyear::prelude::*;
use lightyear_sim::*;
use std::time::Instant;

/// Bytes the server put on each client's link (after netcode, before the IO).
#[derive(Resource, Default)]
struct SentBytes(u64);

fn count_sent(mut links: Query<&mut Link, With<LinkOf>>, mut sent: ResMut<SentBytes>) {
    for mut link in &mut links {
        let packets: Vec<_> = link.send.drain().collect();
        for packet in packets {
            sent.0 += packet.len() as u64;
            link.send.push(packet);
        }
    }
}

/// Time the client spent resimulating, and the ticks it resimulated.
#[derive(Resource, Default)]
struct Resimulation {
    started: Option<Instant>,
    seconds: f64,
    rollbacks: u32,
    ticks: u32,
}

/// Measures what networking costs: bytes per tick for 100 moving bodies, and the
/// cost of a resimulation on a 500-body scene. By hand:
/// `cargo test --release -p lightyear_tests --test lightyear_network_costs -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, run by hand"]
fn network_costs() {
    for (boxes, label) in [(70, "100 moving bodies"), (470, "500 bodies")] {
        let mut sim = Sim::new(2);
        sim.server
            .add_systems(Startup, move |mut commands: Commands| {
                // Columns of boxes raining onto the pile for the whole run.
                for i in 0..boxes {
                    let x = -13.0 + 0.9 * (i % 29) as f32;
                    let y = 6.0 + 1.1 * (i / 29) as f32;
                    commands.spawn((
                        RigidBody::Dynamic,
                        Collider::rectangle(0.6, 0.6),
                        Transform::from_xyz(x, y, 0.0),
                        Replicate::to_clients(NetworkTarget::All),
                        PredictionTarget::to_clients(NetworkTarget::All),
                    ));
                }
            });
        sim.server.init_resource::<SentBytes>().add_systems(
            PostUpdate,
            count_sent
                .after(lightyear::connection::ConnectionSystems::Send)
                .before(lightyear::link::LinkSystems::Send),
        );
        for app in &mut sim.clients {
            app.init_resource::<Resimulation>().add_systems(
                PreUpdate,
                (
                    (|mut r: ResMut<Resimulation>| r.started = Some(Instant::now()))
                        .after(RollbackSystems::Prepare)
                        .before(RollbackSystems::Rollback)
                        .run_if(is_in_rollback),
                    (|mut r: ResMut<Resimulation>,
                      manager: Res<PredictionManager>,
                      timeline: Res<LocalTimeline>| {
                        if let (Some(start), Some(tick)) =
                            (r.started.take(), manager.get_rollback_start_tick())
                        {
                            r.seconds += start.elapsed().as_secs_f64();
                            r.rollbacks += 1;
                            r.ticks += timeline.tick().0.saturating_sub(tick.0);
                        }
                    })
                    .after(RollbackSystems::Rollback)
                    .before(RollbackSystems::EndRollback),
                ),
            );
        }
        for _ in 0..240 {
            sim.step();
        }
        let (bytes0, tick0) = (
            sim.server.world().resource::<SentBytes>().0,
            sim.server.world().resource::<LocalTimeline>().tick().0,
        );
        let mut random = Lcg(9);
        for tick in 0..300 {
            if tick % 12 == 0 {
                let bits = [0, LEFT, RIGHT, JUMP][(random.next() % 4) as usize];
                sim.set_input(0, bits);
                sim.set_input(1, bits);
            }
            sim.step();
        }
        let bytes = sim.server.world().resource::<SentBytes>().0 - bytes0;
        let ticks = sim.server.world().resource::<LocalTimeline>().tick().0 - tick0;
        let moving = {
            let mut q = sim
                .server
                .world_mut()
                .query::<(&RigidBody, &LinearVelocity)>();
            q.iter(sim.server.world())
                .filter(|(b, v)| **b == RigidBody::Dynamic && v.0.length() > 0.01)
                .count()
        };
        let r = sim.clients[0].world().resource::<Resimulation>();
        println!(
            "  client 0: {:?}, {:?}",
            sim.clients[0].world().resource::<Rollbacks>(),
            sim.clients[0]
                .world()
                .resource::<bevy_physics2d::rollback::lightyear::world_state::WorldStateStats>()
        );
        println!(
            "{label}: {:.0} bytes per tick per client ({moving} bodies moving at the end); \
             {} rollbacks, {:.2} ms each, {:.3} ms per resimulated tick ({} ticks)",
            bytes as f64 / ticks as f64 / 2.0,
            r.rollbacks,
            1e3 * r.seconds / r.rollbacks.max(1) as f64,
            1e3 * r.seconds / r.ticks.max(1) as f64,
            r.ticks
        );
    }
}
