//! Islands: bodies linked by touching contacts and joints. An island is the unit of sleep:
//! it falls asleep only when every body in it has been at rest long enough, and wakes whole.

/// Disjoint sets over body slots with path halving; roots are the smallest slot of each set,
/// so the grouping depends only on the links, not on their order.
pub(crate) struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    pub fn new(count: usize) -> Self {
        UnionFind {
            parent: (0..count as u32).collect(),
        }
    }

    pub fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let grand = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = grand;
            i = grand;
        }
        i
    }

    pub fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UnionFind;

    #[test]
    fn sets_merge_and_roots_are_the_smallest_member() {
        let mut sets = UnionFind::new(6);
        sets.union(4, 2);
        sets.union(2, 5);
        sets.union(0, 1);
        assert_eq!(sets.find(5), 2);
        assert_eq!(sets.find(4), 2);
        assert_eq!(sets.find(1), 0);
        assert_eq!(sets.find(3), 3);
    }
}
