// SPDX-License-Identifier: GPL-2.0
/*
 * tracing_map: a preallocated, lockless hash map for histograms.
 *
 * The design (who runs concurrently with whom, what each atomic step
 * publishes) is described at the top of tracing_map.c.
 */
#ifndef _KERNEL_TRACE_TRACING_MAP_H
#define _KERNEL_TRACE_TRACING_MAP_H

#include <linux/atomic.h>
#include <linux/types.h>

/* A map holds 1 << map_bits elements; hist's size= picks map_bits. */
#define TRACING_MAP_BITS_MIN		7
#define TRACING_MAP_BITS_DEFAULT	11
#define TRACING_MAP_BITS_MAX		17

struct tracing_map;

/*
 * Fields of an element: up to six parts of the key and seventeen sums.
 * An element holds only the sums and variables its map was given, so a
 * map of few fields pays for few, whatever these limits are.
 */
#define TRACING_MAP_KEYS_MAX		6
#define TRACING_MAP_VALS_MAX		17
#define TRACING_MAP_FIELDS_MAX		(TRACING_MAP_KEYS_MAX + TRACING_MAP_VALS_MAX)

/* Variables per element (one bit each in var_set: 32 fit in any long). */
#define TRACING_MAP_VARS_MAX		32

/* The hist file is sorted by at most four fields. */
#define TRACING_MAP_SORT_KEYS_MAX	4

/* Orders two keys: <0, 0 or >0 as the first sorts before, with, after */
typedef int (*tracing_map_cmp_fn_t)(void *a, void *b);

/* What one field of every element is; set up before tracing_map_init(). */
struct tmap_field {
	bool			is_key;		/* else a sum (u64, added to) */
	unsigned int		key_offset;	/* key fields: bytes into the key */
	tracing_map_cmp_fn_t	cmp;		/* key fields: orders two keys */
};

/*
 * One entry of the map.  The map's elements are all allocated by
 * tracing_map_init(); an element is given to a key by tracing_map_insert()
 * and keeps it until tracing_map_clear().  A caller may also embed an
 * element of its own (outside any map) to hand private_data to code that
 * takes an element; only @map and @private_data are then meaningful.
 */
struct tracing_map_elt {
	struct tracing_map	*map;		/* the map it belongs to */
	void			*private_data;	/* set by elt_ops->elt_alloc */
	void			*key;		/* key_bytes bytes, constant once published */
	atomic64_t		*sums;		/* one per field, used by sum fields */
	atomic64_t		*vars;		/* nr_vars values */
	unsigned long		var_set;	/* bit i: vars[i] set, not yet consumed */
	unsigned int		idx;		/* position in the map's elements */
	unsigned int		next_spare;	/* spare stack link (index + 1) */
};

/* What hist asks tracing_map_sort_entries() to order by. */
struct tracing_map_sort_key {
	unsigned int		field_idx;	/* a key or sum field of the map */
	bool			descending;
};

/* One line of a sorted snapshot of the map. */
struct tracing_map_sort_entry {
	void			*key;		/* the element's key */
	struct tracing_map_elt	*elt;		/* the live element */
	u64			sum[TRACING_MAP_SORT_KEYS_MAX]; /* sum keys, as read once */
	unsigned int		idx;		/* element index: the last tie-break */
};

/*
 * Callbacks for per-element data of the map's user, all optional.
 * elt_alloc: called by tracing_map_init() for every element (may sleep);
 *            a non-zero return fails the init.
 * elt_init:  called when an element is given to a new key, in the
 *            context of the event (any context, NMI included).
 * elt_clear: called by tracing_map_clear() for every element used.
 * elt_free:  called by tracing_map_destroy() for every element allocated.
 */
struct tracing_map_ops {
	int	(*elt_alloc)(struct tracing_map_elt *e);
	void	(*elt_init)(struct tracing_map_elt *e);
	void	(*elt_clear)(struct tracing_map_elt *e);
	void	(*elt_free)(struct tracing_map_elt *e);
};

struct tracing_map {
	/* Set by tracing_map_create(), constant after. */
	unsigned int			map_bits;	/* n_elts == 1 << map_bits */
	unsigned int			n_elts;
	unsigned int			key_bytes;
	const struct tracing_map_ops	*elt_ops;	/* element callbacks, or NULL */
	void				*private_data;	/* the creator's */

	/* Set before tracing_map_init(), constant after. */
	struct tmap_field		field[TRACING_MAP_FIELDS_MAX];
	unsigned int			nr_fields;	/* keys and sums, in field[] */
	unsigned int			n_key_fields;
	unsigned int			nr_vars;	/* per element */

	/* Set by tracing_map_init(), constant after. */
	unsigned int			table_mask;	/* table has 2 * n_elts slots */
	atomic_t			*table;		/* slots, see tracing_map.c */
	void				*elts;		/* n_elts elements ... */
	size_t				elt_stride;	/* ... of this many bytes each */
	unsigned int			n_alloced;	/* elements that went through elt_alloc */

	/* Changed by events (any context) and by tracing_map_clear(). */
	atomic_t			n_taken;	/* fresh elements handed out */
	atomic64_t			spares;		/* stack of unused built elements */
	bool				clearing;	/* inserts and lookups stand aside */
	atomic64_t			hits;		/* every insert */
	atomic64_t			drops;		/* inserts of a new key, no room */
};

/* Setting up (may sleep), in this order: create, add fields, init. */
struct tracing_map *tracing_map_create(unsigned int bits, unsigned int key_bytes,
				       const struct tracing_map_ops *elt_ops, void *data);
int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      tracing_map_cmp_fn_t cmp);
int tracing_map_add_sum_field(struct tracing_map *map);
int tracing_map_add_var(struct tracing_map *map);
int tracing_map_init(struct tracing_map *map);
void tracing_map_clear(struct tracing_map *map);
void tracing_map_destroy(struct tracing_map *map);

/* Events: any context, NMI included. */
struct tracing_map_elt *tracing_map_insert(struct tracing_map *map, void *key);
struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map, void *key);
void tracing_map_update_sum(struct tracing_map_elt *elt, unsigned int i, u64 n);
u64 tracing_map_read_sum(struct tracing_map_elt *elt, unsigned int i);
void tracing_map_set_var(struct tracing_map_elt *elt, unsigned int i, u64 n);
bool tracing_map_var_set(struct tracing_map_elt *elt, unsigned int i);
u64 tracing_map_read_var(struct tracing_map_elt *elt, unsigned int i);
u64 tracing_map_read_var_once(struct tracing_map_elt *elt, unsigned int i);

/* Orders of key fields, for tracing_map_add_key_field(). */
tracing_map_cmp_fn_t tracing_map_cmp_num(int field_size, int field_is_signed);
int tracing_map_cmp_string(void *val_a, void *val_b);
int tracing_map_cmp_none(void *val_a, void *val_b);

/* The hist file (may sleep). */
int tracing_map_sort_entries(struct tracing_map *map,
			     struct tracing_map_sort_key *keys, unsigned int n_keys,
			     struct tracing_map_sort_entry ***entries);
void tracing_map_destroy_sort_entries(struct tracing_map_sort_entry **entries,
				      unsigned int n);

#endif /* _KERNEL_TRACE_TRACING_MAP_H */
