/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * user_events: trace events defined and emitted by user programs.
 *
 * A program registers an event on the tracefs file user_events_data and
 * gets back a bit in the shared status page (tracefs user_events_status,
 * mapped read-only) and a write index.  While the bit is set something
 * consumes the event; the program then write()s or writev()s the index
 * followed by the payload to the same file descriptor.
 */
#ifndef _UAPI_LINUX_USER_EVENTS_H
#define _UAPI_LINUX_USER_EVENTS_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Value of a __data_loc/__rel_loc field: payload size above, offset below */
#define DYN_LOC(offset, size) (((size) << 16) | (offset))

/* Trace system (events/<system>/) all user events live in */
#define USER_EVENTS_SYSTEM "user_events"

/* Prefix of user event commands written to dynamic_events */
#define USER_EVENTS_PREFIX "u:"

/*
 * Argument of DIAG_IOCSREG.  The caller fills size and name_args; the
 * kernel fills status_bit and write_index.
 */
struct user_reg {
	/* In: sizeof(struct user_reg) as the caller knows it */
	__u32	size;

	/* In: user address of the NUL-terminated event command */
	__u64	name_args;

	/* Out: bit of the status page telling whether the event is consumed */
	__u32	status_bit;

	/* Out: index to prefix writes with, valid for this fd only */
	__u32	write_index;
} __attribute__((__packed__));

/* ioctls of user_events_data */
#define DIAG_IOC_MAGIC '*'

/* Register an event (or reuse an identical one) */
#define DIAG_IOCSREG _IOWR(DIAG_IOC_MAGIC, 0, struct user_reg *)

/* Delete an event nothing references any more, by name */
#define DIAG_IOCSDEL _IOW(DIAG_IOC_MAGIC, 1, char *)

#endif /* _UAPI_LINUX_USER_EVENTS_H */
