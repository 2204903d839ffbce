//! Aligning two sequences of fingerprints (pages, rows, column headers): Myers' O((N+M)·D)
//! diff after stripping the common head and tail, then the unmatched runs between matches
//! paired by similarity, so an edited item next to an inserted one meets its twin and the
//! inserted one is the one left over.
//!
//! Beyond [`MAX_EDITS`] differences (two unrelated files) the middle is not searched: its items
//! are paired in order. The answer is then still a valid alignment, only not the shortest.

/// Most differences searched for; past it the unmatched middle is paired in order.
const MAX_EDITS: usize = 4_000;
/// Largest unmatched run (old × new items) paired by similarity; larger ones are paired in order.
const MAX_GAP_CELLS: usize = 250_000;

/// One row of an alignment: indexes into the old and the new sequence.
pub type Pair = (Option<usize>, Option<usize>);

/// Aligns `a` (old) with `b` (new). Equal fingerprints are matched by the sequence diff; in each
/// run between matches, old item `i` and new item `j` are paired when `similar(i, j)` is
/// positive, maximising the total similarity in order; the rest are removed (old only) or added
/// (new only). The result lists every index of both sides once, in order on each side.
pub fn align(a: &[u64], b: &[u64], similar: &mut dyn FnMut(usize, usize) -> u32) -> Vec<Pair> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..].iter().rev().zip(b[head..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut out: Vec<Pair> = (0..head).map(|i| (Some(i), Some(i))).collect();
    let middle = myers(ma, mb).unwrap_or_else(|| {
        let mut all: Vec<Pair> = (0..ma.len()).map(|i| (Some(i), None)).collect();
        all.extend((0..mb.len()).map(|j| (None, Some(j))));
        all
    });
    // Pair each unmatched run, shifting the middle's indexes back to the whole sequences.
    let mut dels: Vec<usize> = Vec::new();
    let mut ins: Vec<usize> = Vec::new();
    for (i, j) in middle {
        match (i, j) {
            (Some(i), Some(j)) => {
                pair_run(&dels, &ins, similar, &mut out);
                dels.clear();
                ins.clear();
                out.push((Some(i + head), Some(j + head)));
            }
            (Some(i), None) => dels.push(i + head),
            (None, Some(j)) => ins.push(j + head),
            (None, None) => {}
        }
    }
    pair_run(&dels, &ins, similar, &mut out);
    let (ta, tb) = (a.len() - tail, b.len() - tail);
    out.extend((0..tail).map(|k| (Some(ta + k), Some(tb + k))));
    out
}

/// Pairs one unmatched run: a weighted LCS on `similar` when small enough, else in order.
fn pair_run(dels: &[usize], ins: &[usize], similar: &mut dyn FnMut(usize, usize) -> u32, out: &mut Vec<Pair>) {
    let (n, m) = (dels.len(), ins.len());
    if n == 0 || m == 0 || n.saturating_mul(m) > MAX_GAP_CELLS {
        let k = n.min(m);
        if n == 0 || m == 0 {
            out.extend(dels.iter().map(|&i| (Some(i), None)));
            out.extend(ins.iter().map(|&j| (None, Some(j))));
            return;
        }
        out.extend((0..k).map(|x| (Some(dels[x]), Some(ins[x]))));
        out.extend(dels[k..].iter().map(|&i| (Some(i), None)));
        out.extend(ins[k..].iter().map(|&j| (None, Some(j))));
        return;
    }
    // score[x][y]: the best total for dels[x..] and ins[y..].
    let w = m + 1;
    let mut sim = vec![0u32; n * m];
    for x in 0..n {
        for y in 0..m {
            sim[x * m + y] = similar(dels[x], ins[y]);
        }
    }
    let mut score = vec![0u64; (n + 1) * w];
    for x in (0..n).rev() {
        for y in (0..m).rev() {
            let s = sim[x * m + y];
            let take = if s > 0 { score[(x + 1) * w + y + 1] + u64::from(s) } else { 0 };
            score[x * w + y] = take.max(score[(x + 1) * w + y]).max(score[x * w + y + 1]);
        }
    }
    let (mut x, mut y) = (0, 0);
    while x < n && y < m {
        let s = sim[x * m + y];
        if s > 0 && score[x * w + y] == score[(x + 1) * w + y + 1] + u64::from(s) {
            out.push((Some(dels[x]), Some(ins[y])));
            x += 1;
            y += 1;
        } else if score[x * w + y] == score[(x + 1) * w + y] {
            out.push((Some(dels[x]), None));
            x += 1;
        } else {
            out.push((None, Some(ins[y])));
            y += 1;
        }
    }
    out.extend(dels[x..].iter().map(|&i| (Some(i), None)));
    out.extend(ins[y..].iter().map(|&j| (None, Some(j))));
}

/// Myers' greedy diff of `a` and `b`: the matched pairs and the unmatched items, in order;
/// `None` past [`MAX_EDITS`].
fn myers(a: &[u64], b: &[u64]) -> Option<Vec<Pair>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    if n == 0 || m == 0 {
        let mut out: Vec<Pair> = (0..a.len()).map(|i| (Some(i), None)).collect();
        out.extend((0..b.len()).map(|j| (None, Some(j))));
        return Some(out);
    }
    let max = (n + m) as usize;
    let off = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    // trace[d]: v for k in -(d+1)..=(d+1) before step d.
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut found = None;
    'outer: for d in 0..=(max.min(MAX_EDITS) as isize) {
        trace.push(v[(off - d - 1) as usize..=(off + d + 1) as usize].to_vec());
        let mut k = -d;
        while k <= d {
            let mut x = if k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize]) {
                v[(off + k + 1) as usize]
            } else {
                v[(off + k - 1) as usize] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[(off + k) as usize] = x;
            if x >= n && y >= m {
                found = Some(d);
                break 'outer;
            }
            k += 2;
        }
    }
    let dmax = found?;
    let mut out: Vec<Pair> = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (0..=dmax).rev() {
        let vp = &trace[d as usize];
        let at = |k: isize| vp[(k + d + 1) as usize];
        let k = x - y;
        if d == 0 {
            while x > 0 && y > 0 {
                out.push((Some((x - 1) as usize), Some((y - 1) as usize)));
                x -= 1;
                y -= 1;
            }
            break;
        }
        let prev_k = if k == -d || (k != d && at(k - 1) < at(k + 1)) { k + 1 } else { k - 1 };
        let prev_x = at(prev_k);
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            out.push((Some((x - 1) as usize), Some((y - 1) as usize)));
            x -= 1;
            y -= 1;
        }
        if x == prev_x {
            out.push((None, Some((y - 1) as usize)));
        } else {
            out.push((Some((x - 1) as usize), None));
        }
        x = prev_x;
        y = prev_y;
    }
    out.reverse();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &[u64], b: &[u64]) -> Vec<Pair> {
        align(a, b, &mut |_, _| 0)
    }

    #[test]
    fn alignments_match_what_is_equal_and_pair_what_is_similar() {
        // (old, new, expected pairs as (old, new) with -1 for none)
        type Case<'a> = (&'a [u64], &'a [u64], &'a [(i64, i64)]);
        let cases: &[Case<'_>] = &[
            (&[1, 2, 3], &[1, 2, 3], &[(0, 0), (1, 1), (2, 2)]),
            (&[1, 2, 3], &[1, 9, 2, 3], &[(0, 0), (-1, 1), (1, 2), (2, 3)]),
            (&[1, 2, 3], &[1, 3], &[(0, 0), (1, -1), (2, 1)]),
            (&[], &[5], &[(-1, 0)]),
            (&[5], &[], &[(0, -1)]),
            (&[1, 2, 3, 4], &[4, 1, 2, 3], &[(-1, 0), (0, 1), (1, 2), (2, 3), (3, -1)]),
        ];
        for (a, b, want) in cases {
            let got: Vec<(i64, i64)> =
                run(a, b).into_iter().map(|(i, j)| (i.map_or(-1, |i| i as i64), j.map_or(-1, |j| j as i64))).collect();
            assert_eq!(&got, want, "{a:?} → {b:?}");
        }
    }

    #[test]
    fn an_edited_item_next_to_an_inserted_one_meets_its_twin() {
        // Old row 1 (fingerprint 2) edited to 20; a row 99 inserted before it. Similarity says 2
        // and 20 are alike, 2 and 99 are not.
        let (a, b) = ([1u64, 2, 3], [1u64, 99, 20, 3]);
        let got = align(&a, &b, &mut |i, j| u32::from(a[i] == 2 && b[j] == 20));
        assert_eq!(got, vec![(Some(0), Some(0)), (None, Some(1)), (Some(1), Some(2)), (Some(2), Some(3))]);
    }

    #[test]
    fn long_sequences_with_few_edits_align_exactly() {
        let a: Vec<u64> = (0..50_000).collect();
        let mut b = a.clone();
        b.insert(25_000, 1_000_000);
        b.remove(100);
        b[40_000] = 2_000_000;
        let got = run(&a, &b);
        let added: Vec<usize> = got.iter().filter(|p| p.0.is_none()).filter_map(|p| p.1).collect();
        let removed: Vec<usize> = got.iter().filter(|p| p.1.is_none()).filter_map(|p| p.0).collect();
        assert_eq!(added, vec![24_999, 40_000]);
        assert_eq!(removed, vec![100, 40_000]);
    }
}
