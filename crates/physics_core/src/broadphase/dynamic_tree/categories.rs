//! Collision categories in the tree, so pair finding skips whole subtrees of shapes its
//! proxy's filter masks out.
//!
//! Every leaf holds its shape's category bits and every inner node the union (bitwise or) of
//! its children's, kept through inserts, removals and rotations (moves change no category).
//! A subtree whose union misses a query's mask holds no shape in any category the mask
//! accepts, so none of its shapes can pass the filter test and the query skips it. A crowd of
//! shapes that never collide with each other (debris, particles, a joint grid) then costs its
//! pair finding almost nothing, where testing every overlap against the filters afterwards
//! cost a full tree walk per moved proxy.

use super::{DynamicTree, NULL_NODE};
use crate::shape::Aabb;

impl DynamicTree {
    /// Calls `visit(proxy, user_data)` for every proxy whose box overlaps `aabb` and whose
    /// categories meet `mask`, in the order [`DynamicTree::query`] visits them; `visit`
    /// returns false to stop.
    pub fn query_masked(&self, aabb: &Aabb, mask: u64, visit: impl FnMut(u32, u64) -> bool) {
        self.query_within::<true>(aabb, mask, visit);
    }

    /// Sets every leaf's categories to `categories_of(user_data)` and every inner node's to
    /// the union of its children's (a tree read from a snapshot has them all set).
    pub fn set_categories(&mut self, categories_of: impl Fn(u64) -> u64) {
        if self.root == NULL_NODE {
            return;
        }
        // Children before parents: a node is pushed once to visit its children and once more
        // (marked) to take their union.
        let mut stack = vec![(self.root, false)];
        while let Some((id, children_done)) = stack.pop() {
            let node = self.nodes[id as usize];
            if node.is_leaf() {
                self.categories[id as usize] = categories_of(self.user_data[id as usize]);
            } else if children_done {
                self.categories[id as usize] =
                    self.categories[node.child1 as usize] | self.categories[node.child2 as usize];
            } else {
                stack.push((id, true));
                stack.push((node.child1, false));
                stack.push((node.child2, false));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{grid_tree, uniform};
    use super::*;
    use bevy_math::Vec2;

    /// Category of the proxy with user data `i`: one of four bits, in stripes.
    fn stripe(i: u64) -> u64 {
        1 << (i % 4)
    }

    /// What a masked query must find: every proxy overlapping `probe` in a category of `mask`.
    fn brute_force(boxes: &[Aabb], probe: &Aabb, mask: u64) -> Vec<u64> {
        let mut found: Vec<u64> = (0..boxes.len() as u64)
            .filter(|&i| boxes[i as usize].overlaps(probe) && stripe(i) & mask != 0)
            .collect();
        found.sort_unstable();
        found
    }

    fn masked(tree: &DynamicTree, probe: &Aabb, mask: u64) -> Vec<u64> {
        let mut found = Vec::new();
        tree.query_masked(probe, mask, |_, data| {
            found.push(data);
            true
        });
        found.sort_unstable();
        found
    }

    #[test]
    fn masked_queries_find_exactly_the_overlaps_in_their_categories() {
        // A striped grid, then random moves far enough to reinsert leaves (rotations), then
        // half the proxies destroyed: after each round every inner node holds the union of its
        // children's categories, and masked queries match brute force.
        let mut random = uniform(7);
        let mut boxes = Vec::new();
        let mut tree = DynamicTree::default();
        let mut proxies = Vec::new();
        for i in 0..400u64 {
            let at = Vec2::new((i % 20) as f32, (i / 20) as f32);
            let b = Aabb::new(at - Vec2::splat(0.6), at + Vec2::splat(0.6));
            proxies.push(tree.create_proxy_in(b, i, stripe(i)));
            boxes.push(b);
        }
        let probes: Vec<Aabb> = (0..60)
            .map(|_| {
                let at = Vec2::new(random() * 22.0 - 1.0, random() * 22.0 - 1.0);
                Aabb::new(at, at + Vec2::new(random() * 4.0, random() * 4.0))
            })
            .collect();
        let check = |tree: &DynamicTree, boxes: &[Aabb], live: &dyn Fn(usize) -> bool| {
            tree.validate().unwrap();
            for probe in &probes {
                for mask in [0b0001, 0b0110, 0b1000, 0, u64::MAX] {
                    let want: Vec<u64> = brute_force(boxes, probe, mask)
                        .into_iter()
                        .filter(|&i| live(i as usize))
                        .collect();
                    assert_eq!(masked(tree, probe, mask), want, "mask {mask:b}");
                }
            }
        };
        check(&tree, &boxes, &|_| true);
        for (i, &proxy) in proxies.iter().enumerate() {
            let jump = Vec2::new(random() * 20.0, random() * 20.0);
            let b = Aabb::new(jump - Vec2::splat(0.6), jump + Vec2::splat(0.6));
            tree.move_proxy(proxy, b);
            boxes[i] = b;
        }
        check(&tree, &boxes, &|_| true);
        for &proxy in proxies.iter().step_by(2) {
            tree.destroy_proxy(proxy);
        }
        check(&tree, &boxes, &|i| i % 2 == 1);
    }

    #[test]
    fn set_categories_gives_what_creating_with_them_gave() {
        // Proxies created without categories are in every one; given their categories
        // afterwards, the tree answers as one whose proxies were created with them.
        let square = |x: f32, y: f32| Aabb::new(Vec2::new(x, y), Vec2::new(x + 2.0, y + 2.0));
        let (mut late, boxes, _) = grid_tree(300, square);
        let mut early = DynamicTree::default();
        for (i, b) in boxes.iter().enumerate() {
            early.create_proxy_in(*b, i as u64, stripe(i as u64));
        }
        let everything = brute_force(&boxes, &boxes[45], u64::MAX);
        assert_eq!(masked(&late, &boxes[45], 0b10), everything);
        late.set_categories(stripe);
        late.validate().unwrap();
        for probe in &boxes {
            for mask in [0b0001, 0b1010] {
                let want = brute_force(&boxes, probe, mask);
                assert_eq!(masked(&late, probe, mask), want);
                assert_eq!(masked(&early, probe, mask), want);
            }
        }
    }
}
