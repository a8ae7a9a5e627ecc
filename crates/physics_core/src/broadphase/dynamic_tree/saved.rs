//! The tree as a snapshot stores it: only what cannot be recomputed.
//!
//! A leaf keeps its box, the box it was inserted with and its user data; an inner node keeps
//! its two children; a free node keeps the next free node. Everything else follows from
//! those and is rebuilt on reading: a node's parent is the node that names it as a child, a
//! leaf's height is 0 and an inner node's is one above its taller child, and an inner node's
//! box is the union of its children's boxes. The tree keeps that union exactly at every
//! change (min and max round nothing), so the rebuilt boxes are the saved ones; a box that
//! only differs in the sign of a zero compares equal and moves nothing. This halves what the
//! broadphase costs in a snapshot.
//!
//! Collision categories are not saved either: the world sets them again from its shapes'
//! filters when it restores a snapshot.
//!
//! Reading checks what rebuilding needs (indices in range, one parent per node, children
//! that are live nodes); `DynamicTree::check_structure` checks the rest.

use super::{DynamicTree, NULL_NODE, Node};
use crate::shape::Aabb;
use serde::{Deserialize, Serialize};

/// One node as saved.
#[derive(Serialize, Deserialize)]
enum SavedNode {
    Leaf {
        aabb: Aabb,
        inserted_aabb: Aabb,
        user_data: u64,
    },
    Inner {
        child1: u32,
        child2: u32,
    },
    Free {
        next: u32,
    },
}

/// A [`DynamicTree`] as saved: the root, the head of the free list, and the nodes in index
/// order (proxy ids are node indices, so the order is kept).
#[derive(Serialize, Deserialize)]
pub(in crate::broadphase) struct SavedTree {
    root: u32,
    free_list: u32,
    nodes: Vec<SavedNode>,
}

impl From<&DynamicTree> for SavedTree {
    fn from(tree: &DynamicTree) -> Self {
        let nodes = tree
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| match n.height {
                -1 => SavedNode::Free { next: n.parent },
                _ if n.is_leaf() => SavedNode::Leaf {
                    aabb: n.aabb,
                    inserted_aabb: tree.inserted_aabb[i],
                    user_data: tree.user_data[i],
                },
                _ => SavedNode::Inner {
                    child1: n.child1,
                    child2: n.child2,
                },
            })
            .collect();
        SavedTree {
            root: tree.root,
            free_list: tree.free_list,
            nodes,
        }
    }
}

impl TryFrom<SavedTree> for DynamicTree {
    type Error = &'static str;

    fn try_from(saved: SavedTree) -> Result<Self, Self::Error> {
        let len = saved.nodes.len();
        let empty = Node {
            aabb: Aabb::default(),
            parent: NULL_NODE,
            child1: NULL_NODE,
            child2: NULL_NODE,
            height: -1,
        };
        let mut nodes = vec![empty; len];
        let mut leaf_data = vec![0; len];
        let mut inserted = vec![Aabb::default(); len];
        let mut has_parent = vec![false; len];
        let mut proxy_count = 0;
        for (index, saved_node) in saved.nodes.iter().enumerate() {
            let node = &mut nodes[index];
            match *saved_node {
                SavedNode::Leaf {
                    aabb,
                    inserted_aabb,
                    user_data,
                } => {
                    node.aabb = aabb;
                    (inserted[index], leaf_data[index]) = (inserted_aabb, user_data);
                    node.height = 0;
                    proxy_count += 1;
                }
                SavedNode::Inner { child1, child2 } => {
                    (node.child1, node.child2) = (child1, child2);
                    for child in [child1, child2] {
                        let claimed = has_parent
                            .get_mut(child as usize)
                            .ok_or("tree child out of range")?;
                        if std::mem::replace(claimed, true) || child1 == child2 {
                            return Err("tree node with two parents");
                        }
                    }
                }
                // Free nodes chain through `parent`, as in the live tree.
                SavedNode::Free { next } => node.parent = next,
            }
        }
        for (index, saved_node) in saved.nodes.iter().enumerate() {
            if let SavedNode::Inner { child1, child2 } = *saved_node {
                for child in [child1, child2] {
                    if matches!(saved.nodes[child as usize], SavedNode::Free { .. }) {
                        return Err("tree child is a free node");
                    }
                    nodes[child as usize].parent = index as u32;
                }
            }
        }
        if saved.root != NULL_NODE {
            let root = saved.root as usize;
            if root >= len
                || has_parent[root]
                || matches!(saved.nodes[root], SavedNode::Free { .. })
            {
                return Err("tree root out of range, free or with a parent");
            }
            refit_from(&mut nodes, saved.root);
        }
        Ok(DynamicTree {
            nodes,
            root: saved.root,
            free_list: saved.free_list,
            proxy_count,
            user_data: leaf_data,
            inserted_aabb: inserted,
            // Not saved: every node in every category (no masked query skips anything) until
            // the tree's owner sets them with `set_categories`.
            categories: vec![u64::MAX; len],
            scratch: Default::default(),
        })
    }
}

/// Heights and inner boxes of the subtree under `root`, children before parents. Every node
/// has at most one parent and the root none, so the walk from the root meets each node once.
fn refit_from(nodes: &mut [Node], root: u32) {
    let mut stack = vec![(root, false)];
    while let Some((id, children_done)) = stack.pop() {
        let n = nodes[id as usize];
        if n.is_leaf() {
            continue;
        }
        if !children_done {
            stack.push((id, true));
            stack.push((n.child1, false));
            stack.push((n.child2, false));
            continue;
        }
        let (c1, c2) = (nodes[n.child1 as usize], nodes[n.child2 as usize]);
        let node = &mut nodes[id as usize];
        node.height = 1 + c1.height.max(c2.height);
        node.aabb = c1.aabb.union(&c2.aabb);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::square;
    use super::*;

    /// Every field the tree reads, node for node (free nodes: only the free-list link).
    fn assert_same(a: &DynamicTree, b: &DynamicTree) {
        assert_eq!(
            (a.root, a.free_list, a.proxy_count),
            (b.root, b.free_list, b.proxy_count)
        );
        assert_eq!(a.nodes.len(), b.nodes.len());
        for (i, (x, y)) in a.nodes.iter().zip(&b.nodes).enumerate() {
            assert_eq!((x.height, x.parent), (y.height, y.parent), "node {i}");
            if x.height >= 0 {
                assert_eq!(x.aabb, y.aabb, "node {i}");
                assert_eq!((x.child1, x.child2), (y.child1, y.child2), "node {i}");
            }
            if x.height == 0 {
                assert_eq!(
                    (a.inserted_aabb[i], a.user_data[i]),
                    (b.inserted_aabb[i], b.user_data[i])
                );
            }
        }
    }

    #[test]
    fn a_tree_after_inserts_moves_and_removals_reads_back_node_for_node() {
        let mut tree = DynamicTree::default();
        let mut proxies = Vec::new();
        for i in 0..200u32 {
            let (x, y) = ((i % 20) as f32, (i / 20) as f32);
            proxies.push(tree.create_proxy(square(x, y, 0.6), i as u64));
        }
        for (k, &p) in proxies.iter().enumerate() {
            // Small moves stay in place, large ones reinsert.
            let shift = if k % 7 == 0 { 9.0 } else { 0.05 };
            let (x, y) = ((k % 20) as f32 + shift, (k / 20) as f32 - shift);
            tree.move_proxy(p, square(x, y, 0.6));
        }
        for &p in proxies.iter().step_by(5) {
            tree.destroy_proxy(p);
        }
        let saved = SavedTree::from(&tree);
        let read = DynamicTree::try_from(saved).expect("a live tree reads back");
        read.validate().expect("sound");
        assert_same(&tree, &read);
    }

    #[test]
    fn an_empty_tree_and_one_emptied_read_back() {
        let mut tree = DynamicTree::default();
        let read = DynamicTree::try_from(SavedTree::from(&tree)).expect("empty");
        assert_same(&tree, &read);
        let p = tree.create_proxy(square(0.0, 0.0, 1.0), 7);
        tree.destroy_proxy(p);
        let read = DynamicTree::try_from(SavedTree::from(&tree)).expect("emptied");
        assert_same(&tree, &read);
    }

    #[test]
    fn saved_links_that_cannot_form_a_tree_are_refused() {
        let leaf = || SavedNode::Leaf {
            aabb: square(0.0, 0.0, 1.0),
            inserted_aabb: square(0.0, 0.0, 1.0),
            user_data: 0,
        };
        let cases = [
            // A child index past the end.
            (
                0,
                vec![
                    SavedNode::Inner {
                        child1: 1,
                        child2: 5,
                    },
                    leaf(),
                ],
            ),
            // Both children the same node.
            (
                0,
                vec![
                    SavedNode::Inner {
                        child1: 1,
                        child2: 1,
                    },
                    leaf(),
                ],
            ),
            // The root is someone's child (a cycle through the root).
            (
                0,
                vec![
                    SavedNode::Inner {
                        child1: 1,
                        child2: 2,
                    },
                    SavedNode::Inner {
                        child1: 0,
                        child2: 2,
                    },
                    leaf(),
                ],
            ),
            // A child on the free list.
            (
                0,
                vec![
                    SavedNode::Inner {
                        child1: 1,
                        child2: 2,
                    },
                    leaf(),
                    SavedNode::Free { next: NULL_NODE },
                ],
            ),
        ];
        for (root, nodes) in cases {
            let saved = SavedTree {
                root,
                free_list: NULL_NODE,
                nodes,
            };
            assert!(DynamicTree::try_from(saved).is_err());
        }
    }
}
