/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the user_events selftests: tracefs files, registration
 * and reading back trace lines.
 */
#ifndef _UE_UTIL_H
#define _UE_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/user_events.h>

/* The layouts' names: a test of a 6.1 program defines USER_EVENTS_STATUS_PAGE */
#ifdef USER_EVENTS_STATUS_PAGE
#define UE_STATUS_REG	user_reg
#define UE_REMOTE_REG	user_enabler_reg
#else
#define UE_STATUS_REG	user_status_reg
#define UE_REMOTE_REG	user_reg
#endif

#define UE_TRACEFS "/sys/kernel/tracing"
#define UE_DATA UE_TRACEFS "/user_events_data"
#define UE_STATUS UE_TRACEFS "/user_events_status"
#define UE_DYN UE_TRACEFS "/dynamic_events"

static inline uint32_t ue_load(const uint32_t *word)
{
	return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/*
 * Wait up to 2 s for an enabler word to read want.  The kernel writes a
 * word whose page is not present from a work item (it faults the page in
 * first), so a word not yet touched changes some time after the enable.
 */
static inline int ue_wait_word(const uint32_t *word, uint32_t want)
{
	int i;

	for (i = 0; i < 2000 && ue_load(word) != want; i++)
		usleep(1000);
	return ue_load(word) == want;
}

static inline int ue_open(void)
{
	return open(UE_DATA, O_RDWR);
}

/* Register cmd on fd; 0 or -errno */
static inline int ue_reg(int fd, const char *cmd, struct UE_STATUS_REG *reg)
{
	memset(reg, 0, sizeof(*reg));
	reg->size = sizeof(*reg);
	reg->name_args = (uint64_t)(uintptr_t)cmd;
	return ioctl(fd, DIAG_IOCSREG, reg) ? -errno : 0;
}

/* Delete by name from a fresh fd; 0 or -errno */
static inline int ue_del(const char *name)
{
	int fd = ue_open(), ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, DIAG_IOCSDEL, name) ? -errno : 0;
	close(fd);
	return ret;
}

/* Write s to path (append when app): 0, -errno, or -EIO for a short write */
static inline int ue_write_file(const char *path, const char *s, int app)
{
	int fd = open(path, O_WRONLY | (app ? O_APPEND : O_TRUNC));
	ssize_t len = strlen(s), n;
	int ret;

	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	ret = n < 0 ? -errno : n == len ? 0 : -EIO;
	close(fd);
	return ret;
}

/* Whole file in a malloc'd string (NULL on error) */
static inline char *ue_read_file(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	buf[len] = '\0';
	close(fd);
	return buf;
}

static inline int ue_event_file(const char *event, const char *file,
				const char *val)
{
	char path[512];

	snprintf(path, sizeof(path), UE_TRACEFS "/events/user_events/%s/%s",
		 event, file);
	return ue_write_file(path, val, 0);
}

static inline int ue_enable(const char *event, int on)
{
	return ue_event_file(event, "enable", on ? "1" : "0");
}

static inline void ue_clear_trace(void)
{
	ue_write_file(UE_TRACEFS "/trace", "", 0);
}

/*
 * Text after "<event>: " of the n-th trace line of event (0-based), in a
 * malloc'd string; NULL when there is no such line.  *count gets the
 * number of lines of the event.
 */
static inline char *ue_trace_line(const char *event, int n, int *count)
{
	char *buf = ue_read_file(UE_TRACEFS "/trace"), *line, *save, *res = NULL;
	char key[300];
	int seen = 0;

	if (!buf)
		return NULL;
	snprintf(key, sizeof(key), " %s: ", event);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p;

		if (line[0] == '#')
			continue;
		p = strstr(line, key);
		if (!p)
			continue;
		if (seen == n)
			res = strdup(p + strlen(key));
		seen++;
	}
	free(buf);
	if (count)
		*count = seen;
	return res;
}

static inline int ue_trace_count(const char *event)
{
	int count = 0;

	free(ue_trace_line(event, 0, &count));
	return count;
}

/* Id in the id file of an event folder, -1 when there is none */
static inline int ue_dir_id(const char *dir)
{
	char path[320], *text;
	int id;

	snprintf(path, sizeof(path), "%s/id", dir);
	text = ue_read_file(path);
	if (!text)
		return -1;
	id = atoi(text);
	free(text);
	return id;
}

/* Id of user event name, -1 when it has none */
static inline int ue_event_id(const char *name)
{
	char dir[256];

	snprintf(dir, sizeof(dir), UE_TRACEFS "/events/user_events/%s", name);
	return ue_dir_id(dir);
}

/* One raw sample per event of tracepoint id, on any CPU, for this task */
static inline long ue_perf_open(int id)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_TRACEPOINT,
		.config = id,
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = 1,
		.wakeup_events = 1,
	};

	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

/* What perf event fd counted so far, -1 when it cannot be read */
static inline long long ue_perf_count(int fd)
{
	long long n = -1;

	return read(fd, &n, sizeof(n)) == sizeof(n) ? n : -1;
}

/* Is status bit set in the mapped status page? */
static inline int ue_bit_set(const uint8_t *page, uint32_t bit)
{
	return !!(__atomic_load_n(&page[bit / 8], __ATOMIC_RELAXED) &
		  (1 << (bit % 8)));
}

/* Map the status page of the user_events_status file at path */
static inline const uint8_t *ue_map_status_at(const char *path)
{
	int fd = open(path, O_RDONLY);
	void *p;

	if (fd < 0)
		return NULL;
	p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

static inline const uint8_t *ue_map_status(void)
{
	return ue_map_status_at(UE_STATUS);
}

/* write index + payload with writev; bytes written or -errno */
static inline ssize_t ue_emit(int fd, uint32_t idx, const void *data,
			      size_t len)
{
	struct iovec io[2] = {
		{ &idx, sizeof(idx) },
		{ (void *)data, len },
	};
	ssize_t ret = writev(fd, io, len ? 2 : 1);

	return ret < 0 ? -errno : ret;
}

/* Remote-write registration of cmd; 0 or -errno, *idx the write index */
static inline int ue_reg_word(int fd, const char *cmd, void *addr, int size,
			      int bit, int flags, uint32_t *idx)
{
	struct UE_REMOTE_REG r = {
		.size = sizeof(r),
		.enable_bit = bit,
		.enable_size = size,
		.flags = flags,
		.enable_addr = (uintptr_t)addr,
		.name_args = (uintptr_t)cmd,
	};

	if (ioctl(fd, DIAG_IOCSREG, &r))
		return -errno;
	if (idx)
		*idx = r.write_index;
	return 0;
}

static inline int ue_unreg_word(int fd, void *addr, int bit)
{
	struct user_unreg u = {
		.size = sizeof(u),
		.disable_bit = bit,
		.disable_addr = (uintptr_t)addr,
	};

	return ioctl(fd, DIAG_IOCSUNREG, &u) ? -errno : 0;
}

/* Has events/user_events/<event>/ a folder? */
static inline int ue_exists(const char *event)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), UE_TRACEFS "/events/user_events/%s",
		 event);
	return stat(path, &st) == 0;
}

#endif /* _UE_UTIL_H */
