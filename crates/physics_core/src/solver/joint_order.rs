//! The order joints are solved in: by graph colour, so that joints next to each other in the
//! array move different bodies.
//!
//! Joints are solved one after another (Gauss-Seidel), and each one reads the velocities the
//! one before it wrote. In creation order, neighbouring joints usually share a body (a chain's
//! links, a grid's right and down pins), so every joint waits for the last one's stores to
//! reach its loads. Within one colour no two joints share a moving body, so the processor
//! overlaps several joints' arithmetic. The order is a greedy colouring in joint slot order:
//! deterministic, and the same whatever the thread count.

use super::graph_coloring::GraphColoring;

/// The joints `coloring` was given, colour by colour (in the order they were added within a
/// colour), then those that fit no colour.
pub(crate) fn color_order(coloring: &GraphColoring) -> impl Iterator<Item = u32> + '_ {
    coloring
        .colors
        .iter()
        .flatten()
        .chain(&coloring.overflow)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::body_state::STATIC_BODY;
    use crate::solver::graph_coloring::COLOR_COUNT;

    /// A pin grid's joints in colour order: every joint once, and the joints of each colour
    /// run move disjoint bodies, so neighbours in the order never wait on each other.
    #[test]
    fn grid_joints_come_once_each_in_runs_of_disjoint_bodies() {
        let n = 12u32;
        let body = |k: u32, i: u32| if i == 0 { STATIC_BODY } else { i * n + k };
        let mut joints = Vec::new();
        for k in 0..n {
            for i in 0..n {
                if i > 0 {
                    joints.push((body(k, i - 1), body(k, i)));
                }
                if k > 0 {
                    joints.push((body(k - 1, i), body(k, i)));
                }
            }
        }
        let mut coloring = GraphColoring::default();
        coloring.reset((n * n) as usize);
        for (j, &(a, b)) in joints.iter().enumerate() {
            if a != STATIC_BODY || b != STATIC_BODY {
                coloring.add(j as u32, a, b);
            }
        }
        let order: Vec<u32> = color_order(&coloring).collect();
        let mut seen = vec![0; joints.len()];
        for &j in &order {
            seen[j as usize] += 1;
        }
        let both_static = joints
            .iter()
            .filter(|&&(a, b)| a == STATIC_BODY && b == STATIC_BODY)
            .count();
        assert_eq!(order.len(), joints.len() - both_static);
        assert!(seen.iter().all(|&s| s <= 1));
        assert!(coloring.overflow.is_empty(), "a grid needs four colours");
        // Walk the order colour by colour: no moving body twice within a colour.
        let mut at = 0;
        for color in 0..COLOR_COUNT {
            let run = &order[at..at + coloring.colors[color].len()];
            at += run.len();
            let mut used = std::collections::HashSet::new();
            for &j in run {
                let (a, b) = joints[j as usize];
                for body in [a, b].into_iter().filter(|&x| x != STATIC_BODY) {
                    assert!(used.insert(body), "body {body} twice in colour {color}");
                }
            }
        }
        assert_eq!(at, order.len());
    }
}
