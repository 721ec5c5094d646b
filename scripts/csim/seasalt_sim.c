/* seasalt_sim.c: an independent, single-threaded C simulator of the baseline player
 * (docs/players.md) for the BASE game of Sea Salt & Paper (docs/rules.md), written as
 * the speed yardstick of seasalt's engine (GitHub issue 29).
 *
 *   gcc -O3 -march=native -o sim seasalt_sim.c
 *   ./sim PLAYERS ROUNDS SEED [STOP_AT LAST_CHANCE_AT]
 *
 * Runs ROUNDS independent rounds, seat 0 starting each, and prints one JSON line: the timing of
 * the simulation loop (clock_gettime MONOTONIC) and the figures of shared/REFERENCE_FIGURES.md
 * (end rates, turns per round, mean declarer points, mean round points by seat), each with its
 * 95% half-width.
 *
 * How it is fast (shared/PERFORMANCE_NOTES.md):
 * - a card is one of 58 slots (card order: kind, then colour), a hand is a 64-bit mask;
 *   the first copy of a kind in card order is the lowest set bit, a random steal is the n-th set
 *   bit (pdep + tzcnt);
 * - each player keeps counts by kind (hand; hand+table) and colour, G[x] = number of colours
 *   holding more than x cards, and its card points cached: nothing rescans a hand;
 * - gain(card) is table reads: the card's multiplier partner and factor, pair mode and partner,
 *   collection step, and for the mermaid term "G[count of its colour] < mermaids"; only a
 *   mermaid itself branches (its gain re-sums min(m, G[x]) over x with SSE);
 * - the deck is shuffled lazily: each card dealt is one Fisher-Yates step (xoshiro256**);
 * - rare paths (four mermaids, short deck, empty piles) are marked unlikely.
 *
 * Build with -DCHECK to recompute every player's card points from scratch after each change and
 * abort on a mismatch (slow; for testing).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define INLINE static inline __attribute__((always_inline))

/* ------------------------------------------------------------------------------------------ */
/* The catalogue (docs/rules.md, base game)                                                      */

enum { WHITE, DARK_BLUE, LIGHT_BLUE, BLACK, YELLOW, GREEN, PURPLE, GREY, LIGHT_ORANGE, PINK,
       ORANGE, NCOLOURS };
enum { MERMAID, CRAB, BOAT, FISH, SWIMMER, SHARK, SHELL, OCTOPUS, PENGUIN, SAILOR, LIGHTHOUSE,
       SHOAL, COLONY, CAPTAIN, NKINDS };
#define NCARDS 58

/* Copies per kind and colour, in card order. */
static const struct { int kind; int colours[12]; } CATALOGUE[NKINDS] = {
    {MERMAID, {WHITE, WHITE, WHITE, WHITE, -1}},
    {CRAB, {DARK_BLUE, DARK_BLUE, LIGHT_BLUE, LIGHT_BLUE, BLACK, YELLOW, YELLOW, GREEN, GREY, -1}},
    {BOAT, {DARK_BLUE, DARK_BLUE, LIGHT_BLUE, LIGHT_BLUE, BLACK, BLACK, YELLOW, YELLOW, -1}},
    {FISH, {DARK_BLUE, DARK_BLUE, LIGHT_BLUE, BLACK, BLACK, YELLOW, GREEN, -1}},
    {SWIMMER, {DARK_BLUE, LIGHT_BLUE, BLACK, YELLOW, LIGHT_ORANGE, -1}},
    {SHARK, {DARK_BLUE, LIGHT_BLUE, BLACK, GREEN, PURPLE, -1}},
    {SHELL, {DARK_BLUE, LIGHT_BLUE, BLACK, YELLOW, GREEN, GREY, -1}},
    {OCTOPUS, {LIGHT_BLUE, YELLOW, GREEN, PURPLE, GREY, -1}},
    {PENGUIN, {PURPLE, LIGHT_ORANGE, PINK, -1}},
    {SAILOR, {PINK, ORANGE, -1}},
    {LIGHTHOUSE, {PURPLE, -1}},
    {SHOAL, {GREY, -1}},
    {COLONY, {GREEN, -1}},
    {CAPTAIN, {LIGHT_ORANGE, -1}},
};

/* Everything gain() needs about a card, in one 8-byte record. */
typedef struct {
    uint8_t kind, col;
    uint8_t mpart, mfact;   /* multiplier product: the other kind of it, points per pair (0: none) */
    uint8_t same, cross;    /* pair mode: 1 for crab/boat/fish (pairs of the kind), swimmer/shark */
    uint8_t ppart;          /* the cross pair's other kind (the kind itself otherwise) */
    uint8_t first_step;     /* collection: low nibble = first card's points, high = each next */
} CardInfo;

static CardInfo CI[NCARDS];
static uint64_t KMASK[NKINDS];         /* the slots of each kind */
static uint8_t DECK0[NCARDS];          /* a full deck, any order (the shuffle is lazy) */

static void init_tables(void) {
    static const int first[NKINDS] = {[SHELL] = 0, [OCTOPUS] = 0, [PENGUIN] = 1, [SAILOR] = 0};
    static const int step[NKINDS] = {[SHELL] = 2, [OCTOPUS] = 3, [PENGUIN] = 2, [SAILOR] = 5};
    int mpart[NKINDS] = {0}, mfact[NKINDS] = {0};
    static const int mult[4][3] = {{LIGHTHOUSE, BOAT, 1}, {SHOAL, FISH, 1}, {COLONY, PENGUIN, 2},
                                   {CAPTAIN, SAILOR, 3}};
    for (int i = 0; i < 4; i++) {
        mpart[mult[i][0]] = mult[i][1]; mpart[mult[i][1]] = mult[i][0];
        mfact[mult[i][0]] = mfact[mult[i][1]] = mult[i][2];
    }
    int n = 0;
    for (int k = 0; k < NKINDS; k++) {
        for (int i = 0; CATALOGUE[k].colours[i] >= 0; i++, n++) {
            CardInfo c;
            c.kind = (uint8_t)k;
            c.col = (uint8_t)CATALOGUE[k].colours[i];
            c.mpart = (uint8_t)mpart[k];
            c.mfact = (uint8_t)mfact[k];
            c.same = (k == CRAB || k == BOAT || k == FISH);
            c.cross = (k == SWIMMER || k == SHARK);
            c.ppart = (uint8_t)(k == SWIMMER ? SHARK : k == SHARK ? SWIMMER : k);
            c.first_step = (uint8_t)(first[k] | (step[k] << 4));
            CI[n] = c;
            KMASK[k] |= 1ull << n;
            DECK0[n] = (uint8_t)n;
        }
    }
    if (n != NCARDS) { fprintf(stderr, "catalogue has %d cards\n", n); exit(2); }
}

/* ------------------------------------------------------------------------------------------ */
/* Random numbers: xoshiro256**, seeded by splitmix64                                          */

typedef struct { uint64_t s[4]; } Rng;

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

INLINE uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

INLINE uint64_t next_u64(Rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n small: Lemire's multiply-shift on the top 32 bits (bias < n / 2^32). */
INLINE uint32_t below(Rng *r, uint32_t n) {
    return (uint32_t)(((next_u64(r) >> 32) * (uint64_t)n) >> 32);
}

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                       */

typedef struct {
    uint8_t G[16];          /* G[x] = number of colours (white = mermaids) with more than x cards */
    uint8_t hk[16];         /* cards in hand by kind */
    uint8_t ak[16];         /* cards in hand + table by kind */
    uint8_t col[16];        /* cards in hand + table by colour */
    uint64_t hand;          /* hand as a mask of card slots */
    int32_t pts;            /* card points (docs/rules.md), kept up to date */
    int32_t revealed;       /* LAST CHANCE: hand revealed, cannot be stolen from */
} __attribute__((aligned(16))) Player;

/* What the round touches most, kept in play_round's frame: the byte stores to hands, piles and
 * counts may alias anything reached through a pointer, never a local that does not escape. */
typedef struct {
    Rng rng;
    int dlen, plen[2];
} Hot;

enum { END_STOP, END_LC_WON, END_LC_LOST, END_VOID, END_MERMAIDS, NENDS };

typedef struct {
    Player pl[4];
    uint8_t deck[NCARDS];
    uint8_t pile[2][NCARDS];
    Rng rng;
    /* the last round's outcome */
    int end, turns, decl_pts, points[4];
} Sim;

/* ------------------------------------------------------------------------------------------ */
/* Card points                                                                                 */

/* What one more mermaid adds to the mermaid term. With m mermaids white holds m cards; the new
 * sum is sum_x min(m + 1, G'[x]) with G'[m] = G[m] + 1, so each x != m adds [G[x] > m] and x = m
 * adds 1: the gain is 1 + #{x != m : G[x] > m}, one vector compare and a popcount. */
INLINE int mermaid_gain(const Player *P) {
    int m = P->ak[MERMAID];
#if defined(__SSE2__)
    __m128i g = _mm_load_si128((const __m128i *)P->G);
    unsigned gt = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(g, _mm_set1_epi8((char)m)));
    return 1 + __builtin_popcount(gt & ~(1u << m));
#else
    int n = 1;
    for (int x = 0; x < 16; x++) n += x != m && P->G[x] > m;
    return n;
#endif
}

/* Card points that card c would add to P's hand. */
INLINE int gain(const Player *P, int c) {
    const CardInfo ci = CI[c];
    int d = ci.mfact * P->ak[ci.mpart];
    int h = P->hk[ci.kind];
    d += (ci.same & h) | (ci.cross & (h < P->hk[ci.ppart]));
    d += P->ak[ci.kind] ? ci.first_step >> 4 : ci.first_step & 15;
    if (unlikely(ci.kind == MERMAID))
        d += mermaid_gain(P);
    else
        d += P->G[P->col[ci.col]] < P->ak[MERMAID];
    return d;
}

/* Card points from scratch (the reference for -DCHECK, and the definition gain() follows). */
static __attribute__((unused)) int card_points(const Player *P) {
    const uint8_t *a = P->ak, *h = P->hk;
    int m = a[MERMAID];
    int cnt[NCOLOURS];
    for (int i = 0; i < NCOLOURS; i++) cnt[i] = P->col[i];
    int M = 0;
    for (int j = 0; j < m; j++) {          /* m largest counts, each colour once */
        int b = 0;
        for (int i = 1; i < NCOLOURS; i++) if (cnt[i] > cnt[b]) b = i;
        M += cnt[b]; cnt[b] = -1000;
    }
    int table_duos = 0;
    for (int k = CRAB; k <= SHARK; k++) table_duos += a[k] - h[k];
    int D = table_duos / 2 + h[CRAB] / 2 + (h[SWIMMER] < h[SHARK] ? h[SWIMMER] : h[SHARK])
            + h[BOAT] / 2 + h[FISH] / 2;
    int C = (a[SHELL] ? 2 * (a[SHELL] - 1) : 0) + (a[OCTOPUS] ? 3 * (a[OCTOPUS] - 1) : 0)
            + (a[PENGUIN] ? 1 + 2 * (a[PENGUIN] - 1) : 0) + (a[SAILOR] ? 5 * (a[SAILOR] - 1) : 0);
    int X = a[LIGHTHOUSE] * a[BOAT] + a[SHOAL] * a[FISH] + 2 * a[COLONY] * a[PENGUIN]
            + 3 * a[CAPTAIN] * a[SAILOR];
    return M + D + C + X;
}

static int colour_bonus(const Player *P) {
    int b = 0;
    for (int i = 0; i < NCOLOURS; i++) if (P->col[i] > b) b = P->col[i];
    return b;
}

#ifdef CHECK
static void check(const Player *P, const char *where) {
    int want = card_points(P);
    int g = 0;
    for (int x = 0; x < 16; x++) {
        int n = 0;
        for (int i = 0; i < NCOLOURS; i++) n += P->col[i] > x;
        if (n != P->G[x]) g = 1;
    }
    if (want != P->pts || g) {
        fprintf(stderr, "CHECK failed after %s: cached %d, scored %d, G ok %d\n", where, P->pts,
                want, !g);
        abort();
    }
}
#define CHECKP(P, w) check(P, w)
#else
#define CHECKP(P, w) ((void)0)
#endif

/* Card c (worth g to P) enters P's hand. */
INLINE void receive(Player *P, int c, int g) {
    const CardInfo ci = CI[c];
    P->pts += g;
    P->hand |= 1ull << c;
    P->hk[ci.kind]++;
    P->ak[ci.kind]++;
    P->G[P->col[ci.col]++]++;
    CHECKP(P, "receive");
}

/* Card c leaves P's hand (stolen); the points drop by what it would gain back. */
INLINE void give_up(Player *P, int c) {
    const CardInfo ci = CI[c];
    P->hand &= ~(1ull << c);
    P->hk[ci.kind]--;
    P->ak[ci.kind]--;
    P->G[--P->col[ci.col]]--;
    P->pts -= gain(P, c);
    CHECKP(P, "give_up");
}

/* Move the first two cards of the pair (kinds k1, k2) from hand to table, card order. Base game:
 * a held pair becomes a table pair, card points and colours stay. */
INLINE void play_pair(Player *P, int k1, int k2) {
    uint64_t h = P->hand;
    uint64_t b1 = h & KMASK[k1];
    b1 &= -b1;
    uint64_t b2 = (h & ~b1) & KMASK[k2];
    b2 &= -b2;
    P->hand = h & ~(b1 | b2);
    P->hk[k1]--;
    P->hk[k2]--;
    CHECKP(P, "play_pair");
}

/* n-th (0-based) set bit of x. */
INLINE int nth_bit(uint64_t x, unsigned n) {
#if defined(__BMI2__)
    return __builtin_ctzll(_pdep_u64(1ull << n, x));
#else
    while (n--) x &= x - 1;
    return __builtin_ctzll(x);
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* The round                                                                                   */

/* Top card of the deck (not empty), drawn lazily: one Fisher-Yates step. */
INLINE int draw_deck(Sim *S, Hot *H) {
    uint32_t j = below(&H->rng, (uint32_t)H->dlen);
    int c = S->deck[j];
    S->deck[j] = S->deck[--H->dlen];
    return c;
}

/* Draw step, the baseline's "Draw step" and docs/rules.md. */
INLINE void draw_step(Sim *S, Hot *H, Player *P) {
    int na = H->plen[0], nb = H->plen[1];
    if (likely(na && nb)) {
        int ta = S->pile[0][na - 1], tb = S->pile[1][nb - 1];
        int ga = gain(P, ta), gb = gain(P, tb);
        int jb = gb > ga;                      /* the pile of higher gain, tie A */
        int g = jb ? gb : ga;
        if (g >= 1 || unlikely(H->dlen == 0)) {
            H->plen[jb]--;
            receive(P, jb ? tb : ta, g);
            return;
        }
    } else if (na || nb) {
        int j = na ? 0 : 1;
        int t = S->pile[j][H->plen[j] - 1];
        int g = gain(P, t);
        if (g >= 1 || H->dlen == 0) { H->plen[j]--; receive(P, t, g); return; }
    } else if (unlikely(H->dlen == 0)) {
        return;                                /* deck and piles empty: take nothing */
    }
    if (unlikely(H->dlen == 1)) {              /* one card: keep it, discard nothing */
        int c = draw_deck(S, H);
        receive(P, c, gain(P, c));
        return;
    }
    int c1 = draw_deck(S, H), c2 = draw_deck(S, H);
    int g1 = gain(P, c1), g2 = gain(P, c2);
    int k2 = g2 > g1;                          /* keep the higher gain, tie c1 (no branch) */
    int kept = k2 ? c2 : c1, other = k2 ? c1 : c2;
    receive(P, kept, k2 ? g2 : g1);
    /* an empty pile (A first), else the pile with fewer cards (tie A) */
    int j = na == 0 ? 0 : nb == 0 ? 1 : nb < na;
    S->pile[j][H->plen[j]++] = (uint8_t)other;
}

/* Crab pair: take the card of highest gain over both piles (tie A before B, nearest the top). */
INLINE void crab_take(Sim *S, Hot *H, Player *P) {
    int bj = 0, bi = -1, bg = -1000;
    for (int j = 0; j < 2; j++) {
        const uint8_t *pile = S->pile[j];
        for (int i = H->plen[j] - 1; i >= 0; i--) {
            int g = gain(P, pile[i]);
            if (g > bg) { bg = g; bj = j; bi = i; }
        }
    }
    uint8_t *pile = S->pile[bj];
    int c = pile[bi];
    int n = --H->plen[bj];
    memmove(pile + bi, pile + bi + 1, (size_t)(n - bi));
    receive(P, c, bg);
}

static void score_last_chance(Sim *S, int np, int caller) {
    int best = 0;
    for (int q = 0; q < np; q++)
        if (q != caller && S->pl[q].pts > best) best = S->pl[q].pts;
    int won = S->pl[caller].pts >= best;
    S->end = won ? END_LC_WON : END_LC_LOST;
    for (int q = 0; q < np; q++) {
        const Player *Q = &S->pl[q];
        if ((q == caller) == won)
            S->points[q] = Q->pts + (won ? colour_bonus(Q) : 0);
        else
            S->points[q] = colour_bonus(Q);
    }
}

enum { DECL_NONE, DECL_STOP, DECL_LC };

/* One round from a fresh shuffle, seat 0 first; the outcome goes to S->end, turns, points. */
INLINE void round_body(Sim *S, Hot *H, int np, int stop_at, int lc_at) {
    memset(S->pl, 0, sizeof(Player) * (size_t)np);
    memcpy(S->deck, DECK0, NCARDS);
    H->dlen = NCARDS;
    S->pile[0][0] = (uint8_t)draw_deck(S, H);
    S->pile[1][0] = (uint8_t)draw_deck(S, H);
    H->plen[0] = H->plen[1] = 1;
    int decl = DECL_NONE, declarer = -1;
    int turns = 0;
    int p = 0;
    for (;;) {
        Player *P = &S->pl[p];
        turns++;
    draw:
        draw_step(S, H, P);
        for (;;) {                              /* play step, the baseline's order */
            if (unlikely(P->ak[MERMAID] == 4)) {
                S->end = END_MERMAIDS;
                S->turns = turns;
                S->decl_pts = 0;
                for (int q = 0; q < np; q++) S->points[q] = 0;
                return;
            }
            if (P->hk[FISH] >= 2 && likely(H->dlen > 0)) {
                play_pair(P, FISH, FISH);
                int c = draw_deck(S, H);
                receive(P, c, gain(P, c));
                continue;
            }
            if (P->hk[CRAB] >= 2 && likely(H->plen[0] + H->plen[1] > 0)) {
                play_pair(P, CRAB, CRAB);
                crab_take(S, H, P);
                continue;
            }
            if (P->hk[SWIMMER] && P->hk[SHARK]) {
                int victim = -1, most = 0;
                for (int i = 1; i < np; i++) {
                    int q = p + i < np ? p + i : p + i - np;
                    int n = S->pl[q].revealed ? 0 : __builtin_popcountll(S->pl[q].hand);
                    if (n > most) { most = n; victim = q; }
                }
                if (victim >= 0) {
                    play_pair(P, SWIMMER, SHARK);
                    Player *V = &S->pl[victim];
                    int c = nth_bit(V->hand, below(&H->rng, (uint32_t)most));
                    give_up(V, c);
                    receive(P, c, gain(P, c));
                    continue;
                }
            }
            if (decl == DECL_NONE && P->pts >= stop_at) {
                decl = P->pts >= lc_at ? DECL_LC : DECL_STOP;
                declarer = p;
                S->decl_pts = P->pts;
                if (decl == DECL_LC) P->revealed = 1;
                break;                          /* declaring ends the turn */
            }
            if (P->hk[BOAT] >= 2 && likely(H->dlen + H->plen[0] + H->plen[1] > 0)) {
                play_pair(P, BOAT, BOAT);
                goto draw;                      /* an extra draw step and play step */
            }
            break;
        }
        /* end of turn, docs/rules.md */
        int nxt = p + 1 < np ? p + 1 : 0;
        if (decl == DECL_STOP) {
            S->end = END_STOP;
            for (int q = 0; q < np; q++) S->points[q] = S->pl[q].pts;
            S->turns = turns;
            return;
        }
        if (decl == DECL_LC) {
            P->revealed = 1;
            if (nxt == declarer) {
                score_last_chance(S, np, declarer);
                S->turns = turns;
                return;
            }
        } else if (unlikely(H->dlen == 0)) {
            S->end = END_VOID;
            S->turns = turns;
            S->decl_pts = 0;
            for (int q = 0; q < np; q++) S->points[q] = 0;
            return;
        }
        p = nxt;
    }
}

static void play_round(Sim *S, int np, int stop_at, int lc_at) {
    Hot hot;
    hot.rng = S->rng;
    round_body(S, &hot, np, stop_at, lc_at);
    S->rng = hot.rng;
}

/* ------------------------------------------------------------------------------------------ */

/* Square root without libm (the build line has no -lm): Newton from a power-of-two start. */
static double root(double v) {
    if (!(v > 0)) return 0.0;
    double r = 1.0;
    while (r * r < v) r *= 2;
    for (int i = 0; i < 100; i++) r = 0.5 * (r + v / r);
    return r;
}

static double ci95(double sum, double sq, double n) {
    if (n < 2) return 0.0;
    double mean = sum / n;
    double var = (sq - n * mean * mean) / (n - 1);
    return 1.96 * root(var > 0 ? var / n : 0);
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 6) {
        fprintf(stderr, "usage: %s PLAYERS ROUNDS SEED [STOP_AT LAST_CHANCE_AT]\n", argv[0]);
        return 2;
    }
    int np = atoi(argv[1]);
    long long rounds = atoll(argv[2]);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    int stop_at = 7, lc_at = 10;
    if (argc == 6) { stop_at = atoi(argv[4]); lc_at = atoi(argv[5]); }
    if (stop_at < 7) stop_at = 7;               /* stop_at below 7 acts as 7 */
    if (np < 2 || np > 4 || rounds < 1) {
        fprintf(stderr, "PLAYERS must be 2 to 4 and ROUNDS positive\n");
        return 2;
    }
    init_tables();
    static Sim S;
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) S.rng.s[i] = splitmix64(&x);

    long long ends[NENDS] = {0};
    long long turns = 0, turns_sq = 0, decl_n = 0, decl_sum = 0, decl_sq = 0;
    long long seat[4] = {0}, seat_sq[4] = {0};

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long long r = 0; r < rounds; r++) {
        play_round(&S, np, stop_at, lc_at);
        ends[S.end]++;
        turns += S.turns;
        turns_sq += (long long)S.turns * S.turns;
        if (S.end <= END_LC_LOST) {
            decl_n++;
            decl_sum += S.decl_pts;
            decl_sq += (long long)S.decl_pts * S.decl_pts;
            for (int q = 0; q < np; q++) {
                seat[q] += S.points[q];
                seat_sq[q] += (long long)S.points[q] * S.points[q];
            }
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    double n = (double)rounds;

    static const char *names[NENDS] = {"stop", "lc_won", "lc_lost", "void", "four_mermaids"};
    printf("{\"players\": %d, \"rounds\": %lld, \"seed\": %llu, \"stop_at\": %d, "
           "\"last_chance_at\": %d, \"seconds\": %.6f, \"rounds_per_second\": %.0f",
           np, rounds, (unsigned long long)seed, stop_at, lc_at, secs, n / secs);
    for (int e = 0; e < NENDS; e++) {
        double p = ends[e] / n;
        printf(", \"%s\": %.6f, \"%s_ci95\": %.6f", names[e], p, names[e],
               1.96 * root(p * (1 - p) / n));
    }
    printf(", \"turns_per_round\": %.5f, \"turns_per_round_ci95\": %.5f", turns / n,
           ci95((double)turns, (double)turns_sq, n));
    printf(", \"declarer_points\": %.5f, \"declarer_points_ci95\": %.5f",
           decl_n ? (double)decl_sum / (double)decl_n : 0.0,
           ci95((double)decl_sum, (double)decl_sq, (double)decl_n));
    printf(", \"seat_points\": [");
    for (int q = 0; q < np; q++) printf("%s%.5f", q ? ", " : "", seat[q] / n);
    printf("], \"seat_points_ci95\": [");
    for (int q = 0; q < np; q++)
        printf("%s%.5f", q ? ", " : "", ci95((double)seat[q], (double)seat_sq[q], n));
    printf("]}\n");
    return 0;
}
