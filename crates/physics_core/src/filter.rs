//! Which shapes may collide: category and mask bits, and collision groups.

use serde::{Deserialize, Serialize};

/// Collision filter of a shape.
///
/// Two shapes collide when each one's category is in the other's mask, unless they share a
/// non-zero group: a shared positive group always collides, a shared negative group never does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Filter {
    /// The categories this shape belongs to (usually one bit).
    pub category_bits: u64,
    /// The categories this shape collides with.
    pub mask_bits: u64,
    /// Group index: overrides the bits for shapes of the same non-zero group.
    pub group_index: i32,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            category_bits: 1,
            mask_bits: u64::MAX,
            group_index: 0,
        }
    }
}

impl Filter {
    /// True when shapes with these filters may collide.
    pub fn should_collide(&self, other: &Filter) -> bool {
        if self.group_index == other.group_index && self.group_index != 0 {
            return self.group_index > 0;
        }
        (self.mask_bits & other.category_bits) != 0 && (self.category_bits & other.mask_bits) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_groups() {
        let player = Filter {
            category_bits: 0b01,
            mask_bits: 0b10,
            group_index: 0,
        };
        let wall = Filter {
            category_bits: 0b10,
            mask_bits: u64::MAX,
            group_index: 0,
        };
        let ghost = Filter {
            category_bits: 0b100,
            ..Filter::default()
        };
        assert!(player.should_collide(&wall));
        assert!(!player.should_collide(&ghost), "ghost not in player's mask");
        let ragdoll = Filter {
            group_index: -3,
            ..Filter::default()
        };
        assert!(!ragdoll.should_collide(&ragdoll));
        let team = Filter {
            group_index: 2,
            mask_bits: 0,
            ..Filter::default()
        };
        assert!(
            team.should_collide(&team),
            "positive group overrides the mask"
        );
    }
}
