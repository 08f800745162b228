// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: programs as data: their operations in words, and their
 * files.
 *
 * An operation is described in one line (for the watchdog, reports and
 * -D) with the names of its kind and of its write's role, written here
 * once.  A saved program is an epoch's operations, every worker's, in
 * the order they were generated (step by step across the workers), so a
 * replay needs neither the seed nor the generator that made it:
 *
 *   "FZSEQ1\n\0", u64 seed, u32 epoch, u32 workers, u32 steps, u32 ops,
 *   then per operation: u16 kind, u8 worker, u8 step, u32 text length,
 *   u64 arg[6], u16 path length, the path, the text
 *
 * (host byte order: the VM and the host are both x86-64).  A keep list
 * ("0-5,9,12"), from the minimiser, turns every other operation into a
 * no-op, so that indexes stay those of the whole program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_fuzz.h"

const char *const fz_kind_name[OP_KINDS] = {
	"nop", "write", "mkdir", "rmdir", "read", "perf", "exec", "ue-open",
	"ue-reg", "ue-unreg", "ue-del", "ue-write", "ue-status", "ue-mem",
	"fork", "text", "oracle", "fault", "priv", "recreate", "readback",
	"loss",
};

const char *const fz_role_name[ROLE_COUNT] = {
	"hist", "trigger", "filter", "enable", "synth", "dynevent", "marker",
	"misc",
};

/* One line for logs and reports: who, what, where, and the text's start */
void fz_op_describe(const struct fz_op *op, char *buf, size_t n)
{
	char who[8];
	unsigned int i, l;
	char text[100];

	if (op->worker == FZ_UNPRIV)
		snprintf(who, sizeof(who), "u");
	else
		snprintf(who, sizeof(who), "w%u", op->worker);
	l = op->len < sizeof(text) - 1 ? op->len : sizeof(text) - 1;
	for (i = 0; i < l; i++)
		text[i] = op->text[i] >= ' ' && op->text[i] < 127 ? op->text[i] : '.';
	text[l] = '\0';
	snprintf(buf, n, "%s#%u %s%s%s%s%s %s%s%s", who, op->step,
		 op->kind < OP_KINDS ? fz_kind_name[op->kind] : "?",
		 op->kind == OP_WRITE ? "/" : "",
		 op->kind == OP_WRITE && op->arg[1] < ROLE_COUNT ?
		 fz_role_name[op->arg[1]] : "",
		 op->kind == OP_WRITE && op->arg[0] ? " >" : "",
		 op->kind == OP_WRITE && !op->arg[0] ? " >>" : "",
		 op->path, op->len ? " " : "", text);
}

/* An epoch's operations, as fz_gen_epoch() or fz_seq_load() made them */
void fz_epoch_free(struct fz_epoch *ep)
{
	free(ep->ops);
	ep->ops = NULL;
	ep->n_ops = 0;
}

/* ---- files ---- */

static const char magic[8] = "FZSEQ1\n";

static int put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -1;
}

static int get(FILE *f, void *p, size_t n)
{
	return fread(p, 1, n, f) == n ? 0 : -1;
}

int fz_seq_save(const struct fz_epoch *ep, const char *path)
{
	FILE *f = fopen(path, "w");
	uint32_t u[4] = { ep->epoch, ep->n_workers, ep->steps, ep->n_ops };
	int i, ret;

	if (!f)
		return -1;
	ret = put(f, magic, sizeof(magic)) | put(f, &ep->seed, 8) | put(f, u, sizeof(u));
	for (i = 0; i < ep->n_ops && !ret; i++) {
		const struct fz_op *op = &ep->ops[i];
		uint16_t pl = strnlen(op->path, sizeof(op->path) - 1);

		ret = put(f, &op->kind, 2) | put(f, &op->worker, 1) |
		      put(f, &op->step, 1) | put(f, &op->len, 4) |
		      put(f, op->arg, sizeof(op->arg)) | put(f, &pl, 2) |
		      put(f, op->path, pl) | put(f, op->text, op->len);
	}
	if (fclose(f))
		ret = -1;
	return ret;
}

int fz_seq_load(struct fz_epoch *ep, const char *path)
{
	FILE *f = fopen(path, "r");
	char m[8];
	uint32_t u[4];
	int i, ret;

	if (!f)
		return -1;
	ret = get(f, m, sizeof(m)) | get(f, &ep->seed, 8) | get(f, u, sizeof(u));
	if (ret || memcmp(m, magic, sizeof(m)) || u[3] > FZ_MAX_STEPS * (FZ_MAX_WORKERS + 1)) {
		fclose(f);
		return -1;
	}
	ep->epoch = u[0];
	ep->n_workers = u[1];
	ep->steps = u[2];
	ep->n_ops = u[3];
	ep->ops = calloc(ep->n_ops ? ep->n_ops : 1, sizeof(*ep->ops));
	for (i = 0; i < ep->n_ops && ep->ops && !ret; i++) {
		struct fz_op *op = &ep->ops[i];
		uint16_t pl;

		ret = get(f, &op->kind, 2) | get(f, &op->worker, 1) |
		      get(f, &op->step, 1) | get(f, &op->len, 4) |
		      get(f, op->arg, sizeof(op->arg)) | get(f, &pl, 2);
		if (ret || pl >= sizeof(op->path) || op->len >= sizeof(op->text) ||
		    op->kind >= OP_KINDS) {
			ret = -1;
			break;
		}
		ret = get(f, op->path, pl) | get(f, op->text, op->len);
	}
	fclose(f);
	if (ret || !ep->ops) {
		fz_epoch_free(ep);
		return -1;
	}
	return 0;
}

/* Keep only the operations of list ("0-5,9,12"), by index */
int fz_keep_parse(const char *list, struct fz_epoch *ep)
{
	char *keep = calloc(ep->n_ops ? ep->n_ops : 1, 1), *end;
	const char *p = list;
	long a, b, i;

	if (!keep)
		return -1;
	while (*p) {
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (end == p || a < 0 || b < a) {
			free(keep);
			return -1;
		}
		for (i = a; i <= b && i < ep->n_ops; i++)
			keep[i] = 1;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			break;
	}
	for (i = 0; i < ep->n_ops; i++)
		if (!keep[i])
			ep->ops[i].kind = OP_NOP;
	free(keep);
	return 0;
}

static void base64_line(const unsigned char *p, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char out[120];
	size_t i, o = 0;

	for (i = 0; i < n; i += 3) {
		uint32_t v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);

		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		out[o++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? b64[v & 63] : '=';
	}
	out[o] = '\0';
	printf("FUZZ-B64 %s\n", out);
}

/*
 * Save the program in the output folder and send it on stdout, so that
 * it leaves the machine whatever happens next.
 */
void fz_seq_emit(const struct fz_epoch *ep, const char *name)
{
	char path[300];
	unsigned char buf[57];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", fz_out_dir, name);
	if (fz_seq_save(ep, path)) {
		printf("fuzz: cannot save %s\n", path);
		return;
	}
	f = fopen(path, "r");
	if (!f)
		return;
	printf("fuzz: the program of epoch %u (%d operations) is saved as %s\n",
	       ep->epoch, ep->n_ops, name);
	printf("FUZZ-FILE %s\n", name);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		base64_line(buf, n);
	printf("FUZZ-END %s\n", name);
	fclose(f);
	fflush(stdout);
}
