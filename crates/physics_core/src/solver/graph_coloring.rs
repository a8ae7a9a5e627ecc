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

/// The colours each body is already used in, and the constraints of each colour.
#[derive(Default)]
pub(crate) struct GraphColoring {
    /// Bit `c` of entry `body`: the body is moved by a constraint of colour `c`. One word per
    /// body, so finding a free colour for a pair is a few bit operations on two words (per
    /// colour bitsets over the bodies would read one cache line per colour tried).
    used: Vec<u32>,
    /// Constraint indices of each colour, in constraint order.
    pub colors: Vec<Vec<u32>>,
    /// Constraint indices that fit no colour.
    pub overflow: Vec<u32>,
}

const _: () = assert!(COLOR_COUNT <= 32, "a body's colours are one u32");

/// Bits of the colours that exist.
const ALL_COLORS: u32 = if COLOR_COUNT == 32 {
    u32::MAX
} else {
    (1 << COLOR_COUNT) - 1
};

impl GraphColoring {
    /// Forgets the last colouring and sizes the colour sets for `body_count` solver bodies.
    pub fn reset(&mut self, body_count: usize) {
        self.used.clear();
        self.used.resize(body_count, 0);
        self.colors.resize_with(COLOR_COUNT, Vec::new);
        for color in &mut self.colors {
            color.clear();
        }
        self.overflow.clear();
    }

    /// Puts constraint `constraint` between solver bodies `a` and `b` into a colour (or the
    /// overflow). Call [`GraphColoring::reset`] first, then this for every constraint in order.
    pub fn add(&mut self, constraint: u32, a: u32, b: u32) {
        let used = |body: u32| self.used[body as usize];
        let color = match (a == STATIC_BODY, b == STATIC_BODY) {
            // The lowest colour neither body is in.
            (false, false) => lowest_free(used(a) | used(b)),
            // The highest colour the moving body is not in.
            (false, true) => highest_free(used(a)),
            (true, false) => highest_free(used(b)),
            // Nothing to move: no colour needed, the scalar path skips it cheaply.
            (true, true) => None,
        };
        match color {
            Some(c) => {
                for body in [a, b] {
                    if body != STATIC_BODY {
                        self.used[body as usize] |= 1 << c;
                    }
                }
                self.colors[c].push(constraint);
            }
            None => self.overflow.push(constraint),
        }
    }

    /// [`GraphColoring::add`], or straight to the overflow when `scalar_only` (a constraint
    /// the lanes cannot solve).
    pub fn add_or_overflow(&mut self, constraint: u32, a: u32, b: u32, scalar_only: bool) {
        if scalar_only {
            self.overflow.push(constraint);
        } else {
            self.add(constraint, a, b);
        }
    }
}

impl GraphColoring {
    /// Moves the constraints of exact contact islands (`island[k]` for constraint k; they
    /// were all sent to the overflow) to the end of the overflow, grouped by island in island
    /// order and in constraint order within one, and returns each island's constraint count
    /// in `sizes`.
    pub fn gather_exact_islands(&mut self, island: &[Option<u32>], sizes: &mut Vec<usize>) {
        let island_of = |k: u32| island[k as usize];
        let count = island.iter().flatten().map(|&i| i as usize + 1).max();
        sizes.clear();
        sizes.resize(count.unwrap_or(0), 0);
        let mut exact: Vec<u32> = self
            .overflow
            .iter()
            .copied()
            .filter(|&k| island_of(k).is_some())
            .collect();
        self.overflow.retain(|&k| island_of(k).is_none());
        exact.sort_by_key(|&k| island_of(k));
        for i in exact.iter().filter_map(|&k| island_of(k)) {
            sizes[i as usize] += 1;
        }
        self.overflow.extend(exact);
    }
}

/// The lowest colour whose bit is clear in `used`.
fn lowest_free(used: u32) -> Option<usize> {
    let free = !used & ALL_COLORS;
    (free != 0).then(|| free.trailing_zeros() as usize)
}

/// The highest colour whose bit is clear in `used`.
fn highest_free(used: u32) -> Option<usize> {
    let free = !used & ALL_COLORS;
    (free != 0).then(|| 31 - free.leading_zeros() as usize)
}

/// `count` pseudo-random constraints between `bodies` bodies from `seed`, one in six of them
/// against a fixed body (`STATIC_BODY` first), for colouring tests.
#[cfg(test)]
pub(crate) fn random_pairs(seed: u32, bodies: u32, count: usize) -> Vec<(u32, u32)> {
    let mut seed = seed;
    let mut next = |n: u32| {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) % n
    };
    (0..count)
        .map(|_| {
            let a = if next(6) == 0 {
                STATIC_BODY
            } else {
                next(bodies)
            };
            (a, next(bodies))
        })
        .collect()
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

    /// The per-body colour words pick the colour a search through per-colour body sets
    /// picks: the lowest colour free for both bodies, the highest free one next to a fixed
    /// body.
    #[test]
    fn colour_words_choose_what_a_search_of_colour_sets_chooses() {
        let bodies = 60u32;
        let pairs = random_pairs(12345, bodies, 900);
        let mut coloring = GraphColoring::default();
        coloring.reset(bodies as usize);
        let mut sets = vec![std::collections::HashSet::new(); COLOR_COUNT];
        let mut expected: Vec<Option<usize>> = Vec::new();
        for (k, &(a, b)) in pairs.iter().enumerate() {
            coloring.add(k as u32, a, b);
            let free = |c: &usize| {
                [a, b]
                    .iter()
                    .all(|&x| x == STATIC_BODY || !sets[*c].contains(&x))
            };
            let color = match (a == STATIC_BODY, b == STATIC_BODY) {
                (false, false) => (0..COLOR_COUNT).find(free),
                (true, true) => None,
                _ => (0..COLOR_COUNT).rev().find(free),
            };
            if let Some(c) = color {
                sets[c].extend([a, b].into_iter().filter(|&x| x != STATIC_BODY));
            }
            expected.push(color);
        }
        for (k, color) in expected.iter().enumerate() {
            let k = k as u32;
            match color {
                Some(c) => assert!(coloring.colors[*c].contains(&k), "constraint {k}"),
                None => assert!(coloring.overflow.contains(&k), "constraint {k}"),
            }
        }
        assert!(
            !coloring.overflow.is_empty(),
            "the test should reach the overflow"
        );
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
