//! Constraint graph colouring: contact constraints sorted into colours so that no two
//! constraints of one colour move the same body. The constraints of a colour can then be
//! solved side by side (SIMD lanes, threads) with the same result as one after another.
//!
//! Bodies that do not move in the solver (static, kinematic-free, asleep: the `STATIC_BODY`
//! index) do not count: any number of constraints of one colour may touch the ground.
//! Colouring is greedy in constraint order, so it depends only on the order of the prepared
//! constraints, which is the order of contact slots: deterministic.
//!
//! Constraints between two moving bodies take the lowest free colour, so the first colours
//! fill up with them; a constraint with one fixed body takes the highest free colour. This
//! keeps the colour count low for pyramids and piles, where most bodies touch one or two
//! neighbours and a few touch the ground. A constraint that finds no free colour goes to the
//! overflow list, solved one at a time.

use super::body_state::STATIC_BODY;

/// Number of colours. Beyond this the remaining constraints are few and solved by the scalar
/// overflow path.
pub(crate) const COLOR_COUNT: usize = 24;

/// Per-colour sets of the bodies already used by a colour, one bit per solver index.
#[derive(Default)]
pub(crate) struct GraphColoring {
    /// `COLOR_COUNT` bitsets of `words_per_color` words each.
    used: Vec<u64>,
    words_per_color: usize,
    /// Constraint indices of each colour, in constraint order.
    pub colors: Vec<Vec<u32>>,
    /// Constraint indices that fit no colour.
    pub overflow: Vec<u32>,
}

impl GraphColoring {
    /// Forgets the last colouring and sizes the bitsets for `body_count` solver bodies.
    pub fn reset(&mut self, body_count: usize) {
        self.words_per_color = body_count.div_ceil(64);
        self.used.clear();
        self.used.resize(COLOR_COUNT * self.words_per_color, 0);
        self.colors.resize_with(COLOR_COUNT, Vec::new);
        for color in &mut self.colors {
            color.clear();
        }
        self.overflow.clear();
    }

    fn is_used(&self, color: usize, body: u32) -> bool {
        let word = self.used[color * self.words_per_color + body as usize / 64];
        word & (1u64 << (body % 64)) != 0
    }

    fn mark(&mut self, color: usize, body: u32) {
        self.used[color * self.words_per_color + body as usize / 64] |= 1u64 << (body % 64);
    }

    /// Puts constraint `constraint` between solver bodies `a` and `b` into a colour (or the
    /// overflow). Call [`GraphColoring::reset`] first, then this for every constraint in order.
    pub fn add(&mut self, constraint: u32, a: u32, b: u32) {
        let color = match (a == STATIC_BODY, b == STATIC_BODY) {
            (false, false) => {
                (0..COLOR_COUNT).find(|&c| !self.is_used(c, a) && !self.is_used(c, b))
            }
            (false, true) => (0..COLOR_COUNT).rev().find(|&c| !self.is_used(c, a)),
            (true, false) => (0..COLOR_COUNT).rev().find(|&c| !self.is_used(c, b)),
            // Nothing to move: no colour needed, the scalar path skips it cheaply.
            (true, true) => None,
        };
        match color {
            Some(c) => {
                for body in [a, b] {
                    if body != STATIC_BODY {
                        self.mark(c, body);
                    }
                }
                self.colors[c].push(constraint);
            }
            None => self.overflow.push(constraint),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every constraint lands in exactly one colour or the overflow, and no colour moves a
    /// body twice.
    #[test]
    fn colours_never_share_a_moving_body() {
        // A chain of 200 bodies, each linked to the next and every fifth also to the ground.
        let mut pairs = Vec::new();
        for i in 0..199u32 {
            pairs.push((i, i + 1));
            if i % 5 == 0 {
                pairs.push((STATIC_BODY, i));
            }
        }
        let mut coloring = GraphColoring::default();
        coloring.reset(200);
        for (k, &(a, b)) in pairs.iter().enumerate() {
            coloring.add(k as u32, a, b);
        }
        let mut seen = vec![0; pairs.len()];
        for color in &coloring.colors {
            let mut bodies = std::collections::HashSet::new();
            for &k in color {
                seen[k as usize] += 1;
                let (a, b) = pairs[k as usize];
                for body in [a, b] {
                    if body != STATIC_BODY {
                        assert!(bodies.insert(body), "body {body} twice in one colour");
                    }
                }
            }
        }
        for &k in &coloring.overflow {
            seen[k as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n == 1));
        // A chain needs two colours for its links and one more for ground links.
        assert!(coloring.overflow.is_empty());
        assert_eq!(coloring.colors.iter().filter(|c| !c.is_empty()).count(), 3);
    }

    /// A body with more constraints than colours sends the rest to the overflow.
    #[test]
    fn a_hub_body_overflows_past_the_colour_count() {
        let mut coloring = GraphColoring::default();
        coloring.reset(100);
        for k in 0..40u32 {
            coloring.add(k, 0, k + 1);
        }
        assert_eq!(coloring.overflow.len(), 40 - COLOR_COUNT);
        assert!(coloring.colors.iter().all(|c| c.len() == 1));
    }
}
