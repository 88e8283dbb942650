/* The compiled core of the Mahjongg solver (see solver.py and docs/solver.md).
 *
 * A line-by-line port of the pure-Python search in `solver.py`,
 * `solver_deadlock.py`, `solver_partners.py` and `solver_pairings.py`: the
 * same positions in the same order, the same node counts, the same random
 * draws (SplitMix64, as `pyramids.core.rng.Rng`), so both implementations
 * return the same verdict, the same clearing and the same node count for every
 * deal and budget.  The loop over restart attempts and the budgets stay in
 * Python (`solver.py`); this module does one attempt, one pairing test of the
 * root, or one slice of the walk over partners or of the search over pairings
 * per call.
 *
 * Sets of tiles are fixed-width bit masks of MASK_WORDS 64-bit words; the
 * Python side falls back to the pure-Python solver on bigger layouts.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

#define MASK_WORDS 3
#define MAX_TILES (64 * MASK_WORDS)

/* The tuning constants come from the Python modules at each solve (one source,
 * and tests that change them change both implementations). */
#define MAX_ACCEPT 256
#define ACCEPT_SCALE (1 << 20)
/* Past this many dead ends the table is emptied (about 1.5 GB: far beyond
 * any budget the pure-Python search could reach, so it never disagrees). */
#define FAILED_LIMIT ((size_t)1 << 26)

#if defined(_MSC_VER)
#include <intrin.h>
static inline int popcount64(uint64_t x) { return (int)__popcnt64(x); }
static inline int ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
static inline int clz64(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return 63 - (int)i; }
#elif defined(__POPCNT__)
static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int clz64(uint64_t x) { return __builtin_clzll(x); }
#else
/* Without the instruction (a portable build) the builtin is a library call: this is faster. */
static inline int popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int clz64(uint64_t x) { return __builtin_clzll(x); }
#endif

typedef struct { uint64_t w[MASK_WORDS]; } mask_t;

static const mask_t EMPTY = {{0}};

static inline mask_t m_and(mask_t a, mask_t b) { mask_t r; for (int i = 0; i < MASK_WORDS; i++) r.w[i] = a.w[i] & b.w[i]; return r; }
static inline mask_t m_or(mask_t a, mask_t b) { mask_t r; for (int i = 0; i < MASK_WORDS; i++) r.w[i] = a.w[i] | b.w[i]; return r; }
static inline mask_t m_andnot(mask_t a, mask_t b) { mask_t r; for (int i = 0; i < MASK_WORDS; i++) r.w[i] = a.w[i] & ~b.w[i]; return r; }
static inline mask_t m_xor(mask_t a, mask_t b) { mask_t r; for (int i = 0; i < MASK_WORDS; i++) r.w[i] = a.w[i] ^ b.w[i]; return r; }
static inline int m_any(mask_t a) { uint64_t x = 0; for (int i = 0; i < MASK_WORDS; i++) x |= a.w[i]; return x != 0; }
static inline int m_meets(mask_t a, mask_t b) { uint64_t x = 0; for (int i = 0; i < MASK_WORDS; i++) x |= a.w[i] & b.w[i]; return x != 0; }
static inline int m_eq(mask_t a, mask_t b) { for (int i = 0; i < MASK_WORDS; i++) if (a.w[i] != b.w[i]) return 0; return 1; }
static inline int m_count(mask_t a) { int c = 0; for (int i = 0; i < MASK_WORDS; i++) c += popcount64(a.w[i]); return c; }
static inline int m_has(mask_t a, int t) { return (int)((a.w[t >> 6] >> (t & 63)) & 1u); }
static inline void m_set(mask_t *a, int t) { a->w[t >> 6] |= (uint64_t)1 << (t & 63); }
static inline void m_unset(mask_t *a, int t) { a->w[t >> 6] &= ~((uint64_t)1 << (t & 63)); }
static inline mask_t m_bit(int t) { mask_t r = EMPTY; m_set(&r, t); return r; }
/* The lowest tile of a non-empty mask. */
static inline int m_low(mask_t a) { for (int i = 0; i < MASK_WORDS; i++) if (a.w[i]) return 64 * i + ctz64(a.w[i]); return -1; }
static inline int m_high(mask_t a) { for (int i = MASK_WORDS - 1; i >= 0; i--) if (a.w[i]) return 64 * i + 63 - clz64(a.w[i]); return -1; }
/* Takes the lowest tile out of a non-empty mask and returns it. */
static inline int m_pop_low(mask_t *a) {
    for (int i = 0; i < MASK_WORDS; i++) {
        if (a->w[i]) { int t = ctz64(a->w[i]); a->w[i] &= a->w[i] - 1; return 64 * i + t; }
    }
    return -1;
}

static inline uint64_t m_hash(mask_t a) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < MASK_WORDS; i++) {
        h ^= a.w[i];
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

static double monotonic_seconds(void) {
#ifdef _WIN32
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

/* ---- SplitMix64, exactly as pyramids.core.rng.Rng ---- */

static inline uint64_t rng_next(uint64_t *state) {
    *state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Rng.randrange(n): a draw below the largest multiple of n, reduced mod n. */
static inline uint64_t rng_below(uint64_t *state, uint64_t n) {
    uint64_t rem = (UINT64_MAX % n + 1) % n;  /* 2**64 mod n */
    for (;;) {
        uint64_t value = rng_next(state);
        if (rem == 0 || value < (uint64_t)0 - rem) return value % n;
    }
}

/* ---- sets of masks (open addressing; the empty mask marks a free slot,
 * and no position stored here is empty) ---- */

typedef struct { mask_t *keys; size_t cap, count; } MaskSet;

static int maskset_init(MaskSet *s, size_t cap) {
    s->keys = (mask_t *)calloc(cap, sizeof(mask_t));
    s->cap = cap;
    s->count = 0;
    return s->keys != NULL;
}

static int maskset_has(const MaskSet *s, mask_t key) {
    size_t i = (size_t)m_hash(key) & (s->cap - 1);
    for (;;) {
        if (!m_any(s->keys[i])) return 0;
        if (m_eq(s->keys[i], key)) return 1;
        i = (i + 1) & (s->cap - 1);
    }
}

static void maskset_insert_raw(mask_t *keys, size_t cap, mask_t key) {
    size_t i = (size_t)m_hash(key) & (cap - 1);
    while (m_any(keys[i])) {
        if (m_eq(keys[i], key)) return;
        i = (i + 1) & (cap - 1);
    }
    keys[i] = key;
}

/* 0 when memory ran out (then the set is left as it was, still correct as a cache). */
static int maskset_add(MaskSet *s, mask_t key) {
    if (maskset_has(s, key)) return 1;
    if (s->count >= FAILED_LIMIT) {
        memset(s->keys, 0, s->cap * sizeof(mask_t));
        s->count = 0;
    }
    if (2 * (s->count + 1) > s->cap) {
        size_t cap = 2 * s->cap;
        mask_t *keys = (mask_t *)calloc(cap, sizeof(mask_t));
        if (!keys) return 0;
        for (size_t i = 0; i < s->cap; i++)
            if (m_any(s->keys[i])) maskset_insert_raw(keys, cap, s->keys[i]);
        free(s->keys);
        s->keys = keys;
        s->cap = cap;
    }
    size_t i = (size_t)m_hash(key) & (s->cap - 1);
    while (m_any(s->keys[i])) i = (i + 1) & (s->cap - 1);
    s->keys[i] = key;
    s->count++;
    return 1;
}

/* ---- the geometry ---- */

typedef struct {
    PyObject_HEAD
    int n;
    mask_t above[MAX_TILES], left[MAX_TILES], right[MAX_TILES];
    mask_t below[MAX_TILES], neighbour[MAX_TILES];
    int weight[MAX_TILES];
} BoardObject;

/* ---- the search ---- */

typedef struct { uint8_t a, b; } PairT;

typedef struct {
    mask_t key;
    int stage;
    size_t start, count;  /* its ruled-out pairs in the pool */
} InnerEntry;

typedef struct {
    InnerEntry *slots;
    size_t cap, count;
    PairT *pool;
    size_t pool_len, pool_cap;
} InnerMap;

typedef struct {
    int klass;
    int tiles[4];
    int domain;  /* bit i: pairing i still possible */
    int settled;
    mask_t reach[3];
} Domain;

/* Pairing i of four tiles t0 < t1 < t2 < t3, pair by pair (as class_pairings). */
static const int PAIRING_INDEX[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}};

enum { LOST = 0, CLEARED = 1, RESTART = 2, EXHAUSTED = 3, NO_MEMORY = 4 };

enum {
    OPT_TRANSPOSITION = 1, OPT_CLEAR_FREE = 2, OPT_SIBLING = 4, OPT_DEADLOCK = 8,
    OPT_ORDERING = 16, OPT_INNER = 32
};

typedef struct {
    PyObject_HEAD
    BoardObject *board;
    int n, nclasses, options;
    int tile_class[MAX_TILES];
    mask_t class_of[MAX_TILES];
    mask_t *class_mask;
    mask_t root, root_free;
    long long nodes, node_limit, attempt_limit;
    int noise_on;
    uint64_t noise;
    double deadline;
    MaskSet failed;
    InnerMap inner;
    uint8_t *forbidden;  /* n * n: 1 when pair (a, b) is ruled out */
    long long forbidden_count;
    int partners[MAX_TILES];
    PairT moves[MAX_TILES / 2 + 1];
    int nmoves;
    /* the walk over partners */
    int walk_started;
    uint64_t walk_rng;
    int walk_partner[MAX_TILES];
    int *walk_group_start;  /* per group: first index into walk_tiles; one extra at the end */
    int *walk_tiles;
    int walk_ngroups;
    int walk_group_of[MAX_TILES];
    mask_t walk_stuck;
    int walk_changes;
    /* solver, solver_partners and solver_pairings constants */
    long long restart_noise, inner_after, inner_pairwise_after;
    size_t inner_cache_limit;
    int walk_length, pairing_tries, accept_size, propagate_limit, clock_every;
    int accept[MAX_ACCEPT];
    struct Pairings *pairings;  /* the search over pairings, once started */
    int odd;  /* some class has an odd number of tiles: lost at once */
} SearchObject;

static inline int is_forbidden(const SearchObject *s, int a, int b) {
    return s->forbidden[a * s->n + b];
}

static inline void set_forbidden(SearchObject *s, int a, int b, uint8_t value) {
    if (s->forbidden[a * s->n + b] != value) s->forbidden_count += value ? 1 : -1;
    s->forbidden[a * s->n + b] = value;
    s->forbidden[b * s->n + a] = value;
}

/* The free tiles once a and b have left `present` (freed: the free tiles before). */
static inline mask_t free_after(const BoardObject *bd, mask_t present, mask_t freed, int a, int b) {
    freed = m_and(freed, present);
    mask_t candidates = m_andnot(m_and(m_or(bd->neighbour[a], bd->neighbour[b]), present), freed);
    while (m_any(candidates)) {
        int t = m_pop_low(&candidates);
        if (!m_meets(present, bd->above[t])
            && (!m_meets(present, bd->left[t]) || !m_meets(present, bd->right[t])))
            m_set(&freed, t);
    }
    return freed;
}

static mask_t free_mask(const BoardObject *bd, mask_t present) {
    mask_t freed = EMPTY, rest = present;
    while (m_any(rest)) {
        int t = m_pop_low(&rest);
        if (!m_meets(present, bd->above[t])
            && (!m_meets(present, bd->left[t]) || !m_meets(present, bd->right[t])))
            m_set(&freed, t);
    }
    return freed;
}

/* The present tiles reached from `tile` stepping to one side, tile to tile.
 * (Along a plain row each tile has one neighbour on the side: followed one by
 * one; where a row branches, breadth first.) */
static inline mask_t chain(const mask_t *side, int tile, mask_t present) {
    mask_t reached = EMPTY;
    for (;;) {
        mask_t next = m_and(side[tile], present);
        if (!m_any(next)) return reached;
        int low = m_low(next);
        m_unset(&next, low);
        if (m_any(next)) break;
        tile = low;
        m_set(&reached, tile);
    }
    mask_t frontier = m_andnot(m_and(side[tile], present), reached);
    while (m_any(frontier)) {
        reached = m_or(reached, frontier);
        mask_t next = EMPTY;
        while (m_any(frontier)) next = m_or(next, side[m_pop_low(&frontier)]);
        frontier = m_andnot(m_and(next, present), reached);
    }
    return reached;
}

/* The tile it must pair with, when known (see DeadlockFinder.partner), else -1. */
static inline int partner_of(const SearchObject *s, int tile, mask_t present) {
    int mate = s->partners[tile];
    if (mate >= 0 && m_has(present, mate)) return mate;
    mask_t rest = m_and(present, s->class_of[tile]);
    if (m_count(rest) == 2) {
        m_unset(&rest, tile);
        return m_low(rest);
    }
    return -1;
}

/* The chain as a sequence, nearest tile first, when it never branches (a plain
 * row): 1 and its length in *len, else 0. */
static inline int chain_path(const mask_t *side, int tile, mask_t present, int *seq, int *len, mask_t *reached_out) {
    mask_t reached = EMPTY;
    int count = 0;
    for (;;) {
        mask_t next = m_and(side[tile], present);
        if (!m_any(next)) break;
        int low = m_low(next);
        m_unset(&next, low);
        if (m_any(next)) return 0;
        tile = low;
        m_set(&reached, tile);
        seq[count++] = tile;
    }
    *len = count;
    *reached_out = reached;
    return 1;
}

/* The tiles of one side's chain of `tile` (not in after or grow) whose own chain
 * on that side holds a tile of `after`: walled in until after the pair. */
static inline mask_t walled_in(const mask_t *side, int tile, mask_t present, mask_t after, mask_t grow) {
    int seq[MAX_TILES], len;
    mask_t reached, walled = EMPTY;
    if (chain_path(side, tile, present, seq, &len, &reached)) {
        if (!m_meets(reached, after)) return EMPTY;
        /* along a plain row a tile's chain is the rest of the row beyond it */
        int seen = 0;
        for (int i = len - 1; i >= 0; i--) {
            int t = seq[i];
            if (seen && !m_has(after, t) && !m_has(grow, t)) m_set(&walled, t);
            if (m_has(after, t)) seen = 1;
        }
        return walled;
    }
    reached = chain(side, tile, present);
    if (!m_meets(reached, after)) return EMPTY;
    mask_t candidates = m_andnot(m_andnot(reached, after), grow);
    while (m_any(candidates)) {
        int t = m_pop_low(&candidates);
        if (m_meets(after, chain(side, t, present))) m_set(&walled, t);
    }
    return walled;
}

/* DeadlockFinder._after_closure */
static mask_t after_closure(const SearchObject *s, mask_t seed, mask_t present) {
    const BoardObject *bd = s->board;
    mask_t after = seed, frontier = seed;
    while (m_any(frontier)) {
        int tile = m_pop_low(&frontier);
        mask_t grow = bd->below[tile];
        int mate = partner_of(s, tile, present);
        if (mate >= 0) m_set(&grow, mate);
        /* (the right side's candidates exclude what the left side added, as in Python) */
        grow = m_or(grow, walled_in(bd->left, tile, present, after, grow));
        grow = m_or(grow, walled_in(bd->right, tile, present, after, grow));
        grow = m_andnot(m_and(grow, present), after);
        after = m_or(after, grow);
        frontier = m_or(frontier, grow);
    }
    return after;
}

/* DeadlockFinder.pair_closure: 0 when c and d can never leave together,
 * else 1 with the tiles the proof attempt reached in *reached. */
static int pair_closure(const SearchObject *s, int c, int d, mask_t present, mask_t *reached) {
    const BoardObject *bd = s->board;
    mask_t pair = m_or(m_bit(c), m_bit(d));
    mask_t after = after_closure(s, pair, present);
    mask_t before = EMPTY;
    int work_tile[MAX_TILES + 2];
    mask_t work_not_before[MAX_TILES + 2];
    int top = 0;
    work_tile[top] = c; work_not_before[top++] = after;
    work_tile[top] = d; work_not_before[top++] = after;
    while (top) {
        top--;
        int tile = work_tile[top];
        mask_t not_before_it = work_not_before[top];
        mask_t new_ = m_andnot(m_and(present, bd->above[tile]), before);
        if (m_meets(present, bd->left[tile]) && m_meets(present, bd->right[tile])) {
            mask_t left_chain = chain(bd->left, tile, present);
            mask_t right_chain = chain(bd->right, tile, present);
            int left_open = !m_meets(left_chain, not_before_it);
            int right_open = !m_meets(right_chain, not_before_it);
            if (!left_open && !right_open) return 0;
            if (!left_open) new_ = m_or(new_, m_andnot(right_chain, before));
            else if (!right_open) new_ = m_or(new_, m_andnot(left_chain, before));
        }
        while (m_any(new_)) {
            int t = m_pop_low(&new_);
            if (m_has(before, t)) continue;
            if (m_has(after, t)) return 0;
            m_set(&before, t);
            int mate = partner_of(s, t, present);
            mask_t mate_bit = EMPTY;
            if (mate >= 0) {
                mate_bit = m_bit(mate);
                if (!m_has(before, mate)) {
                    if (m_has(after, mate)) return 0;
                    m_set(&new_, mate);
                }
            }
            work_tile[top] = t;
            work_not_before[top++] = m_or(after, mate_bit);
        }
        if (m_meets(before, pair)) return 0;
    }
    if (reached) *reached = m_or(after, before);
    return 1;
}

/* ---- the pairings of classes of four (DeadlockFinder.settle_pairings) ---- */

/* Assuming these pairs fixed as partners: 0 if one deadlocks, else 1 and what
 * the tests reached.  pairs: tiles pair by pair. */
static int pairings_reach(SearchObject *s, const int *pairs, int npairs, mask_t present, mask_t *reached) {
    int saved[16];
    for (int i = 0; i < 2 * npairs; i++) saved[i] = s->partners[pairs[i]];
    for (int i = 0; i < npairs; i++) {
        s->partners[pairs[2 * i]] = pairs[2 * i + 1];
        s->partners[pairs[2 * i + 1]] = pairs[2 * i];
    }
    mask_t all = EMPTY;
    int ok = 1;
    for (int i = 0; i < npairs && ok; i++) {
        mask_t closure;
        if (!pair_closure(s, pairs[2 * i], pairs[2 * i + 1], present, &closure)) ok = 0;
        else all = m_or(all, closure);
    }
    /* restore in reverse, as the dict of saved values does: a tile listed twice keeps its first value */
    for (int i = 2 * npairs - 1; i >= 0; i--) s->partners[pairs[i]] = saved[i];
    if (ok && reached) *reached = all;
    return ok;
}

static void pairing_tiles(const Domain *d, int index, int *out) {
    for (int i = 0; i < 4; i++) out[i] = d->tiles[PAIRING_INDEX[index][i]];
}

/* Fix as partners the pairs every pairing left has; whether any is new.
 * (Two pairings of four tiles share no pair: only a single one fixes any.) */
static int fix_common(SearchObject *s, const Domain *d) {
    if (popcount64((uint64_t)d->domain) != 1) return 0;
    int tiles[4];
    pairing_tiles(d, ctz64((uint64_t)d->domain), tiles);
    int changed = 0;
    for (int i = 0; i < 4; i += 2) {
        int p = tiles[i], q = tiles[i + 1];
        if (s->partners[p] != q) {
            s->partners[p] = q;
            s->partners[q] = p;
            changed = 1;
        }
    }
    return changed;
}

static int settle_singly(SearchObject *s, mask_t present, Domain *domains, int ndomains) {
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int k = 0; k < ndomains; k++) {
            Domain *d = &domains[k];
            if (d->settled) continue;
            int kept = 0;
            for (int i = 0; i < 3; i++) {
                if (!(d->domain >> i & 1)) continue;
                int tiles[4];
                pairing_tiles(d, i, tiles);
                mask_t reached;
                if (pairings_reach(s, tiles, 2, present, &reached)) {
                    d->reach[i] = reached;
                    kept |= 1 << i;
                }
            }
            int usable = popcount64((uint64_t)d->domain);
            d->domain = kept;
            if (!kept) return 0;
            if (popcount64((uint64_t)kept) < usable && fix_common(s, d)) changed = 1;
            if (popcount64((uint64_t)kept) == 1) d->settled = 1;
        }
    }
    return 1;
}

/* 1 if a pairing was dropped, 0 if none, -1 if a class has none left. */
static int settle_pairwise(SearchObject *s, mask_t present, Domain *domains, int ndomains) {
    int open[MAX_TILES];
    int nopen = 0;
    for (int k = 0; k < ndomains; k++) if (!domains[k].settled) open[nopen++] = k;
    int narrowed = 0;
    for (int i = 0; i < nopen; i++) {
        for (int j = i + 1; j < nopen; j++) {
            Domain *one = &domains[open[i]], *other = &domains[open[j]];
            if (one->settled || other->settled) continue;
            for (int turn = 0; turn < 2; turn++) {
                Domain *klass = turn ? other : one;
                Domain *mate = turn ? one : other;
                mask_t mate_mask = s->class_mask[mate->klass];
                mask_t klass_mask = s->class_mask[klass->klass];
                int usable = klass->domain, kept = 0;
                for (int p = 0; p < 3; p++) {
                    if (!(usable >> p & 1)) continue;
                    for (int q = 0; q < 3; q++) {
                        if (!(mate->domain >> q & 1)) continue;
                        if (!(m_meets(klass->reach[p], mate_mask) || m_meets(mate->reach[q], klass_mask))) {
                            kept |= 1 << p;
                            break;
                        }
                        int tiles[8];
                        pairing_tiles(klass, p, tiles);
                        pairing_tiles(mate, q, tiles + 4);
                        if (pairings_reach(s, tiles, 4, present, NULL)) {
                            kept |= 1 << p;
                            break;
                        }
                    }
                }
                if (kept == usable) continue;
                klass->domain = kept;
                narrowed = 1;
                if (!kept) return -1;
                fix_common(s, klass);
                if (popcount64((uint64_t)kept) == 1) klass->settled = 1;
            }
        }
    }
    return narrowed;
}

/* Rule out the pairings of classes of four that deadlock, to a fixpoint.
 * -1: the position is lost; else the number of ruled-out pairs written to out
 * (room for 6 per class is needed). */
static int settle_pairings(SearchObject *s, mask_t present, mask_t freed, int pairwise, PairT *out) {
    Domain domains[MAX_TILES / 4 + 1];
    int ndomains = 0;
    for (int k = 0; k < s->nclasses; k++) {
        mask_t rest = m_and(present, s->class_mask[k]);
        if (m_count(rest) == 4 && m_any(m_andnot(rest, freed))) {
            Domain *d = &domains[ndomains++];
            d->klass = k;
            for (int i = 0; i < 4; i++) d->tiles[i] = m_pop_low(&rest);
            d->domain = 7;
            d->settled = 0;
            for (int i = 0; i < 3; i++) d->reach[i] = EMPTY;
        }
    }
    for (;;) {
        if (!settle_singly(s, present, domains, ndomains)) return -1;
        if (!pairwise) break;
        int narrowed = settle_pairwise(s, present, domains, ndomains);
        if (narrowed < 0) return -1;
        if (!narrowed) break;
    }
    int count = 0;
    for (int k = 0; k < ndomains; k++) {
        const Domain *d = &domains[k];
        for (int i = 0; i < 3; i++) {
            if (d->domain >> i & 1) continue;
            /* pairing i is out: its pairs are unused unless another pairing left has them,
             * and pairings of four tiles share no pairs */
            int tiles[4];
            pairing_tiles(d, i, tiles);
            for (int p = 0; p < 4; p += 2) {
                int a = tiles[p], b = tiles[p + 1];
                out[count].a = (uint8_t)(a < b ? a : b);
                out[count].b = (uint8_t)(a < b ? b : a);
                count++;
            }
        }
    }
    return count;
}

/* ---- positions whose pairings were tested inside the search ---- */

static void inner_clear(InnerMap *m) {
    if (m->slots) memset(m->slots, 0, m->cap * sizeof(InnerEntry));
    m->count = 0;
    m->pool_len = 0;
}

static InnerEntry *inner_find(const InnerMap *m, mask_t key) {
    if (!m->slots) return NULL;
    size_t i = (size_t)m_hash(key) & (m->cap - 1);
    for (;;) {
        InnerEntry *e = &m->slots[i];
        if (!m_any(e->key)) return NULL;
        if (m_eq(e->key, key)) return e;
        i = (i + 1) & (m->cap - 1);
    }
}

static int inner_store(InnerMap *m, size_t limit, mask_t key, int stage, const PairT *pairs, size_t npairs) {
    if (m->count >= limit) inner_clear(m);
    if (!m->slots) {
        m->cap = 2 * limit + 2;
        /* a power of two above twice the limit */
        size_t cap = 1;
        while (cap < m->cap) cap <<= 1;
        m->cap = cap;
        m->slots = (InnerEntry *)calloc(cap, sizeof(InnerEntry));
        if (!m->slots) return 0;
    }
    if (m->pool_len + npairs > m->pool_cap) {
        size_t cap = m->pool_cap ? m->pool_cap : 1024;
        while (cap < m->pool_len + npairs) cap *= 2;
        PairT *pool = (PairT *)realloc(m->pool, cap * sizeof(PairT));
        if (!pool) return 0;
        m->pool = pool;
        m->pool_cap = cap;
    }
    memcpy(m->pool + m->pool_len, pairs, npairs * sizeof(PairT));
    InnerEntry *e = inner_find(m, key);
    if (!e) {
        size_t i = (size_t)m_hash(key) & (m->cap - 1);
        while (m_any(m->slots[i].key)) i = (i + 1) & (m->cap - 1);
        e = &m->slots[i];
        e->key = key;
        m->count++;
    }
    e->stage = stage;
    e->start = m->pool_len;
    e->count = npairs;
    m->pool_len += npairs;
    return 1;
}

/* ---- the search over positions (solver._Search) ---- */

typedef struct {
    long long score;
    int a, b;
    mask_t after, after_free;
} Move;

static int compare_moves(const void *x, const void *y) {
    const Move *p = (const Move *)x, *q = (const Move *)y;
    if (p->score != q->score) return p->score > q->score ? -1 : 1;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

static int search(SearchObject *s, mask_t present, mask_t freed);

static int burial(const SearchObject *s, mask_t tiles, mask_t present) {
    const BoardObject *bd = s->board;
    int total = 0;
    while (m_any(tiles)) {
        int t = m_pop_low(&tiles);
        int left = m_count(chain(bd->left, t, present));
        int right = m_count(chain(bd->right, t, present));
        total += m_count(m_and(present, bd->above[t])) + (left < right ? left : right);
    }
    return total;
}

/* The pairs to try, best first (solver._Search._candidate_pairs); NULL when out of memory. */
static Move *candidate_pairs(SearchObject *s, mask_t present, mask_t freed, int *count) {
    const BoardObject *bd = s->board;
    int n = 0, cap = 0;
    for (int k = 0; k < s->nclasses; k++) {
        int c = m_count(m_and(freed, s->class_mask[k]));
        cap += c * (c - 1) / 2;
    }
    Move *moves = (Move *)malloc((size_t)(cap ? cap : 1) * sizeof(Move));
    if (!moves) return NULL;
    for (int k = 0; k < s->nclasses; k++) {
        mask_t group_mask = m_and(freed, s->class_mask[k]);
        if (m_count(group_mask) < 2) continue;
        int group[MAX_TILES], g = 0;
        while (m_any(group_mask)) group[g++] = m_pop_low(&group_mask);
        for (int i = 0; i < g - 1; i++) {
            for (int j = i + 1; j < g; j++) {
                int a = group[i], b = group[j];
                if (is_forbidden(s, a, b)) continue;
                Move *m = &moves[n++];
                m->a = a;
                m->b = b;
                m->after = present;
                m_unset(&m->after, a);
                m_unset(&m->after, b);
                m->after_free = free_after(bd, m->after, freed, a, b);
                m->score = 0;
            }
        }
    }
    *count = n;
    if (!(s->options & OPT_ORDERING) || n < 2) return moves;
    for (int i = 0; i < n; i++) {
        Move *m = &moves[i];
        mask_t opened = m_andnot(m->after_free, freed);
        int new_moves = 0;
        mask_t unseen = opened;
        while (m_any(unseen)) {
            int t = m_pop_low(&unseen);
            mask_t others = m_and(m->after_free, s->class_of[t]);
            m_unset(&others, t);
            if (m_any(others)) new_moves++;
        }
        long long score = 1000LL * new_moves + 100LL * m_count(opened) + bd->weight[m->a] + bd->weight[m->b];
        mask_t rest = m_and(m->after, s->class_of[m->a]);
        if (m_count(rest) == 2) score -= 20LL * burial(s, rest, m->after);
        if (s->noise_on) score += (long long)(rng_next(&s->noise) % (uint64_t)s->restart_noise);
        m->score = score;
    }
    qsort(moves, (size_t)n, sizeof(Move), compare_moves);
    return moves;
}

typedef struct { PairT *pairs; int count, cap; } Added;

static int forbid(SearchObject *s, Added *added, int a, int b) {
    if (is_forbidden(s, a, b)) return 1;
    if (added->count == added->cap) {
        int cap = added->cap ? 2 * added->cap : 16;
        PairT *pairs = (PairT *)realloc(added->pairs, (size_t)cap * sizeof(PairT));
        if (!pairs) return 0;
        added->pairs = pairs;
        added->cap = cap;
    }
    set_forbidden(s, a, b, 1);
    added->pairs[added->count].a = (uint8_t)a;
    added->pairs[added->count].b = (uint8_t)b;
    added->count++;
    return 1;
}

/* settle_pairings at a position inside the search, with its fixed partners
 * dropped afterwards (solver._Search._settle_inner): -1 if lost, else the
 * number of ruled-out pairs in out. */
static int settle_inner(SearchObject *s, mask_t present, mask_t freed, int pairwise, PairT *out) {
    int saved[MAX_TILES];
    memcpy(saved, s->partners, sizeof(int) * (size_t)s->n);
    int count = settle_pairings(s, present, freed, pairwise, out);
    memcpy(s->partners, saved, sizeof(int) * (size_t)s->n);
    if (count >= 0 && !inner_store(&s->inner, s->inner_cache_limit, present, pairwise ? 2 : 1, out, (size_t)count))
        return -2;
    return count;
}

/* LOST when no candidate pair leads to a clearing (solver._Search._try_moves). */
static int try_moves(SearchObject *s, mask_t present, mask_t freed) {
    int options = s->options;
    Added added = {NULL, 0, 0};
    int result = LOST;
    long long start = s->nodes;
    int stage = (options & OPT_INNER) ? 0 : 2;
    PairT *ruled = NULL;
    if (!stage) {
        InnerEntry *known = inner_find(&s->inner, present);
        if (known) {
            stage = known->stage;
            for (size_t i = 0; i < known->count; i++) {
                PairT p = s->inner.pool[known->start + i];
                if (!forbid(s, &added, p.a, p.b)) { result = NO_MEMORY; goto done; }
            }
        }
    }
    int count = 0;
    Move *moves = candidate_pairs(s, present, freed, &count);
    if (!moves) { result = NO_MEMORY; goto done; }
    for (int i = 0; i < count; i++) {
        Move *m = &moves[i];
        int a = m->a, b = m->b;
        if (is_forbidden(s, a, b)) continue;
        mask_t rest = m_and(m->after, s->class_of[a]);
        int last_two = m_count(rest) == 2;
        int dead = 0;
        if ((options & OPT_DEADLOCK) && last_two && m_any(m_andnot(rest, m->after_free))
            && !maskset_has(&s->failed, m->after)) {
            if (!pair_closure(s, m_low(rest), m_high(rest), m->after, NULL)) {
                dead = 1;
                if ((options & OPT_TRANSPOSITION) && !maskset_add(&s->failed, m->after)) {
                    result = NO_MEMORY;
                    break;
                }
            }
        }
        if (!dead) {
            s->moves[s->nmoves].a = (uint8_t)a;
            s->moves[s->nmoves].b = (uint8_t)b;
            s->nmoves++;
            int r = search(s, m->after, m->after_free);
            if (r != LOST) { result = r; break; }
            s->nmoves--;
        }
        if (options & OPT_SIBLING) {
            if (!forbid(s, &added, a, b)) { result = NO_MEMORY; break; }
            if (last_two && !forbid(s, &added, m_low(rest), m_high(rest))) { result = NO_MEMORY; break; }
        }
        if (stage < 2 && s->nodes - start > s->inner_after) {
            int wanted = s->nodes - start > s->inner_pairwise_after ? 2 : 1;
            if (wanted <= stage) continue;
            stage = wanted;
            if (!ruled) {
                ruled = (PairT *)malloc(sizeof(PairT) * (size_t)(6 * s->nclasses + 1));
                if (!ruled) { result = NO_MEMORY; break; }
            }
            int nruled = settle_inner(s, present, freed, wanted == 2, ruled);
            if (nruled == -2) { result = NO_MEMORY; break; }
            if (nruled < 0) break;  /* lost */
            int ok = 1;
            for (int r = 0; r < nruled && ok; r++) ok = forbid(s, &added, ruled[r].a, ruled[r].b);
            if (!ok) { result = NO_MEMORY; break; }
        }
    }
    free(moves);
done:
    free(ruled);
    for (int i = 0; i < added.count; i++) set_forbidden(s, added.pairs[i].a, added.pairs[i].b, 0);
    free(added.pairs);
    return result;
}

/* Remove every class whose remaining tiles are all freed, until none is:
 * 0 when such a class holds a pair known to be in no clearing (lost). */
static int clear_free_classes(SearchObject *s, mask_t *present_io, mask_t *free_io) {
    mask_t present = *present_io, freed = *free_io;
    for (;;) {
        int cleared = 0;
        for (int k = 0; k < s->nclasses; k++) {
            mask_t rest = m_and(present, s->class_mask[k]);
            if (!m_any(rest) || m_any(m_andnot(rest, freed))) continue;
            int group[MAX_TILES], g = 0;
            while (m_any(rest)) group[g++] = m_pop_low(&rest);
            if (s->forbidden_count) {
                for (int i = 0; i < g; i++)
                    for (int j = i + 1; j < g; j++)
                        if (is_forbidden(s, group[i], group[j])) return 0;
            }
            for (int i = 0; i + 1 < g; i += 2) {
                int a = group[i], b = group[i + 1];
                s->moves[s->nmoves].a = (uint8_t)a;
                s->moves[s->nmoves].b = (uint8_t)b;
                s->nmoves++;
                m_unset(&present, a);
                m_unset(&present, b);
                freed = free_after(s->board, present, freed, a, b);
            }
            cleared = 1;
        }
        if (!cleared) {
            *present_io = present;
            *free_io = freed;
            return 1;
        }
    }
}

static int search(SearchObject *s, mask_t present, mask_t freed) {
    s->nodes++;
    if (s->node_limit >= 0 && s->nodes > s->node_limit) return EXHAUSTED;
    if (s->deadline >= 0 && !(s->nodes & 255) && monotonic_seconds() > s->deadline) return EXHAUSTED;
    if (s->attempt_limit >= 0 && s->nodes > s->attempt_limit) return RESTART;
    if (!m_any(present)) return CLEARED;
    int options = s->options;
    int transposition = options & OPT_TRANSPOSITION;
    if (transposition && maskset_has(&s->failed, present)) return LOST;
    mask_t entry = present;
    int depth = s->nmoves;
    int lost = 0;
    if (options & OPT_CLEAR_FREE) {
        if (!clear_free_classes(s, &present, &freed)) {
            lost = 1;
            present = entry;
        } else {
            if (!m_any(present)) return CLEARED;
            if (transposition && !m_eq(present, entry) && maskset_has(&s->failed, present)) lost = 1;
        }
    }
    if (!lost) {
        int r = try_moves(s, present, freed);
        if (r != LOST) return r;
    }
    s->nmoves = depth;
    if (transposition) {
        if (!maskset_add(&s->failed, entry) || !maskset_add(&s->failed, present)) return NO_MEMORY;
    }
    return LOST;
}

/* ---- the walk over partners (solver_partners.PartnerSearch) ---- */

static inline void pair_up(int *partner, int a, int b) {
    partner[a] = b;
    partner[b] = a;
}

/* A stack of tiles in a buffer of the caller's, moved to the heap if it outgrows it. */
typedef struct { int *items; int count, cap; int on_heap; } IntStack;

static int stack_push(IntStack *st, int value) {
    if (st->count == st->cap) {
        int cap = 2 * st->cap;
        int *items = (int *)malloc((size_t)cap * sizeof(int));
        if (!items) return 0;
        memcpy(items, st->items, (size_t)st->count * sizeof(int));
        if (st->on_heap) free(st->items);
        st->items = items;
        st->cap = cap;
        st->on_heap = 1;
    }
    st->items[st->count++] = value;
    return 1;
}

/* solver_pairings.take_pairs: remove what can leave, from `present` with free
 * tiles `freed`.  partner[t]: t's fixed partner or -1; then possible[t] (NULL:
 * none) holds its possible partners.  Returns the tiles left through left_out
 * and the fixed pairs taken in order (-1 if out of memory, else 1). */
static int take_pairs(const BoardObject *bd, mask_t present, mask_t freed, const int *partner,
                      const mask_t *possible, mask_t *left_out, PairT *order, int *norder) {
    int buffer[4 * MAX_TILES];
    IntStack waiting = {buffer, 0, 4 * MAX_TILES, 0};
    int ok = 1;
    *norder = 0;
    mask_t scan = freed;
    while (m_any(scan) && ok) {
        int t = m_pop_low(&scan);
        int mate = partner[t];
        if (mate < 0 || (mate > t && m_has(freed, mate))) ok = stack_push(&waiting, t);
    }
    while (waiting.count && ok) {
        int tile = waiting.items[--waiting.count];
        if (!m_has(freed, tile)) continue;
        int mate = partner[tile];
        mask_t gone, touched;
        if (mate >= 0) {
            if (!m_has(freed, mate)) continue;
            gone = m_or(m_bit(tile), m_bit(mate));
            order[*norder].a = (uint8_t)(tile < mate ? tile : mate);
            order[*norder].b = (uint8_t)(tile < mate ? mate : tile);
            (*norder)++;
            touched = m_or(bd->neighbour[tile], bd->neighbour[mate]);
        } else {
            if (!possible || !(m_meets(possible[tile], freed) || m_any(m_andnot(possible[tile], present))))
                continue;
            gone = m_bit(tile);
            touched = bd->neighbour[tile];
            /* open class-mates that waited for a partner may go now */
            mask_t mates = m_andnot(m_and(possible[tile], freed), gone);
            while (m_any(mates) && ok) ok = stack_push(&waiting, m_pop_low(&mates));
        }
        present = m_andnot(present, gone);
        freed = m_and(freed, present);
        mask_t candidates = m_andnot(m_and(touched, present), freed);
        while (m_any(candidates) && ok) {
            int other = m_pop_low(&candidates);
            if (!m_meets(present, bd->above[other])
                && (!m_meets(present, bd->left[other]) || !m_meets(present, bd->right[other]))) {
                m_set(&freed, other);
                int other_mate = partner[other];
                if (other_mate < 0) {
                    ok = stack_push(&waiting, other);
                    if (possible) {
                        mask_t mates = m_and(possible[other], freed);
                        while (m_any(mates) && ok) ok = stack_push(&waiting, m_pop_low(&mates));
                    }
                } else if (m_has(freed, other_mate)) {
                    ok = stack_push(&waiting, other);
                }
            }
        }
    }
    if (waiting.on_heap) free(waiting.items);
    *left_out = present;
    return ok ? 1 : -1;
}

static int walk_start(SearchObject *s) {
    int n = s->n;
    s->walk_group_start = (int *)malloc(sizeof(int) * (size_t)(s->nclasses + 1));
    s->walk_tiles = (int *)malloc(sizeof(int) * (size_t)(n + 1));
    if (!s->walk_group_start || !s->walk_tiles) return 0;
    int g = 0, at = 0;
    for (int k = 0; k < s->nclasses; k++) {
        mask_t rest = m_and(s->root, s->class_mask[k]);
        if (!m_any(rest)) continue;
        s->walk_group_start[g] = at;
        while (m_any(rest)) {
            int t = m_pop_low(&rest);
            s->walk_group_of[t] = g;
            s->walk_tiles[at++] = t;
        }
        g++;
    }
    s->walk_group_start[g] = at;
    s->walk_ngroups = g;
    for (int t = 0; t < n; t++) s->walk_partner[t] = -1;
    s->walk_changes = s->walk_length;
    s->walk_stuck = EMPTY;
    s->walk_started = 1;
    return 1;
}

static void walk_fresh_start(SearchObject *s) {
    int order[MAX_TILES];
    for (int g = 0; g < s->walk_ngroups; g++) {
        int start = s->walk_group_start[g], size = s->walk_group_start[g + 1] - start;
        for (int attempt = 0; attempt < s->pairing_tries; attempt++) {
            memcpy(order, s->walk_tiles + start, sizeof(int) * (size_t)size);
            for (int i = size - 1; i > 0; i--) {
                int j = (int)rng_below(&s->walk_rng, (uint64_t)(i + 1));
                int t = order[i]; order[i] = order[j]; order[j] = t;
            }
            int uses = 0;
            for (int i = 0; i + 1 < size && !uses; i += 2) uses = is_forbidden(s, order[i], order[i + 1]);
            if (!uses) break;
        }
        for (int i = 0; i + 1 < size; i += 2) pair_up(s->walk_partner, order[i], order[i + 1]);
    }
}

/* PartnerSearch.run: 1 with a clearing in s->moves, 0 without, -1 out of memory. */
static int walk_run(SearchObject *s, long long steps) {
    int *partner = s->walk_partner;
    PairT order[MAX_TILES / 2 + 1];
    int norder;
    mask_t left;
    for (long long step = 0; step < steps; step++) {
        if (s->walk_changes >= s->walk_length) {
            walk_fresh_start(s);
            s->walk_changes = 0;
            if (take_pairs(s->board, s->root, s->root_free, partner, NULL, &left, order, &norder) < 0) return -1;
            if (!m_any(left)) goto cleared;
            s->walk_stuck = left;
            continue;
        }
        s->walk_changes++;
        int stuck[MAX_TILES], nstuck = 0;
        mask_t rest = s->walk_stuck;
        while (m_any(rest)) stuck[nstuck++] = m_pop_low(&rest);
        int tile = stuck[rng_next(&s->walk_rng) % (uint64_t)nstuck];
        int old = partner[tile];
        int g = s->walk_group_of[tile];
        int choices[MAX_TILES], nchoices = 0;
        for (int i = s->walk_group_start[g]; i < s->walk_group_start[g + 1]; i++) {
            int other = s->walk_tiles[i];
            if (other != tile && other != old && !is_forbidden(s, tile, other)
                && !is_forbidden(s, old, partner[other]))
                choices[nchoices++] = other;
        }
        if (!nchoices) continue;
        int other = choices[rng_next(&s->walk_rng) % (uint64_t)nchoices];
        int other_old = partner[other];
        pair_up(partner, tile, other);
        pair_up(partner, old, other_old);
        if (take_pairs(s->board, s->root, s->root_free, partner, NULL, &left, order, &norder) < 0) return -1;
        if (!m_any(left)) goto cleared;
        int worse = m_count(left) - m_count(s->walk_stuck);
        if (worse <= 0
            || rng_next(&s->walk_rng) % ACCEPT_SCALE
                   < (uint64_t)s->accept[(worse < s->accept_size ? worse : s->accept_size) - 1]) {
            s->walk_stuck = left;
        } else {
            pair_up(partner, tile, old);
            pair_up(partner, other, other_old);
        }
    }
    return 0;
cleared:
    memcpy(s->moves, order, sizeof(PairT) * (size_t)norder);
    s->nmoves = norder;
    return 1;
}

/* ---- the search over pairings (solver_pairings.PairingSearch) ----
 *
 * The Python search is a generator that pauses before each removal test and
 * is resumed slice by slice.  Here the same recursion runs on a stack of its
 * own (a ucontext coroutine), parking before a test once the slice's tests
 * are spent, so every slice ends exactly where Python's would.  Without
 * ucontext (not Linux) the Python search is used instead. */

#if defined(__linux__)
#include <ucontext.h>
#define HAVE_COROUTINE 1
#else
#define HAVE_COROUTINE 0
#endif

/* Classes up to eight tiles (105 pairings); bigger ones take the Python search. */
#define MAX_CLASS_TILES 8
#define MAX_PAIRINGS 105
#define PAIRING_STACK_BYTES ((size_t)16 << 20)

enum { P_NEW, P_RUNNING, P_PARKED, P_DONE, P_DEADLINE };

typedef struct { uint8_t len; uint8_t idx[MAX_PAIRINGS]; } Dom;

typedef struct Pairings {
    const BoardObject *board;
    int n, ngroups;
    int group_start[MAX_TILES + 1];
    int group_tiles[MAX_TILES];
    size_t pool_offset[MAX_TILES];  /* per group: where its pairings start in the pool */
    uint8_t *pool;                 /* pairings, tiles pair by pair, group size each */
    Dom *initial;
    mask_t present, freed;
    long long tests, limit;
    double deadline;
    int status, verdict;
    PairT clearing[MAX_TILES / 2 + 1];
    int nclearing;
    int no_memory;
    int propagate_limit, clock_every;
#if HAVE_COROUTINE
    ucontext_t caller, co;
#endif
    char *stack;
} Pairings;

static inline const uint8_t *pairing_at(const Pairings *P, int g, int index) {
    int size = P->group_start[g + 1] - P->group_start[g];
    return P->pool + P->pool_offset[g] + (size_t)index * (size_t)size;
}

/* Every way to split the tiles into pairs, in class_pairings' order. */
static int enumerate_pairings(const int *tiles, int count, uint8_t *out, int *written, uint8_t *prefix, int depth) {
    if (!count) {
        memcpy(out + (size_t)(*written) * (size_t)depth, prefix, (size_t)depth);
        (*written)++;
        return 1;
    }
    int rest[MAX_CLASS_TILES];
    for (int i = 1; i < count; i++) {
        int r = 0;
        for (int j = 1; j < count; j++) if (j != i) rest[r++] = tiles[j];
        prefix[depth] = (uint8_t)tiles[0];
        prefix[depth + 1] = (uint8_t)tiles[i];
        enumerate_pairings(rest, count - 2, out, written, prefix, depth + 2);
    }
    return 1;
}

static void set_class(const Pairings *P, int *partner, mask_t *possible, int g, const Dom *d) {
    int start = P->group_start[g], size = P->group_start[g + 1] - start;
    for (int i = 0; i < size; i++) {
        int t = P->group_tiles[start + i];
        possible[t] = EMPTY;
        partner[t] = -1;
    }
    for (int k = 0; k < d->len; k++) {
        const uint8_t *pairing = pairing_at(P, g, d->idx[k]);
        for (int i = 0; i < size; i += 2) {
            m_set(&possible[pairing[i]], pairing[i + 1]);
            m_set(&possible[pairing[i + 1]], pairing[i]);
        }
    }
    if (d->len == 1) {
        const uint8_t *pairing = pairing_at(P, g, d->idx[0]);
        for (int i = 0; i < size; i += 2) {
            partner[pairing[i]] = pairing[i + 1];
            partner[pairing[i + 1]] = pairing[i];
        }
    }
}

#if HAVE_COROUTINE

/* Where the generator yields: park once the slice's tests are spent. */
static void pause_point(Pairings *P) {
    if (P->tests >= P->limit) {
        P->status = P_PARKED;
        swapcontext(&P->co, &P->caller);
        P->status = P_RUNNING;
    }
}

/* A removal test: whether tiles are left (the clearing, when none, in P). */
static int stuck_after(Pairings *P, const int *partner, const mask_t *possible, int keep_order) {
    P->tests++;
    if (P->deadline >= 0 && !(P->tests % P->clock_every) && monotonic_seconds() > P->deadline) {
        P->status = P_DEADLINE;
        swapcontext(&P->co, &P->caller);  /* never resumed */
    }
    mask_t left;
    PairT order[MAX_TILES / 2 + 1];
    int norder;
    if (take_pairs(P->board, P->present, P->freed, partner, possible, &left, order, &norder) < 0) {
        P->no_memory = 1;
        P->status = P_DEADLINE;
        swapcontext(&P->co, &P->caller);
    }
    if (keep_order && !m_any(left)) {
        memcpy(P->clearing, order, sizeof(PairT) * (size_t)norder);
        P->nclearing = norder;
    }
    return m_any(left);
}

/* PairingSearch._narrow: 0 when lost, else 1 with domains narrowed in place
 * and their partner tables filled. */
static int narrow(Pairings *P, Dom *domains, int *partner, mask_t *possible) {
    int n = P->n;
    for (int g = 0; g < P->ngroups; g++) if (!domains[g].len) return 0;
    for (int t = 0; t < n; t++) { partner[t] = -1; possible[t] = EMPTY; }
    for (int g = 0; g < P->ngroups; g++) set_class(P, partner, possible, g, &domains[g]);
    pause_point(P);
    if (stuck_after(P, partner, possible, 0)) return 0;
    int trial_partner[MAX_TILES];
    mask_t trial_possible[MAX_TILES];
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int g = 0; g < P->ngroups; g++) {
            Dom *d = &domains[g];
            if (!(1 < d->len && d->len <= P->propagate_limit)) continue;
            Dom kept;
            kept.len = 0;
            for (int k = 0; k < d->len; k++) {
                memcpy(trial_partner, partner, sizeof(int) * (size_t)n);
                memcpy(trial_possible, possible, sizeof(mask_t) * (size_t)n);
                Dom one;
                one.len = 1;
                one.idx[0] = d->idx[k];
                set_class(P, trial_partner, trial_possible, g, &one);
                pause_point(P);
                if (!stuck_after(P, trial_partner, trial_possible, 0)) kept.idx[kept.len++] = d->idx[k];
            }
            if (!kept.len) return 0;
            if (kept.len < d->len) {
                *d = kept;
                set_class(P, partner, possible, g, d);
                changed = 1;
            }
        }
    }
    return 1;
}

/* PairingSearch._search: 1 with the clearing in P, 0 when none keeps to the domains. */
static int pairing_search(Pairings *P, Dom *domains) {
    int partner[MAX_TILES];
    mask_t possible[MAX_TILES];
    if (!narrow(P, domains, partner, possible)) return 0;
    int branch = -1;
    for (int g = 0; g < P->ngroups; g++)
        if (domains[g].len > 1 && (branch < 0 || domains[g].len < domains[branch].len)) branch = g;
    if (branch < 0) {
        pause_point(P);
        return !stuck_after(P, partner, possible, 1);
    }
    Dom *trial = (Dom *)alloca(sizeof(Dom) * (size_t)P->ngroups);
    for (int k = 0; k < domains[branch].len; k++) {
        memcpy(trial, domains, sizeof(Dom) * (size_t)P->ngroups);
        trial[branch].len = 1;
        trial[branch].idx[0] = domains[branch].idx[k];
        if (pairing_search(P, trial)) return 1;
    }
    return 0;
}

static void pairings_entry(unsigned int high, unsigned int low) {
    Pairings *P = (Pairings *)(((uintptr_t)high << 32) | (uintptr_t)low);
    Dom *domains = (Dom *)alloca(sizeof(Dom) * (size_t)(P->ngroups + 1));
    memcpy(domains, P->initial, sizeof(Dom) * (size_t)P->ngroups);
    P->verdict = pairing_search(P, domains);
    P->status = P_DONE;
}

#endif

static void pairings_free(Pairings *P) {
    if (!P) return;
    free(P->pool);
    free(P->initial);
    free(P->stack);
    free(P);
}

/* Whether the search over pairings can run here for this root. */
static int pairings_supported(const SearchObject *s) {
    if (!HAVE_COROUTINE) return 0;
    for (int k = 0; k < s->nclasses; k++)
        if (m_count(m_and(s->root, s->class_mask[k])) > MAX_CLASS_TILES) return 0;
    return 1;
}

/* PairingSearch.__init__, with the ruled-out pairs known now. */
static Pairings *pairings_new(const SearchObject *s) {
    Pairings *P = (Pairings *)calloc(1, sizeof(Pairings));
    if (!P) return NULL;
    P->board = s->board;
    P->n = s->n;
    P->present = s->root;
    P->freed = s->root_free;
    P->deadline = -1;
    P->propagate_limit = s->propagate_limit;
    P->clock_every = s->clock_every;
    size_t pool_bytes = 0;
    int g = 0, at = 0;
    for (int k = 0; k < s->nclasses; k++) {
        mask_t rest = m_and(s->root, s->class_mask[k]);
        if (!m_any(rest)) continue;
        P->group_start[g] = at;
        int size = 0;
        while (m_any(rest)) { P->group_tiles[at++] = m_pop_low(&rest); size++; }
        P->pool_offset[g] = pool_bytes;
        size_t count = 1;
        for (int i = size - 1; i > 0; i -= 2) count *= (size_t)i;
        pool_bytes += count * (size_t)size;
        g++;
    }
    P->group_start[g] = at;
    P->ngroups = g;
    P->pool = (uint8_t *)malloc(pool_bytes + 1);
    P->initial = (Dom *)calloc((size_t)g + 1, sizeof(Dom));
    if (!P->pool || !P->initial) { pairings_free(P); return NULL; }
    for (int i = 0; i < g; i++) {
        int size = P->group_start[i + 1] - P->group_start[i];
        int written = 0;
        uint8_t prefix[MAX_CLASS_TILES];
        enumerate_pairings(P->group_tiles + P->group_start[i], size,
                           (uint8_t *)pairing_at(P, i, 0), &written, prefix, 0);
        Dom *d = &P->initial[i];
        d->len = 0;
        for (int k = 0; k < written; k++) {
            const uint8_t *pairing = pairing_at(P, i, k);
            int uses = 0;
            for (int j = 0; j < size && !uses; j += 2) uses = is_forbidden(s, pairing[j], pairing[j + 1]);
            if (!uses) d->idx[d->len++] = (uint8_t)k;
        }
    }
    P->status = P_NEW;
    return P;
}

/* ---- Python glue ---- */

static int read_masks(PyObject *bytes, int n, mask_t *out, const char *what) {
    if (!PyBytes_Check(bytes) || PyBytes_GET_SIZE(bytes) != (Py_ssize_t)n * MASK_WORDS * 8) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d masks of %d bytes", what, n, MASK_WORDS * 8);
        return 0;
    }
    const unsigned char *data = (const unsigned char *)PyBytes_AS_STRING(bytes);
    for (int t = 0; t < n; t++) {
        for (int i = 0; i < MASK_WORDS; i++) {
            uint64_t word = 0;
            for (int k = 7; k >= 0; k--) word = (word << 8) | data[(t * MASK_WORDS + i) * 8 + k];
            out[t].w[i] = word;
        }
    }
    return 1;
}

static PyTypeObject BoardType;
static PyTypeObject SearchType;

static int Board_init(BoardObject *self, PyObject *args, PyObject *kwds) {
    int n;
    PyObject *above, *left, *right, *below, *neighbour, *weights;
    if (!PyArg_ParseTuple(args, "iOOOOOO", &n, &above, &left, &right, &below, &neighbour, &weights))
        return -1;
    if (n < 0 || n > MAX_TILES) {
        PyErr_Format(PyExc_ValueError, "the compiled solver takes at most %d tiles, not %d", MAX_TILES, n);
        return -1;
    }
    self->n = n;
    if (!read_masks(above, n, self->above, "above") || !read_masks(left, n, self->left, "left")
        || !read_masks(right, n, self->right, "right") || !read_masks(below, n, self->below, "below")
        || !read_masks(neighbour, n, self->neighbour, "neighbour"))
        return -1;
    if (!PyList_Check(weights) || PyList_GET_SIZE(weights) != n) {
        PyErr_SetString(PyExc_ValueError, "weights: expected one int per tile");
        return -1;
    }
    for (int t = 0; t < n; t++) {
        long w = PyLong_AsLong(PyList_GET_ITEM(weights, t));
        if (w == -1 && PyErr_Occurred()) return -1;
        self->weight[t] = (int)w;
    }
    return 0;
}

static void Search_dealloc(SearchObject *self) {
    Py_XDECREF(self->board);
    free(self->class_mask);
    free(self->failed.keys);
    free(self->inner.slots);
    free(self->inner.pool);
    free(self->forbidden);
    free(self->walk_group_start);
    free(self->walk_tiles);
    pairings_free(self->pairings);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwds) {
    PyObject *board, *tile_class, *present, *tunables;
    long long node_limit;
    Py_ssize_t inner_cache_limit;
    int options;
    if (!PyArg_ParseTuple(args, "O!OOLiO!", &BoardType, &board, &tile_class, &present, &node_limit,
                          &options, &PyTuple_Type, &tunables))
        return -1;
    BoardObject *bd = (BoardObject *)board;
    int n = bd->n;
    Py_INCREF(board);
    Py_XSETREF(self->board, bd);
    self->n = n;
    self->options = options;
    self->node_limit = node_limit;
    self->attempt_limit = -1;
    self->deadline = -1;
    if (!read_masks(present, 1, &self->root, "present")) return -1;
    /* Class numbers by first appearance among the present tiles, as solver._Board. */
    if (!PyList_Check(tile_class) || PyList_GET_SIZE(tile_class) != n) {
        PyErr_SetString(PyExc_ValueError, "class_keys: expected one int per tile");
        return -1;
    }
    long long keys[MAX_TILES];
    int counts[MAX_TILES];
    int nclasses = 0;
    for (int t = 0; t < n; t++) {
        self->tile_class[t] = 0;
        if (!m_has(self->root, t)) continue;
        long long key = PyLong_AsLongLong(PyList_GET_ITEM(tile_class, t));
        if (key == -1 && PyErr_Occurred()) return -1;
        int k = 0;
        while (k < nclasses && keys[k] != key) k++;
        if (k == nclasses) {
            keys[nclasses] = key;
            counts[nclasses++] = 0;
        }
        counts[k]++;
        self->tile_class[t] = k;
    }
    self->odd = 0;
    for (int k = 0; k < nclasses; k++) if (counts[k] % 2) self->odd = 1;
    self->nclasses = nclasses;
    self->class_mask = (mask_t *)calloc((size_t)(nclasses + 1), sizeof(mask_t));
    self->forbidden = (uint8_t *)calloc((size_t)n * (size_t)n + 1, 1);
    if (!self->class_mask || !self->forbidden || !maskset_init(&self->failed, 1 << 12)) {
        PyErr_NoMemory();
        return -1;
    }
    for (int t = 0; t < n; t++)
        if (m_has(self->root, t)) m_set(&self->class_mask[self->tile_class[t]], t);
    for (int t = 0; t < n; t++) {
        self->class_of[t] = self->tile_class[t] < nclasses ? self->class_mask[self->tile_class[t]] : EMPTY;
        self->partners[t] = -1;
    }
    self->root_free = free_mask(bd, self->root);
    PyObject *accept;
    if (!PyArg_ParseTuple(tunables, "LLLniiOii", &self->restart_noise, &self->inner_after,
                          &self->inner_pairwise_after, &inner_cache_limit, &self->walk_length,
                          &self->pairing_tries, &accept, &self->propagate_limit, &self->clock_every))
        return -1;
    if (self->restart_noise < 1 || inner_cache_limit < 1 || self->clock_every < 1 || !PyList_Check(accept)
        || PyList_GET_SIZE(accept) < 1 || PyList_GET_SIZE(accept) > MAX_ACCEPT) {
        PyErr_SetString(PyExc_ValueError, "tunables: out of range");
        return -1;
    }
    self->inner_cache_limit = (size_t)inner_cache_limit;
    self->accept_size = (int)PyList_GET_SIZE(accept);
    for (int d = 0; d < self->accept_size; d++) {
        long value = PyLong_AsLong(PyList_GET_ITEM(accept, d));
        if (value == -1 && PyErr_Occurred()) return -1;
        self->accept[d] = (int)value;
    }
    return 0;
}

static PyObject *moves_list(const SearchObject *s) {
    PyObject *list = PyList_New(s->nmoves);
    if (!list) return NULL;
    for (int i = 0; i < s->nmoves; i++) {
        PyObject *pair = Py_BuildValue("(ii)", s->moves[i].a, s->moves[i].b);
        if (!pair) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, pair);
    }
    return list;
}

static double deadline_from(double seconds_left) {
    return seconds_left < 0 ? -1.0 : monotonic_seconds() + seconds_left;
}

/* attempt(attempt_limit, noise_state, seconds_left): (status, moves); status
 * 0 lost, 1 cleared (moves: the clearing), 2 restart, 3 budget exhausted.
 * A negative limit, noise state or time means none. */
static PyObject *Search_attempt(SearchObject *self, PyObject *args) {
    long long attempt_limit, noise;
    double seconds_left;
    if (!PyArg_ParseTuple(args, "LLd", &attempt_limit, &noise, &seconds_left)) return NULL;
    self->attempt_limit = attempt_limit;
    self->noise_on = noise >= 0;
    self->noise = (uint64_t)noise;
    self->deadline = deadline_from(seconds_left);
    self->nmoves = 0;
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = search(self, self->root, self->root_free);
    Py_END_ALLOW_THREADS
    if (result == NO_MEMORY) return PyErr_NoMemory();
    PyObject *moves = result == CLEARED ? moves_list(self) : PyList_New(0);
    if (!moves) return NULL;
    return Py_BuildValue("(iN)", result, moves);
}

/* settle(pairwise): the root's pairing test (solver._Search._settle); False if lost. */
static PyObject *Search_settle(SearchObject *self, PyObject *args) {
    int pairwise;
    if (!PyArg_ParseTuple(args, "p", &pairwise)) return NULL;
    self->nodes++;
    PairT *ruled = (PairT *)malloc(sizeof(PairT) * (size_t)(6 * self->nclasses + 1));
    if (!ruled) return PyErr_NoMemory();
    int count;
    Py_BEGIN_ALLOW_THREADS
    count = settle_pairings(self, self->root, self->root_free, pairwise, ruled);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < count; i++) set_forbidden(self, ruled[i].a, ruled[i].b, 1);
    free(ruled);
    return PyBool_FromLong(count >= 0);
}

/* Whether a class's last two tiles at the root can never leave together. */
static PyObject *Search_root_deadlocked(SearchObject *self, PyObject *unused) {
    for (int k = 0; k < self->nclasses; k++) {
        mask_t rest = m_and(self->root, self->class_mask[k]);
        if (m_count(rest) == 2 && !pair_closure(self, m_low(rest), m_high(rest), self->root, NULL))
            Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

/* walk(steps, seed_state): a slice of the walk over partners (its generator
 * seeded on the first call): a clearing, or None. */
static PyObject *Search_walk(SearchObject *self, PyObject *args) {
    long long steps;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "LK", &steps, &seed)) return NULL;
    if (!self->walk_started) {
        if (!walk_start(self)) return PyErr_NoMemory();
        self->walk_rng = seed;
    }
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = walk_run(self, steps);
    Py_END_ALLOW_THREADS
    if (result < 0) return PyErr_NoMemory();
    if (!result) Py_RETURN_NONE;
    return moves_list(self);
}

/* pairings(tests, seconds_left): go on with the search over pairings for
 * `tests` more removal tests: (status, clearing, tests so far); status 0
 * lost, 1 cleared, 2 not yet known, 3 the deadline passed, -1 not supported
 * here (then the Python search is used). */
static PyObject *Search_pairings(SearchObject *self, PyObject *args) {
    long long tests;
    double seconds_left;
    if (!PyArg_ParseTuple(args, "Ld", &tests, &seconds_left)) return NULL;
#if HAVE_COROUTINE
    if (!self->pairings) {
        if (!pairings_supported(self)) return Py_BuildValue("(i[]i)", -1, 0);
        self->pairings = pairings_new(self);
        if (!self->pairings) return PyErr_NoMemory();
    }
    Pairings *P = self->pairings;
    P->limit = P->tests + tests;
    P->deadline = deadline_from(seconds_left);
    if ((P->status == P_NEW || P->status == P_PARKED) && P->tests < P->limit) {
        if (P->status == P_NEW) {
            P->stack = (char *)malloc(PAIRING_STACK_BYTES);
            if (!P->stack) return PyErr_NoMemory();
            getcontext(&P->co);
            P->co.uc_stack.ss_sp = P->stack;
            P->co.uc_stack.ss_size = PAIRING_STACK_BYTES;
            P->co.uc_link = &P->caller;
            uintptr_t address = (uintptr_t)P;
            makecontext(&P->co, (void (*)(void))pairings_entry, 2,
                        (unsigned int)(address >> 32), (unsigned int)(address & 0xFFFFFFFFu));
        }
        P->status = P_RUNNING;
        Py_BEGIN_ALLOW_THREADS
        swapcontext(&P->caller, &P->co);
        Py_END_ALLOW_THREADS
    }
    if (P->no_memory) return PyErr_NoMemory();
    int status = 2;
    if (P->status == P_DONE) status = P->verdict ? 1 : 0;
    else if (P->status == P_DEADLINE) status = 3;
    PyObject *clearing = PyList_New(0);
    if (!clearing) return NULL;
    if (status == 1) {
        for (int i = 0; i < P->nclearing; i++) {
            PyObject *pair = Py_BuildValue("(ii)", P->clearing[i].a, P->clearing[i].b);
            if (!pair || PyList_Append(clearing, pair) < 0) { Py_XDECREF(pair); Py_DECREF(clearing); return NULL; }
            Py_DECREF(pair);
        }
    }
    return Py_BuildValue("(iNL)", status, clearing, P->tests);
#else
    return Py_BuildValue("(i[]i)", -1, 0);
#endif
}

/* The pairs ruled out for the whole search, smaller tile first. */
static PyObject *Search_forbidden_pairs(SearchObject *self, PyObject *unused) {
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (int a = 0; a < self->n; a++) {
        for (int b = a + 1; b < self->n; b++) {
            if (!is_forbidden(self, a, b)) continue;
            PyObject *pair = Py_BuildValue("(ii)", a, b);
            if (!pair || PyList_Append(list, pair) < 0) { Py_XDECREF(pair); Py_DECREF(list); return NULL; }
            Py_DECREF(pair);
        }
    }
    return list;
}

static PyObject *Search_get_odd(SearchObject *self, void *closure) {
    return PyBool_FromLong(self->odd);
}

static PyObject *Search_get_nodes(SearchObject *self, void *closure) {
    return PyLong_FromLongLong(self->nodes);
}

static int Search_set_nodes(SearchObject *self, PyObject *value, void *closure) {
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "nodes cannot be deleted");
        return -1;
    }
    long long nodes = PyLong_AsLongLong(value);
    if (nodes == -1 && PyErr_Occurred()) return -1;
    self->nodes = nodes;
    return 0;
}

static PyMethodDef Search_methods[] = {
    {"attempt", (PyCFunction)Search_attempt, METH_VARARGS, "One attempt of the search over positions."},
    {"settle", (PyCFunction)Search_settle, METH_VARARGS, "The root's pairing test."},
    {"root_deadlocked", (PyCFunction)Search_root_deadlocked, METH_NOARGS, "A deadlocked last pair at the root."},
    {"walk", (PyCFunction)Search_walk, METH_VARARGS, "A slice of the walk over partners."},
    {"forbidden_pairs", (PyCFunction)Search_forbidden_pairs, METH_NOARGS, "The pairs ruled out."},
    {"pairings", (PyCFunction)Search_pairings, METH_VARARGS, "A slice of the search over pairings."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, (setter)Search_set_nodes, "Nodes counted so far.", NULL},
    {"odd", (getter)Search_get_odd, NULL, "Whether a class has an odd number of tiles.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pyramids.games.mahjongg._solvercore.Board",
    .tp_basicsize = sizeof(BoardObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A layout's geometry, as masks.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Board_init,
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pyramids.games.mahjongg._solvercore.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One solve: the transposition table, the ruled-out pairs and the walk.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solvercore", "The Mahjongg solver's compiled core.", -1, NULL,
};

PyMODINIT_FUNC PyInit__solvercore(void) {
    if (PyType_Ready(&BoardType) < 0 || PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MASK_WORDS", MASK_WORDS) < 0
        || PyModule_AddIntConstant(m, "MAX_TILES", MAX_TILES) < 0
        || PyModule_AddIntConstant(m, "COROUTINES", HAVE_COROUTINE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&BoardType);
    if (PyModule_AddObject(m, "Board", (PyObject *)&BoardType) < 0) { Py_DECREF(&BoardType); Py_DECREF(m); return NULL; }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) { Py_DECREF(&SearchType); Py_DECREF(m); return NULL; }
    return m;
}
