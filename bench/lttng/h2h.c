// SPDX-License-Identifier: GPL-2.0
/*
 * h2h - the same event written by LTTng-UST, by user_events through both
 * of its ABIs (status page, remote write) and by trace_marker, timed per
 * event in the writing thread.  bench/lttng/run.sh runs it in the VM once
 * per state of the consumers (none, ftrace, perf, an LTTng session).
 *
 *   h2h cost STATE ROW...   time each ROW; print "H2H STATE ROW thread mono"
 *   h2h burst STATE ROW N   write N events of ROW as fast as it can; print
 *                           "H2H-BURST STATE ROW N thread mono"
 *
 * A ROW is WRITER_SIZE: WRITER is null (writev() to /dev/null, the cost of
 * the system call alone), ue_sp, ue_rw (a user event through its status
 * page or its remote-write word, writev() of the index and the fields),
 * nullw and ue_spw (the same with write() of one buffer holding the index
 * and the fields), marker or lttng; SIZE is ev (a u32,
 * a u64 and char[16]: 28 bytes) or 1k (a string of 1023 characters and its
 * NUL).  STATE "perf" attaches perf to the user events in this process
 * first; any other STATE is only a label, the script having set the
 * consumers up.
 *
 * Two clocks: CLOCK_THREAD_CPUTIME_ID counts what the writing thread
 * itself executes, user and kernel; CLOCK_MONOTONIC counts what the one
 * vCPU executes meanwhile, so it adds the consumers that ran in between
 * (lttng-consumerd, a reader of ftrace's or perf's buffer).  Under QEMU
 * -icount both advance one nanosecond per guest instruction.
 *
 * The user events are made persistent by the script (dynamic_events), so
 * that it can enable them before this program starts; registering here
 * with the same fields finds them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <linux/user_events.h>

#include "h2h_tp.h"

#define TRACEFS "/sys/kernel/tracing"
#define ITERS_EV 20000
#define ITERS_1K 2000
#define STR_LEN 1024

/* One user event and where this program reads whether it is enabled */
struct h2h_ue {
	const char *name;
	const char *cmd;
	int remote;		/* remote-write word, else status page */
	const __u8 *flag_byte;
	__u8 flag_mask;
	__u32 word;		/* the remote-write word */
	__u32 index;		/* write index */
	struct iovec io[4];
	int nio;
	char *buf;		/* the same bytes in one buffer, for write() */
	size_t len;
};

static struct h2h_ue ue_sp_ev = { "h2h_sp", "h2h_sp u32 a; u64 b; char[16] c", 0 };
static struct h2h_ue ue_rw_ev = { "h2h_rw", "h2h_rw u32 a; u64 b; char[16] c", 1 };
static struct h2h_ue ue_sp_1k = { "h2h_sp_1k", "h2h_sp_1k __data_loc char[] s", 0 };
static struct h2h_ue ue_rw_1k = { "h2h_rw_1k", "h2h_rw_1k __data_loc char[] s", 1 };

static int data_fd, null_fd, marker_fd;

static __u32 ev_a = 1;
static __u64 ev_b = 2;
static char ev_c[16] = "sixteen chars..";
/* trace_marker takes text: as many bytes as the binary payload */
static const char marker_ev[] = "a=1 b=2 c=[sixteen chars...]";
_Static_assert(sizeof(marker_ev) - 1 == 28, "the marker text is as long as the payload");
/* The __data_loc word: 1 KiB at offset 12 (8-byte common header, loc) */
static __u32 str_loc = (STR_LEN << 16) | 12;
static char str_buf[STR_LEN];

static double h2h_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int h2h_ue_register(struct h2h_ue *e)
{
	struct user_status_reg s = { .size = sizeof(s) };
	struct user_reg r = { .size = sizeof(r) };
	void *page;
	int sfd;

	if (e->remote) {
		r.enable_bit = 0;
		r.enable_size = sizeof(e->word);
		r.enable_addr = (__u64)(uintptr_t)&e->word;
		r.name_args = (__u64)(uintptr_t)e->cmd;
		if (ioctl(data_fd, DIAG_IOCSREG, &r))
			return -1;
		e->flag_byte = (const __u8 *)&e->word;
		e->flag_mask = 1;
		e->index = r.write_index;
		return 0;
	}
	s.name_args = (__u64)(uintptr_t)e->cmd;
	if (ioctl(data_fd, DIAG_IOCSREG, &s))
		return -1;
	sfd = open(TRACEFS "/user_events_status", O_RDONLY);
	if (sfd < 0)
		return -1;
	page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, sfd, 0);
	close(sfd);
	if (page == MAP_FAILED)
		return -1;
	e->flag_byte = (const __u8 *)page + s.status_bit / 8;
	e->flag_mask = 1 << (s.status_bit % 8);
	e->index = s.write_index;
	return 0;
}

/* The iovecs of a write: the index, then the fields or the loc and string */
static void h2h_ue_iovecs(struct h2h_ue *e, int str)
{
	e->io[0] = (struct iovec){ &e->index, sizeof(e->index) };
	if (str) {
		e->io[1] = (struct iovec){ &str_loc, sizeof(str_loc) };
		e->io[2] = (struct iovec){ str_buf, sizeof(str_buf) };
		e->nio = 3;
	} else {
		e->io[1] = (struct iovec){ &ev_a, sizeof(ev_a) };
		e->io[2] = (struct iovec){ &ev_b, sizeof(ev_b) };
		e->io[3] = (struct iovec){ ev_c, sizeof(ev_c) };
		e->nio = 4;
	}
}

/* The write() buffer of E: its iovecs end to end; -1 without memory */
static int h2h_ue_buffer(struct h2h_ue *e)
{
	int i;

	e->len = 0;
	for (i = 0; i < e->nio; i++)
		e->len += e->io[i].iov_len;
	e->buf = malloc(e->len);
	if (!e->buf)
		return -1;
	e->len = 0;
	for (i = 0; i < e->nio; i++) {
		memcpy(e->buf + e->len, e->io[i].iov_base, e->io[i].iov_len);
		e->len += e->io[i].iov_len;
	}
	return 0;
}

/*
 * Attach perf to E in this task as perf record would (its sample fields for
 * a tracepoint), the buffer mapped read-only: perf then overwrites and
 * nobody reads, as ftrace's ring buffer in the ftrace state.
 */
static int h2h_perf_attach(const struct h2h_ue *e)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW,
	};
	char path[128], id[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), TRACEFS "/events/user_events/%s/id", e->name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, id, sizeof(id) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	id[n] = '\0';
	attr.config = strtoull(id, NULL, 10);
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	if (mmap(NULL, 257 * sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd,
		 0) == MAP_FAILED)
		return -1;
	return 0;
}

/* What an instrumented program does at each event site, per writer */
static inline void h2h_ue_site(const struct h2h_ue *e)
{
	if (__atomic_load_n(e->flag_byte, __ATOMIC_RELAXED) & e->flag_mask)
		writev(data_fd, e->io, e->nio);
}

/* The same with write() of the one buffer */
static inline void h2h_ue_site_write(const struct h2h_ue *e)
{
	if (__atomic_load_n(e->flag_byte, __ATOMIC_RELAXED) & e->flag_mask)
		write(data_fd, e->buf, e->len);
}

static void fire_null_ev(void) { writev(null_fd, ue_sp_ev.io, ue_sp_ev.nio); }
static void fire_null_1k(void) { writev(null_fd, ue_sp_1k.io, ue_sp_1k.nio); }
static void fire_nullw_ev(void) { write(null_fd, ue_sp_ev.buf, ue_sp_ev.len); }
static void fire_nullw_1k(void) { write(null_fd, ue_sp_1k.buf, ue_sp_1k.len); }
static void fire_ue_spw_ev(void) { h2h_ue_site_write(&ue_sp_ev); }
static void fire_ue_spw_1k(void) { h2h_ue_site_write(&ue_sp_1k); }
static void fire_ue_sp_ev(void) { h2h_ue_site(&ue_sp_ev); }
static void fire_ue_rw_ev(void) { h2h_ue_site(&ue_rw_ev); }
static void fire_ue_sp_1k(void) { h2h_ue_site(&ue_sp_1k); }
static void fire_ue_rw_1k(void) { h2h_ue_site(&ue_rw_1k); }
static void fire_marker_ev(void) { write(marker_fd, marker_ev, sizeof(marker_ev) - 1); }
static void fire_marker_1k(void) { write(marker_fd, str_buf, sizeof(str_buf) - 1); }
static void fire_lttng_ev(void) { lttng_ust_tracepoint(h2h, ev, ev_a, ev_b, ev_c); }
static void fire_lttng_1k(void) { lttng_ust_tracepoint(h2h, str, str_buf); }

static const struct h2h_row {
	const char *name;
	void (*fire)(void);
	long iters;
} h2h_rows[] = {
	{ "null_ev", fire_null_ev, ITERS_EV },
	{ "null_1k", fire_null_1k, ITERS_1K },
	{ "nullw_ev", fire_nullw_ev, ITERS_EV },
	{ "nullw_1k", fire_nullw_1k, ITERS_1K },
	{ "ue_spw_ev", fire_ue_spw_ev, ITERS_EV },
	{ "ue_spw_1k", fire_ue_spw_1k, ITERS_1K },
	{ "ue_sp_ev", fire_ue_sp_ev, ITERS_EV },
	{ "ue_rw_ev", fire_ue_rw_ev, ITERS_EV },
	{ "ue_sp_1k", fire_ue_sp_1k, ITERS_1K },
	{ "ue_rw_1k", fire_ue_rw_1k, ITERS_1K },
	{ "marker_ev", fire_marker_ev, ITERS_EV },
	{ "marker_1k", fire_marker_1k, ITERS_1K },
	{ "lttng_ev", fire_lttng_ev, ITERS_EV },
	{ "lttng_1k", fire_lttng_1k, ITERS_1K },
};

static const struct h2h_row *h2h_row(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(h2h_rows) / sizeof(h2h_rows[0]); i++)
		if (!strcmp(h2h_rows[i].name, name))
			return &h2h_rows[i];
	fprintf(stderr, "h2h: no row %s\n", name);
	return NULL;
}

/* N calls of ROW; the ns each took on both clocks */
static void h2h_time(const struct h2h_row *row, long n, double *thread,
		     double *mono)
{
	double t0 = h2h_clock(CLOCK_THREAD_CPUTIME_ID);
	double m0 = h2h_clock(CLOCK_MONOTONIC);
	long i;

	for (i = 0; i < n; i++)
		row->fire();
	*mono = (h2h_clock(CLOCK_MONOTONIC) - m0) / n;
	*thread = (h2h_clock(CLOCK_THREAD_CPUTIME_ID) - t0) / n;
}

static int h2h_setup(int perf)
{
	struct h2h_ue *all[] = { &ue_sp_ev, &ue_rw_ev, &ue_sp_1k, &ue_rw_1k };
	size_t i;

	data_fd = open(TRACEFS "/user_events_data", O_RDWR);
	null_fd = open("/dev/null", O_WRONLY);
	marker_fd = open(TRACEFS "/trace_marker", O_WRONLY);
	if (data_fd < 0 || null_fd < 0 || marker_fd < 0) {
		perror("h2h: open");
		return -1;
	}
	memset(str_buf, 'x', sizeof(str_buf) - 1);
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (h2h_ue_register(all[i])) {
			fprintf(stderr, "h2h: register %s: %s\n", all[i]->name,
				strerror(errno));
			return -1;
		}
		h2h_ue_iovecs(all[i], i >= 2);
		if (h2h_ue_buffer(all[i])) {
			perror("h2h: buffer");
			return -1;
		}
		if (perf && h2h_perf_attach(all[i])) {
			fprintf(stderr, "h2h: perf on %s: %s\n", all[i]->name,
				strerror(errno));
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct h2h_row *row;
	double thread, mono;
	long n;
	int i;

	if (argc < 4 || (strcmp(argv[1], "cost") && strcmp(argv[1], "burst"))) {
		fprintf(stderr, "usage: h2h cost STATE ROW... | h2h burst STATE ROW N\n");
		return 2;
	}
	if (h2h_setup(!strcmp(argv[2], "perf")))
		return 1;
	if (!strcmp(argv[1], "burst")) {
		row = h2h_row(argv[3]);
		n = argc > 4 ? atol(argv[4]) : 0;
		if (!row || n <= 0)
			return 2;
		h2h_time(row, n, &thread, &mono);
		printf("H2H-BURST %s %s %ld %.1f %.1f\n", argv[2], row->name, n,
		       thread, mono);
		return 0;
	}
	for (i = 3; i < argc; i++) {
		row = h2h_row(argv[i]);
		if (!row)
			return 2;
		/* a tenth as many first, to warm up, then the timed run */
		h2h_time(row, row->iters / 10, &thread, &mono);
		h2h_time(row, row->iters, &thread, &mono);
		printf("H2H %s %s %.1f %.1f\n", argv[2], row->name, thread, mono);
		fflush(stdout);
	}
	return 0;
}
