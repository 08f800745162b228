/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * user_events: trace events defined and emitted by user programs.
 *
 * Copyright (c) 2021-2022, Microsoft Corporation.
 *
 * Authors:
 *   Beau Belgrave <beaub@linux.microsoft.com>
 *
 * A program registers an event on the tracefs file user_events_data and
 * learns whether anything consumes it in one of two ways, chosen by the
 * size of the registration it passes to DIAG_IOCSREG:
 *
 * - remote write (struct user_reg, 28 bytes): the kernel sets and clears
 *   a bit of a 32- or 64-bit word in the program's own memory;
 * - status page (struct user_status_reg, 20 bytes, or 24 with flags as
 *   struct user_status_reg_flags): it gets back a bit of the shared page
 *   mapped read-only from tracefs user_events_status.
 *
 * DIAG_IOCSREG tells them apart by size as Linux 6.1's programs need: 20
 * to 27 bytes is the status page, 28 or more remote write, which may grow.
 * The status-page layout grows through DIAG_IOCSSTATUS, which takes only
 * it, at any size.
 *
 * Either way it gets a write index and, while the event is consumed,
 * write()s or writev()s the index followed by the payload to the same file
 * descriptor.
 *
 * A program written for the status-page header of Linux 6.1, where
 * "struct user_reg" was the status-page layout, builds with
 * -DUSER_EVENTS_STATUS_PAGE: then "struct user_reg" names the status-page
 * layout and "struct user_enabler_reg" the remote-write one.  Without it
 * every name means what it has meant since Linux 6.4.
 */
#ifndef _UAPI_LINUX_USER_EVENTS_H
#define _UAPI_LINUX_USER_EVENTS_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Value of a __data_loc/__rel_loc field: payload size above, offset below */
#define DYN_LOC(offset, size) (((size) << 16) | (offset))

/* Trace system (events/<system>/) of user events */
#define USER_EVENTS_SYSTEM "user_events"

/* Trace system of events registered with USER_EVENT_REG_MULTI_FORMAT */
#define USER_EVENTS_MULTI_SYSTEM "user_events_multi"

/* Prefix of user event commands written to dynamic_events */
#define USER_EVENTS_PREFIX "u:"

/* The tags of the two layouts (see above) */
#if !defined(__KERNEL__) && defined(USER_EVENTS_STATUS_PAGE)
#define __USER_EVENTS_REMOTE_REG	user_enabler_reg
#define __USER_EVENTS_STATUS_REG	user_reg
#else
#define __USER_EVENTS_REMOTE_REG	user_reg
#define __USER_EVENTS_STATUS_REG	user_status_reg
#endif

/* Flags of a registration (the status-page layout takes REPORT_LOSS only) */
enum user_reg_flag {
	/* The event stays after its last reference, until deleted */
	USER_EVENT_REG_PERSIST		= 1U << 0,

	/* Events of one name may differ in fields: one tracepoint each */
	USER_EVENT_REG_MULTI_FORMAT	= 1U << 1,

	/*
	 * Writes through this registration that a consumer could not store
	 * are counted (DIAG_IOCGLOSS), and fail when none stored them
	 */
	USER_EVENT_REG_REPORT_LOSS	= 1U << 2,

	/* First value that is not a flag */
	USER_EVENT_REG_MAX		= 1U << 3,
};

/*
 * Remote-write registration (size 28).  While the event is consumed the
 * kernel keeps bit enable_bit of the enable_size-byte (4 or 8) word at
 * enable_addr set, in the memory of the registering process (and of its
 * forks).  The word must be aligned to its size.
 */
struct __USER_EVENTS_REMOTE_REG {
	__u32	size;		/* in: sizeof(struct user_reg) */
	/*
	 * in: enable_bit, the bit of the word to keep set, and
	 * enable_size, the word's size (4 or 8 bytes)
	 */
	__u8	enable_bit, enable_size;
	__u16	flags;		/* in: enum user_reg_flag */
	__u64	enable_addr;	/* in: address of the word */
	__u64	name_args;	/* in: address of the NUL-terminated command */
	__u32	write_index;	/* out: prefix of writes, on this fd only */
} __attribute__((__packed__));

/*
 * Status-page registration (size 20).  The caller fills size and
 * name_args; the kernel fills status_bit and write_index.
 */
struct __USER_EVENTS_STATUS_REG {
	__u32	size;		/* in: sizeof(struct user_status_reg) */
	__u64	name_args;	/* in: address of the NUL-terminated command */
	__u32	status_bit;	/* out: the event's bit of the status page */
	__u32	write_index;	/* out: prefix of writes, on this fd only */
} __attribute__((__packed__));

/*
 * Status-page registration with flags (size 24): the same fields, then
 * flags.  It has a name of its own so that programs that fill a struct
 * user_status_reg field by field never pass flags they did not set.
 */
struct user_status_reg_flags {
	__u32	size;		/* in: sizeof(struct user_status_reg_flags) */
	__u64	name_args;	/* in: address of the NUL-terminated command */
	__u32	status_bit;	/* out: the event's bit of the status page */
	__u32	write_index;	/* out: prefix of writes, on this fd only */
	__u32	flags;		/* in: 0 or USER_EVENT_REG_REPORT_LOSS */
} __attribute__((__packed__));

/*
 * Argument of DIAG_IOCSUNREG: the bit (disable_bit) and word address
 * (disable_addr) a remote-write registration gave; the reserved bytes are 0.
 */
struct user_unreg {
	__u32	size;		/* in: sizeof(struct user_unreg) */
	__u8	disable_bit;	/* in: the bit the registration gave */
	__u8	__reserved;	/* in: 0 */
	__u16	__reserved2;	/* in: 0 */
	__u64	disable_addr;	/* in: the word's address */
} __attribute__((__packed__));

/*
 * Argument of DIAG_IOCGLOSS: the writes of one registration made with
 * USER_EVENT_REG_REPORT_LOSS that some consumer did not store, in all and
 * by cause (a write two consumers lost for different causes counts under
 * both).  The counts only grow.
 */
struct user_loss {
	__u32	size;		/* in: sizeof(struct user_loss) */
	__u32	write_index;	/* in: the registration's write index */
	__u64	lost;		/* out: writes some consumer did not store */
	__u64	ring_full;	/* out: a ring buffer was full (no overwrite) */
	__u64	perf_full;	/* out: a perf buffer was full or paused */
	__u64	too_big;	/* out: too large for a consumer (E2BIG) */
} __attribute__((__packed__));

#undef __USER_EVENTS_REMOTE_REG
#undef __USER_EVENTS_STATUS_REG

/* ioctls of user_events_data */
#define DIAG_IOC_MAGIC '*'

/* Register an event (or reuse an identical one); either layout */
#define DIAG_IOCSREG _IOWR(DIAG_IOC_MAGIC, 0, struct user_reg *)

/* Delete an event nothing references any more, by name */
#define DIAG_IOCSDEL _IOW(DIAG_IOC_MAGIC, 1, char *)

/* Stop updating a remote-write word and clear its bit */
#define DIAG_IOCSUNREG _IOW(DIAG_IOC_MAGIC, 2, struct user_unreg *)

/* Read the loss counts of a registration made with REPORT_LOSS */
#define DIAG_IOCGLOSS _IOWR(DIAG_IOC_MAGIC, 3, struct user_loss)

/*
 * Register an event for the status page, whatever the argument's size:
 * struct user_status_reg, struct user_status_reg_flags, or a later layout
 * that extends them.  DIAG_IOCSREG takes the status-page layout only below
 * the size of struct user_reg, so a field added after flags is reached
 * through this number alone; bytes a kernel does not know must be 0.
 */
#define DIAG_IOCSSTATUS _IOWR(DIAG_IOC_MAGIC, 4, struct user_status_reg_flags)

#endif /* _UAPI_LINUX_USER_EVENTS_H */
