//! A dynamic AABB tree: leaves hold enlarged boxes of shapes, internal nodes the union of their
//! children.
//!
//! Insertion walks down choosing the child whose box grows least (perimeter cost with the cost
//! of pushing the leaf further down), then walks back up refitting boxes and rebalancing with
//! AVL rotations, so insertion in any order keeps the tree shallow. Nodes live in one
//! array with a free list; proxy ids are node indices and stay valid until destroyed.
//!
//! A single proxy that moves a little keeps its place in the tree: its box is replaced and its
//! ancestors' boxes are recomputed from their children, stopping at the first that does not
//! change; one that no longer overlaps the box it was inserted with is removed and inserted
//! again. The world moves its proxies in batches ([`DynamicTree::move_proxies`]): a batch of
//! more than a few proxies builds the part of the tree above its leaves again
//! (`rebuild.rs`), which keeps queries as cheap as in a fresh tree while a crowd churns.

use crate::position::{Position, relative, to_position};
use crate::shape::{Aabb, RayCastInput};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

mod categories;
mod pair_walk;
mod rebuild;
mod saved;
mod shared_build;

/// No node.
pub const NULL_NODE: u32 = u32::MAX;

/// A node as the queries read it: 32 bytes, aligned so that one never straddles two cache
/// lines. What only leaves need (user data, the box a leaf was inserted with) lives in the
/// tree's side arrays, so a query loads half as many bytes per node it visits.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Node {
    aabb: Aabb,
    parent: u32,
    child1: u32,
    child2: u32,
    /// 0 for leaves, -1 for free nodes.
    height: i32,
}

const _: () = assert!(
    std::mem::size_of::<Node>() == 32,
    "two nodes per cache line"
);

impl Node {
    fn is_leaf(&self) -> bool {
        self.child1 == NULL_NODE
    }
}

/// A dynamic bounding-volume tree of proxies. Serialised without what can be recomputed (see
/// `dynamic_tree/saved.rs`); reading back gives the same tree node for node.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "saved::SavedTree", try_from = "saved::SavedTree")]
pub struct DynamicTree {
    nodes: Vec<Node>,
    root: u32,
    free_list: u32,
    proxy_count: usize,
    /// Per node: the user data of a leaf (unused for other nodes).
    user_data: Vec<u64>,
    /// Per node: a leaf's box when it was last placed (inserted, or moved in a rebuilding
    /// batch). Single moves that stay overlapping it keep the leaf where it is.
    inserted_aabb: Vec<Aabb>,
    /// Per node: a leaf's collision categories, an inner node's the union of its children's,
    /// so a query with a mask skips subtrees it cannot collide with (`categories.rs`).
    categories: Vec<u64>,
    /// Buffers of the batch rebuild, kept between batches (not saved).
    scratch: rebuild::RebuildScratch,
}

impl From<DynamicTree> for saved::SavedTree {
    fn from(tree: DynamicTree) -> Self {
        saved::SavedTree::from(&tree)
    }
}

impl Default for DynamicTree {
    fn default() -> Self {
        DynamicTree {
            nodes: Vec::new(),
            root: NULL_NODE,
            free_list: NULL_NODE,
            proxy_count: 0,
            user_data: Vec::new(),
            inserted_aabb: Vec::new(),
            categories: Vec::new(),
            scratch: Default::default(),
        }
    }
}

impl DynamicTree {
    /// Number of proxies.
    pub fn proxy_count(&self) -> usize {
        self.proxy_count
    }

    /// Height of the tree (0 for a single leaf, -1 when empty).
    pub fn height(&self) -> i32 {
        if self.root == NULL_NODE {
            -1
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// The box around every proxy of the tree, `None` when it is empty.
    pub fn root_aabb(&self) -> Option<Aabb> {
        (self.root != NULL_NODE).then(|| self.nodes[self.root as usize].aabb)
    }

    /// The box stored for a proxy.
    pub fn fat_aabb(&self, proxy: u32) -> Aabb {
        self.nodes[proxy as usize].aabb
    }

    /// One more than the largest node id in use: every proxy id is below it.
    pub fn node_capacity(&self) -> usize {
        self.nodes.len()
    }

    /// The user data stored with a proxy.
    pub fn user_data(&self, proxy: u32) -> u64 {
        self.user_data[proxy as usize]
    }

    fn allocate(&mut self) -> u32 {
        let node = Node {
            aabb: Aabb::default(),
            parent: NULL_NODE,
            child1: NULL_NODE,
            child2: NULL_NODE,
            height: 0,
        };
        if self.free_list == NULL_NODE {
            self.nodes.push(node);
            self.user_data.push(0);
            self.inserted_aabb.push(Aabb::default());
            self.categories.push(u64::MAX);
            return (self.nodes.len() - 1) as u32;
        }
        let id = self.free_list;
        self.free_list = self.nodes[id as usize].parent;
        self.nodes[id as usize] = node;
        id
    }

    fn free(&mut self, id: u32) {
        let node = &mut self.nodes[id as usize];
        node.parent = self.free_list;
        node.height = -1;
        self.free_list = id;
    }

    /// Adds a proxy with box `aabb` in every collision category (every masked query finds
    /// it); returns its id.
    pub fn create_proxy(&mut self, aabb: Aabb, user_data: u64) -> u32 {
        self.create_proxy_in(aabb, user_data, u64::MAX)
    }

    /// Adds a proxy with box `aabb` in collision categories `category_bits`: queries whose
    /// mask misses them skip it ([`DynamicTree::query_masked`]). Returns its id.
    pub fn create_proxy_in(&mut self, aabb: Aabb, user_data: u64, category_bits: u64) -> u32 {
        let id = self.allocate();
        self.nodes[id as usize].aabb = aabb;
        self.user_data[id as usize] = user_data;
        self.categories[id as usize] = category_bits;
        self.insert_leaf(id);
        self.proxy_count += 1;
        id
    }

    /// Removes a proxy.
    pub fn destroy_proxy(&mut self, proxy: u32) {
        self.remove_leaf(proxy);
        self.free(proxy);
        self.proxy_count -= 1;
    }

    /// Replaces a proxy's box: in place when it still overlaps the box it was inserted with,
    /// else by reinserting the proxy where it now fits best.
    pub fn move_proxy(&mut self, proxy: u32, aabb: Aabb) {
        if self.inserted_aabb[proxy as usize].overlaps(&aabb) {
            let leaf = &mut self.nodes[proxy as usize];
            leaf.aabb = aabb;
            let parent = leaf.parent;
            self.refit_boxes_upwards(parent);
            return;
        }
        self.remove_leaf(proxy);
        self.nodes[proxy as usize].aabb = aabb;
        self.insert_leaf(proxy);
    }

    /// Recomputes boxes from the children, from `index` up, until one does not change (the
    /// topology and heights are untouched).
    fn refit_boxes_upwards(&mut self, mut index: u32) {
        while index != NULL_NODE {
            let n = self.nodes[index as usize];
            let b = self.nodes[n.child1 as usize]
                .aabb
                .union(&self.nodes[n.child2 as usize].aabb);
            if b == n.aabb {
                return;
            }
            self.nodes[index as usize].aabb = b;
            index = n.parent;
        }
    }

    fn insert_leaf(&mut self, leaf: u32) {
        self.inserted_aabb[leaf as usize] = self.nodes[leaf as usize].aabb;
        if self.root == NULL_NODE {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL_NODE;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].aabb;
        let sibling = self.find_best_sibling(&leaf_box);

        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.allocate();
        let sibling_box = self.nodes[sibling as usize].aabb;
        let sibling_height = self.nodes[sibling as usize].height;
        {
            let p = &mut self.nodes[new_parent as usize];
            p.parent = old_parent;
            p.aabb = leaf_box.union(&sibling_box);
            p.height = sibling_height + 1;
            p.child1 = sibling;
            p.child2 = leaf;
        }
        self.replace_child(old_parent, sibling, new_parent);
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        self.refit_upwards(new_parent);
    }

    /// Descends from the root picking the cheaper of: make a new parent here, or descend
    /// into the child whose enlarged perimeter (plus the growth inherited by every ancestor)
    /// is smaller.
    fn find_best_sibling(&self, leaf_box: &Aabb) -> u32 {
        let mut index = self.root;
        while !self.nodes[index as usize].is_leaf() {
            let node = &self.nodes[index as usize];
            let area = node.aabb.perimeter();
            let combined = node.aabb.union(leaf_box).perimeter();
            let cost_here = 2.0 * combined;
            let inheritance = 2.0 * (combined - area);
            let child_cost = |child: u32| {
                let c = &self.nodes[child as usize];
                let grown = leaf_box.union(&c.aabb).perimeter();
                let own = if c.is_leaf() {
                    grown
                } else {
                    grown - c.aabb.perimeter()
                };
                own + inheritance
            };
            let cost1 = child_cost(node.child1);
            let cost2 = child_cost(node.child2);
            if cost_here < cost1 && cost_here < cost2 {
                break;
            }
            index = if cost1 < cost2 {
                node.child1
            } else {
                node.child2
            };
        }
        index
    }

    /// Points `parent`'s link to `old` at `new` instead (the root when `parent` is null).
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        if parent == NULL_NODE {
            self.root = new;
            return;
        }
        let p = &mut self.nodes[parent as usize];
        if p.child1 == old {
            p.child1 = new;
        } else {
            p.child2 = new;
        }
    }

    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL_NODE;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand_parent = self.nodes[parent as usize].parent;
        let sibling = if self.nodes[parent as usize].child1 == leaf {
            self.nodes[parent as usize].child2
        } else {
            self.nodes[parent as usize].child1
        };
        if grand_parent == NULL_NODE {
            self.root = sibling;
            self.nodes[sibling as usize].parent = NULL_NODE;
            self.free(parent);
            return;
        }
        self.replace_child(grand_parent, parent, sibling);
        self.nodes[sibling as usize].parent = grand_parent;
        self.free(parent);
        self.refit_upwards(grand_parent);
    }

    /// Rebalances and refits boxes, heights and categories from `index` to the root.
    fn refit_upwards(&mut self, mut index: u32) {
        while index != NULL_NODE {
            index = self.balance(index);
            let (c1, c2) = {
                let n = &self.nodes[index as usize];
                (n.child1, n.child2)
            };
            self.categories[index as usize] =
                self.categories[c1 as usize] | self.categories[c2 as usize];
            let (b1, b2) = (self.nodes[c1 as usize], self.nodes[c2 as usize]);
            let n = &mut self.nodes[index as usize];
            n.height = 1 + b1.height.max(b2.height);
            n.aabb = b1.aabb.union(&b2.aabb);
            index = n.parent;
        }
    }

    /// If the subtree at `a` leans by more than one level, rotates the taller child up.
    /// Returns the index now at `a`'s position.
    fn balance(&mut self, a: u32) -> u32 {
        let node_a = self.nodes[a as usize];
        if node_a.is_leaf() || node_a.height < 2 {
            return a;
        }
        let (b, c) = (node_a.child1, node_a.child2);
        let lean = self.nodes[c as usize].height - self.nodes[b as usize].height;
        if lean > 1 {
            self.rotate_up(a, c, b)
        } else if lean < -1 {
            self.rotate_up(a, b, c)
        } else {
            a
        }
    }

    /// Rotates `tall` (a child of `a`) into `a`'s place; `short` is `a`'s other child. The
    /// taller grandchild stays under `tall`, the shorter one moves under `a`.
    fn rotate_up(&mut self, a: u32, tall: u32, short: u32) -> u32 {
        let t = self.nodes[tall as usize];
        let (f, g) = (t.child1, t.child2);
        // `tall` takes `a`'s place.
        let a_parent = self.nodes[a as usize].parent;
        self.nodes[tall as usize].child1 = a;
        self.nodes[tall as usize].parent = a_parent;
        self.nodes[a as usize].parent = tall;
        self.replace_child(a_parent, a, tall);
        let (keep, give) = if self.nodes[f as usize].height > self.nodes[g as usize].height {
            (f, g)
        } else {
            (g, f)
        };
        self.nodes[tall as usize].child2 = keep;
        // `a` keeps `short` and adopts the shorter grandchild.
        self.nodes[a as usize].child1 = short;
        self.nodes[a as usize].child2 = give;
        self.nodes[give as usize].parent = a;
        let (bs, bg) = (self.nodes[short as usize], self.nodes[give as usize]);
        self.nodes[a as usize].aabb = bs.aabb.union(&bg.aabb);
        self.nodes[a as usize].height = 1 + bs.height.max(bg.height);
        self.categories[a as usize] =
            self.categories[short as usize] | self.categories[give as usize];
        self.categories[tall as usize] =
            self.categories[a as usize] | self.categories[keep as usize];
        let (ba, bk) = (self.nodes[a as usize], self.nodes[keep as usize]);
        self.nodes[tall as usize].aabb = ba.aabb.union(&bk.aabb);
        self.nodes[tall as usize].height = 1 + ba.height.max(bk.height);
        tall
    }

    /// Calls `visit(proxy, user_data)` for every proxy whose box overlaps `aabb`, in a fixed
    /// order for a given tree; `visit` returns false to stop.
    pub fn query(&self, aabb: &Aabb, visit: impl FnMut(u32, u64) -> bool) {
        self.query_within::<false>(aabb, u64::MAX, visit);
    }

    /// The query behind [`DynamicTree::query`] and, with `MASKED`, behind
    /// [`DynamicTree::query_masked`]: a node is entered only when its box overlaps `aabb` and,
    /// if `MASKED`, its categories meet `mask`.
    #[inline(always)]
    fn query_within<const MASKED: bool>(
        &self,
        aabb: &Aabb,
        mask: u64,
        mut visit: impl FnMut(u32, u64) -> bool,
    ) {
        let wanted = |id: u32| !MASKED || self.categories[id as usize] & mask != 0;
        if self.root == NULL_NODE
            || !self.nodes[self.root as usize].aabb.overlaps(aabb)
            || !wanted(self.root)
        {
            return;
        }
        // Every node on the stack overlaps. A node's two children are tested together, before
        // either is pushed: their two loads are independent, so the processor overlaps the
        // cache misses instead of waiting for one, then the other. The visiting order is the
        // same as testing each node when it is popped.
        let mut stack = NodeStack::default();
        stack.push(self.root);
        while let Some(id) = stack.pop() {
            let node = &self.nodes[id as usize];
            if node.is_leaf() {
                if !visit(id, self.user_data[id as usize]) {
                    return;
                }
                continue;
            }
            let (c1, c2) = (node.child1, node.child2);
            let overlaps1 = self.nodes[c1 as usize].aabb.overlaps(aabb) && wanted(c1);
            let overlaps2 = self.nodes[c2 as usize].aabb.overlaps(aabb) && wanted(c2);
            if overlaps1 {
                stack.push(c1);
            }
            if overlaps2 {
                stack.push(c2);
            }
        }
    }

    /// Casts a ray through the tree. `visit(clipped_input, proxy, user_data)` is called for
    /// each proxy whose box the ray reaches and returns the new maximum fraction: the hit
    /// fraction to keep only closer hits, the input's fraction to keep going, 0 to stop.
    pub fn ray_cast(
        &self,
        input: &RayCastInput<Position>,
        mut visit: impl FnMut(&RayCastInput<Position>, u32, u64) -> f32,
    ) {
        if self.root == NULL_NODE {
            return;
        }
        let mut max_fraction = input.max_fraction;
        let mut stack = NodeStack::default();
        stack.push(self.root);
        while let Some(id) = stack.pop() {
            let node = &self.nodes[id as usize];
            if !ray_reaches_box(input.origin, input.translation, max_fraction, &node.aabb) {
                continue;
            }
            if node.is_leaf() {
                let clipped = RayCastInput {
                    max_fraction,
                    ..*input
                };
                let value = visit(&clipped, id, self.user_data[id as usize]);
                if value == 0.0 {
                    return;
                }
                if value > 0.0 && value < max_fraction {
                    max_fraction = value;
                }
            } else {
                stack.push(node.child1);
                stack.push(node.child2);
            }
        }
    }

    /// Checks that the tree is sound as a structure, whatever the bytes it was decoded from:
    /// every index in range, the nodes reachable from the root form a tree (no cycle, children
    /// point back, leaves at height 0 and inner nodes one above their taller child), every other
    /// node is on the free list, and the leaves number `proxy_count`. Balance and boxes are
    /// not checked: they only make queries slower or wider when wrong, never unsound.
    pub(crate) fn check_structure(&self) -> Result<(), &'static str> {
        let len = self.nodes.len();
        let in_range = |id: u32| (id as usize) < len;
        let mut seen = vec![false; len];
        let mut leaves = 0;
        if self.root != NULL_NODE {
            if !in_range(self.root) || self.nodes[self.root as usize].parent != NULL_NODE {
                return Err("tree root out of range or with a parent");
            }
            let mut stack = vec![self.root];
            while let Some(id) = stack.pop() {
                if std::mem::replace(&mut seen[id as usize], true) {
                    return Err("tree node reached twice");
                }
                let n = self.nodes[id as usize];
                if n.is_leaf() {
                    if n.height != 0 || n.child2 != NULL_NODE {
                        return Err("tree leaf with a child or a height");
                    }
                    leaves += 1;
                    continue;
                }
                if !in_range(n.child1) || !in_range(n.child2) || n.child1 == n.child2 {
                    return Err("tree child out of range");
                }
                let (c1, c2) = (self.nodes[n.child1 as usize], self.nodes[n.child2 as usize]);
                if c1.parent != id || c2.parent != id {
                    return Err("tree children do not point back");
                }
                if c1.height < 0 || c2.height < 0 || n.height != 1 + c1.height.max(c2.height) {
                    return Err("tree heights inconsistent");
                }
                stack.push(n.child1);
                stack.push(n.child2);
            }
        }
        if leaves != self.proxy_count {
            return Err("tree leaf count differs from its proxy count");
        }
        let mut free = self.free_list;
        while free != NULL_NODE {
            if !in_range(free) || std::mem::replace(&mut seen[free as usize], true) {
                return Err("tree free list out of range or looping");
            }
            if self.nodes[free as usize].height != -1 {
                return Err("tree free list holds a live node");
            }
            free = self.nodes[free as usize].parent;
        }
        if seen.iter().any(|s| !s) {
            return Err("tree node neither in the tree nor free");
        }
        Ok(())
    }

    /// The shape index stored in leaf `proxy`, or None if `proxy` is not a leaf of the tree.
    pub(crate) fn leaf_user_data(&self, proxy: u32) -> Option<u64> {
        let n = self.nodes.get(proxy as usize)?;
        (n.height == 0 && n.is_leaf()).then_some(self.user_data[proxy as usize])
    }

    /// Checks parent links, heights, boxes and categories; for tests. Balance is not checked:
    /// insertion rebalances only along its path and batch moves rebuild by space
    /// (`rebuild.rs`), so subtrees may differ by more than a level; tests bound the height
    /// where it matters.
    pub fn validate(&self) -> Result<(), String> {
        self.check_structure()?;
        if self.root == NULL_NODE {
            return Ok(());
        }
        let mut leaves = 0;
        let mut stack = vec![self.root];
        while let Some(id) = stack.pop() {
            let n = self.nodes[id as usize];
            if n.is_leaf() {
                leaves += 1;
                if n.height != 0 {
                    return Err(format!("leaf {id} has height {}", n.height));
                }
                continue;
            }
            let (c1, c2) = (self.nodes[n.child1 as usize], self.nodes[n.child2 as usize]);
            if c1.parent != id || c2.parent != id {
                return Err(format!("children of {id} do not point back"));
            }
            if n.height != 1 + c1.height.max(c2.height) {
                return Err(format!("height of {id} is stale"));
            }
            if !n.aabb.contains(&c1.aabb) || !n.aabb.contains(&c2.aabb) {
                return Err(format!("box of {id} does not hold its children"));
            }
            let union = self.categories[n.child1 as usize] | self.categories[n.child2 as usize];
            if self.categories[id as usize] != union {
                return Err(format!("categories of {id} are not its children's"));
            }
            stack.push(n.child1);
            stack.push(n.child2);
        }
        if leaves != self.proxy_count {
            return Err(format!("{leaves} leaves for {} proxies", self.proxy_count));
        }
        Ok(())
    }
}

/// The depth-first stack of a query: on the call stack, since a traversal never holds more
/// than the tree's height plus one nodes (a few dozen in a tree of millions, whether built by
/// insertion or by `rebuild.rs`), spilling to the heap only past that. A query per moved
/// proxy per step made the allocation show up.
struct NodeStack {
    fixed: [u32; 64],
    len: usize,
    spill: Vec<u32>,
}

impl Default for NodeStack {
    fn default() -> Self {
        NodeStack {
            fixed: [NULL_NODE; 64],
            len: 0,
            spill: Vec::new(),
        }
    }
}

impl NodeStack {
    #[inline]
    fn push(&mut self, id: u32) {
        if self.len < self.fixed.len() {
            self.fixed[self.len] = id;
            self.len += 1;
        } else {
            self.spill.push(id);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        if let Some(id) = self.spill.pop() {
            return Some(id);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.fixed[self.len])
    }
}

/// Slab test: does the segment origin + t d, t in [0, max_fraction], touch the box? The box
/// is measured from the origin first (in double, in the `large-world` build, so a far ray
/// is tested as exactly as a near one).
fn ray_reaches_box(origin: Position, d: Vec2, max_fraction: f32, b: &Aabb) -> bool {
    let (mut lo, mut hi) = (0.0f32, max_fraction);
    let from_origin = |corner: Vec2| relative(to_position(corner), origin);
    let (min_from_origin, max_from_origin) = (from_origin(b.min), from_origin(b.max));
    for axis in 0..2 {
        let (dir, min, max) = (d[axis], min_from_origin[axis], max_from_origin[axis]);
        if dir.abs() < f32::EPSILON {
            // The origin lies below the box's low side or above its high side.
            if min > 0.0 || max < 0.0 {
                return false;
            }
        } else {
            let inv = 1.0 / dir;
            let (mut t1, mut t2) = (min * inv, max * inv);
            if t1 > t2 {
                std::mem::swap(&mut t1, &mut t2);
            }
            lo = lo.max(t1);
            hi = hi.min(t2);
            if lo > hi {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box(x: f32, y: f32) -> Aabb {
        Aabb::new(Vec2::new(x, y), Vec2::new(x + 1.0, y + 1.0))
    }

    /// The box of half-width `half` around (`x`, `y`).
    pub(super) fn square(x: f32, y: f32, half: f32) -> Aabb {
        Aabb::new(Vec2::new(x - half, y - half), Vec2::new(x + half, y + half))
    }

    /// A small linear congruential generator of numbers in [0, 1), for repeatable jiggles.
    pub(super) fn uniform(mut seed: u32) -> impl FnMut() -> f32 {
        move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        }
    }

    /// The two trees are the same node for node: root, free list, categories, and every
    /// node's box, links and height (`round` names the case in a failure).
    pub(super) fn assert_same_nodes(one: &DynamicTree, other: &DynamicTree, round: usize) {
        assert_eq!(one.root, other.root, "round {round}");
        assert_eq!(one.free_list, other.free_list, "round {round}");
        assert_eq!(one.categories, other.categories, "round {round}");
        assert_eq!(one.nodes.len(), other.nodes.len());
        for (i, (a, b)) in one.nodes.iter().zip(&other.nodes).enumerate() {
            let same = (a.aabb, a.parent, a.child1, a.child2, a.height)
                == (b.aabb, b.parent, b.child1, b.child2, b.height);
            assert!(same, "round {round}, node {i}: {a:?} against {b:?}");
        }
    }

    /// A tree of `count` boxes `make(x, y)` on a grid of 20 columns 1.5 apart (user data =
    /// index), with the boxes and their proxy ids.
    pub(super) fn grid_tree(
        count: usize,
        make: impl Fn(f32, f32) -> Aabb,
    ) -> (DynamicTree, Vec<Aabb>, Vec<u32>) {
        let mut tree = DynamicTree::default();
        let boxes: Vec<Aabb> = (0..count)
            .map(|i| make((i % 20) as f32 * 1.5, (i / 20) as f32 * 1.5))
            .collect();
        let ids = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| tree.create_proxy(*b, i as u64))
            .collect();
        (tree, boxes, ids)
    }

    /// Asserts that the tree finds exactly the boxes (user data = index) that overlap each
    /// probe, as brute force does.
    pub(super) fn assert_queries_match(tree: &DynamicTree, boxes: &[Aabb], probes: &[Aabb]) {
        for probe in probes {
            let mut found = Vec::new();
            tree.query(probe, |_, data| {
                found.push(data as usize);
                true
            });
            found.sort_unstable();
            let expected: Vec<usize> = (0..boxes.len())
                .filter(|&k| boxes[k].overlaps(probe))
                .collect();
            assert_eq!(found, expected, "probe {probe:?}");
        }
    }

    #[test]
    fn stays_balanced_under_sorted_insertion_and_finds_what_overlaps() {
        let mut tree = DynamicTree::default();
        // Sorted insertion degenerates an unbalanced tree into a list.
        let ids: Vec<u32> = (0..1000)
            .map(|i| tree.create_proxy(unit_box(2.0 * i as f32, 0.0), i))
            .collect();
        tree.validate().unwrap();
        assert!(
            tree.height() <= 20,
            "height {} for 1000 leaves",
            tree.height()
        );
        let mut found = Vec::new();
        tree.query(
            &Aabb::new(Vec2::new(9.5, 0.5), Vec2::new(12.5, 0.6)),
            |_, data| {
                found.push(data);
                true
            },
        );
        found.sort();
        // Proxy i spans x in [2i, 2i + 1]: the query [9.5, 12.5] meets proxies 5 and 6.
        assert_eq!(found, vec![5, 6]);
        // Remove every other proxy and move the rest up by 10.
        for (i, id) in ids.iter().enumerate() {
            if i % 2 == 0 {
                tree.destroy_proxy(*id);
            } else {
                tree.move_proxy(*id, unit_box(2.0 * i as f32, 10.0));
            }
        }
        tree.validate().unwrap();
        assert_eq!(tree.proxy_count(), 500);
        let mut count = 0;
        tree.query(
            &Aabb::new(Vec2::new(-1.0, -1.0), Vec2::new(3000.0, 2.0)),
            |_, _| {
                count += 1;
                true
            },
        );
        assert_eq!(count, 0);
    }

    /// Queries visit the overlapping leaves in the order of a plain depth-first walk that
    /// tests each node as it is reached (second child first), and stop when told to: testing
    /// children before pushing them changes only when the boxes are loaded.
    #[test]
    fn query_visits_leaves_in_depth_first_order_and_stops_when_told() {
        let mut tree = DynamicTree::default();
        for i in 0..400u64 {
            let (x, y) = ((i * 37 % 101) as f32 * 0.7, (i * 53 % 89) as f32 * 0.5);
            tree.create_proxy(unit_box(x, y), i);
        }
        fn walk(tree: &DynamicTree, id: u32, probe: &Aabb, out: &mut Vec<u64>) {
            let n = tree.nodes[id as usize];
            if !n.aabb.overlaps(probe) {
                return;
            }
            if n.is_leaf() {
                out.push(tree.user_data[id as usize]);
            } else {
                walk(tree, n.child2, probe, out);
                walk(tree, n.child1, probe, out);
            }
        }
        let probe = Aabb::new(Vec2::new(10.0, 5.0), Vec2::new(30.0, 25.0));
        let mut expected = Vec::new();
        walk(&tree, tree.root, &probe, &mut expected);
        let mut found = Vec::new();
        tree.query(&probe, |_, data| {
            found.push(data);
            true
        });
        assert!(expected.len() > 20, "the probe should meet many leaves");
        assert_eq!(found, expected);
        let mut first_five = Vec::new();
        tree.query(&probe, |_, data| {
            first_five.push(data);
            first_five.len() < 5
        });
        assert_eq!(first_five, expected[..5]);
    }

    #[test]
    fn ray_cast_visits_boxes_along_the_ray_and_honours_clipping() {
        let mut tree = DynamicTree::default();
        for i in 0..10 {
            tree.create_proxy(unit_box(3.0 * i as f32, 0.0), i);
        }
        tree.create_proxy(unit_box(5.0, 5.0), 99);
        let input = RayCastInput {
            origin: to_position(Vec2::new(-1.0, 0.5)),
            translation: Vec2::new(40.0, 0.0),
            max_fraction: 1.0,
        };
        let mut seen = Vec::new();
        tree.ray_cast(&input, |inp, _, data| {
            seen.push(data);
            inp.max_fraction
        });
        seen.sort();
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        // Clipping at the first box (data 0 at x in [0, 1]) prunes all others.
        let mut closest = Vec::new();
        tree.ray_cast(&input, |_, _, data| {
            closest.push(data);
            // Fraction of x = 0.0 hit.
            if data == 0 { 1.0 / 40.0 } else { 1.0 }
        });
        assert!(closest.contains(&0));
    }

    /// Small moves refit in place, far moves reinsert: either way the tree stays valid and a
    /// query finds exactly the boxes that overlap, and proxies that wander off do not drag
    /// their old siblings' boxes along (the tree stays as shallow as a freshly built one).
    #[test]
    fn moved_proxies_stay_findable_near_and_far() {
        let (mut tree, mut boxes, ids) = grid_tree(200, unit_box);
        let mut next = uniform(12345);
        for round in 0..300 {
            for (k, id) in ids.iter().enumerate() {
                // Every proxy jiggles by up to 5 cm; every 50th round a few jump 40 m.
                let far = round % 50 == 49 && k % 7 == 0;
                let step = if far { 40.0 } else { 0.05 };
                let d = Vec2::new(next() - 0.5, next() - 0.5) * 2.0 * step;
                boxes[k] = Aabb::new(boxes[k].min + d, boxes[k].max + d);
                tree.move_proxy(*id, boxes[k]);
            }
            tree.validate().unwrap();
        }
        // Queries agree with brute force.
        let probes = [
            unit_box(5.0, 5.0),
            unit_box(20.0, 3.0),
            unit_box(-30.0, 40.0),
        ];
        assert_queries_match(&tree, &boxes, &probes);
        assert!(tree.height() <= 2 * 8, "height {}", tree.height());
    }
}
