//! Named collision layers: `#[derive(PhysicsLayer)]` on an enum, and [`LayerMask`], what
//! [`CollisionLayers`](crate::CollisionLayers) and query filters take (a `u64`, one layer,
//! or an array of layers).

/// A set of named collision layers, one bit each. Derive it on an enum of unit variants:
/// the first variant is bit 1, the n-th (from zero) bit `1 << n`, at most 64.
///
/// ```
/// use bevy_physics2d::prelude::*;
///
/// #[derive(PhysicsLayer, Clone, Copy)]
/// enum Layer {
///     Ground,
///     Player,
///     Enemy,
/// }
///
/// // A player collides with the ground and enemies, not with other players.
/// let player = CollisionLayers::new(Layer::Player, [Layer::Ground, Layer::Enemy]);
/// assert_eq!(player.memberships, 0b010);
/// assert_eq!(player.filters, 0b101);
/// assert_eq!(Layer::all_bits(), 0b111);
/// ```
///
/// A variant with data is not a layer, and the derive says so:
///
/// ```compile_fail
/// use bevy_physics2d::prelude::*;
/// #[derive(PhysicsLayer)]
/// enum Layer {
///     Ground,
///     Team(u8),
/// }
/// ```
pub trait PhysicsLayer {
    /// This layer's bit.
    fn to_bits(&self) -> u64;
    /// Every layer's bit.
    fn all_bits() -> u64;
}

/// A set of layers as bits: from a `u64`, one [`PhysicsLayer`], or an array of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LayerMask(pub u64);

impl LayerMask {
    /// No layer.
    pub const NONE: LayerMask = LayerMask(0);
    /// Every layer.
    pub const ALL: LayerMask = LayerMask(u64::MAX);
}

impl From<u64> for LayerMask {
    fn from(bits: u64) -> Self {
        LayerMask(bits)
    }
}

impl<L: PhysicsLayer> From<L> for LayerMask {
    fn from(layer: L) -> Self {
        LayerMask(layer.to_bits())
    }
}

impl<L: PhysicsLayer, const N: usize> From<[L; N]> for LayerMask {
    fn from(layers: [L; N]) -> Self {
        LayerMask(layers.iter().fold(0, |bits, l| bits | l.to_bits()))
    }
}

impl std::ops::BitOr for LayerMask {
    type Output = LayerMask;

    fn bitor(self, other: LayerMask) -> LayerMask {
        LayerMask(self.0 | other.0)
    }
}
