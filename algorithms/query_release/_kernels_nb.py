"""The numba kernels behind ``_kernels`` (imported only by ``_kernels._build``, i.e. only when numba is
installed and a kernel is first needed). Each reproduces a numpy computation's floating-point
operations in numpy's order; ``_kernels`` documents which, tests/algorithms/test_kernels.py checks it."""
from __future__ import annotations

import math

import numba
import numpy as np

_jit = numba.njit(cache=True, nogil=True)


@_jit
def _block(a, lo, n):
    """numpy's pairwise_sum for n <= 128 terms of a[lo:]: fewer than 8 in sequence from 0.0; else eight
    interleaved accumulators combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then the tail."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    stop = n - n % 8
    while i < stop:
        b = lo + i
        r0 += a[b]
        r1 += a[b + 1]
        r2 += a[b + 2]
        r3 += a[b + 3]
        r4 += a[b + 4]
        r5 += a[b + 5]
        r6 += a[b + 6]
        r7 += a[b + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@_jit
def pairwise(a, lo, n):
    """numpy's pairwise summation of a[lo:lo + n] (``pairwise_sum`` in numpy's loops_utils.h.src): blocks
    of at most 128 terms (``_block``); a longer run is split in two halves at a multiple of 8 and the
    halves' sums added, left + right. numpy recurses; numba cannot cache a recursive function, so the
    recursion runs here on an explicit stack, in the same post-order (the same additions)."""
    if n <= 128:
        return _block(a, lo, n)
    frame_lo = np.empty(64, dtype=np.int64)
    frame_n = np.empty(64, dtype=np.int64)
    frame_state = np.empty(64, dtype=np.int64)     # 0: left half next, 1: right half next, 2: add them
    values = np.empty(64)
    depth, nvals = 0, 0
    frame_lo[0], frame_n[0], frame_state[0] = lo, n, 0
    while depth >= 0:
        flo, fn = frame_lo[depth], frame_n[depth]
        if fn <= 128:
            values[nvals] = _block(a, flo, fn)
            nvals += 1
            depth -= 1
            continue
        half = fn // 2
        half -= half % 8
        state = frame_state[depth]
        frame_state[depth] = state + 1
        if state == 0:
            depth += 1
            frame_lo[depth], frame_n[depth], frame_state[depth] = flo, half, 0
        elif state == 1:
            depth += 1
            frame_lo[depth], frame_n[depth], frame_state[depth] = flo + half, fn - half, 0
        else:
            nvals -= 1
            values[nvals - 1] = values[nvals - 1] + values[nvals]
            depth -= 1
    return values[0]


@_jit
def array_sum(a):
    """``a.sum()``: numpy starts an add-reduction from the identity 0.0."""
    return 0.0 + pairwise(a, 0, a.size)


@_jit
def scatter(cells, p, num_queries):
    """out[q] = sum of p[x] over x with cells[x, k] = q for some k, added in increasing x from 0.0
    (the CSR product's order); x-major, so consecutive additions go to different queries."""
    out = np.zeros(num_queries)
    S, W = cells.shape
    for x in range(S):
        px = p[x]
        for k in range(W):
            out[cells[x, k]] += px
    return out


@_jit
def gather(cells, r):
    """out[x] = r[cells[x]].sum() for every row x: each row's W values by numpy's pairwise sum (from 0.0),
    as ``r[cells].sum(axis=1)`` adds them (a row is one contiguous inner reduction). Returns an empty array
    when a cell id is out of r's range (numba does not check)."""
    S, W = cells.shape
    out = np.empty(S)
    tmp = np.empty(W)
    for x in range(S):
        for k in range(W):
            c = cells[x, k]
            if c < 0 or c >= r.size:
                return np.empty(0)
            tmp[k] = r[c]
        out[x] = 0.0 + pairwise(tmp, 0, W)
    return out


@_jit
def bincount(cells, p, size):
    """``np.bincount(cells, weights=p, minlength=size)`` (cells < size)."""
    out = np.zeros(size)
    for x in range(cells.size):
        out[cells[x]] += p[x]
    return out


@_jit
def scale_normalise(p, cells, factors):
    """``p *= factors[cells]; p /= p.sum()`` in place."""
    for x in range(p.size):
        p[x] *= factors[cells[x]]
    s = array_sum(p)
    for x in range(p.size):
        p[x] /= s


@_jit
def normalise_answer_scores(p, cells, num_queries, true, starts):
    """``p /= p.sum(); ans = scatter(cells, p); err = np.abs(ans - true);
    scores = np.add.reduceat(err, starts[:-1])`` (reduceat: the first term, then numpy's pairwise sum
    of the rest), p in place; returns (ans, scores). ``cells`` must hold query ids below num_queries (a
    ``MarginalQueries.compact_cells()`` map does by construction; not checked here: it would cost a pass).
    Checked first, with p untouched: one row of ``cells`` per point of p, one true answer per query,
    ``starts`` from 0 to num_queries in increasing steps; otherwise returns empty arrays."""
    bad = (cells.shape[0] != p.size or true.size != num_queries or starts.size < 2 or starts[0] != 0
           or starts[starts.size - 1] != num_queries)
    for u in range(starts.size - 1):
        bad = bad or starts[u + 1] <= starts[u]
    if bad:
        return np.empty(0), np.empty(0)
    s = array_sum(p)
    for x in range(p.size):
        p[x] /= s
    ans = scatter(cells, p, num_queries)
    err = np.abs(ans - true)
    U = starts.size - 1
    scores = np.empty(U)
    for u in range(U):
        lo = starts[u]
        scores[u] = err[lo] + pairwise(err, lo + 1, starts[u + 1] - lo - 1)
    return ans, scores


@_jit
def workload_updates(p, cells2d, sizes, workloads, ma, starts, order):
    """The whole-marginal MW updates of the measured units ``order`` (in that order), in place: for each
    unit u (workload w = workloads[u], measurements a = ma[starts[u]:starts[u + 1]]),
    current = bincount(cells2d[w], p), p *= exp((a - current) / 2)[cells2d[w]], p /= p.sum()
    (``mw._workload_steps_apply``; exp is libm's, as ``_kernels.libm_exp``). Every unit is checked before
    p is touched: returns 0, or j + 1 for the first position j of ``order`` whose unit, workload or
    measurements are out of range or whose measurements are not one per cell (p then unchanged)."""
    for j in range(order.size):
        u = order[j]
        if u < 0 or u + 1 >= starts.size or u >= workloads.size:
            return j + 1
        w = workloads[u]
        if w < 0 or w >= sizes.size or starts[u] < 0 or starts[u + 1] > ma.size \
                or starts[u + 1] - starts[u] != sizes[w] or w >= cells2d.shape[0] or cells2d.shape[1] != p.size:
            return j + 1
    for j in range(order.size):
        u = order[j]
        w = workloads[u]
        size = sizes[w]
        lo = starts[u]
        cells = cells2d[w]
        current = bincount(cells, p, size)
        factors = np.empty(size)
        for c in range(size):
            factors[c] = math.exp((ma[lo + c] - current[c]) / 2.0)
        scale_normalise(p, cells, factors)
    return 0


@_jit
def _masked_sum(row, p, tmp):
    """``where(row, p, 0.0).sum()`` (numpy's add-reduction from 0.0, pairwise; ``mw_counts.masked_sums``)."""
    for x in range(p.size):
        tmp[x] = p[x] if row[x] else 0.0
    return 0.0 + pairwise(tmp, 0, p.size)


@_jit
def _normalise_counts(counts, table, p):
    """p = E[M - m] / sum(E[M - m]) in place (``mw_counts.SignedCountMW.probabilities``)."""
    top = counts[0]
    for x in range(counts.size):
        if counts[x] > top:
            top = counts[x]
    for x in range(counts.size):
        p[x] = table[top - counts[x]]
    s = array_sum(p)
    for x in range(p.size):
        p[x] /= s


@_jit
def pmw_scan(mat, true, order, table, z, state, counts, p, a, upd_q, upd_f, scales):
    """PMW's pass (``pmw._scan`` on a ``SignedCountMW`` with NumericSparse's ``first_above`` / ``query``), resumable.

    mat: (k, N) bool; true: q(s) per query; order: the pass's order; table: E[j] = exp(-eta j) (numpy's exp),
    at least min(c, k) + 1 entries; z: standard Laplace draws in the order NumericSparse makes them (a draw
    Lap(b) is 0.0 + b z); state (int64): [pos, block, max_block, count, c, zpos, num_updates]; scales (float64):
    [T, threshold scale, query scale, answer scale, noisy threshold]; counts, p: the MW state (in place);
    a: the answers ([0, 1] scale, in place); upd_q / upd_f (rows: q(x^t), a_i, q(x^{t+1})): the update record.
    Returns 0 when the pass is done, 1 when z has too few draws left for the next block (state saved at the
    block's start, nothing of it consumed: call again with more draws)."""
    k = order.size
    N = p.size
    tmp = np.empty(N)
    pos, block, max_block = state[0], state[1], state[2]
    count, c, zpos, nu = state[3], state[4], state[5], state[6]
    T, ts, qs, ans_s, thr = scales[0], scales[1], scales[2], scales[3], scales[4]
    status = 0
    while pos < k:
        if count >= c:                                   # halted: post-processing only
            for r in range(pos, k):
                i = order[r]
                a[i] = _masked_sum(mat[i], p, tmp)
            pos = k
            break
        b = min(k, pos + block) - pos
        if z.size - zpos < 2 * b + 5:
            status = 1
            break
        zb = zpos
        zpos += 2 * b                                    # the block's comparison noise, drawn at once
        first = -1
        syn = 0.0
        gap = 0.0
        for j in range(b):
            i = order[pos + j]
            syn = _masked_sum(mat[i], p, tmp)
            gap = true[i] - syn
            if gap + (0.0 + qs * z[zb + 2 * j]) >= thr:
                first = 2 * j
                break
            if -gap + (0.0 + qs * z[zb + 2 * j + 1]) >= thr:
                first = 2 * j + 1
                break
            a[i] = syn
        if first < 0:
            pos += b
            block = min(2 * block, max_block)
            continue
        j = first // 2
        block = min(max(2 * (j + 1), 4), max_block)
        i = order[pos + j]
        count += 1                                       # the top: threshold redrawn, then the answer
        thr = T + (0.0 + ts * z[zpos])
        if first % 2 == 0:
            released = gap + (0.0 + ans_s * z[zpos + 1])
            zpos += 2
            a_i = syn + released
            if count < c:                                # f'_{2i} is still asked (its answer is unused)
                v = -gap
                zpos += 1
                if v + (0.0 + qs * z[zpos - 1]) >= thr:
                    count += 1
                    thr = T + (0.0 + ts * z[zpos])
                    zpos += 2                            # the threshold and the (unused) answer
        else:
            released = -gap + (0.0 + ans_s * z[zpos + 1])
            zpos += 2
            a_i = syn - released
        a[i] = a_i
        sign = 1 if a_i > syn else -1
        row = mat[i]
        for x in range(N):
            if row[x]:
                counts[x] += sign
        _normalise_counts(counts, table, p)
        upd_q[nu] = i
        upd_f[0, nu] = syn
        upd_f[1, nu] = a_i
        upd_f[2, nu] = _masked_sum(row, p, tmp)
        nu += 1
        pos += j + 1
    state[0], state[1], state[3], state[5], state[6] = pos, block, count, zpos, nu
    scales[4] = thr
    return status
