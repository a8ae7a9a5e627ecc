//! Moving many proxies at once: new leaf boxes, then the part of the tree above them built
//! again from scratch.
//!
//! Refitting ancestors in place keeps a tree correct but not good: a leaf that drifts keeps
//! its old siblings, so their parent's box stretches over the gap and overlaps its
//! neighbours, and a query must descend into both. In a crowd that churns (a spinner's bowl,
//! a tumbling drum, a smashed wall) queries of a tree kept that way visited about three
//! times the nodes of a tree built fresh over the same leaves (150 against 55 nodes per query
//! in the spinner, 163 against 66 in the tumbler, 107 against 43 in smash, measured on each
//! scene's leaves after its benchmark steps). Box2D v3 keeps its trees good the same way:
//! it enlarges in place and rebuilds what grew every step.
//!
//! A batch of moves (at least one proxy in [`PER_PROXY_SHARE`]; fewer move one by one)
//! therefore marks every ancestor of a moved leaf. The marked inner nodes
//! are freed; what hangs below them (moved leaves and the untouched subtrees beside them)
//! becomes the items of a top-down build. When a quarter of the leaves or more moved, nearly
//! everything would be marked, and the walks up from each leaf wait on a load per level: the
//! whole tree is built again from its leaves instead, found in one pass along the nodes. The
//! build: each range of items is split at the middle of its
//! centres' extent along the longer axis. That split is cheap (one pass over the centres per
//! level, no sorting) and gave trees within a few percent of a binned surface-area build in
//! those three scenes. Items that crowd one side keep the tree deep only when their centres
//! spread over many orders of magnitude; below [`MAX_MIDPOINT_DEPTH`] levels the split is at
//! the median item instead, so a whole-tree build stays within that plus log2 of the
//! leaves (a partial one adds the height of the tallest subtree it keeps).
//!
//! Untouched subtrees keep their exact boxes, and every rebuilt node gets the exact union of
//! its children (box, categories, height), so the tree after a batch is as exact as before
//! (what snapshots and queries rely on). The build is deterministic: the same tree and moves
//! give the same nodes in the same slots, for any worker count (the build itself, shared among
//! workers, is in `shared_build.rs`; the split is here).

use super::shared_build::BuildScratch;
use super::{DynamicTree, NULL_NODE};
use crate::parallel::{SingleThreaded, TaskRunner};
use crate::shape::Aabb;
use bevy_math::Vec2;

/// Levels split at the middle of the centres' extent before the build falls back to splitting
/// at the median item (which halves the items every level).
const MAX_MIDPOINT_DEPTH: u32 = 32;

/// When fewer than one proxy in this many moves, the batch moves them one by one
/// ([`DynamicTree::move_proxy`]). Rebuilding the paths above a handful of leaves re-splits
/// the top of the tree among subtrees of very different sizes, and many such small batches
/// (teleported bodies, bullets, a settling pile's few movers) let the tree grow deep and its
/// boxes overlap, where reinsertion keeps it balanced.
const PER_PROXY_SHARE: usize = 32;

/// When at least one proxy in this many moves, the whole tree is built again from its leaves
/// instead of marking the moved leaves' ancestors: most of it would be marked anyway.
const WHOLE_TREE_SHARE: usize = 4;

/// The buffers a batch needs, kept from one batch to the next: a step's batch can hold most
/// of the proxies, and allocating them afresh every step cost more than filling them (more
/// so in a process whose heap other code has fragmented).
#[derive(Clone, Debug, Default)]
pub(super) struct RebuildScratch {
    /// Per node: an ancestor of a moved leaf.
    marked: Vec<bool>,
    items: Vec<Item>,
    stack: Vec<u32>,
    /// The build's own buffers (`shared_build.rs`).
    pub(super) build: BuildScratch,
}

/// Something the build places: a moved leaf or an untouched subtree, by its root node, and
/// the centre of its box.
#[derive(Clone, Copy, Debug)]
pub(super) struct Item {
    pub(super) node: u32,
    pub(super) center: Vec2,
}

impl DynamicTree {
    /// Gives each proxy in `moves` its new box and rebuilds the tree above the moved leaves
    /// (see the module documentation), on one worker. Ids must be live proxies.
    pub fn move_proxies(&mut self, moves: &[(u32, Aabb)]) {
        self.move_proxies_on(moves, &SingleThreaded);
    }

    /// [`DynamicTree::move_proxies`] with the rebuild shared among `runner`'s workers; the
    /// tree is the same, node for node, for any runner (`shared_build.rs`).
    pub fn move_proxies_on(&mut self, moves: &[(u32, Aabb)], runner: &dyn TaskRunner) {
        if moves.is_empty() {
            return;
        }
        if moves.len() * PER_PROXY_SHARE < self.proxy_count {
            // A few proxies: each keeps its place or is reinserted, one by one.
            for &(proxy, aabb) in moves {
                self.move_proxy(proxy, aabb);
            }
            return;
        }
        for &(proxy, aabb) in moves {
            self.nodes[proxy as usize].aabb = aabb;
            self.inserted_aabb[proxy as usize] = aabb;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.items.clear();
        if moves.len() * WHOLE_TREE_SHARE >= self.proxy_count {
            self.take_all_inner(&mut scratch.items, &mut scratch.build.fresh);
            if !scratch.items.is_empty() {
                self.build_root_on_fresh(&mut scratch.items, &mut scratch.build, runner);
            }
        } else {
            let marked = &mut scratch.marked;
            marked.clear();
            marked.resize(self.nodes.len(), false);
            for &(proxy, _) in moves {
                let mut index = self.nodes[proxy as usize].parent;
                // Stop at the first marked ancestor: everything above it is marked already.
                while index != NULL_NODE && !marked[index as usize] {
                    marked[index as usize] = true;
                    index = self.nodes[index as usize].parent;
                }
            }
            // Unmarked root: a single leaf as the root, whose box is all there is.
            if self.root != NULL_NODE && marked[self.root as usize] {
                self.free_marked(marked, &mut scratch.stack, &mut scratch.items);
            }
            if !scratch.items.is_empty() {
                self.build_root(&mut scratch.items, &mut scratch.build, runner);
            }
        }
        self.scratch = scratch;
    }

    /// Puts every leaf in `items`, in slot order, and every inner node in `fresh`, for the
    /// build to take: one pass along the node array, where marking the moved leaves'
    /// ancestors would load a parent at every level.
    ///
    /// The inner nodes are not freed: the build over every leaf needs exactly as many as
    /// the tree has (one fewer than its leaves), so freeing them in slot order and taking
    /// them back would hand them out in the reverse order and leave the free list as it was.
    /// `fresh` lists them in that order instead, and the build writes every field they had
    /// as free nodes: the same nodes in the same slots, without a write to each node and a
    /// load from it to find the next free one (a serial tenth of a millisecond in smash).
    fn take_all_inner(&mut self, items: &mut Vec<Item>, fresh: &mut Vec<u32>) {
        fresh.clear();
        for index in 0..self.nodes.len() as u32 {
            let node = self.nodes[index as usize];
            if node.height == 0 {
                items.push(Item {
                    node: index,
                    center: node.aabb.center(),
                });
            } else if node.height > 0 {
                fresh.push(index);
            }
        }
        fresh.reverse();
    }

    /// Frees every marked inner node (they hang together from the root) and puts what hung
    /// below them in `items`, in depth-first order.
    fn free_marked(&mut self, marked: &[bool], stack: &mut Vec<u32>, items: &mut Vec<Item>) {
        stack.clear();
        stack.push(self.root);
        while let Some(index) = stack.pop() {
            let node = self.nodes[index as usize];
            if node.is_leaf() || !marked[index as usize] {
                items.push(Item {
                    node: index,
                    center: node.aabb.center(),
                });
                continue;
            }
            stack.push(node.child2);
            stack.push(node.child1);
            self.free(index);
        }
    }
}

/// Reorders `items` (at least two) into two non-empty ranges and returns where the second
/// begins: items whose centres lie below the middle of the centres' extent along its longer
/// axis come first, or, past [`MAX_MIDPOINT_DEPTH`] or when every centre is on one side, the
/// lower half by centre.
pub(super) fn split_items(items: &mut [Item], depth: u32) -> usize {
    let (mut low, mut high) = (items[0].center, items[0].center);
    for item in items.iter() {
        low = low.min(item.center);
        high = high.max(item.center);
    }
    let extent = high - low;
    let axis = usize::from(extent.y > extent.x);
    if depth < MAX_MIDPOINT_DEPTH {
        let middle = 0.5 * (low[axis] + high[axis]);
        // Below the middle to the front, without a branch on the data: every item is swapped
        // with the first one not yet known to be below, which it stays behind unless it is
        // below itself (the branchy form mispredicted on about every other item).
        let mut front = 0;
        for i in 0..items.len() {
            let below = items[i].center[axis] < middle;
            items.swap(front, i);
            front += usize::from(below);
        }
        if front > 0 && front < items.len() {
            return front;
        }
    }
    let half = items.len() / 2;
    items.select_nth_unstable_by(half, |a, b| a.center[axis].total_cmp(&b.center[axis]));
    half
}

#[cfg(test)]
mod tests {
    use super::super::tests::{
        assert_queries_match, assert_same_nodes, grid_tree, square, uniform,
    };
    use super::*;

    /// Every inner box is the exact union of its children's, with the children's categories
    /// and one more level than the taller child.
    fn assert_exact(tree: &DynamicTree) {
        tree.validate().unwrap();
        for (i, n) in tree.nodes.iter().enumerate() {
            if n.height > 0 {
                let (a, b) = (tree.nodes[n.child1 as usize], tree.nodes[n.child2 as usize]);
                assert_eq!(n.aabb, a.aabb.union(&b.aabb), "node {i}");
                assert_eq!(n.height, 1 + a.height.max(b.height), "node {i}");
                assert_eq!(
                    tree.categories[i],
                    tree.categories[n.child1 as usize] | tree.categories[n.child2 as usize]
                );
            }
        }
    }

    /// Nodes a query of `probe` loads: every node popped, overlapping or not.
    fn nodes_loaded(tree: &DynamicTree, probe: &Aabb) -> usize {
        let mut loaded = 0;
        let mut stack = vec![tree.root];
        while let Some(id) = stack.pop() {
            loaded += 1;
            let n = tree.nodes[id as usize];
            if n.height > 0 && n.aabb.overlaps(probe) {
                stack.extend([n.child1, n.child2]);
            }
        }
        loaded
    }

    /// A tree built by inserting `boxes` afresh, and the nodes loaded by querying every box
    /// in `tree` and in that fresh tree, summed.
    fn loads_against_fresh(tree: &DynamicTree, boxes: &[Aabb]) -> (DynamicTree, usize, usize) {
        let mut fresh = DynamicTree::default();
        for b in boxes {
            fresh.create_proxy(*b, 0);
        }
        let (kept, built) = boxes
            .iter()
            .map(|b| (nodes_loaded(tree, b), nodes_loaded(&fresh, b)))
            .fold((0, 0), |(x, y), (a, b)| (x + a, y + b));
        (fresh, kept, built)
    }

    /// Batches of moves, from a few leaves to all of them, near and far, keep the tree exact
    /// and its queries equal to brute force; proxies not moved keep their ids and data.
    #[test]
    fn batches_keep_the_tree_exact_and_queries_right() {
        let (mut tree, mut boxes, ids) = grid_tree(400, |x, y| square(x, y, 0.5));
        // Categories in stripes, so the unions the build gives inner nodes are checked.
        tree.set_categories(|data| 1 << (data % 4));
        let capacity = tree.node_capacity();
        let mut random = uniform(7);
        let probes: Vec<Aabb> = (0..60)
            .map(|_| square(random() * 30.0, random() * 30.0, 0.5 + random() * 6.0))
            .collect();
        for round in 0..40 {
            // Rounds cycle through a handful of leaves (moved one by one), a tenth (the paths
            // above them rebuilt) and most of them (the whole tree rebuilt), jiggling in
            // place or jumping across the field.
            let share = [0.02, 0.1, 0.8][round % 3];
            let far = round % 4 == 0;
            let mut moves = Vec::new();
            for (k, &id) in ids.iter().enumerate() {
                if random() < share {
                    let c = boxes[k].center();
                    let (x, y) = if far {
                        (random() * 30.0, random() * 30.0)
                    } else {
                        (c.x + random() - 0.5, c.y + random() - 0.5)
                    };
                    boxes[k] = square(x, y, 0.3 + random() * 0.4);
                    moves.push((id, boxes[k]));
                }
            }
            tree.move_proxies(&moves);
            assert_exact(&tree);
            assert_queries_match(&tree, &boxes, &probes);
            assert_eq!(tree.node_capacity(), capacity, "a batch needs no new nodes");
            for (k, &id) in ids.iter().enumerate() {
                assert_eq!(tree.user_data(id), k as u64);
                assert_eq!(tree.fat_aabb(id), boxes[k]);
            }
        }
    }

    /// A whole-tree batch, which takes the inner nodes for its build without freeing them,
    /// gives the nodes, slots, root and free list that freeing every inner node in slot order
    /// and taking them back from the free list gives (so the same tree as before that
    /// shortcut, bit for bit), also with other nodes waiting on the free list.
    #[test]
    fn a_whole_tree_batch_takes_the_nodes_freeing_them_would_give() {
        let (mut tree, mut boxes, ids) = grid_tree(300, |x, y| square(x, y, 0.5));
        tree.set_categories(|data| 1 << (data % 3));
        // Free nodes from destroyed proxies, ahead of the inner nodes on the free list.
        for &id in &ids[..7] {
            tree.destroy_proxy(id);
        }
        let mut random = uniform(5);
        for round in 0..6 {
            let moves: Vec<(u32, Aabb)> = ids[7..]
                .iter()
                .zip(&mut boxes[7..])
                .map(|(&id, b)| {
                    let c = b.center() + Vec2::new(random() - 0.5, random() - 0.5) * 4.0;
                    *b = square(c.x, c.y, 0.3 + random() * 0.4);
                    (id, *b)
                })
                .collect();
            let mut freed = tree.clone();
            tree.move_proxies(&moves);
            // The reference: the leaves' new boxes, every inner node freed in slot order,
            // the build taking its nodes back from the free list.
            let mut items = Vec::new();
            for &(proxy, aabb) in &moves {
                freed.nodes[proxy as usize].aabb = aabb;
                freed.inserted_aabb[proxy as usize] = aabb;
            }
            for index in 0..freed.nodes.len() as u32 {
                let node = freed.nodes[index as usize];
                if node.height == 0 {
                    let center = node.aabb.center();
                    items.push(Item {
                        node: index,
                        center,
                    });
                } else if node.height > 0 {
                    freed.free(index);
                }
            }
            let mut scratch = BuildScratch::default();
            freed.build_root(&mut items, &mut scratch, &SingleThreaded);
            assert_same_nodes(&tree, &freed, round);
        }
    }

    /// A crowd that keeps moving keeps a tree whose queries load no more nodes than one built
    /// by inserting the same boxes fresh. Refitting in place instead (the leaves keeping
    /// their old siblings) loads several times as many after a while.
    #[test]
    fn a_churning_crowd_keeps_queries_as_cheap_as_a_fresh_tree() {
        let (mut tree, mut boxes, ids) = grid_tree(1600, |x, y| square(x, y, 0.45));
        let mut random = uniform(3);
        // Every leaf takes a random walk of about its own size per round.
        for _ in 0..60 {
            let mut moves = Vec::new();
            for (k, &id) in ids.iter().enumerate() {
                let c = boxes[k].center() + Vec2::new(random() - 0.5, random() - 0.5) * 1.5;
                boxes[k] = square(c.x, c.y, 0.45);
                moves.push((id, boxes[k]));
            }
            tree.move_proxies(&moves);
        }
        let (_, kept, built) = loads_against_fresh(&tree, &boxes);
        assert!(
            kept <= built,
            "the moved tree loads {kept} nodes over all queries, a fresh one {built}"
        );
    }

    /// Thousands of batches of one proxy each (teleports, bullets), near and far, keep the
    /// tree about as shallow and as cheap to query as one built by inserting the same boxes.
    #[test]
    fn many_single_moves_keep_the_tree_shallow() {
        let (mut tree, mut boxes, ids) = grid_tree(1600, |x, y| square(x, y, 0.45));
        let mut random = uniform(11);
        for round in 0..5000 {
            let k = (random() * ids.len() as f32) as usize % ids.len();
            let c = if round % 5 == 0 {
                Vec2::new(random() * 30.0, random() * 120.0)
            } else {
                boxes[k].center() + Vec2::new(random() - 0.5, random() - 0.5) * 0.3
            };
            boxes[k] = square(c.x, c.y, 0.45);
            tree.move_proxies(&[(ids[k], boxes[k])]);
        }
        assert_exact(&tree);
        let (fresh, kept, built) = loads_against_fresh(&tree, &boxes);
        assert!(
            tree.height() <= fresh.height() + 2,
            "height {} against {} fresh",
            tree.height(),
            fresh.height()
        );
        assert!(
            kept * 4 <= built * 5,
            "the moved tree loads {kept} nodes over all queries, a fresh one {built}"
        );
    }

    /// Centres spread over many orders of magnitude (each one twice as far out as the last)
    /// would make every middle split peel off one item; the median fallback bounds the height.
    #[test]
    fn centres_spread_exponentially_keep_the_height_bounded() {
        let mut tree = DynamicTree::default();
        let ids: Vec<u32> = (0..200)
            .map(|i| tree.create_proxy(square(0.0, 0.0, 1.0), i))
            .collect();
        let moves: Vec<(u32, Aabb)> = ids
            .iter()
            .enumerate()
            .map(|(i, &id)| (id, square(1.2f32.powi(i as i32), 0.0, 0.1)))
            .collect();
        tree.move_proxies(&moves);
        assert_exact(&tree);
        let bound = MAX_MIDPOINT_DEPTH as i32 + 9;
        assert!(
            tree.height() <= bound,
            "height {} over {bound}",
            tree.height()
        );
    }
}
