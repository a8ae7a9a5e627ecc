//! The overlapping leaf pairs of a crowd of moved proxies, found by walking the tree against
//! itself (and against the other tree) once, instead of one query from the root per moved
//! proxy.
//!
//! When most of a tree's proxies moved (a tumbling crowd), a query per proxy walks the same
//! upper nodes again and again: every query tests the root's children, most of their
//! children, and so on down to the few leaves it meets. The walk here tests each pair of
//! overlapping nodes once. It starts from the pair (root, root), which stands for the pairs
//! within the root's subtree, and goes down:
//! - a node paired with itself stands for the pairs within it: its two children each with
//!   itself, and the two children with each other;
//! - two different nodes whose boxes overlap stand for the pairs across them: the taller is
//!   split into its children, each paired with the other node; two leaves are a pair.
//!
//! Only pairs that can hold a moved leaf are walked: `holds` marks every node whose subtree
//! holds one (`mark_holders`), and a pair of nodes neither of which is marked is dropped. The
//! pairs found are those a query from each marked leaf would find, each once.

use super::{DynamicTree, NULL_NODE, NodeStack};

impl DynamicTree {
    /// Marks in `holds` (indexed by node, at least [`DynamicTree::node_capacity`] long) every
    /// node on the way from each of `leaves` to the root. Marks already set stop the climb,
    /// so marking many leaves costs about one step per node marked.
    pub(crate) fn mark_holders(&self, leaves: impl IntoIterator<Item = u32>, holds: &mut [bool]) {
        for leaf in leaves {
            let mut node = leaf;
            while node != NULL_NODE && !holds[node as usize] {
                holds[node as usize] = true;
                node = self.nodes[node as usize].parent;
            }
        }
    }

    /// Clears the marks [`DynamicTree::mark_holders`] set for the same `leaves` (the tree has
    /// not changed in between).
    pub(crate) fn clear_holders(&self, leaves: impl IntoIterator<Item = u32>, holds: &mut [bool]) {
        for leaf in leaves {
            let mut node = leaf;
            while node != NULL_NODE && holds[node as usize] {
                holds[node as usize] = false;
                node = self.nodes[node as usize].parent;
            }
        }
    }

    /// The pair standing for the whole walk of this tree against itself, `None` when empty.
    pub(crate) fn own_walk_start(&self) -> Option<(u32, u32)> {
        (self.root != NULL_NODE).then_some((self.root, self.root))
    }

    /// The pair standing for the whole walk of this tree against `other`, `None` when either
    /// is empty.
    pub(crate) fn cross_walk_start(&self, other: &DynamicTree) -> Option<(u32, u32)> {
        (self.root != NULL_NODE && other.root != NULL_NODE).then_some((self.root, other.root))
    }

    /// Splits the walks of `pairs` into at least `wanted` pairs (where the tree allows it),
    /// for workers to share: a pair is replaced by the pairs it stands for until there are
    /// enough; the pairs of two leaves met on the way stay, for the walk to test and report.
    /// `other` is `None` for the walk of this tree against itself.
    pub(crate) fn split_walk(
        &self,
        other: Option<&DynamicTree>,
        holds: &[bool],
        pairs: &mut Vec<(u32, u32)>,
        wanted: usize,
    ) {
        let far = other.unwrap_or(self);
        let (mut split, mut leaves) = (Vec::new(), Vec::new());
        let mut next = 0;
        while pairs.len() < wanted && next < pairs.len() {
            let (a, b) = pairs[next];
            if self.nodes[a as usize].is_leaf() && far.nodes[b as usize].is_leaf() {
                next += 1;
                continue;
            }
            pairs.swap_remove(next);
            split.clear();
            leaves.clear();
            let push = |pair| split.push(pair);
            self.walk_step(other, holds, (a, b), push, |a, b| leaves.push((a, b)));
            pairs.extend_from_slice(&split);
            pairs.extend_from_slice(&leaves);
        }
    }

    /// Calls `visit(leaf_a, leaf_b)` for every pair of overlapping leaves that `start` stands
    /// for (see the module documentation): leaves of this tree with each other when `other` is
    /// `None`, a leaf of this tree with a leaf of `other` otherwise (only this tree's marks
    /// count then).
    pub(crate) fn walk_pairs(
        &self,
        other: Option<&DynamicTree>,
        holds: &[bool],
        start: (u32, u32),
        mut visit: impl FnMut(u32, u32),
    ) {
        let mut stack = PairStack::default();
        stack.push(start);
        while let Some(pair) = stack.pop() {
            self.walk_step(other, holds, pair, |pair| stack.push(pair), &mut visit);
        }
    }

    /// One step of the walk: the pair `(a, b)` is dropped, reported (two overlapping leaves)
    /// or replaced by the pairs it stands for (`push`).
    #[inline(always)]
    fn walk_step(
        &self,
        other: Option<&DynamicTree>,
        holds: &[bool],
        (a, b): (u32, u32),
        mut push: impl FnMut((u32, u32)),
        mut visit: impl FnMut(u32, u32),
    ) {
        let far = other.unwrap_or(self);
        let (na, nb) = (&self.nodes[a as usize], &far.nodes[b as usize]);
        if other.is_none() && a == b {
            // The pairs within one subtree.
            if na.is_leaf() || !holds[a as usize] {
                return;
            }
            push((na.child1, na.child2));
            push((na.child2, na.child2));
            push((na.child1, na.child1));
            return;
        }
        let marked = holds[a as usize] || (other.is_none() && holds[b as usize]);
        if !marked || !na.aabb.overlaps(&nb.aabb) {
            return;
        }
        match (na.is_leaf(), nb.is_leaf()) {
            (true, true) => visit(a, b),
            (false, true) => {
                push((na.child2, b));
                push((na.child1, b));
            }
            (true, false) => {
                push((a, nb.child2));
                push((a, nb.child1));
            }
            (false, false) if na.height >= nb.height => {
                push((na.child2, b));
                push((na.child1, b));
            }
            (false, false) => {
                push((a, nb.child2));
                push((a, nb.child1));
            }
        }
    }
}

/// The walk's stack of node pairs: on the call stack up to a depth no balanced tree reaches,
/// on the heap beyond.
#[derive(Default)]
struct PairStack {
    low: NodeStack,
    high: NodeStack,
}

impl PairStack {
    #[inline]
    fn push(&mut self, (a, b): (u32, u32)) {
        self.low.push(a);
        self.high.push(b);
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, u32)> {
        Some((self.low.pop()?, self.high.pop()?))
    }
}
