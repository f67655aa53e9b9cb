//! Maximum-weight matching in a general graph: Edmonds' blossom method with the primal-dual
//! method for weights, after Galil, "Efficient Algorithms for Finding Maximum Matching in
//! Graphs" (ACM Computing Surveys, 1986), in the array layout of Joris van Rantwijk's
//! public-domain implementation.
//!
//! Swiss pairing turns "the rematch-free pairing that keeps players closest to their score
//! group" into a maximum-weight, maximum-cardinality matching here. It runs in O(n³) time on
//! integer weights, with integer arithmetic only (weights are doubled inside so that every
//! dual update is whole), so the result is exactly optimal.

/// "No vertex", "no edge", "no blossom".
const NONE: usize = usize::MAX;

/// An undirected edge `(i, j, weight)` between two distinct vertices.
pub type Edge = (usize, usize, i64);

/// Returns a maximum-weight matching of the graph on `vertices` vertices with `edges` (at most
/// one edge per pair): `mate[v]` is `v`'s partner, or `None`. With `max_cardinality`, only
/// matchings with the most edges are considered.
pub fn max_weight_matching(
    vertices: usize,
    edges: &[Edge],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    if edges.is_empty() || vertices == 0 {
        return vec![None; vertices];
    }
    let mut search = Search::new(vertices, edges, max_cardinality);
    search.run();
    search
        .mate
        .iter()
        .map(|&p| (p != NONE).then(|| search.endpoint[p]))
        .collect()
}

/// The state of one run; field names follow the reference implementation.
struct Search {
    nvertex: usize,
    /// Edges with doubled weights.
    edges: Vec<Edge>,
    max_cardinality: bool,
    /// `endpoint[p]` is the vertex at endpoint `p`; edge `k` has endpoints `2k` and `2k + 1`.
    endpoint: Vec<usize>,
    /// `neighbend[v]` lists the remote endpoints of the edges at `v`.
    neighbend: Vec<Vec<usize>>,
    /// `mate[v]` is the remote endpoint of `v`'s matched edge, or `NONE`.
    mate: Vec<usize>,
    /// 0 free, 1 S, 2 T (5 marks a breadcrumb during `scan_blossom`), per vertex or blossom.
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<i64>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl Search {
    fn new(nvertex: usize, edges: &[Edge], max_cardinality: bool) -> Self {
        let edges: Vec<Edge> = edges.iter().map(|&(i, j, w)| (i, j, 2 * w)).collect();
        let maxweight = edges.iter().map(|&(_, _, w)| w).max().unwrap_or(0).max(0);
        let endpoint = (0..2 * edges.len())
            .map(|p| {
                let (i, j, _) = edges[p / 2];
                if p % 2 == 0 { i } else { j }
            })
            .collect();
        let mut neighbend = vec![Vec::new(); nvertex];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let nedge = edges.len();
        Self {
            nvertex,
            edges,
            max_cardinality,
            endpoint,
            neighbend,
            mate: vec![NONE; nvertex],
            label: vec![0; 2 * nvertex],
            labelend: vec![NONE; 2 * nvertex],
            inblossom: (0..nvertex).collect(),
            blossomparent: vec![NONE; 2 * nvertex],
            blossomchilds: vec![Vec::new(); 2 * nvertex],
            blossombase: (0..nvertex)
                .chain(std::iter::repeat_n(NONE, nvertex))
                .collect(),
            blossomendps: vec![Vec::new(); 2 * nvertex],
            bestedge: vec![NONE; 2 * nvertex],
            blossombestedges: vec![None; 2 * nvertex],
            unusedblossoms: (nvertex..2 * nvertex).collect(),
            dualvar: std::iter::repeat_n(maxweight, nvertex)
                .chain(std::iter::repeat_n(0, nvertex))
                .collect(),
            allowedge: vec![false; nedge],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> i64 {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - 2 * w
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut leaves = Vec::new();
        let mut stack = vec![b];
        while let Some(b) = stack.pop() {
            if b < self.nvertex {
                leaves.push(b);
            } else {
                stack.extend(self.blossomchilds[b].iter().rev());
            }
        }
        leaves
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves(b);
            self.queue.extend(leaves);
        } else if t == 2 {
            let base = self.blossombase[b];
            let mate = self.mate[base];
            self.assign_label(self.endpoint[mate], 1, mate ^ 1);
        }
    }

    /// Traces back from `v` and `w` to find a new blossom's base, or `NONE` for an augmenting
    /// path.
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self
            .unusedblossoms
            .pop()
            .expect("at most n/2 blossoms exist at once");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = 0;
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for v in self.leaves(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.nvertex];
        for &bv in &path {
            let nblists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for k in nblists.into_iter().flatten() {
                let (mut i, mut j, _) = self.edges[k];
                if self.inblossom[j] == b {
                    std::mem::swap(&mut i, &mut j);
                }
                let bj = self.inblossom[j];
                if bj != b
                    && self.label[bj] == 1
                    && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                {
                    bestedgeto[bj] = k;
                }
            }
            self.bestedge[bv] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(best);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        for s in self.blossomchilds[b].clone() {
            self.blossomparent[s] = NONE;
            if s < self.nvertex {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == 0 {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let childs = self.blossomchilds[b].clone();
            let endps = self.blossomendps[b].clone();
            let len = signed(childs.len());
            let at = |j: isize| usize::try_from(j.rem_euclid(len)).expect("non-negative");
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = signed(
                childs
                    .iter()
                    .position(|&c| c == entrychild)
                    .expect("the entry child is a child"),
            );
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = endps[at(j - signed(endptrick))];
                self.label[self.endpoint[q ^ endptrick ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = endps[at(j - signed(endptrick))] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(j)];
            self.label[self.endpoint[p ^ 1]] = 2;
            self.label[bv] = 2;
            self.labelend[self.endpoint[p ^ 1]] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let reached = self.leaves(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = reached {
                    self.label[v] = 0;
                    self.label[self.endpoint[self.mate[self.blossombase[bv]]]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b].clear();
        self.blossomendps[b].clear();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.nvertex {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let len = signed(childs.len());
        let at = |j: isize| usize::try_from(j.rem_euclid(len)).expect("non-negative");
        let i = childs
            .iter()
            .position(|&c| c == t)
            .expect("t is a child of b");
        let mut j = signed(i);
        let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = childs[at(j)];
            let p = endps[at(j - signed(endptrick))] ^ endptrick;
            if t >= self.nvertex {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = childs[at(j)];
            if t >= self.nvertex {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.nvertex {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.nvertex {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn run(&mut self) {
        let n = self.nvertex;
        for _stage in 0..n {
            self.label.fill(0);
            self.bestedge.fill(NONE);
            for list in &mut self.blossombestedges[n..] {
                *list = None;
            }
            self.allowedge.fill(false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    for p in self.neighbend[v].clone() {
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = 0;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= 0 {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with the current duals: change them.
                let mut deltatype = 0;
                let mut delta = 0;
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                if !self.max_cardinality {
                    deltatype = 1;
                    delta = self.dualvar[..n].iter().copied().min().unwrap_or(0);
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        // The slack of an edge between two S-blossoms is even: weights are
                        // doubled and the duals move in whole steps.
                        let d = self.slack(self.bestedge[b]) / 2;
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && (deltatype == 0 || self.dualvar[b] < delta)
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                if deltatype == 0 {
                    // Only with max_cardinality: no further improvement is possible.
                    deltatype = 1;
                    delta = self.dualvar[..n].iter().copied().min().unwrap_or(0).max(0);
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] -= delta,
                        2 => self.dualvar[v] += delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] += delta,
                            2 => self.dualvar[b] -= delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == 0
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

/// Returns an index as a signed step count; a graph has far fewer than `isize::MAX` vertices.
fn signed(index: usize) -> isize {
    isize::try_from(index).expect("an index fits in isize")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn weight_of(edges: &[Edge], mate: &[Option<usize>]) -> i64 {
        edges
            .iter()
            .filter(|&&(i, j, _)| mate[i] == Some(j))
            .map(|&(_, _, w)| w)
            .sum()
    }

    fn size(mate: &[Option<usize>]) -> usize {
        mate.iter().flatten().count() / 2
    }

    /// The best (size, weight) over every matching, by exhaustive search.
    fn brute_force(vertices: usize, edges: &[Edge], max_cardinality: bool) -> (usize, i64) {
        fn go(
            at: usize,
            used: &mut Vec<bool>,
            edges: &[Edge],
            max_cardinality: bool,
            size: usize,
            weight: i64,
            best: &mut (usize, i64),
        ) {
            let better = if max_cardinality {
                (size, weight) > *best
            } else {
                weight > best.1
            };
            if better {
                *best = (size, weight);
            }
            for k in at..edges.len() {
                let (i, j, w) = edges[k];
                if !used[i] && !used[j] {
                    used[i] = true;
                    used[j] = true;
                    go(
                        k + 1,
                        used,
                        edges,
                        max_cardinality,
                        size + 1,
                        weight + w,
                        best,
                    );
                    used[i] = false;
                    used[j] = false;
                }
            }
        }
        let mut best = (0, 0);
        go(
            0,
            &mut vec![false; vertices],
            edges,
            max_cardinality,
            0,
            0,
            &mut best,
        );
        best
    }

    #[test]
    fn finds_the_heavier_of_two_matchings() {
        // The reference implementation's own small example.
        let edges = [
            (1, 2, 6),
            (1, 3, 2),
            (2, 3, 1),
            (2, 4, 7),
            (3, 5, 9),
            (4, 5, 3),
        ];
        let mate = max_weight_matching(6, &edges, false);
        assert_eq!(mate[2], Some(4));
        assert_eq!(mate[3], Some(5));
        assert_eq!(mate[1], None);
    }

    #[test]
    fn prefers_more_edges_with_max_cardinality() {
        let edges = [(0, 1, 2), (0, 2, 3), (1, 3, 3)];
        let mate = max_weight_matching(4, &edges, true);
        assert_eq!(size(&mate), 2);
        assert_eq!(mate[0], Some(2));
    }

    #[test]
    fn handles_nested_blossoms() {
        // Blossom test cases of the reference implementation's suite.
        let edges = [
            (1, 2, 9),
            (1, 3, 9),
            (2, 3, 10),
            (2, 4, 8),
            (3, 5, 8),
            (4, 5, 10),
            (5, 6, 6),
        ];
        let mate = max_weight_matching(7, &edges, false);
        assert_eq!(
            mate,
            vec![None, Some(3), Some(4), Some(1), Some(2), Some(6), Some(5)]
        );
        let edges = [
            (1, 2, 45),
            (1, 5, 45),
            (2, 3, 50),
            (3, 4, 45),
            (4, 5, 50),
            (1, 6, 30),
            (3, 9, 35),
            (4, 8, 26),
            (5, 7, 40),
            (9, 10, 5),
        ];
        let mate = max_weight_matching(11, &edges, false);
        assert_eq!(
            mate,
            vec![
                None,
                Some(6),
                Some(3),
                Some(2),
                Some(8),
                Some(7),
                Some(1),
                Some(5),
                Some(4),
                Some(10),
                Some(9)
            ]
        );
    }

    fn graphs() -> impl Strategy<Value = (usize, Vec<Edge>)> {
        (2usize..9).prop_flat_map(|vertices| {
            let pairs: Vec<(usize, usize)> = (0..vertices)
                .flat_map(|i| (i + 1..vertices).map(move |j| (i, j)))
                .collect();
            let count = pairs.len();
            (
                Just(vertices),
                prop::collection::vec(prop::option::of(0i64..20), count).prop_map(move |weights| {
                    pairs
                        .iter()
                        .zip(weights)
                        .filter_map(|(&(i, j), w)| w.map(|w| (i, j, w)))
                        .collect()
                }),
            )
        })
    }

    proptest! {
        #[test]
        fn matches_exhaustive_search((vertices, edges) in graphs(), max_cardinality: bool) {
            let mate = max_weight_matching(vertices, &edges, max_cardinality);
            for (v, partner) in mate.iter().enumerate() {
                if let Some(w) = partner {
                    prop_assert_eq!(mate[*w], Some(v));
                    prop_assert!(edges.iter().any(|&(i, j, _)| (i, j) == (v, *w) || (j, i) == (v, *w)));
                }
            }
            let best = brute_force(vertices, &edges, max_cardinality);
            if max_cardinality {
                prop_assert_eq!((size(&mate), weight_of(&edges, &mate)), best);
            } else {
                prop_assert_eq!(weight_of(&edges, &mate), best.1);
            }
        }
    }
}
