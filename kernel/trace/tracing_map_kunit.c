// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of tracing_map: what histograms rely on.
 *
 * Every test drives the map only through the interface trace_events_hist.c
 * uses, so the suite states the contract rather than one implementation.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tracing_map.h"

struct tmap_test_str_key {
	char	s[16];
};

/* Three parts, at offsets 0, 8 and 24. */
struct tmap_test_compound_key {
	u64	a;
	char	s[16];
	u64	b;
};

static_assert(offsetof(struct tmap_test_compound_key, b) == 24);

static void tmap_test_free(void *map)
{
	tracing_map_destroy(map);
}

/* A map of @bits whose key is a u64, with a hitcount and @n_sums sums. */
static struct tracing_map *tmap_test_num_map(struct kunit *test,
					     unsigned int bits,
					     unsigned int n_sums)
{
	struct tracing_map *map;
	unsigned int i;

	map = tracing_map_create(bits, sizeof(u64), NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(map));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tmap_test_free, map), 0);
	for (i = 0; i < 1 + n_sums; i++)
		KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), (int)i);
	KUNIT_ASSERT_EQ(test, tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 0)),
			(int)(1 + n_sums));
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	return map;
}

/* Parts a and b, and "odd" or "even" after a between them. */
static void tmap_test_set_compound(struct tmap_test_compound_key *key,
				   u64 a, u64 b)
{
	memset(key, 0, sizeof(*key));
	key->a = a;
	key->b = b;
	strscpy(key->s, a & 1 ? "odd" : "even", sizeof(key->s));
}

/* A map of 2^7 whose key is a string (struct tmap_test_str_key), with a hitcount. */
static struct tracing_map *tmap_test_str_map(struct kunit *test)
{
	struct tracing_map *map;

	map = tracing_map_create(7, sizeof(struct tmap_test_str_key), NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(map));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tmap_test_free, map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_key_field(map, 0, tracing_map_cmp_string), 1);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	return map;
}

/* String keys are compared whole: the bytes past the NUL must be zero. */
static void tmap_test_set_str(struct tmap_test_str_key *key, const char *s)
{
	memset(key, 0, sizeof(*key));
	strscpy(key->s, s, sizeof(key->s));
}

static struct tracing_map_elt *tmap_test_hit(struct tracing_map *map, u64 key)
{
	struct tracing_map_elt *elt = tracing_map_insert(map, &key);

	if (elt)
		tracing_map_update_sum(elt, 0, 1);
	return elt;
}

static void tmap_test_numeric_keys(struct kunit *test)
{
	struct tracing_map *map = tmap_test_num_map(test, 7, 1);
	struct tracing_map_elt *elt;
	u64 key;

	for (key = 1; key <= 100; key++) {
		elt = tracing_map_insert(map, &key);
		KUNIT_ASSERT_NOT_NULL(test, elt);
		tracing_map_update_sum(elt, 0, 1);
		tracing_map_update_sum(elt, 1, key * 10);
	}
	for (key = 1; key <= 100; key++) {
		elt = tracing_map_lookup(map, &key);
		KUNIT_ASSERT_NOT_NULL(test, elt);
		KUNIT_EXPECT_EQ(test, *(u64 *)elt->key, key);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, 0), 1ULL);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, 1), key * 10);
		KUNIT_EXPECT_PTR_EQ(test, tracing_map_insert(map, &key), elt);
	}
	key = 0;
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &key));
	key = 101;
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &key));
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->hits), 200LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->drops), 0LL);
}

static void tmap_test_string_keys(struct kunit *test)
{
	static const char * const words[] = { "alpha", "beta", "gamma", "",
					      "alphabet", "0123456789abcde" };
	struct tmap_test_str_key key;
	struct tracing_map_elt *elt;
	struct tracing_map *map;
	unsigned int i;

	map = tmap_test_str_map(test);

	for (i = 0; i < ARRAY_SIZE(words); i++) {
		tmap_test_set_str(&key, words[i]);
		elt = tracing_map_insert(map, &key);
		KUNIT_ASSERT_NOT_NULL(test, elt);
		tracing_map_update_sum(elt, 0, i + 1);
	}
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		tmap_test_set_str(&key, words[i]);
		elt = tracing_map_lookup(map, &key);
		KUNIT_ASSERT_NOT_NULL(test, elt);
		KUNIT_EXPECT_STREQ(test, (char *)elt->key, words[i]);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, 0), (u64)i + 1);
	}
	tmap_test_set_str(&key, "alph");
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &key));
}

static void tmap_test_compound_keys(struct kunit *test)
{
	struct tmap_test_compound_key key;
	struct tracing_map_elt *elt;
	struct tracing_map *map;
	unsigned int a, b;

	map = tracing_map_create(7, sizeof(key), NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(map));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tmap_test_free, map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 0)), 1);
	KUNIT_ASSERT_EQ(test, tracing_map_add_key_field(map, 8, tracing_map_cmp_string), 2);
	KUNIT_ASSERT_EQ(test, tracing_map_add_key_field(map, 24, tracing_map_cmp_num(8, 1)), 3);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);

	/* Keys differing in one part only are distinct entries. */
	for (a = 0; a < 4; a++) {
		for (b = 0; b < 4; b++) {
			tmap_test_set_compound(&key, a, b);
			elt = tracing_map_insert(map, &key);
			KUNIT_ASSERT_NOT_NULL(test, elt);
			tracing_map_update_sum(elt, 0, a * 4 + b);
		}
	}
	for (a = 0; a < 4; a++) {
		for (b = 0; b < 4; b++) {
			tmap_test_set_compound(&key, a, b);
			elt = tracing_map_lookup(map, &key);
			KUNIT_ASSERT_NOT_NULL(test, elt);
			KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, 0),
					(u64)a * 4 + b);
			strscpy(key.s, a & 1 ? "even" : "odd", sizeof(key.s));
			KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &key));
		}
	}
}

/* A full map refuses new keys, counts each one, and keeps the old ones. */
static void tmap_test_full_map(struct kunit *test)
{
	struct tracing_map *map = tmap_test_num_map(test, 7, 0);
	struct tracing_map_elt *elt;
	u64 key;

	for (key = 0; key < 128; key++)
		KUNIT_ASSERT_NOT_NULL(test, tmap_test_hit(map, key));
	for (key = 1000; key < 1300; key++)
		KUNIT_EXPECT_NULL(test, tmap_test_hit(map, key));
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->drops), 300LL);
	for (key = 0; key < 128; key++)
		KUNIT_EXPECT_NOT_NULL(test, tmap_test_hit(map, key));
	key = 1000;
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &key));
	key = 127;
	elt = tracing_map_lookup(map, &key);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, 0), 2ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->hits), 128LL + 128);
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->drops), 300LL);
}

static void tmap_test_vars(struct kunit *test)
{
	struct tracing_map_elt *elt, *other;
	struct tracing_map *map;
	u64 key = 7;

	map = tracing_map_create(7, sizeof(u64), NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(map));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tmap_test_free, map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_var(map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_var(map), 1);
	KUNIT_ASSERT_EQ(test, tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 0)), 1);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);

	elt = tracing_map_insert(map, &key);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	key = 8;
	other = tracing_map_insert(map, &key);
	KUNIT_ASSERT_NOT_NULL(test, other);

	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(elt, 0));
	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(elt, 1));
	tracing_map_set_var(elt, 1, 12345);
	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(elt, 0));
	KUNIT_EXPECT_TRUE(test, tracing_map_var_set(elt, 1));
	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(other, 1));
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(elt, 1), 12345ULL);
	KUNIT_EXPECT_TRUE(test, tracing_map_var_set(elt, 1));
	KUNIT_EXPECT_EQ(test, tracing_map_read_var_once(elt, 1), 12345ULL);
	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(elt, 1));
	tracing_map_set_var(elt, 1, 6);
	KUNIT_EXPECT_TRUE(test, tracing_map_var_set(elt, 1));
	KUNIT_EXPECT_EQ(test, tracing_map_read_var_once(elt, 1), 6ULL);

	tracing_map_update_sum(elt, 0, 3);
	tracing_map_update_sum(elt, 0, 4);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, 0), 7ULL);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(other, 0), 0ULL);
}

static void tmap_test_clear(struct kunit *test)
{
	struct tracing_map *map = tmap_test_num_map(test, 7, 0);
	struct tracing_map_elt *elt;
	u64 key;

	for (key = 0; key < 200; key++)
		tmap_test_hit(map, key);
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->drops), 72LL);
	tracing_map_clear(map);
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->hits), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->drops), 0LL);
	key = 5;
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &key));

	/* The whole capacity is there again, and every count starts at 0. */
	for (key = 500; key < 628; key++)
		KUNIT_ASSERT_NOT_NULL(test, tmap_test_hit(map, key));
	key = 5;
	KUNIT_EXPECT_NULL(test, tmap_test_hit(map, key));
	key = 600;
	elt = tracing_map_lookup(map, &key);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->drops), 1LL);
}

/* Sorting: the values each line of a sorted map shows. */
static u64 tmap_test_sorted(struct tracing_map_sort_entry **e, unsigned int i,
			    int field)
{
	return field < 0 ? *(u64 *)e[i]->key : tracing_map_read_sum(e[i]->elt, field);
}

static void tmap_test_sort_one_key(struct kunit *test)
{
	struct tracing_map *map = tmap_test_num_map(test, 7, 1);
	struct tracing_map_sort_key sk = { };
	struct tracing_map_sort_entry **e;
	struct tracing_map_elt *elt;
	int n, i;
	u64 key;

	/* Keys 0..49 with distinct sums that run against the key order. */
	for (key = 0; key < 50; key++) {
		elt = tmap_test_hit(map, key);
		KUNIT_ASSERT_NOT_NULL(test, elt);
		tracing_map_update_sum(elt, 1, (key * 37) % 50);
	}

	sk.field_idx = 1;
	sk.descending = false;
	n = tracing_map_sort_entries(map, &sk, 1, &e);
	KUNIT_ASSERT_EQ(test, n, 50);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, tmap_test_sorted(e, i, 1), (u64)i);
	tracing_map_destroy_sort_entries(e, n);

	sk.descending = true;
	n = tracing_map_sort_entries(map, &sk, 1, &e);
	KUNIT_ASSERT_EQ(test, n, 50);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, tmap_test_sorted(e, i, 1), (u64)(49 - i));
	tracing_map_destroy_sort_entries(e, n);

	/* By the key field itself. */
	sk.field_idx = 2;
	sk.descending = false;
	n = tracing_map_sort_entries(map, &sk, 1, &e);
	KUNIT_ASSERT_EQ(test, n, 50);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, tmap_test_sorted(e, i, -1), (u64)i);
	tracing_map_destroy_sort_entries(e, n);

	sk.descending = true;
	n = tracing_map_sort_entries(map, &sk, 1, &e);
	KUNIT_ASSERT_EQ(test, n, 50);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, tmap_test_sorted(e, i, -1), (u64)(49 - i));
	tracing_map_destroy_sort_entries(e, n);
}

static void tmap_test_sort_signed(struct kunit *test)
{
	struct tracing_map_sort_key sk = { .field_idx = 1 };
	struct tracing_map_sort_entry **e;
	struct tracing_map *map;
	s64 keys[] = { 5, -3, 0, -100, 42, 1 };
	s64 sorted[] = { -100, -3, 0, 1, 5, 42 };
	int n, i;

	map = tracing_map_create(7, sizeof(s64), NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(map));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tmap_test_free, map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 1)), 1);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		KUNIT_ASSERT_NOT_NULL(test, tracing_map_insert(map, &keys[i]));

	n = tracing_map_sort_entries(map, &sk, 1, &e);
	KUNIT_ASSERT_EQ(test, n, (int)ARRAY_SIZE(keys));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, *(s64 *)e[i]->key, sorted[i]);
	tracing_map_destroy_sort_entries(e, n);
}

static void tmap_test_sort_string(struct kunit *test)
{
	static const char * const words[] = { "pear", "apple", "fig", "banana",
					      "cherry", "apricot" };
	static const char * const asc[] = { "apple", "apricot", "banana",
					    "cherry", "fig", "pear" };
	struct tracing_map_sort_key sk = { .field_idx = 1 };
	struct tracing_map_sort_entry **e;
	struct tmap_test_str_key key;
	struct tracing_map *map;
	int n, i;

	map = tmap_test_str_map(test);
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		tmap_test_set_str(&key, words[i]);
		KUNIT_ASSERT_NOT_NULL(test, tracing_map_insert(map, &key));
	}

	n = tracing_map_sort_entries(map, &sk, 1, &e);
	KUNIT_ASSERT_EQ(test, n, (int)ARRAY_SIZE(words));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_STREQ(test, (char *)e[i]->key, asc[i]);
	tracing_map_destroy_sort_entries(e, n);

	sk.descending = true;
	n = tracing_map_sort_entries(map, &sk, 1, &e);
	KUNIT_ASSERT_EQ(test, n, (int)ARRAY_SIZE(words));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_STREQ(test, (char *)e[i]->key, asc[n - 1 - i]);
	tracing_map_destroy_sort_entries(e, n);
}

/* Two sort keys: the second orders the lines the first finds equal. */
static void tmap_test_sort_two_keys(struct kunit *test)
{
	struct tracing_map *map = tmap_test_num_map(test, 7, 1);
	struct tracing_map_sort_key sk[2] = { };
	struct tracing_map_sort_entry **e;
	struct tracing_map_elt *elt;
	int n, i;
	u64 key;

	/* sum 1 is key % 5: ten keys share each value. */
	for (key = 0; key < 50; key++) {
		elt = tmap_test_hit(map, (key * 7) % 50);
		KUNIT_ASSERT_NOT_NULL(test, elt);
		tracing_map_update_sum(elt, 1, ((key * 7) % 50) % 5);
	}

	sk[0].field_idx = 1;
	sk[0].descending = true;
	sk[1].field_idx = 2;
	sk[1].descending = false;
	n = tracing_map_sort_entries(map, sk, 2, &e);
	KUNIT_ASSERT_EQ(test, n, 50);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, tmap_test_sorted(e, i, 1), (u64)(4 - i / 10));
		KUNIT_EXPECT_EQ(test, tmap_test_sorted(e, i, -1),
				(u64)(4 - i / 10 + 5 * (i % 10)));
	}
	tracing_map_destroy_sort_entries(e, n);

	sk[0].descending = false;
	sk[1].descending = true;
	n = tracing_map_sort_entries(map, sk, 2, &e);
	KUNIT_ASSERT_EQ(test, n, 50);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, tmap_test_sorted(e, i, 1), (u64)(i / 10));
		KUNIT_EXPECT_EQ(test, tmap_test_sorted(e, i, -1),
				(u64)(i / 10 + 5 * (9 - i % 10)));
	}
	tracing_map_destroy_sort_entries(e, n);
}

/* The largest map there is: filled, sorted, every line in order. */
static void tmap_test_sort_max(struct kunit *test)
{
	unsigned int max = 1U << TRACING_MAP_BITS_MAX;
	struct tracing_map *map = tmap_test_num_map(test, TRACING_MAP_BITS_MAX, 0);
	struct tracing_map_sort_key sk = { .field_idx = 1, .descending = true };
	struct tracing_map_sort_entry **e;
	u64 key;
	int n, i;

	for (key = 0; key < max; key++)
		KUNIT_ASSERT_NOT_NULL(test, tmap_test_hit(map, key * 2654435761ULL));
	key = 1;
	KUNIT_EXPECT_NULL(test, tmap_test_hit(map, key));
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->drops), 1LL);

	n = tracing_map_sort_entries(map, &sk, 1, &e);
	KUNIT_ASSERT_EQ(test, n, (int)max);
	for (i = 1; i < n; i++) {
		if (*(u64 *)e[i - 1]->key <= *(u64 *)e[i]->key) {
			KUNIT_FAIL(test, "line %d has key %llu after %llu", i,
				   *(u64 *)e[i]->key, *(u64 *)e[i - 1]->key);
			break;
		}
	}
	tracing_map_destroy_sort_entries(e, n);
}

/*
 * Concurrent inserts: every event lands in exactly one count or in the
 * drops, and the hits are the events counted.
 */
struct tmap_test_stress {
	struct tracing_map	*map;
	unsigned int		n_keys;		/* keys hammered: 0 .. n_keys - 1 */
	unsigned int		rounds;
	atomic_t		running;
	struct completion	done;
};

static int tmap_test_stress_fn(void *data)
{
	struct tmap_test_stress *s = data;
	unsigned int r, k;

	for (r = 0; r < s->rounds; r++) {
		for (k = 0; k < s->n_keys; k++)
			tmap_test_hit(s->map, (k + r) % s->n_keys);
		cond_resched();
	}
	if (atomic_dec_and_test(&s->running))
		complete(&s->done);
	return 0;
}

static void tmap_test_stress_run(struct kunit *test, unsigned int bits,
				 unsigned int n_keys, unsigned int rounds)
{
	unsigned int n_threads = max(2U, num_online_cpus());
	struct tmap_test_stress s = {
		.map = tmap_test_num_map(test, bits, 0),
		.n_keys = n_keys,
		.rounds = rounds,
	};
	struct tracing_map_elt *elt;
	unsigned int i, entries = 0;
	u64 key, total = 0, want;

	atomic_set(&s.running, n_threads);
	init_completion(&s.done);
	for (i = 0; i < n_threads; i++) {
		struct task_struct *t;

		t = kthread_create(tmap_test_stress_fn, &s, "tmap_stress/%u", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		kthread_bind(t, i % num_online_cpus());
		wake_up_process(t);
	}
	wait_for_completion(&s.done);

	want = (u64)n_threads * rounds;
	for (key = 0; key < n_keys; key++) {
		elt = tracing_map_lookup(s.map, &key);
		if (!elt)
			continue;
		entries++;
		total += tracing_map_read_sum(elt, 0);
		if (n_keys <= 1U << bits)
			KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, 0), want);
	}
	KUNIT_EXPECT_EQ(test, entries, min(n_keys, 1U << bits));
	KUNIT_EXPECT_EQ(test, atomic64_read(&s.map->hits), (s64)total);
	KUNIT_EXPECT_EQ(test, total + atomic64_read(&s.map->drops), want * n_keys);
	if (n_keys <= 1U << bits)
		KUNIT_EXPECT_EQ(test, atomic64_read(&s.map->drops), 0LL);
}

static void tmap_test_stress_overlap(struct kunit *test)
{
	tmap_test_stress_run(test, 8, 200, 200);
}

static void tmap_test_stress_full(struct kunit *test)
{
	tmap_test_stress_run(test, 7, 300, 100);
}

/*
 * Inserts racing with the readers of a histogram, and with clears.  The
 * key is a number and a check word made from it, and elt_init() writes a
 * third copy into the element's private data, so an element seen before
 * all its stores are visible shows as a disagreement.  On a strongly
 * ordered CPU this mostly tests the logic; the ordering argument is in
 * tracing_map.c.  Each case stops once it has done its rounds and every
 * inserter has tried every key, or after five seconds.
 */
struct tmap_test_race_key {
	u64	k;
	u64	check;		/* tmap_test_check(k) */
};

static u64 tmap_test_check(u64 k)
{
	return ~k * GOLDEN_RATIO_64;
}

static int tmap_test_race_alloc(struct tracing_map_elt *elt)
{
	elt->private_data = kzalloc_obj(u64);
	return elt->private_data ? 0 : -ENOMEM;
}

static void tmap_test_race_init(struct tracing_map_elt *elt)
{
	const struct tmap_test_race_key *key = elt->key;

	*(u64 *)elt->private_data = key->k + 1;
}

static void tmap_test_race_free(struct tracing_map_elt *elt)
{
	kfree(elt->private_data);
}

static const struct tracing_map_ops tmap_test_race_ops = {
	.elt_alloc	= tmap_test_race_alloc,
	.elt_init	= tmap_test_race_init,
	.elt_free	= tmap_test_race_free,
};

struct tmap_test_race {
	struct tracing_map	*map;
	unsigned int		n_keys;		/* keys inserted: 0 .. n_keys - 1 */
	bool			stop;		/* set by the test: inserters return */
	unsigned int		n_threads;	/* inserters started */
	atomic_t		next_id;	/* gives each inserter its own order */
	atomic_t		running;	/* inserters not yet returned */
	atomic_long_t		inserts;	/* done by all inserters */
	atomic_t		bad;		/* elements seen half made */
	struct completion	done;
};

/* Is @elt whole: key, check word, elt_init()'s copy and the variable? */
static bool tmap_test_race_whole(struct tmap_test_race *r,
				 struct tracing_map_elt *elt)
{
	const struct tmap_test_race_key *key = elt->key;

	if (key->k >= r->n_keys || key->check != tmap_test_check(key->k))
		return false;
	if (*(u64 *)elt->private_data != key->k + 1)
		return false;
	return !tracing_map_var_set(elt, 0) ||
	       tracing_map_read_var(elt, 0) == key->k + 1;
}

/* An event: insert, check, count, set the variable, as hist does. */
static int tmap_test_race_insert(void *data)
{
	struct tmap_test_race *r = data;
	unsigned int id = atomic_inc_return(&r->next_id);
	struct tmap_test_race_key key;
	struct tracing_map_elt *elt;
	unsigned long i;

	for (i = 0; !READ_ONCE(r->stop); i++) {
		key.k = (i * (2 * id + 1) + id) % r->n_keys;
		key.check = tmap_test_check(key.k);
		/* events run with preemption off: what clear waits for */
		preempt_disable();
		elt = tracing_map_insert(r->map, &key);
		if (elt) {
			if (!tmap_test_race_whole(r, elt) ||
			    ((struct tmap_test_race_key *)elt->key)->k != key.k)
				atomic_inc(&r->bad);
			tracing_map_update_sum(elt, 0, 1);
			tracing_map_set_var(elt, 0, key.k + 1);
		}
		preempt_enable();
		atomic_long_inc(&r->inserts);
		if (!(i % 64))
			cond_resched();
	}
	if (atomic_dec_and_test(&r->running))
		complete(&r->done);
	return 0;
}

static struct tmap_test_race *tmap_test_race_start(struct kunit *test,
						   unsigned int bits,
						   unsigned int n_keys)
{
	unsigned int i, n_threads = max(2U, num_online_cpus());
	struct tmap_test_race *r;
	struct tracing_map *map;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	map = tracing_map_create(bits, sizeof(struct tmap_test_race_key),
				 &tmap_test_race_ops, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(map));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tmap_test_free, map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_var(map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 0)), 1);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);

	r->map = map;
	r->n_keys = n_keys;
	r->n_threads = n_threads;
	atomic_set(&r->running, n_threads);
	init_completion(&r->done);
	for (i = 0; i < n_threads; i++) {
		struct task_struct *t;

		t = kthread_create(tmap_test_race_insert, r, "tmap_race/%u", i);
		if (IS_ERR(t)) {
			/* the ones started must still be stopped */
			WRITE_ONCE(r->stop, true);
			if (atomic_sub_and_test(n_threads - i, &r->running))
				complete(&r->done);
			wait_for_completion(&r->done);
			KUNIT_FAIL(test, "cannot start inserter %u", i);
			return NULL;
		}
		kthread_bind(t, i % num_online_cpus());
		wake_up_process(t);
	}
	return r;
}

/*
 * Go on while @round is below @rounds or the inserters have not yet
 * tried every key each (by then they have made n_threads * n_keys
 * inserts), for five seconds at most: at boot the inserters may not have
 * run at all after the first rounds.
 */
static bool tmap_test_race_going(struct tmap_test_race *r, int round,
				 int rounds, unsigned long deadline)
{
	if (!time_before(jiffies, deadline))
		return false;
	return round < rounds ||
	       atomic_long_read(&r->inserts) < (long)r->n_threads * r->n_keys;
}

static void tmap_test_race_stop(struct kunit *test, struct tmap_test_race *r)
{
	WRITE_ONCE(r->stop, true);
	wait_for_completion(&r->done);
	KUNIT_EXPECT_GE_MSG(test, atomic_long_read(&r->inserts),
			    (long)r->n_threads * r->n_keys,
			    "the inserters hardly ran");
}

/* Quiet again: every count landed somewhere, every element is whole. */
static void tmap_test_race_final(struct kunit *test, struct tmap_test_race *r)
{
	struct tmap_test_race_key key = {};
	struct tracing_map_elt *elt;
	unsigned int entries = 0;
	u64 total = 0;

	for (key.k = 0; key.k < r->n_keys; key.k++) {
		key.check = tmap_test_check(key.k);
		elt = tracing_map_lookup(r->map, &key);
		if (!elt)
			continue;
		entries++;
		total += tracing_map_read_sum(elt, 0);
		if (!tmap_test_race_whole(r, elt))
			atomic_inc(&r->bad);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&r->bad), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&r->map->hits), (s64)total);
	KUNIT_EXPECT_LE(test, entries, r->map->n_elts);
}

static void tmap_test_race_read(struct kunit *test)
{
	struct tracing_map_sort_key sk = { .field_idx = 1 };
	unsigned long deadline = jiffies + 5 * HZ;
	struct tracing_map_sort_entry **e;
	struct tmap_test_race *r;
	int n, i, prev = 0, round;

	r = tmap_test_race_start(test, 8, 400);
	if (!r)
		return;
	for (round = 0; tmap_test_race_going(r, round, 100, deadline); round++) {
		n = tracing_map_sort_entries(r->map, &sk, 1, &e);
		if (n < 0) {
			KUNIT_FAIL(test, "sort failed: %d", n);
			break;
		}
		if (n < prev || n > (int)r->map->n_elts)
			KUNIT_FAIL(test, "%d lines after %d", n, prev);
		prev = n;
		for (i = 0; i < n; i++) {
			if (!tmap_test_race_whole(r, e[i]->elt) ||
			    e[i]->key != e[i]->elt->key)
				atomic_inc(&r->bad);
			if (i && *(u64 *)e[i - 1]->key >= *(u64 *)e[i]->key)
				atomic_inc(&r->bad);
		}
		tracing_map_destroy_sort_entries(e, n);
		cond_resched();
	}
	tmap_test_race_stop(test, r);
	tmap_test_race_final(test, r);
	/* 400 keys into 256 elements: full, and the rest dropped */
	KUNIT_EXPECT_EQ(test, atomic_read(&r->map->n_taken), 256);
}

static void tmap_test_race_clear(struct kunit *test)
{
	unsigned long deadline = jiffies + 5 * HZ;
	struct tmap_test_race *r;
	int round;

	r = tmap_test_race_start(test, 8, 200);
	if (!r)
		return;
	for (round = 0; tmap_test_race_going(r, round, 20, deadline); round++) {
		usleep_range(5000, 10000);
		tracing_map_clear(r->map);
	}
	usleep_range(5000, 10000);
	tmap_test_race_stop(test, r);
	tmap_test_race_final(test, r);
}

/*
 * An insert interrupted in the middle, as an NMI would interrupt it: from
 * inside elt_init() of a new key (the element is built but not published)
 * a nested context looks the key up, inserts it too and inserts another.
 * The nested lookup must not see the half-made element; the nested insert
 * publishes its own; the outer insert then finds the key there, gives its
 * element back to the spare stack and returns the nested one, so the key
 * has one element with both hits; and the next new key reuses the spare.
 */
struct tmap_test_nest {
	struct kunit		*test;
	struct tracing_map	*map;
	int			depth;		/* 1 inside the outer elt_init() */
	bool			armed;		/* nest on the next elt_init() */
	struct tracing_map_elt	*outer;		/* the element being built */
	struct tracing_map_elt	*nested;	/* what the nested insert got */
};

static struct tmap_test_nest *tmap_test_nest_ctx;

static void tmap_test_nest_init(struct tracing_map_elt *elt)
{
	struct tmap_test_nest *n = tmap_test_nest_ctx;
	u64 key = *(u64 *)elt->key, other = key + 1000;
	struct tracing_map_elt *o;

	if (!n->armed || n->depth)
		return;
	n->armed = false;
	n->depth++;
	n->outer = elt;
	KUNIT_EXPECT_NULL(n->test, tracing_map_lookup(n->map, &key));
	n->nested = tmap_test_hit(n->map, key);
	KUNIT_EXPECT_NOT_NULL(n->test, n->nested);
	KUNIT_EXPECT_PTR_NE(n->test, n->nested, elt);
	o = tmap_test_hit(n->map, other);
	KUNIT_EXPECT_NOT_NULL(n->test, o);
	if (o)
		KUNIT_EXPECT_EQ(n->test, *(u64 *)o->key, other);
	/* the outer element is still unreachable */
	KUNIT_EXPECT_PTR_EQ(n->test, tracing_map_lookup(n->map, &key), n->nested);
	n->depth--;
}

static const struct tracing_map_ops tmap_test_nest_ops = {
	.elt_init	= tmap_test_nest_init,
};

static void tmap_test_nested_insert(struct kunit *test)
{
	struct tmap_test_nest n = { .test = test };
	struct tracing_map_elt *elt, *again;
	struct tracing_map *map;
	u64 key = 5;

	map = tracing_map_create(7, sizeof(u64), &tmap_test_nest_ops, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(map));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tmap_test_free, map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 0)), 1);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	n.map = map;
	tmap_test_nest_ctx = &n;

	n.armed = true;
	elt = tmap_test_hit(map, key);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_PTR_EQ(test, elt, n.nested);
	KUNIT_EXPECT_EQ(test, *(u64 *)elt->key, key);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, 0), 2ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&map->n_taken), 3);
	KUNIT_EXPECT_EQ(test, atomic64_read(&map->hits), 3LL);

	/* the outer element went back as a spare: the next new key takes it */
	key = 6;
	again = tmap_test_hit(map, key);
	KUNIT_ASSERT_NOT_NULL(test, again);
	KUNIT_EXPECT_PTR_EQ(test, again, n.outer);
	KUNIT_EXPECT_EQ(test, *(u64 *)again->key, key);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(again, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&map->n_taken), 3);
	tmap_test_nest_ctx = NULL;
}

static struct kunit_case tmap_test_cases[] = {
	KUNIT_CASE(tmap_test_numeric_keys),
	KUNIT_CASE(tmap_test_string_keys),
	KUNIT_CASE(tmap_test_compound_keys),
	KUNIT_CASE(tmap_test_full_map),
	KUNIT_CASE(tmap_test_vars),
	KUNIT_CASE(tmap_test_clear),
	KUNIT_CASE(tmap_test_sort_one_key),
	KUNIT_CASE(tmap_test_sort_signed),
	KUNIT_CASE(tmap_test_sort_string),
	KUNIT_CASE(tmap_test_sort_two_keys),
	KUNIT_CASE_SLOW(tmap_test_sort_max),
	KUNIT_CASE(tmap_test_stress_overlap),
	KUNIT_CASE(tmap_test_stress_full),
	KUNIT_CASE(tmap_test_nested_insert),
	KUNIT_CASE_SLOW(tmap_test_race_read),
	KUNIT_CASE_SLOW(tmap_test_race_clear),
	{}
};

static struct kunit_suite tmap_test_suite = {
	.name = "tracing_map",
	.test_cases = tmap_test_cases,
};

kunit_test_suite(tmap_test_suite);

MODULE_DESCRIPTION("KUnit tests of tracing_map");
MODULE_LICENSE("GPL");
