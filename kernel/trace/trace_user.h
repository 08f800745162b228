/* SPDX-License-Identifier: GPL-2.0 */
/*
 * user_events: internal interfaces.
 *
 * A user program registers an event through tracefs user_events_data (or an
 * administrator writes "u:..." to dynamic_events).  An event registered
 * through the status-page layout owns one bit of a shared page that user
 * space maps read-only from user_events_status; the bit is set while ftrace
 * or perf consume the event.  A program that registers with the
 * remote-write layout owns an enabler instead: a bit of a word in its own
 * memory that the kernel keeps equal to "the event is consumed".
 * Both kinds of registration find the same event in one registry.  Writes
 * to user_events_data carry a per-fd index followed by the payload, which
 * is copied straight into the consumers' buffers; the write path does not
 * know which kind of registration gave the index.
 *
 * Files, by role (trace_events_user.c for the registry, trace_user_*
 * for the rest, this header for what they share):
 *   trace_events_user.c   registry: events, their pins, consumers, delete,
 *                         dynamic_events
 *   trace_user_parse.c    command text -> struct user_event_desc, names
 *   trace_user_format.c   fields, print fmt, trace output, listing
 *   trace_user_status.c   status page bits, counts of events
 *   trace_user_enabler.c  remote-write words, per-mm state, fork/exit
 *   trace_user_write.c    write()/writev() into ftrace and perf
 *   trace_user_fs.c       a group's tracefs files (data, status), ioctls
 *   trace_user_groups.c   groups: mkdir/rmdir, their max and persist files
 *
 * The files above the registry (fs, write) call down into it; the
 * registry calls down into parse, format and status.  The registry and
 * the enablers call each other: the registry tells the enablers when an
 * event's consumers change, an enabler drops its pin on the event.
 * Only the registry changes an event's pins (user_event_get(),
 * user_event_put(), user_event_put_not_last()).
 *
 * Groups: every event belongs to one group, for its whole life.  The
 * top-level user_events_data and user_events_status are the default
 * group's (system "user_events", multi-format events in
 * "user_events_multi"); mkdir user_events_groups/NAME makes another, with
 * its own user_events_data, user_events_status (its own status page) and
 * user_events_max, whose events live in system "user_events_NAME".  An fd
 * of a group's user_events_data reaches that group's events only: the
 * registry keys on the group and the name, so one name in two groups is
 * two events.
 *
 * One call runs both ways, on purpose: the registry tells the status bits
 * and the enablers when an event's consumers change
 * (user_event_bit_update(), user_event_enablers_update()), and an enabler,
 * like an fd slot, drops its pin on the event with user_event_put(), which
 * only the registry can do (the last pin of a transient event destroys it).
 *
 * Concurrency:
 *
 * - event_mutex is the one global lock.  It guards the registry
 *   (user_event_list, user_event_table), each event's consumer counts and
 *   status bit (given at its first status-page registration, kept until
 *   it is destroyed), the bitmap of bits in use and the dyn_event list.
 *   The trace core already holds it when it calls our reg() (for the four
 *   registrations; perf add/del come from scheduler context and are
 *   ignored) and our dyn_event callbacks.
 *
 * - Each open user_events_data file has a mutex (user_event_fd.lock) that
 *   serializes registrations on that fd; it is never held together with
 *   event_mutex (the event is found and pinned first, then slotted).  The
 *   fd's index table is replaced (never modified in place) under that mutex
 *   and published with rcu_assign_pointer(); write() reads it with
 *   rcu_dereference_sched() in a preempt-disabled section, which is an
 *   RCU read-side section; old tables are freed with kfree_rcu().
 *   Checked by tools/memory-model/litmus-tests/tracing/user-fd-table.litmus.
 *   A slot's loss counts (REPORT_LOSS) are allocated before the table
 *   that names them, carried from table to table and freed at release;
 *   they, and an event's sums, are atomic64_t, bumped without a lock.
 *
 * - user_event.refs (refcount_t, saturating) pins an event: the registry
 *   holds 1, every fd table slot naming the event holds 1.  An fd names an
 *   event at most once, so refs is bounded by the number of open files.
 *   Delete happens under event_mutex only when refs == 1 and the trace core
 *   agrees (no open tracefs file, ftrace enable, perf event or trigger).
 *   A writer reaches an event only through its own fd's table, whose slots
 *   are dropped only at release, so the event outlives any write on it.
 *
 * - Consumers are probes on the event's private struct tracepoint (ftrace
 *   files via TRACE_REG_REGISTER, perf via TRACE_REG_PERF_REGISTER).  write()
 *   walks tracepoint.funcs with preemption disabled; the tracepoint core
 *   frees replaced arrays after an RCU-sched grace period.  A write that
 *   faults leaves the preempt-disabled section, notes the consumers it
 *   served by their probe data, faults the pages in and walks the (maybe
 *   replaced) array again, serving only the consumers it has not noted:
 *   no index survives the section.
 *   Checked by tools/memory-model/litmus-tests/tracing/user-write-funcs.litmus.
 *
 * - Status bits change only under event_mutex with atomic little-endian
 *   bit operations; user space reads the page without any lock.  Each
 *   group has its page and its bitmap of bits in use, both under
 *   event_mutex like its count of events.
 *
 * - Groups.  user_event_group_mutex guards the list of groups, their
 *   open-file counts and their death; mkdir and rmdir hold it throughout,
 *   including the tracefs calls, and take event_mutex inside it (never
 *   the other way round).  A group's files carry its id, not a pointer:
 *   a file bind-mounted elsewhere outlives rmdir, and its open() finds no
 *   live group with that id (ids are never reused) and fails.  An open
 *   file counts in its group, which rmdir refuses (-EBUSY) while any is
 *   open or while any of its events is busy (enabled, pinned by a
 *   remote-write word, open in tracefs); otherwise it destroys the events
 *   under event_mutex, then the files, then the group.  An event's
 *   pointer to its group is thus valid for the event's whole life, and an
 *   fd's for the fd's.  The write path never looks at groups.
 *   Checked by tools/memory-model/litmus-tests/tracing/user-group-rmdir.litmus.
 *
 * - An event registered through the remote-write layout without
 *   USER_EVENT_REG_PERSIST is transient: when its last pin goes (fd slot or
 *   enabler) it is destroyed, under event_mutex.  If something still uses
 *   it then (a consumer, or the trace core: a perf event being set up, an
 *   enable_event trigger elsewhere), it is orphaned: the reaper, a delayed
 *   work item, destroys it once idle.  The last consumer's unregister
 *   queues the reaper (reg() itself runs inside the trace core, which still
 *   uses the event); a reaper that finds an orphan still in use tries
 *   again later, waiting longer each time.  A registration in between
 *   pins the event again, and it lives on as usual.
 *
 * - Enablers (remote-write words) sit on two lists, both under event_mutex:
 *   their event's (walked when consumers change) and their user_event_mm's
 *   (walked at fork, unregister and teardown).  An enabler pins its event.
 *   A user_event_mm is shared by the tasks using one address space
 *   (counted in tasks).  When the last of them exits or execs, its enablers
 *   are freed under event_mutex at once, so a reaped process pins no event;
 *   the structure itself is counted apart (refs: one for all its tasks,
 *   one per queued fault work) and freed with its last count, after its
 *   enablers, so whoever walks an event's enablers under event_mutex sees
 *   live enablers and live user_event_mms.  Queuing work takes a count
 *   only with refcount_inc_not_zero(): a user_event_mm on its way out gets
 *   no new work, and a work run finds no enablers left.  The mm_struct
 *   is held with mmgrab() and its pages are touched only after
 *   mmget_not_zero().
 *
 * - Bits of enablers are written under event_mutex with pages pinned by
 *   pin_user_pages_remote(FOLL_NOFAULT): no fault that may wait for code
 *   outside the kernel (userfaultfd, a file system) runs under the global
 *   lock.  A present page that is only copy-on-write in a private,
 *   unwatched mapping is made writable there and then (that fault only
 *   copies or reuses the page); a word whose page is absent or otherwise
 *   not writable is marked pending and its user_event_mm's work item
 *   faults it in under the mmap lock alone, then retries under event_mutex.
 *   Lock order: event_mutex, then mmap_lock (as uprobes).
 */
#ifndef _TRACE_USER_H
#define _TRACE_USER_H

#include <linux/init.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <uapi/linux/user_events.h>

#include "trace_dynevent.h"
#include "trace_parse.h"

/* Longest event name (EventHeader allows up to 255 characters) */
#define USER_EVENT_NAME_MAX	255
/* Longest command accepted from the ioctl or dynamic_events */
#define USER_EVENT_CMD_MAX	4096
/* Most fields an event may declare */
#define USER_EVENT_FIELDS_MAX	64
/* Largest fixed-size field (char[N] or struct) */
#define USER_EVENT_FIELD_SIZE_MAX	1024
/* Longest length text in char[N]: "0x0400", the largest size in hex */
#define USER_EVENT_ARRAY_DIGITS_MAX	6
/* Largest fixed part of a payload */
#define USER_EVENT_FIXED_MAX	2048
/* Bits of the status page: one page, bit 0 never handed out */
#define USER_EVENT_STATUS_BITS	(PAGE_SIZE * BITS_PER_BYTE)
/* Longest group name (its system is "user_events_" and the name) */
#define USER_EVENT_GROUP_NAME_MAX	64

/*
 * A group of events: the default one (top-level files) or one made by
 * mkdir in user_events_groups/.  See "Groups" above for its lifetime.
 */
struct user_event_group {
	char			*name;		/* NULL: the default group */
	char			*system;	/* "user_events[_NAME]" */
	const char		*multi_system;	/* system of multi-format events */
	struct page		*status_page;	/* mapped by its programs */
	unsigned long		*bits_used;	/* bits handed out (event_mutex) */
	unsigned int		count;		/* its events (event_mutex) */
	unsigned int		max;		/* most events; READ_ONCE */
};

extern struct user_event_group user_event_default_group;

/* How a field's bytes are laid out and shown */
enum user_field_kind {
	USER_FIELD_INT,		/* integer of 1, 2, 4 or 8 bytes */
	USER_FIELD_CHARS,	/* char[N]: string of at most N bytes */
	USER_FIELD_STRUCT,	/* struct X name N: opaque bytes */
	USER_FIELD_DATA_LOC,	/* u32 DYN_LOC, offset from record start */
	USER_FIELD_REL_LOC,	/* u32 DYN_LOC, offset from end of the field */
};

/* One declared field; immutable once the event exists */
struct user_event_field {
	char		*type;		/* type as shown in format, "u32" */
	char		*name;		/* field name, a C identifier */
	u16		offset;		/* offset in the record, after trace_entry */
	u16		size;		/* bytes in the record (4 for loc fields) */
	u8		kind;		/* enum user_field_kind */
	bool		is_signed;	/* integer is signed */
	bool		is_string;	/* chars or loc of char: NUL terminated */
	bool		has_size;	/* size was written in the command */
};

/* Parsed command: what an event is, before it exists */
struct user_event_desc {
	char			*name;		/* event name */
	unsigned int		nr_fields;	/* entries in fields */
	u16			fixed_size;	/* payload bytes of fixed fields */
	bool			has_locs;	/* loc fields: writes are checked */
	struct user_event_field	*fields;	/* declared fields, in order */
};

/* Causes of loss, indexes into user_event_loss.n[] */
enum user_loss_cause {
	USER_LOSS_ANY,		/* the write, whatever the cause */
	USER_LOSS_RING,		/* a ring buffer was full, overwrite off */
	USER_LOSS_PERF,		/* a perf buffer was full or paused */
	USER_LOSS_SIZE,		/* too large for a consumer: E2BIG */
	USER_LOSS_NR,
};

/* Writes some consumer did not store, by cause (only grow) */
struct user_event_loss {
	atomic64_t	n[USER_LOSS_NR];
};

/* A registered event */
struct user_event {
	struct trace_event_call		call;	/* the trace core's view */
	struct trace_event_class	class;	/* private class: own fields */
	struct tracepoint		tp;	/* consumers (RCU-sched funcs) */
	struct dyn_event		devent;	/* dynamic_events entry */
	struct list_head		link;	/* user_event_list (event_mutex) */
	struct hlist_node		hnode;	/* user_event_table (event_mutex) */
	struct user_event_desc		desc;	/* name and fields, immutable */
	struct user_event_group		*group;	/* its group, for its life */
	refcount_t			refs;	/* registry + fd slots */
	unsigned int			bit;	/* status bit, 0: none (event_mutex) */
	bool				status_on; /* consumed, as published */
	unsigned int			ftrace_users; /* event_mutex */
	unsigned int			perf_users;   /* event_mutex */
	struct list_head		enablers; /* remote-write words, event_mutex */
	u16				reg_flags; /* USER_EVENT_REG_* at creation */
	bool				transient; /* destroyed once unpinned, idle */
	bool				reports_loss; /* some REPORT_LOSS (event_mutex) */
	struct user_event_loss		loss;	/* of all its REPORT_LOSS fds */
};

/* State of an address space whose tasks registered remote-write words */
struct user_event_mm {
	refcount_t		tasks;		/* tasks using it */
	refcount_t		refs;		/* 1 for all tasks + queued work */
	struct mm_struct	*mm;		/* mmgrab()ed */
	struct list_head	enablers;	/* event_mutex */
	struct work_struct	fault_work;	/* faults pending words in */
};

/* One remote-write word: bit of the size-byte word at addr in umm->mm */
struct user_event_enabler {
	struct list_head	mm_link;	/* user_event_mm.enablers */
	struct list_head	ev_link;	/* user_event.enablers */
	struct user_event	*ev;		/* pinned */
	struct user_event_mm	*umm;		/* owner */
	unsigned long		addr;		/* user address, aligned */
	u8			bit;		/* bit of the word */
	u8			size;		/* 4 or 8 */
	bool			pending;	/* not written yet: fault work */
};

/* What a registration asks for, beside the command */
struct user_event_reg_opts {
	u16	flags;		/* USER_EVENT_REG_*, of the event and the fd */
	bool	keep;		/* status page, dynamic_events or PERSIST */
	bool	status_bit;	/* status page: the event needs a bit */
};

/*
 * Index table of an fd: slot i is write index i.  loss, when some slot
 * counts its losses (REPORT_LOSS), points after events[], at count
 * entries of counts (NULL for a slot that does not count), in the same
 * allocation.
 */
struct user_event_refs {
	struct rcu_head		rcu;		/* deferred free */
	unsigned int		count;		/* slots in events */
	struct user_event_loss	**loss;		/* per slot, or NULL */
	struct user_event	*events[] __counted_by(count); /* pinned */
};

/* The loss counts of slot i of refs, or NULL */
static inline struct user_event_loss *
user_event_slot_loss(const struct user_event_refs *refs, unsigned int i)
{
	return refs->loss ? refs->loss[i] : NULL;
}

/* Private data of an open user_events_data file */
struct user_event_fd {
	struct user_event_group		*group;	/* counted open in it */
	struct mutex			lock;	/* serializes table updates */
	struct user_event_refs __rcu	*refs;	/* current table or NULL */
	int				idle_ret; /* write nobody consumes */
};

/* Does anything consume ev?  (event_mutex) */
static inline bool user_event_consumed(const struct user_event *ev)
{
	return ev->ftrace_users || ev->perf_users;
}

/* Errors of command parsing, indexes into user_event_errs[] */
enum user_event_err {
	USER_ERR_NONE,
	USER_ERR_NO_NAME,
	USER_ERR_BAD_NAME,
	USER_ERR_NAME_LONG,
	USER_ERR_BAD_FLAG,
	USER_ERR_NO_TYPE,
	USER_ERR_BAD_TYPE,
	USER_ERR_LONG,
	USER_ERR_BAD_ARRAY,
	USER_ERR_NO_FIELD_NAME,
	USER_ERR_BAD_FIELD_NAME,
	USER_ERR_DUP_FIELD,
	USER_ERR_SIZE_NEEDED,
	USER_ERR_SIZE_REFUSED,
	USER_ERR_BAD_SIZE,
	USER_ERR_TRAILING,
	USER_ERR_TOO_MANY,
	USER_ERR_TOO_BIG,
	USER_ERR_GROUP_NO_NAME,
	USER_ERR_GROUP_BAD_NAME,
	USER_ERR_GROUP_NAME_LONG,
	USER_ERR_GROUP_RESERVED,
	USER_ERR_GROUP_EXISTS,
	USER_ERR_MAX,
};

/* User-visible text, one table: trace_user_format.c */
extern const char *user_event_errs[];

/* Lines and words of user_events_status */
struct user_event_status_text {
	const char	*active;	/* "Active:" line, events registered */
	const char	*busy;		/* "Busy:" line, events consumed */
	const char	*max;		/* "Max:" line, bits of the page */
	const char	*used_by;	/* comment after a consumed event */
	const char	*ftrace;	/* consumer name: ftrace and triggers */
	const char	*perf;		/* consumer name: perf */
	const char	*lost;		/* comment: loss counts, 4 %llu */
};

extern const struct user_event_status_text user_event_status_text;

/* trace_user_parse.c */
int user_event_parse(const char *cmd, struct user_event_desc *desc,
		     struct trace_parse_err *perr);
int user_event_group_name_check(const char *name,
				struct trace_parse_err *perr);
int user_event_parse_fields(const char *text, struct user_event_desc *desc,
			    struct trace_parse_err *perr);
void user_event_desc_free(struct user_event_desc *desc);
bool user_event_desc_same_fields(const struct user_event_desc *a,
				 const struct user_event_desc *b);

/* trace_user_format.c */
char *user_event_print_fmt(const struct user_event_desc *desc);
int user_event_define_fields(struct trace_event_call *call);
extern struct trace_event_functions user_event_output_funcs;
void user_event_show_cmd(struct seq_file *m, const struct user_event *ev);

/* trace_user_status.c */
void __init user_event_status_init(void);
int user_event_status_alloc(struct user_event_group *group);
void user_event_status_free(struct user_event_group *group);
int user_event_count_add(struct user_event_group *group);
void user_event_count_sub(struct user_event_group *group);
int user_event_bit_get(struct user_event *ev);
void user_event_bit_put(struct user_event *ev);
bool user_event_bit_update(struct user_event *ev);

/* trace_user_write.c */

/*
 * Where the payload of a write lies: user memory as a run of iovec
 * segments, the first entered skip bytes in (write() gives one segment,
 * writev() its vector), or, for kernel memory, an iterator positioned at
 * the payload.  Consumers copy from it without moving it.
 */
struct user_event_src {
	const struct iovec	*iov;	/* first user segment, NULL: iter */
	size_t			skip;	/* bytes of iov[0] before the payload */
	size_t			len;	/* payload bytes */
	const struct iov_iter	*iter;	/* kernel memory (iov == NULL) */
	struct iovec		ubuf;	/* write()'s buffer as a segment */
};

ssize_t user_event_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos);
ssize_t user_event_write_iter(struct kiocb *kiocb, struct iov_iter *i);
int user_event_ftrace_probe(void *data, struct user_event *ev,
			    const struct user_event_src *src);
int user_event_perf_probe(void *data, struct user_event *ev,
			  const struct user_event_src *src);
int user_event_big_bufs_get(void);
void user_event_big_bufs_put(void);

/* trace_user_enabler.c */
int user_event_enabler_add(struct user_event *ev,
			   const struct user_reg *reg);
int user_event_enabler_remove(struct user_event_group *group,
			      const struct user_unreg *unreg);
void user_event_enablers_update(struct user_event *ev);

/* trace_user_fs.c */
struct dentry;
int user_event_files_create(struct dentry *parent, void *id);

/* trace_user_groups.c */
struct inode;
struct user_event_group *user_event_group_open(struct inode *inode);
void user_event_group_close(struct user_event_group *group);
bool user_event_group_persist(const struct user_event_group *group);
int __init user_event_groups_init(void);

/* trace_events_user.c */
extern struct list_head user_event_list;
int user_event_register_cmd(struct user_event_group *group, const char *cmd,
			    const struct user_event_reg_opts *opts,
			    struct user_event **evp,
			    struct trace_parse_err *perr);
void user_event_get(struct user_event *ev);
void user_event_put(struct user_event *ev);
void user_event_put_not_last(struct user_event *ev);
int user_event_delete(struct user_event_group *group, const char *name);
bool user_event_may_persist(const struct user_event_group *group);
extern struct dyn_event_operations user_event_dyn_ops;

/* trace_events_user.c, for trace_user_groups.c */
int user_event_group_destroy_events(struct user_event_group *group);

#endif /* _TRACE_USER_H */
