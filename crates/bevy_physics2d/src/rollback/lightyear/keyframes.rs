//! Keyframes as deltas: after a client holds one world the server sent, later ones reach it
//! as what changed since.
//!
//! A whole world is about 50 to 230 bytes a body, so a keyframe every 2 s of a 10,000-body
//! world would be 0.25 to 1.1 MB/s a client, far past a game's budget. So a client tells the
//! server every world it received ([`PhysicsKeyframeAck`]) and keeps the last
//! [`KEPT_KEYFRAMES`]; the server keeps the worlds it sent for as long, and sends a client that
//! acknowledged one the next as a delta against it
//! ([`PhysicsWorldSnapshot::to_bytes_since`](crate::PhysicsWorldSnapshot::to_bytes_since)).
//! Sleeping bodies, shapes and joints that did not change, and the static parts of the
//! broadphase cost next to nothing in a delta.
//!
//! A new client, and a client that asked for the world ([`resync`](super::resync)), gets the
//! world whole. A client that cannot rebuild a delta (its base is gone, or the bytes are
//! refused) drops it and asks for the world: the server then forgets its base and sends it
//! whole. The rebuilt bytes are the server's bytes exactly, so a delta changes nothing of
//! what a client installs.

use super::world_state::{PhysicsWorldState, WorldStateStats};
use crate::rollback::PhysicsWorldSnapshot;
use bevy_app::App;
use bevy_ecs::prelude::*;
use lightyear::prelude::server::ClientOf;
use lightyear::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Arc;

/// Worlds each side keeps as bases of deltas: with one every 2 s, 16 s of them, far longer
/// than an acknowledgement takes to arrive.
pub const KEPT_KEYFRAMES: usize = 8;

/// A client received the server's world of `tick` and holds it as a base for deltas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhysicsKeyframeAck {
    /// The server tick of the world.
    pub tick: Tick,
}

/// The channel acknowledgements travel on: unreliable (a lost one leaves the server an older
/// base, which the client still holds, and the next world brings another).
pub struct PhysicsKeyframeAckChannel;

/// Worlds as whole bytes by server tick, newest last, at most [`KEPT_KEYFRAMES`]. The server
/// keeps those it sent, a client those it received.
#[derive(Resource, Default)]
pub(crate) struct HeldKeyframes(VecDeque<(Tick, Arc<Vec<u8>>)>);

impl HeldKeyframes {
    /// Keeps `bytes` as the world of `tick`, forgetting the oldest past [`KEPT_KEYFRAMES`].
    pub(crate) fn hold(&mut self, tick: Tick, bytes: Arc<Vec<u8>>) {
        self.0.retain(|(held, _)| *held != tick);
        self.0.push_back((tick, bytes));
        while self.0.len() > KEPT_KEYFRAMES {
            self.0.pop_front();
        }
    }

    /// The world of `tick`, if still held.
    pub(crate) fn get(&self, tick: Tick) -> Option<&Arc<Vec<u8>>> {
        self.0
            .iter()
            .find(|(held, _)| *held == tick)
            .map(|(_, b)| b)
    }
}

/// Server: the newest world a link acknowledged that the server still holds.
#[derive(Component, Clone, Copy, Debug)]
pub(crate) struct AckedKeyframe(pub(crate) Tick);

pub(crate) fn register(app: &mut App) {
    app.register_message::<PhysicsKeyframeAck>()
        .add_direction(NetworkDirection::ClientToServer);
    app.add_channel::<PhysicsKeyframeAckChannel>(ChannelSettings {
        mode: ChannelMode::UnorderedUnreliable,
        ..Default::default()
    })
    .add_direction(NetworkDirection::ClientToServer);
    app.init_resource::<HeldKeyframes>();
}

/// Server, `PreUpdate` after lightyear received messages: each link's base becomes the newest
/// world it acknowledged that the server still holds (an acknowledgement of anything else,
/// from a confused or hostile client, is ignored).
pub(crate) fn receive_acks(
    mut commands: Commands,
    sent: Res<HeldKeyframes>,
    mut links: Query<
        (
            Entity,
            &mut MessageReceiver<PhysicsKeyframeAck>,
            Option<&AckedKeyframe>,
        ),
        With<ClientOf>,
    >,
) {
    for (link, mut acks, acked) in &mut links {
        let newest = acks
            .receive()
            .map(|ack| ack.tick)
            .filter(|tick| sent.get(*tick).is_some())
            .max_by_key(|tick| tick.0);
        if let Some(tick) = newest
            && acked.is_none_or(|acked| acked.0.0 < tick.0)
        {
            commands.entity(link).insert(AckedKeyframe(tick));
        }
    }
}

/// Server: the message bringing the world of `tick` (`whole`, its bytes) to a client whose
/// base is `acked`: a delta when the server still holds that base and the delta is smaller,
/// the whole world otherwise. `deltas` caches the deltas made this send, by base.
pub(crate) fn message_for(
    tick: Tick,
    snapshot: &PhysicsWorldSnapshot,
    whole: &Arc<Vec<u8>>,
    acked: Option<Tick>,
    sent: &HeldKeyframes,
    deltas: &mut Vec<(Tick, Option<Vec<u8>>)>,
) -> PhysicsWorldState {
    let delta = acked
        .and_then(|t| sent.get(t).map(|base| (t, base)))
        .and_then(|(t, base)| {
            let made = match deltas.iter().position(|(made, _)| *made == t) {
                Some(i) => i,
                None => {
                    let delta = snapshot
                        .to_bytes_since(base, |e| e.to_bits())
                        .ok()
                        .filter(|delta| delta.len() < whole.len());
                    deltas.push((t, delta));
                    deltas.len() - 1
                }
            };
            deltas[made].1.clone().map(|bytes| (t, bytes))
        });
    match delta {
        Some((base, bytes)) => PhysicsWorldState {
            tick,
            since: Some(base),
            bytes,
        },
        None => PhysicsWorldState {
            tick,
            since: None,
            bytes: whole.as_ref().clone(),
        },
    }
}

/// Client: the received world states as whole worlds, oldest first. Each is kept as a base and
/// acknowledged; a delta is rebuilt from the world it names, and one that cannot be (its base
/// is no longer held, or the bytes are refused) is dropped, and the client asks for the
/// world whole.
pub(crate) fn whole_states(
    received: impl Iterator<Item = PhysicsWorldState>,
    held: &mut HeldKeyframes,
    stats: &mut WorldStateStats,
    mut ack: Option<Mut<MessageSender<PhysicsKeyframeAck>>>,
    mut ask: Option<Mut<MessageSender<super::resync::PhysicsResyncRequest>>>,
) -> Vec<PhysicsWorldState> {
    let mut whole = Vec::new();
    for state in received {
        let bytes = match state.since {
            None => Ok(state.bytes),
            Some(base) => match held.get(base) {
                Some(base_bytes) => PhysicsWorldSnapshot::bytes_since(base_bytes, &state.bytes)
                    .map_err(|error| error.to_string()),
                None => Err(format!(
                    "its base, the world of tick {}, is not held",
                    base.0
                )),
            },
        };
        let bytes = match bytes {
            Ok(bytes) => bytes,
            Err(why) => {
                bevy_log::warn!(
                    "physics: the server's world of tick {} came as a delta this client \
                     cannot use ({why}); asking for it whole",
                    state.tick.0
                );
                if let Some(ask) = ask.as_mut() {
                    ask.send::<super::resync::PhysicsResyncChannel>(
                        super::resync::PhysicsResyncRequest { tick: state.tick },
                    );
                }
                continue;
            }
        };
        if state.since.is_some() {
            stats.deltas += 1;
        }
        let bytes = Arc::new(bytes);
        held.hold(state.tick, bytes.clone());
        if let Some(ack) = ack.as_mut() {
            ack.send::<PhysicsKeyframeAckChannel>(PhysicsKeyframeAck { tick: state.tick });
        }
        whole.push(PhysicsWorldState {
            tick: state.tick,
            since: None,
            bytes: Arc::unwrap_or_clone(bytes),
        });
    }
    whole
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(tick: u32, since: Option<u32>, bytes: Vec<u8>) -> PhysicsWorldState {
        PhysicsWorldState {
            tick: Tick(tick),
            since: since.map(Tick),
            bytes,
        }
    }

    #[test]
    fn the_last_eight_worlds_are_held() {
        let mut held = HeldKeyframes::default();
        for tick in 0..10 {
            held.hold(Tick(tick), Arc::new(vec![tick as u8]));
        }
        assert!(held.get(Tick(1)).is_none());
        assert_eq!(held.get(Tick(2)).map(|b| b[0]), Some(2));
        assert_eq!(held.get(Tick(9)).map(|b| b[0]), Some(9));
    }

    /// A delta whose base the client no longer holds, or whose bytes do not rebuild, is
    /// dropped: nothing is installed from it or kept as a base, and the whole world that
    /// came before it stays held.
    #[test]
    fn a_delta_without_its_base_or_damaged_is_dropped_and_nothing_else() {
        let mut held = HeldKeyframes::default();
        let mut stats = WorldStateStats::default();
        let received = vec![
            state(10, None, b"a whole world".to_vec()),
            state(20, Some(5), vec![1, 2, 3]),
            state(30, Some(10), vec![4, 5, 6]),
        ];
        let whole = whole_states(received.into_iter(), &mut held, &mut stats, None, None);
        assert_eq!(whole.len(), 1);
        assert_eq!((whole[0].tick, whole[0].since), (Tick(10), None));
        assert_eq!(stats.deltas, 0);
        assert!(held.get(Tick(10)).is_some());
        assert!(held.get(Tick(20)).is_none() && held.get(Tick(30)).is_none());
    }
}
