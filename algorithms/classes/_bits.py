"""DESIGN.md "Matrices, not loops": bit packing and exact hashing of boolean rows and columns.

Distinct rows of a boolean matrix are found by packing each row into bytes, hashing the
bytes to one uint64 per row, grouping equal hashes with ``np.unique`` and then *verifying*
that every row equals the first row of its hash group. A hash collision between different
rows (astronomically unlikely) is detected by the verification, and the exact but slower
``np.unique`` on a void view of the packed bytes is used instead. So the result is always
exact; the hash only makes it fast.

Groups are numbered by first occurrence: group 0 holds row 0, group 1 the first row that
differs from row 0, and so on. This makes every cover and representative domain built on
top deterministic and independent of the hash.
"""

from __future__ import annotations

import numpy as np

# Fixed odd multipliers for the multiplicative hash (a constant of the algorithm, not
# randomness of any experiment: the verification step makes the result exact anyway).
_HASH_SEED = 0x5EED_C1A55E5
_MAX_WORDS_CACHED = 1 << 16
_hash_weights_cache: dict[int, np.ndarray] = {}


def _hash_weights(num_words: int) -> np.ndarray:
    """Odd uint64 multipliers, one per 64-bit word (deterministic)."""
    if num_words not in _hash_weights_cache:
        rng = np.random.Generator(np.random.PCG64(_HASH_SEED + num_words))
        w = rng.integers(0, 2**63, size=num_words, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        if num_words <= _MAX_WORDS_CACHED:
            _hash_weights_cache[num_words] = w
        return w
    return _hash_weights_cache[num_words]


def pack_rows(matrix: np.ndarray) -> np.ndarray:
    """Pack a boolean (r, c) matrix row-wise into uint8 (r, ceil(c/8))."""
    return np.packbits(matrix, axis=1)


def pack_columns(matrix: np.ndarray) -> np.ndarray:
    """Pack the columns of a boolean (r, c) matrix: uint8 (c, ceil(r/8)), row j = column j.

    ``np.packbits(axis=0)`` is slow on C-ordered input (strided reads). Instead, eight rows
    are OR-ed together with shifts (bit 7 - b for row b of each block of eight); every byte of
    a bool matrix is 0 or 1, so this is done eight points at a time on (unaligned) uint64
    views. The packed array (8x smaller) is then transposed in cache-sized blocks.
    """
    matrix = np.ascontiguousarray(matrix)
    r, c = matrix.shape
    m8 = matrix.view(np.uint8)
    nb = (r + 7) // 8
    out = np.zeros((nb, c), dtype=np.uint8)
    c8 = c // 8
    if c8 and r:
        m64 = np.ndarray(shape=(r, c8), dtype=np.uint64, buffer=m8, strides=(c, 8))
        o64 = np.ndarray(shape=(nb, c8), dtype=np.uint64, buffer=out, strides=(c, 8))
        tmp = np.empty((nb, c8), dtype=np.uint64)
        for bit in range(8):  # eight vector operations, not a loop over rows
            src = m64[bit::8]
            k = src.shape[0]
            np.left_shift(src, np.uint64(7 - bit), out=tmp[:k])
            o64[:k] |= tmp[:k]
    if c % 8:
        for bit in range(8):
            src = m8[bit::8, 8 * c8:]
            out[: src.shape[0], 8 * c8:] |= src << np.uint8(7 - bit)
    return _transpose_blocked(out)


def _transpose_blocked(a: np.ndarray, block: int = 256) -> np.ndarray:
    """C-contiguous transpose of a 2-D array, 256 rows at a time (cache friendly: about 10x
    faster than ``np.ascontiguousarray(a.T)`` on 10^4 x 10^4 bytes)."""
    out = np.empty((a.shape[1], a.shape[0]), dtype=a.dtype)
    for i in range(0, a.shape[0], block):
        out[:, i:i + block] = a[i:i + block].T
    return out


def hash_packed(packed: np.ndarray) -> np.ndarray:
    """One uint64 hash per row of a uint8 (r, b) array: sum_k w_k * word_k mod 2^64."""
    r, b = packed.shape
    pad = (-b) % 8
    if pad:
        packed = np.concatenate([packed, np.zeros((r, pad), dtype=np.uint8)], axis=1)
    words = np.ascontiguousarray(packed).view(np.uint64)
    w = _hash_weights(words.shape[1])
    with np.errstate(over="ignore"):
        h = (words * w).sum(axis=1, dtype=np.uint64)
        # final avalanche (splitmix64 finaliser) so that similar rows spread out
        h ^= h >> np.uint64(31)
        h *= np.uint64(0x7FB5D329728EA185)
        h ^= h >> np.uint64(27)
    return h


def _renumber_by_first_occurrence(first: np.ndarray, inverse: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return first[order], rank[inverse]


def unique_packed_rows(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact distinct rows of a packed uint8 (r, b) array.

    Returns ``(first, inverse)``: ``first[g]`` is the index of the first row of group g
    (increasing in g), ``inverse[i]`` the group of row i; ``packed[first[inverse]] == packed``.
    """
    r = packed.shape[0]
    if r == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    if packed.shape[1] == 0:
        return np.zeros(1, dtype=np.intp), np.zeros(r, dtype=np.intp)
    h = hash_packed(packed)
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if not np.array_equal(packed, packed[first[inverse]]):  # hash collision: exact fallback
        first, inverse = exact_unique_packed_rows(packed)
        return first, inverse
    return _renumber_by_first_occurrence(first, inverse)


def exact_unique_packed_rows(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Same contract as :func:`unique_packed_rows`, by ``np.unique`` on a void view (no hash)."""
    packed = np.ascontiguousarray(packed)
    r, b = packed.shape
    if r == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    if b == 0:
        return np.zeros(1, dtype=np.intp), np.zeros(r, dtype=np.intp)
    void = packed.view(np.dtype((np.void, b))).reshape(r)
    _, first, inverse = np.unique(void, return_index=True, return_inverse=True)
    return _renumber_by_first_occurrence(first, inverse.reshape(-1))


def unique_rows(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact distinct rows of a boolean matrix; contract of :func:`unique_packed_rows`."""
    return unique_packed_rows(pack_rows(matrix))


def unique_columns(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact distinct columns of a boolean matrix; contract of :func:`unique_packed_rows`."""
    return unique_packed_rows(pack_columns(matrix))
