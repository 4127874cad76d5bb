//! Strongly connected components (Tarjan's algorithm) with an explicit
//! stack: a call chain a million deep must not overflow the thread's stack.
//! About 13 bytes a node while it runs: a profile of millions of functions,
//! nearly all in no cycle, must not pay a list per function.

/// The components of two or more nodes (the cycles) of the graph with `n`
/// nodes and successors `next(v)`; every other node is a component alone.
pub fn components<I>(n: usize, next: impl Fn(usize) -> I) -> Vec<Vec<usize>>
where
    I: Iterator<Item = usize>,
{
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let mut counter = 0u32;
    // Each frame: the node and its remaining successors.
    let mut frames: Vec<(usize, I)> = Vec::new();

    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        macro_rules! visit {
            ($v:expr) => {{
                let v = $v;
                index[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v as u32);
                on_stack[v] = true;
                frames.push((v, next(v)));
            }};
        }
        visit!(root);
        while let Some((v, successors)) = frames.last_mut() {
            let v = *v;
            if let Some(w) = successors.next() {
                if index[w] == UNSEEN {
                    visit!(w);
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some((parent, _)) = frames.last() {
                low[*parent] = low[*parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    let w = w as usize;
                    on_stack[w] = false;
                    if w == v && component.is_empty() {
                        break;
                    }
                    component.push(w);
                    if w == v {
                        out.push(component);
                        break;
                    }
                }
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
        let c = sorted(components(4, |v| g[v].clone().into_iter()));
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
            let got = sorted(components(n, |v| g[v].clone().into_iter()));
            assert_eq!(got, sorted(want), "round {round}: {g:?}");
        }
    }

    #[test]
    fn a_million_deep_chain_does_not_overflow() {
        let n = 1_000_000;
        let c = components(n, |v| (v + 1 < n).then_some(v + 1).into_iter());
        assert!(c.is_empty());
    }

    #[test]
    fn a_million_function_cycle_is_one_component() {
        let n = 1_000_000;
        let c = components(n, |v| std::iter::once((v + 1) % n));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].len(), n);
    }
}
