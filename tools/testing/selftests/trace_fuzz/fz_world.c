// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: the world of an epoch: what stands before the programs
 * run, and taking down what they made once they are done.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/user_events.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "trace_fuzz.h"

/* Before the programs: root's persistent user events, and fz_s0 to fz_s3 */
void fz_world_setup(void)
{
	char cmd[300];
	int i;

	for (i = 0; i < fz_n_ue_defs; i++) {
		if (!fz_persistent_name(fz_ue_defs[i].name))
			continue;
		snprintf(cmd, sizeof(cmd), "u:%s %s", fz_ue_defs[i].name,
			 fz_ue_defs[i].body);
		fz_write_file(T "dynamic_events", cmd, strlen(cmd), O_APPEND);
	}
	for (i = 0; i < 4; i++) {
		snprintf(cmd, sizeof(cmd), "%s %s", fz_synth_defs[i].name,
			 fz_synth_defs[i].body);
		fz_write_file(T "synthetic_events", cmd, strlen(cmd), O_APPEND);
	}
}

/* Ours: made by programs or single inputs (the oracle's event stays) */
static bool ours_name(const char *name)
{
	return !strncmp(name, "fz_", 3) && strncmp(name, "fz_oracle", 9);
}

/*
 * Remove the triggers a truncation leaves.  O_TRUNC takes away only the
 * histograms, and none of them while one has a variable another
 * histogram reads, even one of the same event: those go one by one, the
 * newest first (a histogram reads only variables that existed before
 * it), by their lines as the file shows them.  Every other trigger goes
 * by name ("!traceoff", "!enable_event:sys:event"); the count and the
 * filter of a trigger do not matter to its removal.
 */
static void remove_triggers(const char *path)
{
	char buf[4096], cmd[4100], *hists[64], *line, *save;
	int i, n_hists = 0;
	size_t n;

	if (fz_read_file(path, buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* an enable or a disable names its event: cmd:sys:event */
		int parts = strstr(line, "able_") ? 3 : 1, k = 0;

		if (line[0] == '#')
			continue;
		if (!strncmp(line, "hist", 4)) {
			if (n_hists < (int)ARRAY_SIZE(hists))
				hists[n_hists++] = line;
			continue;
		}
		line[strcspn(line, " ")] = '\0';
		for (n = 0; line[n]; n++)
			if (line[n] == ':' && ++k == parts)
				break;
		snprintf(cmd, sizeof(cmd), "!%.*s", (int)n, line);
		fz_write_file(path, cmd, strlen(cmd), O_APPEND);
	}
	for (i = n_hists - 1; i >= 0; i--) {
		/* less the state the file shows, " [active]" or " [paused]" */
		n = strlen(hists[i]);
		if (n > 9 && hists[i][n - 9] == ' ' && hists[i][n - 8] == '[')
			n -= 9;
		snprintf(cmd, sizeof(cmd), "!%.*s", (int)n, hists[i]);
		fz_write_file(path, cmd, strlen(cmd), O_APPEND);
	}
}

/* Clear the triggers and the filter of one event; whether triggers stay */
static int clear_event(const char *dir)
{
	char path[400], buf[256];
	int left = 0;

	snprintf(path, sizeof(path), "%s/trigger", dir);
	if (fz_write_file(path, "", 0, O_TRUNC) < 0)
		return 0;
	remove_triggers(path);
	if (fz_read_file(path, buf, sizeof(buf)) > 0 && buf[0] != '#')
		left++;
	snprintf(path, sizeof(path), "%s/filter", dir);
	fz_write_file(path, "0", 1, O_TRUNC);
	return left;
}

/*
 * Every trigger, filter and enable of one tree (the top or an instance):
 * of the events we aim at, and of every event of ours, made by a fault
 * operation or a single input where the model does not know it.
 */
static int clear_events(const char *pre)
{
	static const char *const ours_systems[] = {
		"user_events", "synthetic", "eprobes", "fz_fault",
	};
	char path[300];
	struct dirent *d;
	unsigned int k;
	int i, left = 0;
	DIR *dir;

	snprintf(path, sizeof(path), T "%sevents/enable", pre);
	fz_write_file(path, "0", 1, O_TRUNC);
	for (i = 0; i < fz_nevents; i++) {
		snprintf(path, sizeof(path), T "%sevents/%s/%s", pre,
			 fz_events[i].sys, fz_events[i].name);
		left += clear_event(path);
	}
	for (k = 0; k < ARRAY_SIZE(ours_systems); k++) {
		snprintf(path, sizeof(path), T "%sevents/%s", pre, ours_systems[k]);
		dir = opendir(path);
		while (dir && (d = readdir(dir))) {
			char ev[600];

			if (!ours_name(d->d_name) ||
			    fz_event_by_name(ours_systems[k], d->d_name) >= 0)
				continue;
			snprintf(ev, sizeof(ev), "%s/%s", path, d->d_name);
			left += clear_event(ev);
		}
		if (dir)
			closedir(dir);
	}
	return left;
}

/*
 * Delete our dynamic events, user events, instances and user_events
 * groups; count what stays
 */
static int delete_ours(char *left, size_t n)
{
	static char buf[65536];
	char *line, *save, cmd[320], name[300];
	struct dirent *d;
	int fd, count = 0;
	DIR *dir;

	fz_read_file(T "dynamic_events", buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strchr(line, ':'), *slash;

		if (!p)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(p + 1, " \t"), p + 1);
		slash = strchr(name, '/');
		if (!ours_name(slash ? slash + 1 : name))
			continue;
		snprintf(cmd, sizeof(cmd), "-:%s", name);
		if (fz_write_file(T "dynamic_events", cmd, strlen(cmd), O_APPEND) < 0) {
			count++;
			snprintf(left + strlen(left), n - strlen(left), " %s", name);
		}
	}
	fd = open(T "user_events_data", O_RDWR);
	fz_read_file(T "user_events_status", buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strchr(line, ':');

		if (!p)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(p + 1, " #"), p + 1);
		if (!ours_name(name))
			continue;
		if (ioctl(fd, DIAG_IOCSDEL, name)) {
			count++;
			snprintf(left + strlen(left), n - strlen(left), " %s(%s)", name,
				 strerror(errno));
		}
	}
	if (fd >= 0)
		close(fd);
	dir = opendir(T "instances");
	while (dir && (d = readdir(dir))) {
		if (!ours_name(d->d_name))
			continue;
		snprintf(name, sizeof(name), "instances/%s/", d->d_name);
		count += clear_events(name);
		snprintf(cmd, sizeof(cmd), T "instances/%s", d->d_name);
		if (rmdir(cmd)) {
			count++;
			snprintf(left + strlen(left), n - strlen(left), " %s(%s)",
				 cmd + strlen(T), strerror(errno));
		}
	}
	if (dir)
		closedir(dir);
	/* The workers closed their files of the groups: idle, they go */
	dir = opendir(T "user_events_groups");
	while (dir && (d = readdir(dir))) {
		if (!ours_name(d->d_name))
			continue;
		snprintf(cmd, sizeof(cmd), T "user_events_groups/%s", d->d_name);
		if (rmdir(cmd)) {
			count++;
			snprintf(left + strlen(left), n - strlen(left), " %s(%s)",
				 cmd + strlen(T), strerror(errno));
		}
	}
	if (dir)
		closedir(dir);
	return count;
}

/*
 * The end of an epoch, every worker idle: take down what the programs
 * made, in as many passes as references between histograms need (one
 * in use cannot go before its users), waiting for the reaper of
 * transient user events.  Whatever is still there then is a report: an
 * object left half-made, or a reference never dropped.
 */
void fz_cleanup(bool final)
{
	static char reported[4096];
	struct fz_op op = { .kind = OP_NOP, .worker = 0 };
	char left[2048];
	int pass, n = 0;

	snprintf(op.text, sizeof(op.text), "cleanup of epoch %u", fz_cur.epoch);
	op.len = strlen(op.text);
	fz_op_begin(FZ_SLOT_COORD, &op);
	for (pass = 0; pass < 60; pass++) {
		left[0] = '\0';
		n = clear_events("");
		n += delete_ours(left, sizeof(left));
		if (!n)
			break;
		usleep(pass < 10 ? 20000 : 300000);
	}
	fz_write_file(T "set_event_pid", "", 0, O_TRUNC);
	fz_write_file(T "tracing_on", "1", 1, O_TRUNC);
	fz_write_file(T "error_log", "", 0, O_TRUNC);
	fz_write_file(T "trace", "", 0, O_TRUNC);
	fz_op_end(FZ_SLOT_COORD);
	if (n && !strstr(reported, left)) {
		fz_report("left", "after epoch %u's cleanup:%s%s", fz_cur.epoch, left,
			  left[0] ? "" : " triggers in use");
		snprintf(reported + strlen(reported), sizeof(reported) - strlen(reported),
			 "%s", left);
	}
	if (final || (fz_kmemleak_every && fz_cur.epoch % fz_kmemleak_every ==
		      (unsigned int)fz_kmemleak_every - 1))
		fz_kmemleak(final);
}
