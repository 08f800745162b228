// SPDX-License-Identifier: GPL-2.0
/*
 * tracing_map - the lockless, preallocated hash map behind histograms
 *
 * Copyright (C) 2015 Tom Zanussi <tom.zanussi@linux.intel.com>
 *
 * A histogram adds every event it sees to the entry of the event's key.
 * Events fire in any context, NMI included, on every CPU at once, so the
 * event side of the map (insert, lookup, sums, variables) takes no lock
 * and allocates nothing; its walks over the table are bounded by the
 * table's size, and its only retry loops (the spare stack's) go round
 * again only when another context made progress.  Everything is allocated
 * by tracing_map_init(), before the map is attached to an event.
 *
 * The memory
 * ----------
 *
 *   elements: n_elts == 1 << map_bits of them, one kvzalloc()'d array,
 *             each elt_stride bytes:
 *
 *     [ struct tracing_map_elt | sums[nr_fields] | vars[nr_vars] | key ]
 *
 *   table:    2 * n_elts slots, one 32-bit word each:
 *
 *     0                          the slot is empty
 *     hash tag (14 bits) | i + 1 the slot holds element i; the tag is the
 *                                top of the key's hash, so a probe that
 *                                meets another key rarely reads its element
 *
 *   n_taken:  how many elements have been handed out from the array.
 *   spares:   a stack of elements that were built for a key and then not
 *             needed (see "two CPUs, one new key"), with a generation count
 *             beside its top so that a pop never succeeds on a stale top.
 *
 * A key's slots are probed in order from (hash & table_mask).  The table is
 * never more than half full, so a probe ends after a few slots on an empty
 * one or on the key; in any case after one pass over the table.
 *
 * Who runs concurrently with whom
 * -------------------------------
 *
 * Any number of tracing_map_insert(), tracing_map_lookup(), sum and
 * variable updates, on all CPUs and nested in each other (an NMI may hit
 * in the middle of an insert on the same CPU).  tracing_map_sort_entries()
 * (reading the hist file) runs alongside them.  tracing_map_clear() runs
 * alongside events but not alongside sorting (both are called under
 * event_mutex); tracing_map_init() and tracing_map_destroy() run while no
 * event can reach the map.
 *
 * Insert, and what each atomic step publishes
 * -------------------------------------------
 *
 * 1. Walk the key's probe sequence (acquire loads of the slots).  A slot
 *    holding the key: done, the element is returned.  An empty slot: the
 *    key is not in the map (slots are only ever filled, never emptied,
 *    between two clears).
 * 2. Take an element that nobody else can see: pop a spare or, if there is
 *    none, increment n_taken.  If n_taken goes past n_elts the map is
 *    full: it is decremented again, the event is counted in drops and NULL
 *    returned.  n_taken thus never exceeds n_elts by more than the
 *    number of inserts in flight, and cannot overflow however many events
 *    are dropped.
 * 3. Build the element: copy the key, run elt_ops->elt_init().  Sums and
 *    variables are already zero (from init, from clear, or because a spare
 *    was never seen by anyone).
 * 4. Publish it with one cmpxchg of the empty slot from 0 to (tag | i + 1).
 *    The cmpxchg is fully ordered, so whoever reads the slot with acquire
 *    semantics sees the key and the elt_init() stores: a reader never meets
 *    a half-built element, because an element is unreachable until it is
 *    complete.
 * 5. If the cmpxchg fails, another context published into that slot first.
 *    If it published the same key, its element is the one: the element
 *    built here goes on the spare stack and the other is returned.
 *    Otherwise the walk continues on the next slots, where the key may
 *    also have been placed meanwhile.
 *
 * Two CPUs, one new key: both may take and build an element, but only one
 * cmpxchg succeeds on the slot where the key ends up, and the other finds
 * the key there.  So a key has exactly one element, and every event's
 * counts land in it.  Nothing waits for another context to finish; an NMI
 * that interrupts an insert simply runs its own.
 *
 * The spare stack is a Treiber stack: push and pop are one cmpxchg on
 * (generation, top).  They retry only when another context changed the
 * stack in between, i.e. made progress; a pop that finds it empty falls
 * back to n_taken.  Spares are rare (only the losers of such a race) and
 * are reused by the next new key, so no element is lost.
 *
 * Counts are exact: an insert that returns an element counts in hits, one
 * that finds the map full counts in drops.  As hist adds one to the
 * element's hitcount for each element returned, hits == the sum of all
 * hitcounts, and hits + drops == the events seen, always.
 *
 * Sums and variables are atomic64 per element.  A variable's value is
 * stored before its bit in var_set, and tracing_map_read_var_once() clears
 * the bit: the value is consumed (see "Ordering" for both).
 *
 * Clear
 * -----
 *
 * tracing_map_clear() sets 'clearing', so that inserts and lookups return
 * NULL (counted nowhere), then waits with synchronize_rcu() for those
 * already running: events run with preemption disabled, in RCU read-side
 * critical sections.  It then empties the table, zeroes the used elements,
 * the counters and the spare stack, and lets events in again by clearing
 * 'clearing' (a release, see "Ordering").  The map stays attached to its
 * event throughout.
 *
 * Sorting
 * -------
 *
 * tracing_map_sort_entries() collects the published elements from the table
 * into a kvmalloc'd array, reads each sum that is a sort key once (so the
 * order is consistent while events keep adding to them), and sorts with up
 * to TRACING_MAP_SORT_KEYS_MAX (4) keys; equal lines keep the order in
 * which their keys arrived, so the output is a total order, the same from
 * one read to the next.
 *
 * Ordering
 * --------
 *
 * Events run on every CPU at once, and on a weakly ordered CPU a store
 * made by one may become visible to another after a later store of the
 * same CPU.  So every store that makes something reachable is a release
 * (or a fully ordered atomic), and every load that finds it an acquire,
 * so that whoever finds it sees everything stored before it.  Store by
 * store:
 *
 *  - The slot word, which publishes an element (its key, what elt_init()
 *    wrote, its zeroed sums, variables and var_set): set by a successful
 *    cmpxchg, fully ordered, after all of those stores.  Every load of a
 *    slot is an acquire: the walk of insert and lookup, the re-read after
 *    a failed cmpxchg (a failed cmpxchg orders nothing), and the walk of
 *    tracing_map_sort_entries().  What the sort then reads of the element
 *    (key, private data, sums) comes after that acquire.
 *    Checked by tools/memory-model/litmus-tests/tracing/map-publish.litmus.
 *  - The key and elt_init()'s stores are plain: before the publish nobody
 *    else can reach the element (it was taken from n_taken or popped from
 *    the spare stack by this context alone), and after it they never
 *    change until a clear.
 *  - n_taken: atomic_inc_return() is fully ordered and hands each context
 *    its own index; nothing is published through it.  The sort reads it
 *    relaxed, only as an upper bound on what it collects: its walk stops
 *    at that many entries, so a stale value costs lines, never memory.
 *  - The spare stack: push stores next_spare (WRITE_ONCE) and then swings
 *    the top with a fully ordered cmpxchg; pop loads the top with an
 *    acquire before it reads next_spare (READ_ONCE, as a racing push may
 *    rewrite it; the generation then fails the pop's cmpxchg).
 *    Checked by tools/memory-model/litmus-tests/tracing/map-spare.litmus
 *    and tools/memory-model/litmus-tests/tracing/map-spare-aba.litmus.
 *  - Sums: relaxed atomic64 adds and reads.  They publish nothing; a
 *    reader that found the element sees a sum at least as recent as the
 *    zero it was published with, and each add lands exactly once.  hits
 *    and drops likewise.
 *  - Variables: the value is stored, then smp_mb__before_atomic() and
 *    set_bit(): a release of the value by the bit.  tracing_map_var_set()
 *    tests the bit with test_bit_acquire(), so a reader that sees the bit
 *    sees that value (or a later one).  tracing_map_read_var_once()
 *    clears the bit and then, after smp_mb__after_atomic(), reads the
 *    value: when the bit it cleared was set by a newer store, the read
 *    cannot be satisfied early with the older value, so a value is never
 *    consumed without being read.
 *    Checked by tools/memory-model/litmus-tests/tracing/map-var-set.litmus
 *    and tools/memory-model/litmus-tests/tracing/map-var-consume.litmus.
 *  - 'clearing': the clear stores true, waits for the events in flight,
 *    resets the table, elements, counters and spares with plain stores,
 *    and stores false with a release; inserts and lookups load it with an
 *    acquire.  An event that sees false after a clear therefore sees the
 *    empty table and the zeroed elements; with a plain load it could read
 *    a slot as it was before the clear and take an element that the next
 *    key is being given, adding the old key's counts to it.  An event
 *    that runs before it sees true is in an RCU read-side section that
 *    the clear waits for.
 *    Checked by tools/memory-model/litmus-tests/tracing/map-clear-grace.litmus
 *    and tools/memory-model/litmus-tests/tracing/map-clear-reopen.litmus.
 *  - The clear and the sort never run at once (both under event_mutex),
 *    and tracing_map_init()'s stores reach events through the RCU publish
 *    of the trigger that uses the map.
 *    Checked by tools/memory-model/litmus-tests/tracing/trigger-list.litmus.
 */
#include <linux/hash.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/unaligned.h>

#include "tracing_map.h"

/* A slot: the element's index + 1 in the low bits, a hash tag above. */
#define TMAP_IDX_BITS		18
#define TMAP_IDX_MASK		((1U << TMAP_IDX_BITS) - 1)
static_assert(TRACING_MAP_BITS_MAX < TMAP_IDX_BITS);

static inline struct tracing_map_elt *tmap_elt(struct tracing_map *map,
					       unsigned int idx)
{
	return map->elts + (size_t)idx * map->elt_stride;
}

static inline struct tracing_map_elt *tmap_slot_elt(struct tracing_map *map,
						    u32 word)
{
	return tmap_elt(map, (word & TMAP_IDX_MASK) - 1);
}

/*
 * Histogram keys are made of u64 words (a string field takes 256 bytes of
 * them).  Each word is folded in with one multiply, and a shift brings its
 * high bits down to where the slot index is taken; on a string key this
 * costs about a third of jhash().  Both ends of the result are mixed: the
 * low bits pick the slot, the high ones make the tag.
 */
static noinline u32 tmap_hash_words(const u8 *p, unsigned int n)
{
	u64 h = n;

	for (; n >= sizeof(u64); n -= sizeof(u64), p += sizeof(u64)) {
		h = (h ^ get_unaligned((const u64 *)p)) * GOLDEN_RATIO_64;
		h ^= h >> 29;
	}
	for (; n; n--, p++)
		h = (h ^ *p) * GOLDEN_RATIO_64;
	return hash_64(h, 32);
}

/* A one-word key, the usual one, is hashed without a call */
static __always_inline u32 tmap_hash(struct tracing_map *map, void *key)
{
	if (map->key_bytes == sizeof(u64))
		return hash_64(get_unaligned((u64 *)key), 32);
	return tmap_hash_words(key, map->key_bytes);
}

/* Keys of whole u64 words, the usual case, are compared a word at a time */
static __always_inline bool tmap_key_equal(struct tracing_map *map,
					   void *a, void *b)
{
	unsigned int i, n = map->key_bytes;

	if (n == sizeof(u64))
		return get_unaligned((u64 *)a) == get_unaligned((u64 *)b);
	if (n % sizeof(u64))
		return !memcmp(a, b, n);
	for (i = 0; i < n; i += sizeof(u64))
		if (get_unaligned((u64 *)(a + i)) != get_unaligned((u64 *)(b + i)))
			return false;
	return true;
}

/* The spare stack's word: generation in the high half, top index + 1 low. */
static void tmap_push_spare(struct tracing_map *map, struct tracing_map_elt *elt)
{
	s64 old = atomic64_read(&map->spares);
	u64 new;

	do {
		WRITE_ONCE(elt->next_spare, (u32)old);
		new = ((((u64)old >> 32) + 1) << 32) | (elt->idx + 1);
	} while (!atomic64_try_cmpxchg(&map->spares, &old, new));
}

static struct tracing_map_elt *tmap_pop_spare(struct tracing_map *map)
{
	struct tracing_map_elt *elt;
	s64 old;
	u64 new;

	do {
		old = atomic64_read_acquire(&map->spares);
		if (!(u32)old)
			return NULL;
		elt = tmap_elt(map, (u32)old - 1);
		new = ((((u64)old >> 32) + 1) << 32) | READ_ONCE(elt->next_spare);
	} while (atomic64_cmpxchg(&map->spares, old, new) != old);

	return elt;
}

/* An element for a new key, not yet visible to anyone; NULL if full. */
static struct tracing_map_elt *tmap_take(struct tracing_map *map, void *key)
{
	struct tracing_map_elt *elt = tmap_pop_spare(map);

	if (!elt) {
		unsigned int n = atomic_inc_return(&map->n_taken);

		if (n > map->n_elts) {
			atomic_dec(&map->n_taken);
			return NULL;
		}
		elt = tmap_elt(map, n - 1);
	}
	memcpy(elt->key, key, map->key_bytes);
	if (map->elt_ops && map->elt_ops->elt_init)
		map->elt_ops->elt_init(elt);
	return elt;
}

/*
 * The walk of insert and lookup.  With @insert, the first empty slot met
 * gets a new element for @key (see "Insert" above).
 */
static __always_inline struct tracing_map_elt *
tmap_walk(struct tracing_map *map, void *key, bool insert)
{
	struct tracing_map_elt *mine = NULL, *elt;
	u32 hash = tmap_hash(map, key);
	u32 tag = hash & ~TMAP_IDX_MASK;
	unsigned int n;

	for (n = 0; n <= map->table_mask; n++) {
		atomic_t *slot = &map->table[(hash + n) & map->table_mask];
		u32 word = atomic_read_acquire(slot);

		if (!word) {
			if (!insert)
				return NULL;
			if (!mine) {
				mine = tmap_take(map, key);
				if (!mine)
					break;
			}
			if (atomic_try_cmpxchg(slot, &word, tag | (mine->idx + 1)))
				return mine;
			word = atomic_read_acquire(slot);
		}
		if ((word & ~TMAP_IDX_MASK) != tag)
			continue;
		elt = tmap_slot_elt(map, word);
		if (tmap_key_equal(map, elt->key, key)) {
			/* lost a race to insert the same key */
			if (unlikely(mine))
				tmap_push_spare(map, mine);
			return elt;
		}
	}

	/* Only reached when full: the table always keeps an empty slot. */
	if (mine)
		tmap_push_spare(map, mine);
	return NULL;
}

/**
 * tracing_map_insert - the element of @key, given one if it has none
 * @map: the map, initialized
 * @key: key_bytes bytes
 *
 * Any context, NMI included.
 *
 * Return: the element (counted in map->hits), or NULL if the key is new
 * and the map full (counted in map->drops) or the map is being cleared.
 */
struct tracing_map_elt *tracing_map_insert(struct tracing_map *map, void *key)
{
	struct tracing_map_elt *elt;

	/* Pairs with the release at the end of tracing_map_clear(). */
	if (unlikely(smp_load_acquire(&map->clearing)))
		return NULL;
	elt = tmap_walk(map, key, true);
	if (likely(elt)) {
		atomic64_inc(&map->hits);
		return elt;
	}
	atomic64_inc(&map->drops);
	return NULL;
}

/**
 * tracing_map_lookup - the element of @key, if it has one
 * @map: the map, initialized
 * @key: key_bytes bytes
 *
 * Any context, NMI included.
 *
 * Return: the element, or NULL if the key has none or the map is being
 * cleared.
 */
struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map, void *key)
{
	/* Pairs with the release at the end of tracing_map_clear(). */
	if (unlikely(smp_load_acquire(&map->clearing)))
		return NULL;
	return tmap_walk(map, key, false);
}

void tracing_map_update_sum(struct tracing_map_elt *elt, unsigned int i, u64 n)
{
	atomic64_add(n, &elt->sums[i]);
}

u64 tracing_map_read_sum(struct tracing_map_elt *elt, unsigned int i)
{
	return (u64)atomic64_read(&elt->sums[i]);
}

void tracing_map_set_var(struct tracing_map_elt *elt, unsigned int i, u64 n)
{
	atomic64_set(&elt->vars[i], n);
	/* The value before the bit: pairs with test_bit_acquire(). */
	smp_mb__before_atomic();
	set_bit(i, &elt->var_set);
}

bool tracing_map_var_set(struct tracing_map_elt *elt, unsigned int i)
{
	return test_bit_acquire(i, &elt->var_set);
}

u64 tracing_map_read_var(struct tracing_map_elt *elt, unsigned int i)
{
	return (u64)atomic64_read(&elt->vars[i]);
}

/* Read the variable and mark it consumed: it is unset until set again. */
u64 tracing_map_read_var_once(struct tracing_map_elt *elt, unsigned int i)
{
	clear_bit(i, &elt->var_set);
	/* The value of the bit just cleared, not an older one. */
	smp_mb__after_atomic();
	return (u64)atomic64_read(&elt->vars[i]);
}

#define TMAP_CMP_NUM(type)						\
static int tmap_cmp_##type(void *a, void *b)				\
{									\
	type x = *(type *)a, y = *(type *)b;				\
									\
	return (x > y) - (x < y);					\
}

TMAP_CMP_NUM(s64)
TMAP_CMP_NUM(u64)
TMAP_CMP_NUM(s32)
TMAP_CMP_NUM(u32)
TMAP_CMP_NUM(s16)
TMAP_CMP_NUM(u16)
TMAP_CMP_NUM(s8)
TMAP_CMP_NUM(u8)

/* The order of a numeric key field of @field_size bytes. */
tracing_map_cmp_fn_t tracing_map_cmp_num(int field_size, int field_is_signed)
{
	switch (field_size) {
	case 8:
		return field_is_signed ? tmap_cmp_s64 : tmap_cmp_u64;
	case 4:
		return field_is_signed ? tmap_cmp_s32 : tmap_cmp_u32;
	case 2:
		return field_is_signed ? tmap_cmp_s16 : tmap_cmp_u16;
	case 1:
		return field_is_signed ? tmap_cmp_s8 : tmap_cmp_u8;
	default:
		return tracing_map_cmp_none;
	}
}

int tracing_map_cmp_string(void *val_a, void *val_b)
{
	return strcmp(val_a, val_b);
}

/* For keys with no meaningful order (stack traces): all equal. */
int tracing_map_cmp_none(void *val_a, void *val_b)
{
	return 0;
}

/* What tracing_map_sort_entries() sorts by, for sort_r(). */
struct tmap_sort {
	struct tracing_map		*map;
	struct tracing_map_sort_key	keys[TRACING_MAP_SORT_KEYS_MAX];
	unsigned int			n_keys;
};

static int tmap_cmp_entries(const void *pa, const void *pb, const void *priv)
{
	const struct tracing_map_sort_entry *a = *(void * const *)pa;
	const struct tracing_map_sort_entry *b = *(void * const *)pb;
	const struct tmap_sort *s = priv;
	unsigned int i;

	for (i = 0; i < s->n_keys; i++) {
		const struct tmap_field *f = &s->map->field[s->keys[i].field_idx];
		int r;

		if (f->is_key)
			r = f->cmp(a->key + f->key_offset, b->key + f->key_offset);
		else
			r = (a->sum[i] > b->sum[i]) - (a->sum[i] < b->sum[i]);
		if (r)
			return s->keys[i].descending ? -r : r;
	}
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/**
 * tracing_map_sort_entries - a sorted snapshot of the map's entries
 * @map: the map
 * @keys: what to order by, the first key first
 * @n_keys: up to TRACING_MAP_SORT_KEYS_MAX
 * @entries: set to the array of entries, for
 *	tracing_map_destroy_sort_entries()
 *
 * May sleep.  The elements keep counting while the caller reads them.
 *
 * Return: the number of entries, or a negative errno.
 */
int tracing_map_sort_entries(struct tracing_map *map,
			     struct tracing_map_sort_key *keys, unsigned int n_keys,
			     struct tracing_map_sort_entry ***entries)
{
	struct tmap_sort s = { .map = map, .n_keys = n_keys };
	struct tracing_map_sort_entry **ptrs, *ents;
	unsigned int i, j, n = 0, max;

	if (n_keys > TRACING_MAP_SORT_KEYS_MAX)
		return -EINVAL;
	for (i = 0; i < n_keys; i++) {
		if (keys[i].field_idx >= map->nr_fields)
			return -EINVAL;
		s.keys[i] = keys[i];
	}

	max = min_t(unsigned int, atomic_read(&map->n_taken), map->n_elts);
	ptrs = kvmalloc(array_size(max, sizeof(*ptrs) + sizeof(*ents)), GFP_KERNEL);
	if (!ptrs)
		return -ENOMEM;
	ents = (void *)(ptrs + max);

	for (i = 0; i <= map->table_mask && n < max; i++) {
		u32 word = atomic_read_acquire(&map->table[i]);
		struct tracing_map_sort_entry *e = &ents[n];

		if (!word)
			continue;
		e->elt = tmap_slot_elt(map, word);
		e->key = e->elt->key;
		e->idx = e->elt->idx;
		for (j = 0; j < n_keys; j++)
			e->sum[j] = tracing_map_read_sum(e->elt, s.keys[j].field_idx);
		ptrs[n++] = e;
	}

	sort_r(ptrs, n, sizeof(*ptrs), tmap_cmp_entries, NULL, &s);
	*entries = ptrs;
	return n;
}

void tracing_map_destroy_sort_entries(struct tracing_map_sort_entry **entries,
				      unsigned int n)
{
	kvfree(entries);
}

/**
 * tracing_map_create - a map of 1 << @bits elements, not yet usable
 * @bits: TRACING_MAP_BITS_MIN to TRACING_MAP_BITS_MAX
 * @key_bytes: bytes of a key
 * @elt_ops: per-element callbacks, or NULL
 * @data: the caller's, kept in map->private_data
 *
 * Add the fields and variables, then call tracing_map_init().
 *
 * Return: the map, or an ERR_PTR().
 */
struct tracing_map *tracing_map_create(unsigned int bits, unsigned int key_bytes,
				       const struct tracing_map_ops *elt_ops, void *data)
{
	struct tracing_map *map;

	if (bits < TRACING_MAP_BITS_MIN || bits > TRACING_MAP_BITS_MAX || !key_bytes)
		return ERR_PTR(-EINVAL);

	map = kzalloc_obj(*map);
	if (!map)
		return ERR_PTR(-ENOMEM);

	map->map_bits = bits;
	map->n_elts = 1U << bits;
	map->key_bytes = key_bytes;
	map->private_data = data;
	map->elt_ops = elt_ops;
	return map;
}

static int tmap_add_field(struct tracing_map *map, bool is_key,
			  unsigned int offset, tracing_map_cmp_fn_t cmp)
{
	struct tmap_field *f;

	if (map->elts || map->nr_fields >= TRACING_MAP_FIELDS_MAX)
		return -EINVAL;
	if (is_key && map->n_key_fields >= TRACING_MAP_KEYS_MAX)
		return -EINVAL;

	f = &map->field[map->nr_fields];
	f->is_key = is_key;
	f->key_offset = offset;
	f->cmp = cmp;
	if (is_key)
		map->n_key_fields++;
	return map->nr_fields++;
}

/* Return: the index of the new sum, for update_sum() and read_sum(). */
int tracing_map_add_sum_field(struct tracing_map *map)
{
	return tmap_add_field(map, false, 0, NULL);
}

/* Return: the index of the new key field, for sort keys. */
int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      tracing_map_cmp_fn_t cmp)
{
	return tmap_add_field(map, true, offset, cmp);
}

/* Return: the index of the new variable, for the *_var() calls. */
int tracing_map_add_var(struct tracing_map *map)
{
	if (map->elts || map->nr_vars >= TRACING_MAP_VARS_MAX)
		return -EINVAL;
	return map->nr_vars++;
}

/**
 * tracing_map_init - allocate every element and the table
 * @map: a map from tracing_map_create() with its fields added
 *
 * May sleep; calls elt_ops->elt_alloc() for each element.
 *
 * Return: 0, or a negative errno (the map is then only fit for destroy).
 */
int tracing_map_init(struct tracing_map *map)
{
	size_t head = ALIGN(sizeof(struct tracing_map_elt), sizeof(u64));
	size_t sums = map->nr_fields * sizeof(atomic64_t);
	size_t vars = map->nr_vars * sizeof(atomic64_t);
	unsigned int i;
	int ret;

	if (map->elts || map->nr_fields < 2)
		return -EINVAL;

	BUILD_BUG_ON(TRACING_MAP_VARS_MAX > BITS_PER_LONG);
	map->elt_stride = head + sums + vars + ALIGN(map->key_bytes, sizeof(u64));
	map->table_mask = 2 * map->n_elts - 1;
	map->table = kvcalloc(map->table_mask + 1, sizeof(*map->table), GFP_KERNEL);
	map->elts = kvzalloc(array_size(map->n_elts, map->elt_stride), GFP_KERNEL);
	if (!map->table || !map->elts)
		return -ENOMEM;

	for (i = 0; i < map->n_elts; i++) {
		struct tracing_map_elt *elt = tmap_elt(map, i);

		elt->map = map;
		elt->idx = i;
		elt->sums = (void *)elt + head;
		elt->vars = (void *)elt + head + sums;
		elt->key = (void *)elt + head + sums + vars;
		if (map->elt_ops && map->elt_ops->elt_alloc) {
			ret = map->elt_ops->elt_alloc(elt);
			if (ret)
				return ret;
		}
		map->n_alloced++;
	}
	return 0;
}

/* The caller ensures no event can reach @map any more. */
void tracing_map_destroy(struct tracing_map *map)
{
	unsigned int i;

	if (!map)
		return;
	if (map->elt_ops && map->elt_ops->elt_free)
		for (i = 0; i < map->n_alloced; i++)
			map->elt_ops->elt_free(tmap_elt(map, i));
	kvfree(map->elts);
	kvfree(map->table);
	kfree(map);
}

/**
 * tracing_map_clear - empty the map while it stays attached to its event
 * @map: the map
 *
 * May sleep.  Not to be called alongside tracing_map_sort_entries().
 */
void tracing_map_clear(struct tracing_map *map)
{
	unsigned int i, used;

	if (!map->elts)
		return;

	WRITE_ONCE(map->clearing, true);
	synchronize_rcu();

	used = min_t(unsigned int, atomic_read(&map->n_taken), map->n_elts);
	for (i = 0; i < used; i++) {
		struct tracing_map_elt *elt = tmap_elt(map, i);

		memset(elt->sums, 0, map->nr_fields * sizeof(*elt->sums));
		memset(elt->vars, 0, map->nr_vars * sizeof(*elt->vars));
		elt->var_set = 0;
		if (map->elt_ops && map->elt_ops->elt_clear)
			map->elt_ops->elt_clear(elt);
	}
	memset(map->table, 0, (map->table_mask + 1) * sizeof(*map->table));
	atomic_set(&map->n_taken, 0);
	atomic64_set(&map->spares, 0);
	atomic64_set(&map->hits, 0);
	atomic64_set(&map->drops, 0);

	/* Every reset above before the first event let in again. */
	smp_store_release(&map->clearing, false);
}
