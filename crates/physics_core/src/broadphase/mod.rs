//! Broadphase: which shapes' enlarged boxes overlap.
//!
//! Static shapes live in one tree and moving (kinematic and dynamic) shapes in another, so the
//! thousands of static ground pieces are never re-tested against each other. Shapes whose
//! enlarged box had to grow this step are put in the move buffer; only they query the trees
//! for new pairs.

mod dynamic_tree;

pub use dynamic_tree::{DynamicTree, NULL_NODE};

use crate::parallel::TaskRunner;
use crate::parallel::stages::{block_range, blocks, for_each_block};
use crate::shape::Aabb;
use serde::{Deserialize, Serialize};

/// Fewest moved proxies in a block of parallel pair finding (a query costs about a
/// microsecond, so smaller blocks would cost more to hand out than to run).
const MIN_QUERY_BLOCK: usize = 64;

/// How many overlaps before `keep` reads a pair [`BroadPhase::find_new_pairs`] asks about it
/// (`ask_ahead`): enough for a miss to memory to arrive while `keep` answers the pairs in
/// between, most of them in a few nanoseconds.
pub const PAIR_AHEAD: usize = 8;

/// The moved proxies of the moving tree walk for their pairs instead of querying when they
/// are at least one in this many of the tree's proxies.
const WALK_SHARE: usize = 4;

/// Which tree a proxy lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TreeKind {
    /// Shapes of static bodies.
    Static = 0,
    /// Shapes of kinematic and dynamic bodies.
    Moving = 1,
}

/// A proxy: a tree and a node in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ProxyKey {
    /// The tree.
    pub tree: TreeKind,
    /// Node id in that tree.
    pub id: u32,
}

/// The two trees and the move buffer. The user data of every proxy is its shape's slot index.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct BroadPhase {
    /// Static shapes.
    pub static_tree: DynamicTree,
    /// Kinematic and dynamic shapes.
    pub moving_tree: DynamicTree,
    move_buffer: Vec<ProxyKey>,
    /// One tree's share of a batch of moves (`move_proxies`), kept for its capacity.
    #[serde(skip)]
    tree_moves: Vec<(u32, Aabb)>,
    /// `find_new_pairs`'s buffers, kept for their capacity: per tree, which proxies queried
    /// (all false between calls), and each block's pairs.
    #[serde(skip)]
    queried: [Vec<bool>; 2],
    #[serde(skip)]
    found: Vec<Vec<(u32, u32)>>,
    /// `find_new_pairs`'s buffers for the walks: the moved proxies that walk, and per node
    /// of the moving tree whether its subtree holds one of them (all false between calls).
    #[serde(skip)]
    walked: Vec<u32>,
    #[serde(skip)]
    holds: Vec<bool>,
}

impl BroadPhase {
    /// The tree of a kind.
    pub fn tree(&self, kind: TreeKind) -> &DynamicTree {
        match kind {
            TreeKind::Static => &self.static_tree,
            TreeKind::Moving => &self.moving_tree,
        }
    }

    fn tree_mut(&mut self, kind: TreeKind) -> &mut DynamicTree {
        match kind {
            TreeKind::Static => &mut self.static_tree,
            TreeKind::Moving => &mut self.moving_tree,
        }
    }

    /// Adds a proxy of a shape in collision categories `category_bits` and queues it for
    /// pair finding.
    pub fn create_proxy(
        &mut self,
        kind: TreeKind,
        aabb: Aabb,
        shape_index: u32,
        category_bits: u64,
    ) -> ProxyKey {
        let id = self
            .tree_mut(kind)
            .create_proxy_in(aabb, shape_index as u64, category_bits);
        let key = ProxyKey { tree: kind, id };
        self.move_buffer.push(key);
        key
    }

    /// Removes a proxy. Its entries in the move buffer stay there until the next pair update,
    /// which drops every entry that is no longer a proxy: searching the buffer here made
    /// destroying a group of shapes cost the group's size times the buffer's (a ragdoll
    /// rain destroys hundreds of shapes while thousands of moved ones wait). A node reused
    /// by a new proxy meanwhile is that proxy's, queued by its creation anyway.
    pub fn destroy_proxy(&mut self, key: ProxyKey) {
        self.tree_mut(key.tree).destroy_proxy(key.id);
    }

    /// Whether `key` names a live proxy (a leaf of its tree).
    fn is_proxy(&self, key: ProxyKey) -> bool {
        self.tree(key.tree).leaf_user_data(key.id).is_some()
    }

    /// Gives a proxy a new enlarged box and queues it for pair finding.
    pub fn move_proxy(&mut self, key: ProxyKey, aabb: Aabb) {
        self.tree_mut(key.tree).move_proxy(key.id, aabb);
        self.move_buffer.push(key);
    }

    /// Gives many proxies new enlarged boxes at once and queues them for pair finding, in
    /// order. Each tree writes all its new leaf boxes, then builds again the part of itself
    /// above the moved leaves (see `dynamic_tree/rebuild.rs`), shared among `runner`'s
    /// workers (the trees come out the same for any runner).
    pub fn move_proxies(&mut self, moves: &[(ProxyKey, Aabb)], runner: &dyn TaskRunner) {
        let mut of_tree = std::mem::take(&mut self.tree_moves);
        for kind in [TreeKind::Static, TreeKind::Moving] {
            of_tree.clear();
            of_tree.extend(
                moves
                    .iter()
                    .filter(|(key, _)| key.tree == kind)
                    .map(|(key, aabb)| (key.id, *aabb)),
            );
            if !of_tree.is_empty() {
                self.tree_mut(kind).move_proxies_on(&of_tree, runner);
            }
        }
        self.tree_moves = of_tree;
        self.move_buffer.extend(moves.iter().map(|(key, _)| *key));
    }

    /// Sets every proxy's collision categories to `categories_of(shape_index)`: a broadphase
    /// read from a snapshot has every proxy in every category until then.
    pub fn set_categories(&mut self, categories_of: impl Fn(u32) -> u64) {
        for kind in [TreeKind::Static, TreeKind::Moving] {
            self.tree_mut(kind)
                .set_categories(|data| categories_of(data as u32));
        }
    }

    /// The enlarged box of a proxy.
    pub fn fat_aabb(&self, key: ProxyKey) -> Aabb {
        self.tree(key.tree).fat_aabb(key.id)
    }

    /// Number of proxies waiting in the move buffer: those that query the trees at the next
    /// pair update, each once.
    pub fn moved_proxy_count(&self) -> usize {
        let mut live: Vec<ProxyKey> = self.move_buffer.clone();
        live.sort_unstable();
        live.dedup();
        live.iter().filter(|key| self.is_proxy(**key)).count()
    }

    /// Shape index pairs `(low, high)` whose boxes overlap, where at least one proxy moved and
    /// `keep(low, high)` holds, sorted and without duplicates, and the number of proxies that
    /// queried. Empties the move buffer.
    ///
    /// `keep` runs on each block's overlaps right after its queries, so pairs that already
    /// have a contact or may never collide are dropped before they are sorted: in a settled
    /// pile nearly every overlap a moved proxy finds is a contact it already has. Answering
    /// that is a lookup in a large table, a miss for most pairs, so `ask_ahead(low, high)`
    /// is called [`PAIR_AHEAD`] overlaps before `keep` reads a pair, for the caller to ask the
    /// cache for what `keep` will read (it must not change what `keep` answers).
    /// Before that, a moved proxy of shape `s` skips every proxy whose categories miss
    /// `mask_of(s)` (`u64::MAX` skips nothing), so `keep` must drop every such pair too. The
    /// moved proxies query in blocks on `runner`'s workers (the trees are only read); the
    /// sort makes the result the same for any number of workers.
    pub fn find_new_pairs(
        &mut self,
        runner: &dyn TaskRunner,
        keep: &(dyn Fn(u32, u32) -> bool + Sync),
        ask_ahead: &(dyn Fn(u32, u32) + Sync),
        mask_of: &(dyn Fn(u32) -> u64 + Sync),
    ) -> (Vec<(u32, u32)>, usize) {
        let mut moved = std::mem::take(&mut self.move_buffer);
        moved.sort_unstable();
        moved.dedup();
        // Proxies destroyed since they were queued.
        moved.retain(|key| self.is_proxy(*key));
        let moved_count = moved.len();
        // Moved proxies of the moving tree that look for every category find their pairs in
        // walks of the trees (`dynamic_tree/pair_walk.rs`) when they are a large share of
        // their tree; the others query, each from the root.
        let mut walked = std::mem::take(&mut self.walked);
        walked.clear();
        walked.extend(moved.iter().filter_map(|key| {
            let moving = key.tree == TreeKind::Moving;
            let takes_all = || mask_of(self.moving_tree.user_data(key.id) as u32) == u64::MAX;
            (moving && takes_all()).then_some(key.id)
        }));
        if walked.len() * WALK_SHARE < self.moving_tree.proxy_count() {
            walked.clear();
        }
        let mut holds = std::mem::take(&mut self.holds);
        holds.resize(self.moving_tree.node_capacity(), false);
        self.moving_tree
            .mark_holders(walked.iter().copied(), &mut holds);
        if !walked.is_empty() {
            moved.retain(|key| key.tree == TreeKind::Static || !holds[key.id as usize]);
        }
        // Which proxies query this time, per tree. When both proxies of a pair query, only
        // the query of the larger key reports it: overlap is symmetric, so the other finds it
        // too, and `keep` runs once per pair instead of twice.
        let mut queried = std::mem::take(&mut self.queried);
        for (marks, tree) in queried
            .iter_mut()
            .zip([&self.static_tree, &self.moving_tree])
        {
            marks.resize(tree.node_capacity(), false);
        }
        for key in &moved {
            queried[key.tree as usize][key.id as usize] = true;
        }
        // The walks, cut into enough pieces for the workers to share.
        let workers = runner.worker_count();
        let wanted = if workers > 1 { 8 * workers } else { 1 };
        let mut own_walks = Vec::new();
        let mut cross_walks = Vec::new();
        if !walked.is_empty() {
            let moving = &self.moving_tree;
            own_walks.extend(moving.own_walk_start());
            moving.split_walk(None, &holds, &mut own_walks, wanted);
            cross_walks.extend(moving.cross_walk_start(&self.static_tree));
            moving.split_walk(Some(&self.static_tree), &holds, &mut cross_walks, wanted);
        }
        let (query_blocks, query_size) = blocks(moved.len(), MIN_QUERY_BLOCK, workers);
        let walks = own_walks.len() + cross_walks.len();
        let (walk_blocks, walk_size) = blocks(walks, 1, workers);
        let mut found = std::mem::take(&mut self.found);
        found.resize_with((query_blocks + walk_blocks) as usize, Vec::new);
        let this = &*self;
        let shapes_of = |tree: &DynamicTree, a: u32, other: &DynamicTree, b: u32| {
            let (a, b) = (tree.user_data(a) as u32, other.user_data(b) as u32);
            (a.min(b), a.max(b))
        };
        for_each_block(runner, &mut found, 1, &|first, outputs| {
            for (i, out) in outputs.iter_mut().enumerate() {
                out.clear();
                let block = (first + i) as u32;
                if block < query_blocks {
                    for &key in &moved[block_range(block, query_size, moved.len())] {
                        this.query_new_pairs(key, &queried, &holds, mask_of, out);
                    }
                } else {
                    let (moving, fixed) = (&this.moving_tree, &this.static_tree);
                    for w in block_range(block - query_blocks, walk_size, walks) {
                        if let Some(&start) = own_walks.get(w) {
                            moving.walk_pairs(None, &holds, start, |a, b| {
                                out.push(shapes_of(moving, a, moving, b))
                            });
                        } else {
                            let start = cross_walks[w - own_walks.len()];
                            moving.walk_pairs(Some(fixed), &holds, start, |a, b| {
                                out.push(shapes_of(moving, a, fixed, b))
                            });
                        }
                    }
                }
                retain_asking_ahead(out, keep, ask_ahead);
            }
        });
        let mut pairs = found.concat();
        pairs.sort_unstable();
        pairs.dedup();
        // Back to all false, and the buffers back for the next call.
        for key in &moved {
            queried[key.tree as usize][key.id as usize] = false;
        }
        self.moving_tree
            .clear_holders(walked.iter().copied(), &mut holds);
        moved.clear();
        self.move_buffer = moved;
        self.queried = queried;
        self.holds = holds;
        self.walked = walked;
        self.found = found;
        (pairs, moved_count)
    }

    /// The overlaps moved proxy `key` reports (see [`BroadPhase::find_new_pairs`]), added to
    /// `out` as shape pairs `(low, high)` for `keep` to sift. A proxy of the moving tree
    /// marked in `holds` walked, so its pairs are the walks' to report.
    fn query_new_pairs(
        &self,
        key: ProxyKey,
        queried: &[Vec<bool>; 2],
        holds: &[bool],
        mask_of: &(dyn Fn(u32) -> u64 + Sync),
        out: &mut Vec<(u32, u32)>,
    ) {
        let tree = self.tree(key.tree);
        let aabb = tree.fat_aabb(key.id);
        let shape = tree.user_data(key.id) as u32;
        let mut add = |other_id: u32, other_data: u64, other_tree: TreeKind| {
            let other_key = ProxyKey {
                tree: other_tree,
                id: other_id,
            };
            if other_key == key
                || (other_key < key && queried[other_tree as usize][other_id as usize])
                || (other_tree == TreeKind::Moving && holds[other_id as usize])
            {
                return;
            }
            let other = other_data as u32;
            out.push((shape.min(other), shape.max(other)));
        };
        // Moving proxies meet everything; static proxies only moving ones.
        let mask = mask_of(shape);
        query_tree(&self.moving_tree, &aabb, mask, |id, data| {
            add(id, data, TreeKind::Moving)
        });
        if key.tree == TreeKind::Moving {
            query_tree(&self.static_tree, &aabb, mask, |id, data| {
                add(id, data, TreeKind::Static)
            });
        }
    }
}

/// Keeps the pairs of `pairs` that `keep` accepts, in their order, calling `ask_ahead` on
/// each pair [`PAIR_AHEAD`] places before `keep` reads it.
fn retain_asking_ahead(
    pairs: &mut Vec<(u32, u32)>,
    keep: &(dyn Fn(u32, u32) -> bool + Sync),
    ask_ahead: &(dyn Fn(u32, u32) + Sync),
) {
    let mut kept = 0;
    for i in 0..pairs.len() {
        if let Some(&(low, high)) = pairs.get(i + PAIR_AHEAD) {
            ask_ahead(low, high);
        }
        let pair = pairs[i];
        if keep(pair.0, pair.1) {
            pairs[kept] = pair;
            kept += 1;
        }
    }
    pairs.truncate(kept);
}

/// Visits the proxies of `tree` overlapping `aabb` in categories of `mask`, without testing
/// categories when the mask takes them all.
fn query_tree(tree: &DynamicTree, aabb: &Aabb, mask: u64, mut visit: impl FnMut(u32, u64)) {
    let visit = |id, data| {
        visit(id, data);
        true
    };
    if mask == u64::MAX {
        tree.query(aabb, visit);
    } else {
        tree.query_masked(aabb, mask, visit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::{ScopedThreads, SingleThreaded};
    use bevy_math::Vec2;
    use std::sync::Mutex;

    fn square(x: f32, half: f32) -> Aabb {
        Aabb::new(Vec2::new(x - half, -half), Vec2::new(x + half, half))
    }

    /// Asks the cache for nothing.
    fn no_prefetch(_: u32, _: u32) {}

    /// Masks that skip nothing.
    fn all_categories(_: u32) -> u64 {
        u64::MAX
    }

    /// Overlaps are reported once each, whichever of the two proxies moved (both, one, a
    /// static and a moving one), and `keep` sees each pair once and can drop it.
    #[test]
    fn each_new_overlap_is_reported_once_and_keep_filters_it() {
        let mut bp = BroadPhase::default();
        // Shapes 0..3 move and overlap their neighbours; shape 3 is static under 2.
        bp.create_proxy(TreeKind::Moving, square(0.0, 0.6), 0, 1);
        bp.create_proxy(TreeKind::Moving, square(1.0, 0.6), 1, 1);
        let moved = bp.create_proxy(TreeKind::Moving, square(2.0, 0.6), 2, 1);
        bp.create_proxy(TreeKind::Static, square(2.5, 0.3), 3, 1);
        let seen = Mutex::new(Vec::new());
        let (pairs, queried) = bp.find_new_pairs(
            &SingleThreaded,
            &|a, b| {
                seen.lock().unwrap().push((a, b));
                true
            },
            &no_prefetch,
            &all_categories,
        );
        assert_eq!(queried, 4);
        assert_eq!(pairs, vec![(0, 1), (1, 2), (2, 3)]);
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, pairs, "keep runs once per pair");

        // Only shape 2 moves now: it finds both neighbours; `keep` drops the static one.
        bp.move_proxy(moved, square(2.1, 0.6));
        let (pairs, queried) = bp.find_new_pairs(
            &SingleThreaded,
            &|_, b| b != 3,
            &no_prefetch,
            &all_categories,
        );
        assert_eq!(queried, 1);
        assert_eq!(pairs, vec![(1, 2)]);
        assert_eq!(bp.moved_proxy_count(), 0);
    }

    /// Regression: destroying a proxy searched the whole move buffer. Destroyed proxies now
    /// stay queued until the pair update, which must drop them: a destroyed proxy finds no
    /// pair, a proxy given its node meanwhile finds its own, and one destroyed twice over
    /// (its node reused by a proxy destroyed in turn) is gone too.
    #[test]
    fn destroyed_proxies_left_in_the_move_buffer_find_no_pairs() {
        let mut bp = BroadPhase::default();
        let keys: Vec<ProxyKey> = (0..6)
            .map(|i| bp.create_proxy(TreeKind::Moving, square(i as f32, 0.6), i, 1))
            .collect();
        let ground = bp.create_proxy(TreeKind::Static, square(2.5, 3.0), 10, 1);
        bp.find_new_pairs(&SingleThreaded, &|_, _| true, &no_prefetch, &all_categories);
        // Every moving proxy moves, then shapes 1 and 4 go; shape 7 takes a freed node and
        // shape 8 takes the other, then goes as well.
        for (i, &key) in keys.iter().enumerate() {
            bp.move_proxy(key, square(i as f32 + 0.01, 0.6));
        }
        bp.destroy_proxy(keys[1]);
        bp.destroy_proxy(keys[4]);
        let reused = bp.create_proxy(TreeKind::Moving, square(20.0, 0.6), 7, 1);
        let gone = bp.create_proxy(TreeKind::Moving, square(21.0, 0.6), 8, 1);
        bp.destroy_proxy(gone);
        assert!(
            [keys[1].id, keys[4].id].contains(&reused.id),
            "a node is reused"
        );
        assert!(
            [keys[1].id, keys[4].id].contains(&gone.id),
            "a node is reused"
        );
        assert_eq!(
            bp.moved_proxy_count(),
            4 + 1,
            "the live moving proxies and shape 7"
        );
        let (pairs, queried) =
            bp.find_new_pairs(&SingleThreaded, &|_, _| true, &no_prefetch, &all_categories);
        assert_eq!(queried, 5);
        // Shapes 0, 2, 3, 5 against their live neighbours and the ground; shape 7 alone.
        let expected = vec![(0, 10), (2, 3), (2, 10), (3, 10), (5, 10)];
        assert_eq!(pairs, expected);
        assert_eq!(bp.moved_proxy_count(), 0);
        assert!(bp.tree(ground.tree).leaf_user_data(ground.id) == Some(10));
    }

    /// A crowd of overlapping moved proxies finds the same sorted pairs on one worker as on
    /// three, with blocks finishing in any order.
    #[test]
    fn pairs_are_the_same_for_any_worker_count() {
        let build = || {
            let mut bp = BroadPhase::default();
            for i in 0..600 {
                let x = (i % 40) as f32 * 0.7;
                let y = (i / 40) as f32 * 0.7;
                let b = Aabb::new(Vec2::new(x - 0.5, y - 0.5), Vec2::new(x + 0.5, y + 0.5));
                let kind = if i % 13 == 0 {
                    TreeKind::Static
                } else {
                    TreeKind::Moving
                };
                bp.create_proxy(kind, b, i, 1);
            }
            bp
        };
        let keep = |a: u32, b: u32| !(a + b).is_multiple_of(5);
        let (one, queried) =
            build().find_new_pairs(&SingleThreaded, &keep, &no_prefetch, &all_categories);
        let (three, _) =
            build().find_new_pairs(&ScopedThreads::new(3), &keep, &no_prefetch, &all_categories);
        assert_eq!(queried, 600);
        // A 40 x 15 grid where each box overlaps its 8 neighbours has 2237 overlaps; `keep`
        // drops about a fifth, and static pairs are never reported.
        assert!((1600..1900).contains(&one.len()), "{} pairs", one.len());
        assert!(one.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
        assert_eq!(one, three);
    }

    /// Every pair `keep` reads was asked about `PAIR_AHEAD` reads earlier (all but a block's
    /// first `PAIR_AHEAD`), and asking changes nothing found.
    #[test]
    fn each_pair_is_asked_about_before_keep_reads_it() {
        #[derive(Clone, Copy, Debug, PartialEq)]
        enum Event {
            Asked(u32, u32),
            Read(u32, u32),
        }
        let build = || {
            let mut bp = BroadPhase::default();
            for i in 0..400 {
                let (x, y) = ((i % 20) as f32 * 0.7, (i / 20) as f32 * 0.7);
                let b = Aabb::new(Vec2::new(x - 0.5, y - 0.5), Vec2::new(x + 0.5, y + 0.5));
                bp.create_proxy(TreeKind::Moving, b, i, 1);
            }
            bp
        };
        let events = Mutex::new(Vec::new());
        let keep = |a: u32, b: u32| {
            events.lock().unwrap().push(Event::Read(a, b));
            !(a + b).is_multiple_of(3)
        };
        let ask = |a: u32, b: u32| events.lock().unwrap().push(Event::Asked(a, b));
        let (asked, _) = build().find_new_pairs(&SingleThreaded, &keep, &ask, &all_categories);
        let events = std::mem::take(&mut *events.lock().unwrap());
        let (plain, _) = build().find_new_pairs(
            &SingleThreaded,
            &|a, b| !(a + b).is_multiple_of(3),
            &no_prefetch,
            &all_categories,
        );
        assert_eq!(asked, plain, "asking ahead changes nothing found");
        let reads: Vec<Event> = events
            .iter()
            .copied()
            .filter(|e| matches!(e, Event::Read(..)))
            .collect();
        assert!(reads.len() > 4 * PAIR_AHEAD, "{} reads", reads.len());
        let mut reads_so_far = 0;
        let mut asked_count = 0;
        for e in &events {
            match *e {
                Event::Read(..) => reads_so_far += 1,
                Event::Asked(a, b) => {
                    // One worker, one block: the pair read PAIR_AHEAD reads from now.
                    assert_eq!(
                        reads.get(reads_so_far + PAIR_AHEAD),
                        Some(&Event::Read(a, b))
                    );
                    asked_count += 1;
                }
            }
        }
        assert_eq!(
            asked_count,
            reads.len() - PAIR_AHEAD,
            "all but the first few asked"
        );
    }

    /// A row of overlapping proxies in two alternating categories, each masking out its own
    /// (debris that only meets the other kind), over a static proxy in a third: the queries
    /// skip same-category neighbours before `keep` sees them, and the pairs are those that
    /// overlap and pass the filters, as without masks.
    #[test]
    fn masked_proxies_skip_the_categories_they_mask_out() {
        let category = |shape: u32| {
            if shape == 12 {
                0b100
            } else {
                1u64 << (shape % 2)
            }
        };
        // Every shape's mask leaves out its own category, but shape 5 masks nothing out.
        let mask = |shape: u32| {
            if shape == 5 {
                u64::MAX
            } else {
                !category(shape)
            }
        };
        let passes = |a: u32, b: u32| mask(a) & category(b) != 0 && mask(b) & category(a) != 0;
        let boxes: Vec<Aabb> = (0..13)
            .map(|shape| match shape {
                12 => square(3.0, 0.6),
                // Each box overlaps the next two along the row.
                _ => square(shape as f32 * 0.5, 0.6),
            })
            .collect();
        let find = |masks: &(dyn Fn(u32) -> u64 + Sync)| {
            let mut bp = BroadPhase::default();
            for (shape, b) in boxes.iter().enumerate() {
                let shape = shape as u32;
                let kind = if shape == 12 {
                    TreeKind::Static
                } else {
                    TreeKind::Moving
                };
                bp.create_proxy(kind, *b, shape, category(shape));
            }
            let seen = Mutex::new(Vec::new());
            let keep = |a, b| {
                seen.lock().unwrap().push((a, b));
                passes(a, b)
            };
            let (pairs, _) = bp.find_new_pairs(&SingleThreaded, &keep, &no_prefetch, masks);
            (pairs, seen.into_inner().unwrap())
        };
        let (pairs, seen) = find(&mask);
        let (unmasked_pairs, unmasked_seen) = find(&all_categories);
        assert_eq!(pairs, unmasked_pairs, "the same pairs");
        let mut want = Vec::new();
        for a in 0..13u32 {
            for b in a + 1..13 {
                if boxes[a as usize].overlaps(&boxes[b as usize]) && passes(a, b) {
                    want.push((a, b));
                }
            }
        }
        assert_eq!(pairs, want);
        // Unmasked, `keep` sees every overlap; masked, only one side's mask lets the pair
        // through, and the pairs in one category of the row only where shape 5 reports them.
        assert!(
            unmasked_seen
                .iter()
                .any(|&(a, b)| category(a) == category(b))
        );
        for &(a, b) in &seen {
            let inside = category(a) == category(b);
            assert!(
                !inside || a == 5 || b == 5,
                "({a}, {b}) met inside their category"
            );
        }
        assert!(seen.len() < unmasked_seen.len());
    }

    /// Random boxes in both trees, in random categories, some shapes masking some out, a
    /// share of them moved: the pairs found are exactly the overlaps that hold a moved proxy
    /// and pass the filters, `keep` reads each at most once, and one worker and three agree.
    /// With half or all of them moved, the moved proxies that take every category walk the
    /// trees (they are more than a quarter of the moving tree); with one in twenty, all query.
    #[test]
    fn walks_and_queries_find_every_overlap_of_a_moved_proxy_once() {
        let mut seed = 7u32;
        let mut random = move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let count = 700u32;
        let boxes: Vec<Aabb> = (0..count)
            .map(|_| {
                let (x, y) = (random() * 30.0, random() * 30.0);
                let (w, h) = (0.2 + random() * 0.8, 0.2 + random() * 0.8);
                Aabb::new(Vec2::new(x, y), Vec2::new(x + w, y + h))
            })
            .collect();
        let is_static: Vec<bool> = (0..count).map(|_| random() < 0.15).collect();
        let category: Vec<u64> = (0..count).map(|_| 1 << ((random() * 3.0) as u32)).collect();
        let mask: Vec<u64> = (0..count)
            .map(|i| {
                if random() < 0.7 {
                    u64::MAX
                } else {
                    !category[i as usize]
                }
            })
            .collect();
        let passes = |a: u32, b: u32| {
            let (a, b) = (a as usize, b as usize);
            mask[a] & category[b] != 0 && mask[b] & category[a] != 0
        };
        let shift = Vec2::new(0.05, -0.03);
        for share in [1.0, 0.5, 0.05] {
            let moved: Vec<bool> = (0..count).map(|_| random() < share).collect();
            let find = |runner: &dyn TaskRunner| {
                let mut bp = BroadPhase::default();
                let keys: Vec<ProxyKey> = (0..count)
                    .map(|i| {
                        let kind = if is_static[i as usize] {
                            TreeKind::Static
                        } else {
                            TreeKind::Moving
                        };
                        bp.create_proxy(kind, boxes[i as usize], i, category[i as usize])
                    })
                    .collect();
                let nothing = |_: u32, _: u32| false;
                bp.find_new_pairs(runner, &nothing, &no_prefetch, &all_categories);
                for i in (0..count).filter(|&i| moved[i as usize]) {
                    let b = boxes[i as usize];
                    bp.move_proxy(keys[i as usize], Aabb::new(b.min + shift, b.max + shift));
                }
                let read = Mutex::new(Vec::new());
                let keep = |a, b| {
                    read.lock().unwrap().push((a, b));
                    passes(a, b)
                };
                let masks = |shape: u32| mask[shape as usize];
                let (pairs, _) = bp.find_new_pairs(runner, &keep, &no_prefetch, &masks);
                (pairs, read.into_inner().unwrap())
            };
            let now = |i: u32| {
                let b = boxes[i as usize];
                if moved[i as usize] {
                    Aabb::new(b.min + shift, b.max + shift)
                } else {
                    b
                }
            };
            let mut want = Vec::new();
            for a in 0..count {
                for b in a + 1..count {
                    let statics = is_static[a as usize] && is_static[b as usize];
                    let any_moved = moved[a as usize] || moved[b as usize];
                    if !statics && any_moved && now(a).overlaps(&now(b)) && passes(a, b) {
                        want.push((a, b));
                    }
                }
            }
            let (one, mut read) = find(&SingleThreaded);
            assert_eq!(one, want, "share {share}");
            assert!(want.len() > 20, "{} pairs at share {share}", want.len());
            let before = read.len();
            read.sort_unstable();
            read.dedup();
            assert_eq!(read.len(), before, "a pair read twice at share {share}");
            let (three, _) = find(&ScopedThreads::new(3));
            assert_eq!(three, want, "share {share}, three workers");
        }
    }
}
