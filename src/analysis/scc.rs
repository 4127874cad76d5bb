//! Strongly connected components with an explicit stack: a call chain a
//! million deep must not overflow the thread's stack. Pearce's variant of
//! Tarjan's algorithm ("A space-efficient algorithm for finding strongly
//! connected components", 2016): one number a node, which is its visit
//! index while it is open and its component's number once done, so about
//! 4 bytes a node while it runs besides the stacks; a profile of millions of
//! functions, nearly all in no cycle, must not pay a list per function.

/// A node on the path of the search: its next edge, how many it has, and
/// whether it is still the root of its component (16 bytes: a path may be
/// a million deep).
struct Frame {
    node: u32,
    next: u32,
    degree: u32,
    root: bool,
}

/// The components of two or more nodes (the cycles) of the graph with `n`
/// nodes where node `v` has `degree(v)` edges, the `k`th to node
/// `successor(v, k)` (ignored if `n` or more); every other node is a
/// component alone.
pub fn components(
    n: usize,
    degree: impl Fn(usize) -> usize,
    successor: impl Fn(usize, usize) -> usize,
) -> Vec<Vec<usize>> {
    const UNSEEN: u32 = 0;
    // Open nodes count up from 1; finished components count down from the
    // top, always above every open node's index.
    let mut rindex = vec![UNSEEN; n];
    let mut index = 1u32;
    let mut component = u32::MAX;
    // Visited nodes not yet in a finished component, below the path.
    let mut stack: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let frame = |v: usize| Frame {
        node: v as u32,
        next: 0,
        degree: degree(v) as u32,
        root: true,
    };

    for start in 0..n {
        if rindex[start] != UNSEEN {
            continue;
        }
        rindex[start] = index;
        index += 1;
        frames.push(frame(start));
        while let Some(top) = frames.last_mut() {
            let v = top.node as usize;
            if top.next < top.degree {
                let w = successor(v, top.next as usize);
                top.next += 1;
                if w >= n {
                    continue;
                }
                if rindex[w] == UNSEEN {
                    rindex[w] = index;
                    index += 1;
                    frames.push(frame(w));
                } else if rindex[w] < rindex[v] {
                    rindex[v] = rindex[w];
                    top.root = false;
                }
                continue;
            }
            let Some(Frame { root, .. }) = frames.pop() else {
                break;
            };
            if let Some(parent) = frames.last_mut()
                && rindex[v] < rindex[parent.node as usize]
            {
                rindex[parent.node as usize] = rindex[v];
                parent.root = false;
            }
            if !root {
                stack.push(v as u32);
                continue;
            }
            index -= 1;
            let mut members = Vec::new();
            while let Some(&w) = stack.last()
                && rindex[v] <= rindex[w as usize]
            {
                stack.pop();
                rindex[w as usize] = component;
                index -= 1;
                members.push(w as usize);
            }
            rindex[v] = component;
            component -= 1;
            if !members.is_empty() {
                members.push(v);
                out.push(members);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::components;

    fn sorted(mut c: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
        for x in &mut c {
            x.sort();
        }
        c.sort();
        c
    }

    #[test]
    fn finds_cycles_and_singletons() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3, 3 -> 3
        let g: Vec<Vec<usize>> = vec![vec![1], vec![2], vec![0, 3], vec![3]];
        let c = sorted(components(4, |v| g[v].len(), |v, k| g[v][k]));
        assert_eq!(c, vec![vec![0, 1, 2]], "3 calls only itself: no cycle");
    }

    /// On random graphs, dense and sparse: two nodes share a component
    /// exactly when each reaches the other.
    #[test]
    fn components_are_the_sets_of_mutually_reachable_nodes() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        for round in 0..200 {
            let n = 1 + random(40);
            let edges = random(3 * n + 1) * (1 + round % 3) / 2;
            let mut g: Vec<Vec<usize>> = vec![Vec::new(); n];
            for _ in 0..edges {
                let (a, b) = (random(n), random(n));
                g[a].push(b);
            }
            let reach: Vec<Vec<bool>> = (0..n)
                .map(|s| {
                    let mut seen = vec![false; n];
                    let mut todo = vec![s];
                    while let Some(v) = todo.pop() {
                        for &w in &g[v] {
                            if !seen[w] {
                                seen[w] = true;
                                todo.push(w);
                            }
                        }
                    }
                    seen
                })
                .collect();
            let want: Vec<Vec<usize>> = (0..n)
                .map(|v| -> Vec<usize> {
                    (0..n)
                        .filter(|&w| w == v || (reach[v][w] && reach[w][v]))
                        .collect()
                })
                .enumerate()
                .filter(|(v, class)| class.len() > 1 && class[0] == *v)
                .map(|(_, class)| class)
                .collect();
            let got = sorted(components(n, |v| g[v].len(), |v, k| g[v][k]));
            assert_eq!(got, sorted(want), "round {round}: {g:?}");
        }
    }

    #[test]
    fn a_million_deep_chain_does_not_overflow() {
        let n = 1_000_000;
        let c = components(n, |_| 1, |v, _| v + 1);
        assert!(c.is_empty());
    }

    #[test]
    fn a_million_function_cycle_is_one_component() {
        let n = 1_000_000;
        let c = components(n, |_| 1, |v, _| (v + 1) % n);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].len(), n);
    }
}
