//! [`MixRule`]: how two shapes' friction or restitution combine into their contact's. A
//! shape's own rule ([`ShapeDef`](crate::shape_def::ShapeDef)) and the world's default
//! ([`WorldDef`](crate::world::WorldDef)) both name one.

use serde::{Deserialize, Serialize};

/// How two shapes' material coefficients combine into the contact's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
pub enum MixRule {
    /// `sqrt(a * b)`: either surface near zero makes the contact near zero (ice on anything).
    GeometricMean,
    /// `(a + b) / 2`.
    Average,
    /// The larger: the bouncier or grippier surface wins.
    Max,
    /// The smaller.
    Min,
    /// `a * b`.
    Multiply,
}

impl MixRule {
    /// Rank of the rule when two shapes bring different ones: the higher applies (as in
    /// Avian and PhysX: `Max` 4, `Multiply` 3, `Min` 2, `Average` 1, `GeometricMean` 0).
    pub fn precedence(self) -> u8 {
        match self {
            MixRule::GeometricMean => 0,
            MixRule::Average => 1,
            MixRule::Min => 2,
            MixRule::Multiply => 3,
            MixRule::Max => 4,
        }
    }

    /// The rule for a pair: the shapes' own rules, the higher ranked when both have one,
    /// else the world's.
    pub fn for_pair(world: MixRule, a: Option<MixRule>, b: Option<MixRule>) -> MixRule {
        match (a, b) {
            (Some(a), Some(b)) => {
                if a.precedence() >= b.precedence() {
                    a
                } else {
                    b
                }
            }
            (Some(rule), None) | (None, Some(rule)) => rule,
            (None, None) => world,
        }
    }

    /// Combines two coefficients. Coefficients are finite, but a product of two huge ones is
    /// not: the result is held to the largest finite f32 (a friction of 1e30 on both shapes
    /// mixed to infinity, and infinity times a zero impulse is NaN).
    pub fn mix(self, a: f32, b: f32) -> f32 {
        let mixed = match self {
            MixRule::GeometricMean => (a * b).sqrt(),
            MixRule::Average => 0.5 * (a + b),
            MixRule::Max => a.max(b),
            MixRule::Min => a.min(b),
            MixRule::Multiply => a * b,
        };
        mixed.min(f32::MAX)
    }
}
