/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The u32 that a __data_loc or __rel_loc field of an event record holds:
 * the length of the field's bytes in its upper 16 bits, where they start
 * in its lower 16.  A __data_loc counts from the start of the record, a
 * __rel_loc from the end of the u32 itself.  (struct trace_dynamic_info
 * is the same word seen as two halves.)
 *
 * Kernel events lay out their records themselves; a user event's record
 * is what user space wrote, so its words may be unaligned and their
 * result must be checked against the record's size.
 */
#ifndef _TRACE_LOC_H
#define _TRACE_LOC_H

#include <linux/types.h>

/* Bytes of the field's data. */
static inline unsigned int trace_loc_len(u32 loc)
{
	return loc >> 16;
}

/*
 * Where the data starts, from the start of the record, for a field at
 * @field_off; @rel for __rel_loc.
 */
static inline unsigned int trace_loc_start(u32 loc, unsigned int field_off,
					   bool rel)
{
	return (loc & 0xffff) + (rel ? field_off + sizeof(u32) : 0);
}

/*
 * Do @len bytes from @start lie inside a record of @size bytes?  Whatever
 * prints a record checks its loc words with this first: a record is what
 * its writer made it.
 */
static inline bool trace_loc_fits(unsigned int start, unsigned int len,
				  unsigned int size)
{
	return start <= size && len <= size - start;
}

#endif /* _TRACE_LOC_H */
