//! The top-down build of `rebuild.rs` on several workers, node for node the tree one worker
//! builds.
//!
//! The build over n items splits them top-down and gives each inner node its slot after
//! both of its subtrees are built, so it takes n - 1 nodes from the free list in post-order.
//! Here those n - 1 nodes are taken first, in the order the one-worker build would take them
//! (`fresh`). The subtree over a range of items then owns a known run of them: the first part
//! of a split the first (its item count - 1), the second part the next run, and their parent
//! the last node of the whole run. So the build's top levels are split first, on one worker
//! ([`plan`]); the subtrees below them become the blocks of one stage, each writing only its
//! own items' parent links and its own run of nodes; the few inner nodes above them are
//! joined last, children before parents. The splits are the one-worker build's (same items,
//! same depths) and so are the nodes' slots: any worker count gives the same tree, bit for
//! bit.
//!
//! Speed: in a crowd that churns (smash) the rebuild is most of the serial tail of a step with
//! two workers; below the top levels it halves with two.
#![allow(unsafe_code)]

use super::rebuild::{Item, split_items};
use super::{DynamicTree, NULL_NODE, Node};
use crate::parallel::TaskRunner;
use crate::parallel::shared::SharedMut;
use crate::parallel::stages::{Claim, run_stages};
use crate::shape::Aabb;
use std::ops::Range;

/// Fewest items in a subtree built as a block of its own: smaller ones stay in their
/// parent's block, where splitting them costs less than handing them to a worker.
const MIN_TASK_ITEMS: usize = 256;

/// The buffers a shared build needs, kept from one build to the next.
#[derive(Clone, Debug, Default)]
pub(super) struct BuildScratch {
    /// The build's inner nodes, in the order the one-worker build takes them from the free
    /// list.
    pub(super) fresh: Vec<u32>,
    /// The subtrees below the top levels, one block each.
    tasks: Vec<Task>,
    /// The inner nodes of the top levels, children before parents.
    joins: Vec<Join>,
}

/// A subtree below the top levels: its items, its run of `fresh`, and how many levels are
/// above it.
#[derive(Clone, Debug)]
struct Task {
    items: Range<usize>,
    fresh: Range<usize>,
    depth: u32,
}

/// An inner node of the top levels and its two children's nodes.
#[derive(Clone, Copy, Debug)]
struct Join {
    node: u32,
    child1: u32,
    child2: u32,
}

/// A subtree the build made: its root and what its parent takes from it, so a parent never
/// loads its children back.
#[derive(Clone, Copy, Debug)]
struct Subtree {
    node: u32,
    aabb: Aabb,
    height: i32,
    categories: u64,
}

/// The node and category arrays while the blocks of a build write them. Each block touches
/// only the nodes it owns: its items' nodes (the roots of leaves or kept subtrees, in exactly
/// one item each) and its run of fresh nodes (runs are disjoint).
struct SharedNodes<'a> {
    nodes: SharedMut<'a, Node>,
    categories: SharedMut<'a, u64>,
}

impl SharedNodes<'_> {
    /// The subtree rooted at an item's node, as it stands.
    ///
    /// # Safety
    /// The calling block owns `node`.
    unsafe fn subtree(&self, node: u32) -> Subtree {
        let (n, categories) = unsafe {
            (
                *self.nodes.get(node as usize),
                *self.categories.get(node as usize),
            )
        };
        Subtree {
            node,
            aabb: n.aabb,
            height: n.height,
            categories,
        }
    }

    /// Makes `parent` the inner node over subtrees `a` and `b`, and returns it as a subtree.
    ///
    /// # Safety
    /// The calling block owns `parent` and both subtrees' roots.
    unsafe fn join(&self, parent: u32, a: Subtree, b: Subtree) -> Subtree {
        let built = Subtree {
            node: parent,
            aabb: a.aabb.union(&b.aabb),
            height: 1 + a.height.max(b.height),
            categories: a.categories | b.categories,
        };
        unsafe {
            let node = self.nodes.get(parent as usize);
            node.aabb = built.aabb;
            node.child1 = a.node;
            node.child2 = b.node;
            node.height = built.height;
            *self.categories.get(parent as usize) = built.categories;
            self.nodes.get(a.node as usize).parent = parent;
            self.nodes.get(b.node as usize).parent = parent;
        }
        built
    }

    /// Builds a subtree over `items` (at least one) from the nodes `fresh` (one fewer than
    /// the items), splitting as the one-worker build does: the first part takes the first
    /// run of `fresh`, the second the next, their parent the last node.
    ///
    /// # Safety
    /// The calling block owns the items' nodes and `fresh`.
    unsafe fn build(&self, items: &mut [Item], fresh: &[u32], depth: u32) -> Subtree {
        if items.len() == 1 {
            return unsafe { self.subtree(items[0].node) };
        }
        let split = split_items(items, depth);
        let (first, second) = items.split_at_mut(split);
        let (fresh_first, rest) = fresh.split_at(split - 1);
        let (fresh_second, parent) = rest.split_at(rest.len() - 1);
        let a = unsafe { self.build(first, fresh_first, depth + 1) };
        let b = unsafe { self.build(second, fresh_second, depth + 1) };
        unsafe { self.join(parent[0], a, b) }
    }
}

/// Splits the top `levels` levels of the build over `items` (whose first item is item
/// `start` of the build, and whose nodes begin at `fresh[fresh_start]`) and notes the
/// subtrees below them as tasks and the nodes above as joins, children first. Returns the
/// node the subtree over `items` will have as its root.
#[allow(clippy::too_many_arguments)]
fn plan(
    items: &mut [Item],
    start: usize,
    fresh: &[u32],
    fresh_start: usize,
    depth: u32,
    levels: u32,
    tasks: &mut Vec<Task>,
    joins: &mut Vec<Join>,
) -> u32 {
    let n = items.len();
    if n == 1 {
        // Nothing to build: the item's node is the subtree.
        return items[0].node;
    }
    let root = fresh[fresh_start + n - 2];
    if levels == 0 || n < 2 * MIN_TASK_ITEMS {
        tasks.push(Task {
            items: start..start + n,
            fresh: fresh_start..fresh_start + n - 1,
            depth,
        });
        return root;
    }
    let split = split_items(items, depth);
    let (first, second) = items.split_at_mut(split);
    let (a, b) = (depth + 1, levels - 1);
    let child1 = plan(first, start, fresh, fresh_start, a, b, tasks, joins);
    let second_fresh = fresh_start + split - 1;
    let child2 = plan(
        second,
        start + split,
        fresh,
        second_fresh,
        a,
        b,
        tasks,
        joins,
    );
    joins.push(Join {
        node: root,
        child1,
        child2,
    });
    root
}

/// Levels split before the blocks: about two blocks per worker, so one given a larger part
/// is made up for by the others (each level is one more serial pass over the items); none
/// with one worker.
fn top_levels(workers: usize) -> u32 {
    if workers <= 1 {
        0
    } else {
        (2 * workers).next_power_of_two().trailing_zeros()
    }
}

impl DynamicTree {
    /// Builds the tree over `items` (at least one) on `runner`'s workers and makes it the
    /// tree's root; the items' nodes must be roots (leaves or kept subtrees) no other item
    /// reaches. Its inner nodes are taken from the free list.
    pub(super) fn build_root(
        &mut self,
        items: &mut [Item],
        scratch: &mut BuildScratch,
        runner: &dyn TaskRunner,
    ) {
        scratch.fresh.clear();
        for _ in 1..items.len() {
            let node = self.allocate();
            scratch.fresh.push(node);
        }
        self.build_root_on_fresh(items, scratch, runner);
    }

    /// [`DynamicTree::build_root`] on the inner nodes already in `scratch.fresh` (one fewer
    /// than the items), in the order the free list would have handed them out.
    pub(super) fn build_root_on_fresh(
        &mut self,
        items: &mut [Item],
        scratch: &mut BuildScratch,
        runner: &dyn TaskRunner,
    ) {
        let BuildScratch {
            fresh,
            tasks,
            joins,
        } = scratch;
        debug_assert_eq!(fresh.len() + 1, items.len(), "one inner node per join");
        tasks.clear();
        joins.clear();
        let levels = top_levels(runner.worker_count());
        let root = plan(items, 0, fresh, 0, 0, levels, tasks, joins);
        // Largest first, claimed in order: the midpoint splits leave subtrees of unequal
        // size (3167, 3099, 2205 and 1130 items in smash), and in tree order one worker
        // would take the two of one half. The tasks build disjoint subtrees, so their order
        // changes no node.
        tasks.sort_by_key(|task| std::cmp::Reverse(task.items.len()));
        let shared = SharedNodes {
            nodes: SharedMut::new(&mut self.nodes),
            categories: SharedMut::new(&mut self.categories),
        };
        let (fresh, tasks) = (&*fresh, &*tasks);
        let all_items = SharedMut::new(items);
        let block = |_stage: usize, b: u32| {
            let task = &tasks[b as usize];
            // SAFETY: each task is one block; tasks cover disjoint ranges of the items (so of
            // the item nodes) and disjoint runs of fresh nodes (`plan`).
            unsafe {
                let items = all_items.range(task.items.clone());
                shared.build(items, &fresh[task.fresh.clone()], task.depth);
            }
        };
        run_stages(runner, &[tasks.len() as u32], Claim::InOrder, &block, None);
        for join in joins.iter() {
            // SAFETY: the stage has ended; this is the only worker.
            unsafe {
                let (a, b) = (shared.subtree(join.child1), shared.subtree(join.child2));
                shared.join(join.node, a, b);
            }
        }
        self.root = root;
        self.nodes[root as usize].parent = NULL_NODE;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_same_nodes, grid_tree, square, uniform};
    use super::*;
    use crate::parallel::ScopedThreads;

    /// Trees moved through the same batches on one worker and on several are the same, node
    /// for node: slots, links, boxes, heights, categories and the free list.
    #[test]
    fn any_worker_count_builds_the_same_nodes() {
        let (mut one, mut boxes, ids) = grid_tree(3000, |x, y| square(x, y, 0.5));
        one.set_categories(|data| 1 << (data % 5));
        let mut several = one.clone();
        let runners: [&dyn TaskRunner; 2] = [&ScopedThreads::new(2), &ScopedThreads::new(3)];
        let mut random = uniform(11);
        for round in 0..12 {
            // All of them (the whole tree built again), or a third (the paths above them).
            let share = if round % 2 == 0 { 1.0 } else { 0.3 };
            let mut moves = Vec::new();
            for (k, &id) in ids.iter().enumerate() {
                if random() < share {
                    let c = boxes[k].center() + bevy_math::Vec2::new(random(), random()) * 3.0;
                    boxes[k] = square(c.x, c.y, 0.3 + random() * 0.4);
                    moves.push((id, boxes[k]));
                }
            }
            one.move_proxies_on(&moves, &crate::parallel::SingleThreaded);
            several.move_proxies_on(&moves, runners[round % 2]);
            assert!(
                plan_had_tasks(&several, runners[round % 2]),
                "the batch was shared among blocks"
            );
            assert_same_nodes(&one, &several, round);
        }
    }

    /// The last build was split into more than one block.
    fn plan_had_tasks(tree: &DynamicTree, runner: &dyn TaskRunner) -> bool {
        runner.worker_count() > 1 && tree.scratch.build.tasks.len() > 1
    }
}
