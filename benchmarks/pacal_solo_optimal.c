/* The best possible Pacal solo completion chance, exactly: benchmarks/pacal_solo_optimal.py
 * in C, for pyramids one field larger than Python's memory and time allow.
 *
 *     cc -O2 -o pacal_solo_optimal benchmarks/pacal_solo_optimal.c
 *     ./pacal_solo_optimal 7            # fields 1 to 7, five cards a field
 *     ./pacal_solo_optimal 7 5 29       # the same, with a table of 2^29 positions
 *
 * The positions, their canonical form (dead stretches pooled, the smaller of a position
 * and its mirror image) and the expectimax are those of the Python script, step for
 * step, so both print the same chances and the same position counts
 * (tests/games/pacal/test_solo_optimal.py compares them). A position is kept as two
 * 64-bit words in an open-addressing table of fixed size (the third argument, log2 of
 * its slots; 24 bytes a slot); a table that fills up stops the run with a message,
 * rather than growing past the machine's memory. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OPEN = 1, CLOSED = 2, MAX_FIELDS = 9, MAX_SEQ = 3 * MAX_FIELDS + 2 };

typedef struct {
    uint64_t hi, lo;
    double chance;
} Slot;

static Slot *table;
static uint64_t slots, mask, used;

/* gaps = (e0, g0, s1, e1, g1, ..., sk, ek, gk), e < 16 and g < 64: `lo` holds the dead
 * count (6 bits), k (4), the closed separators (9) and gaps 0 to 3 (10 bits each) from
 * bit 20; `hi` gaps 4 to 9. */
static void pack(int dead, const int *seq, int len, uint64_t *hi, uint64_t *lo) {
    int fields = (len - 2) / 3;
    uint64_t a = (uint64_t)dead | (uint64_t)fields << 6, b = 0;
    for (int i = 1; i <= fields; i++)
        a |= (uint64_t)(seq[3 * i - 1] == CLOSED) << (9 + i);
    for (int i = 0; i <= fields; i++) {
        uint64_t gap = (uint64_t)seq[3 * i] | (uint64_t)seq[3 * i + 1] << 4;
        if (i < 4) {
            a |= gap << (20 + 10 * i);
        } else {
            b |= gap << (10 * (i - 4));
        }
    }
    *hi = b;
    *lo = a;
}

static uint64_t mix(uint64_t hi, uint64_t lo) {
    uint64_t h = lo * 0x9E3779B97F4A7C15ULL ^ (hi + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 29);
}

static Slot *find(uint64_t hi, uint64_t lo) {
    uint64_t at = mix(hi, lo) & mask;
    for (;;) {
        Slot *slot = &table[at];
        if (slot->chance < 0.0 || (slot->hi == hi && slot->lo == lo)) return slot;
        at = (at + 1) & mask;
    }
}

static int less(const int *a, const int *b, int len) {
    for (int i = 0; i < len; i++)
        if (a[i] != b[i]) return a[i] < b[i];
    return 0;
}

/* canonical(): pool every dead stretch into `dead`, then the smaller of the sequence
 * and its mirror image. `seq` is rewritten; its new length is returned. */
static int canonical(int *dead, int *seq, int len) {
    int changed = 1;
    while (changed) {
        changed = 0;
        if (len > 2 && seq[0] == 0 && seq[2] == CLOSED) {
            *dead += seq[1];
            memmove(seq, seq + 3, (size_t)(len - 3) * sizeof(int));
            len -= 3;
            changed = 1;
            continue;
        }
        if (len > 2 && seq[len - 2] == 0 && seq[len - 3] == CLOSED) {
            *dead += seq[len - 1];
            len -= 3;
            changed = 1;
            continue;
        }
        for (int i = 2; i < len - 3; i += 3) {
            if (seq[i] == CLOSED && seq[i + 1] == 0 && seq[i + 3] == CLOSED) {
                *dead += seq[i + 2];
                memmove(seq + i + 1, seq + i + 4, (size_t)(len - i - 4) * sizeof(int));
                len -= 3;
                changed = 1;
                break;
            }
        }
    }
    int fields = (len - 2) / 3, mirror[MAX_SEQ], m = 0;
    for (int i = fields; i >= 0; i--) {
        mirror[m++] = seq[3 * i];
        mirror[m++] = seq[3 * i + 1];
        if (i) mirror[m++] = seq[3 * i - 1];
    }
    if (less(mirror, seq, len)) memcpy(seq, mirror, (size_t)len * sizeof(int));
    return len;
}

static double chance(int dead, const int *seq, int len);

static double after(int dead, int *seq, int len) {
    len = canonical(&dead, seq, len);
    return chance(dead, seq, len);
}

static double chance(int dead, const int *seq, int len) {
    uint64_t hi, lo;
    pack(dead, seq, len, &hi, &lo);
    Slot *slot = find(hi, lo);
    if (slot->chance >= 0.0) return slot->chance;
    int fields = (len - 2) / 3, empty_anywhere = 0, to_come = dead;
    for (int i = 0; i <= fields; i++) {
        empty_anywhere |= seq[3 * i];
        to_come += seq[3 * i + 1];
    }
    double result = 1.0;
    if (empty_anywhere) {
        double total = 0.0;
        int next[MAX_SEQ];
        for (int gap = 0; gap <= fields; gap++) {
            int empty = seq[3 * gap], values = seq[3 * gap + 1];
            int above = gap > 0 ? seq[3 * gap - 1] : 0;
            int below = gap < fields ? seq[3 * gap + 2] : 0;
            for (int rank = 0; rank < values; rank++) {
                double best = 0.0, found;
                for (int left = 0; left < empty; left++) {
                    int n = 0;
                    for (int i = 0; i < 3 * gap; i++) next[n++] = seq[i];
                    next[n++] = left;
                    next[n++] = rank;
                    next[n++] = OPEN;
                    next[n++] = empty - 1 - left;
                    next[n++] = values - 1 - rank;
                    for (int i = 3 * gap + 2; i < len; i++) next[n++] = seq[i];
                    found = after(dead, next, n);
                    if (found > best) best = found;
                }
                if (above == OPEN) {
                    memcpy(next, seq, (size_t)len * sizeof(int));
                    next[3 * gap - 2] += rank;
                    next[3 * gap - 1] = CLOSED;
                    next[3 * gap + 1] = values - 1 - rank;
                    found = after(dead, next, len);
                    if (found > best) best = found;
                }
                if (below == OPEN) {
                    memcpy(next, seq, (size_t)len * sizeof(int));
                    next[3 * gap + 1] = rank;
                    next[3 * gap + 2] = CLOSED;
                    next[3 * gap + 4] += values - 1 - rank;
                    found = after(dead, next, len);
                    if (found > best) best = found;
                }
                total += best;
            }
        }
        result = total / to_come;
    }
    /* The slot found before may have been taken meanwhile by a deeper position. */
    slot = find(hi, lo);
    if (slot->chance < 0.0) {
        if (++used > slots - slots / 16) {
            fprintf(stderr, "the table of %llu positions is full: give a larger log2 size\n",
                    (unsigned long long)slots);
            exit(3);
        }
        slot->hi = hi;
        slot->lo = lo;
    }
    slot->chance = result;
    return result;
}

int main(int argc, char **argv) {
    int most = argc > 1 ? atoi(argv[1]) : 5;
    int cards_a_field = argc > 2 ? atoi(argv[2]) : 5;
    int log2_slots = argc > 3 ? atoi(argv[3]) : 24;
    if (most < 1 || most > 8 || cards_a_field < 2 || cards_a_field * most > 63
        || log2_slots < 10 || log2_slots > 32) {
        fprintf(stderr, "usage: pacal_solo_optimal FIELDS(1-8) [CARDS_A_FIELD(2-, at most 63 "
                        "cards)] [LOG2_SLOTS(10-32)]\n");
        return 2;
    }
    slots = (uint64_t)1 << log2_slots;
    mask = slots - 1;
    table = malloc(slots * sizeof(Slot));
    if (!table) {
        fprintf(stderr, "no memory for %llu positions\n", (unsigned long long)slots);
        return 3;
    }
    for (uint64_t i = 0; i < slots; i++) table[i].chance = -1.0;
    printf("| fields | cards | best completion chance | loss against one field fewer "
           "| positions | seconds |\n|---|---|---|---|---|---|\n");
    double previous = -1.0;
    for (int fields = 1; fields <= most; fields++) {
        clock_t started = clock();
        int dead = 0, seq[MAX_SEQ] = {fields, cards_a_field * fields};
        int len = canonical(&dead, seq, 2);
        double best = chance(dead, seq, len);
        char loss[64] = "-";
        if (previous >= 0.0) snprintf(loss, sizeof loss, "%.2f points", 100 * (previous - best));
        printf("| %d | %d | %.3f%% | %s | %llu | %.1f |\n", fields, cards_a_field * fields,
               100 * best, loss, (unsigned long long)used,
               (double)(clock() - started) / CLOCKS_PER_SEC);
        printf("exact %d %.17g\n", fields, best);
        fflush(stdout);
        previous = best;
    }
    return 0;
}
