//! Moving many proxies at once.
//!
//! Moving proxies one by one refits each one's ancestors straight away: a walk up the tree
//! that, per level, loads the node and its other child and stops at the first box that does
//! not change. When most leaves of a tree move in one step (a swinging grid, a falling
//! crowd), those walks revisit the same upper nodes over and over and wait on a load at
//! every level. A batch instead writes all the leaf boxes first and then refits: once over
//! the whole tree, children before parents, when the batch is a large part of the tree, and
//! by the same walks otherwise.
//!
//! Either way every inner box ends as the exact union of its children (a parent is
//! recomputed after every change of one of its children), which is what snapshots rely on.
//! Proxies that drifted off the box they were inserted with are reinserted after the refit,
//! in batch order, into a tree whose boxes are exact.

use super::{DynamicTree, NULL_NODE};
use crate::shape::Aabb;

/// A refit of the whole tree touches every node once; the walks touch a few levels per moved
/// leaf, each level a node and its other child. Above one moved leaf in this many proxies the
/// whole-tree refit does fewer loads (measured on joint_grid, where nearly every leaf moves,
/// and on the pyramids, where few do).
const WHOLE_TREE_REFIT_SHARE: usize = 4;

impl DynamicTree {
    /// Gives each proxy in `moves` its new box, as [`DynamicTree::move_proxy`] would one by
    /// one, except that proxies reinserted elsewhere are placed after all the in-place moves
    /// (so they see every other new box). Ids must be live proxies.
    pub fn move_proxies(&mut self, moves: &[(u32, Aabb)]) {
        let mut in_place = Vec::with_capacity(moves.len());
        let mut reinserted = Vec::new();
        for &(proxy, aabb) in moves {
            if self.inserted_aabb[proxy as usize].overlaps(&aabb) {
                self.nodes[proxy as usize].aabb = aabb;
                in_place.push(proxy);
            } else {
                reinserted.push((proxy, aabb));
            }
        }
        if in_place.len() * WHOLE_TREE_REFIT_SHARE >= self.proxy_count {
            self.refit_whole_tree();
        } else {
            for proxy in in_place {
                let parent = self.nodes[proxy as usize].parent;
                self.refit_boxes_upwards(parent);
            }
        }
        for (proxy, aabb) in reinserted {
            self.remove_leaf(proxy);
            self.nodes[proxy as usize].aabb = aabb;
            self.insert_leaf(proxy);
        }
    }

    /// Recomputes every inner box from its children, children first (an explicit stack, so
    /// the depth of the tree never meets the call stack). Topology and heights are untouched.
    fn refit_whole_tree(&mut self) {
        if self.root == NULL_NODE {
            return;
        }
        // Each entry is a node and whether its children are done.
        let mut stack: Vec<(u32, bool)> = Vec::with_capacity(64);
        stack.push((self.root, false));
        while let Some((index, children_done)) = stack.pop() {
            let node = self.nodes[index as usize];
            if node.is_leaf() {
                continue;
            }
            if children_done {
                let b1 = self.nodes[node.child1 as usize].aabb;
                let b2 = self.nodes[node.child2 as usize].aabb;
                self.nodes[index as usize].aabb = b1.union(&b2);
            } else {
                stack.push((index, true));
                stack.push((node.child2, false));
                stack.push((node.child1, false));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_queries_match, grid_tree, uniform};
    use super::*;
    use bevy_math::Vec2;

    fn square(x: f32, y: f32, half: f32) -> Aabb {
        Aabb::new(Vec2::new(x - half, y - half), Vec2::new(x + half, y + half))
    }

    /// Checks links and heights, and that every inner box is the exact union of its children.
    fn assert_exact(tree: &DynamicTree) {
        tree.check_structure().unwrap();
        for (index, node) in tree.nodes.iter().enumerate() {
            if node.height > 0 {
                let b1 = tree.nodes[node.child1 as usize].aabb;
                let b2 = tree.nodes[node.child2 as usize].aabb;
                assert_eq!(node.aabb, b1.union(&b2), "inner node {index}");
            }
        }
    }

    /// Whether all or a few of the proxies move, and whether they stay near or jump, a batch
    /// leaves a sound tree whose inner boxes are exact unions, in which queries find exactly
    /// the boxes that overlap.
    #[test]
    fn batch_moves_keep_inner_boxes_exact_unions() {
        let (mut tree, mut boxes, ids) = grid_tree(300, |x, y| square(x, y, 0.5));
        let mut next = uniform(777);
        for round in 0..120 {
            // Rounds cycle through: everyone moves (whole-tree refit), one in ten moves (the
            // walks), and everyone moves with some jumping far (reinsertions after a refit).
            let mut moves = Vec::new();
            for (k, id) in ids.iter().enumerate() {
                if round % 3 == 1 && k % 10 != 0 {
                    continue;
                }
                let far = round % 3 == 2 && k % 9 == 0;
                let step = if far { 30.0 } else { 0.08 };
                let d = Vec2::new(next() - 0.5, next() - 0.5) * 2.0 * step;
                boxes[k] = Aabb::new(boxes[k].min + d, boxes[k].max + d);
                moves.push((*id, boxes[k]));
            }
            tree.move_proxies(&moves);
            assert_exact(&tree);
        }
        let probes = [
            square(5.0, 5.0, 2.0),
            square(25.0, 10.0, 4.0),
            square(-20.0, 30.0, 10.0),
        ];
        assert_queries_match(&tree, &boxes, &probes);
    }

    /// When no proxy is reinserted, a batch gives the tree that moving the proxies one by one
    /// gives, node for node: both refits end at the exact unions.
    #[test]
    fn batch_of_small_moves_matches_moving_one_by_one() {
        let mut one_by_one = DynamicTree::default();
        let ids: Vec<u32> = (0..100)
            .map(|i| one_by_one.create_proxy(square(i as f32, (i % 7) as f32, 0.6), i as u64))
            .collect();
        let mut batched = one_by_one.clone();
        for share in [1, 3, 100] {
            let moves: Vec<(u32, Aabb)> = ids
                .iter()
                .enumerate()
                .filter(|(k, _)| k % share == 0)
                .map(|(k, id)| (*id, square(k as f32 + 0.1, (k % 7) as f32 - 0.05, 0.6)))
                .collect();
            for &(id, aabb) in &moves {
                one_by_one.move_proxy(id, aabb);
            }
            batched.move_proxies(&moves);
            for node in 0..one_by_one.node_capacity() {
                let (a, b) = (one_by_one.nodes[node], batched.nodes[node]);
                assert_eq!(
                    (a.aabb, a.parent, a.child1, a.child2, a.height),
                    (b.aabb, b.parent, b.child1, b.child2, b.height),
                    "node {node} after moving one in {share}"
                );
            }
        }
    }
}
