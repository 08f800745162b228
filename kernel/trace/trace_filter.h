/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal header of the event filter engine.
 *
 * A filter is text such as "prev_pid > 10 && !(next_comm ~ \"kworker*\")".
 * It is compiled once (trace_filter_parse.c) into a flat array of
 * struct prog_entry, one entry per predicate in source order.  Each entry
 * tests one field of the record and names the entry to run next when the
 * test is true and when it is false; "next" is always a later entry or one
 * of the two verdicts, so evaluation (trace_filter_eval.c) is a
 * simple forward walk: no recursion, no allocation, and "&&"/"||" short
 * circuit for free because a decided branch jumps straight past the rest.
 *
 *	"a == 1 && (b < 2 || !(c ~ \"x*\"))"
 *
 *	#0 a == 1	true -> #1	false -> REJECT
 *	#1 b < 2	true -> ACCEPT	false -> #2
 *	#2 c ~ "x*"	true -> REJECT	false -> ACCEPT
 *
 * Negations (including "!=", ">" and ">=", which are the negations of
 * "==", "<=" and "<") are folded at compile time by swapping the two
 * targets, so the evaluator only knows a handful of primitive tests.
 *
 * Concurrency: a program never changes once built.  The tracefs glue
 * (trace_events_filter.c, always under event_mutex) publishes a new
 * struct event_filter with rcu_assign_pointer() and frees the old one only
 * after tracepoint_synchronize_unregister(), so an event firing in any
 * context, NMI included, sees either the old or the new program whole.
 * Checked by tools/memory-model/litmus-tests/tracing/filter-publish.litmus.
 */
#ifndef _TRACE_FILTER_H
#define _TRACE_FILTER_H

#include <linux/types.h>
#include <linux/cpumask.h>

#include "trace.h"
#include "trace_parse.h"

/* Why a filter was refused; the texts are in filter_err_text[]. */
enum filter_err_code {
	FILTER_ERR_NONE,
	FILTER_ERR_INVALID_OP,
	FILTER_ERR_TOO_MANY_OPEN,
	FILTER_ERR_TOO_MANY_CLOSE,
	FILTER_ERR_MISSING_QUOTE,
	FILTER_ERR_MISSING_BRACE_OPEN,
	FILTER_ERR_MISSING_BRACE_CLOSE,
	FILTER_ERR_OPERAND_TOO_LONG,
	FILTER_ERR_EXPECT_STRING,
	FILTER_ERR_EXPECT_DIGIT,
	FILTER_ERR_ILLEGAL_FIELD_OP,
	FILTER_ERR_FIELD_NOT_FOUND,
	FILTER_ERR_ILLEGAL_INTVAL,
	FILTER_ERR_BAD_SUBSYS_FILTER,
	FILTER_ERR_TOO_MANY_PREDS,
	FILTER_ERR_INVALID_FILTER,
	FILTER_ERR_INVALID_CPULIST,
	FILTER_ERR_IP_FIELD_ONLY,
	FILTER_ERR_INVALID_VALUE,
	FILTER_ERR_NO_FUNCTION,
	FILTER_ERR_ERRNO,
	FILTER_ERR_NO_FILTER,
	FILTER_ERR_MAX,
};

extern const char *filter_err_text[];

/*
 * Where and why compiling a filter failed: a struct trace_parse_err whose
 * err is a FILTER_ERR_*, FILTER_ERR_NONE when the failure was no parse
 * error (memory).
 */

/* Where the compiler finds the fields an expression names. */
struct filter_fields {
	/* returns the field called @name (NUL-terminated) or NULL */
	struct ftrace_event_field *(*find)(void *data, const char *name);
	void	*data;		/* passed back to @find */
	bool	function_event;	/* ftrace:function for perf: "ip" lists only */
};

/* What the parser asks of a numeric field; see filter_set_num(). */
enum filter_num_kind {
	FILTER_NUM_EQ,		/* field == ->val */
	FILTER_NUM_LT,		/* field < ->val */
	FILTER_NUM_LE,		/* field <= ->val */
	FILTER_NUM_BAND,	/* field & ->val is not zero */
	FILTER_NUM_IN,		/* field is a CPU number set in ->mask */
};

/*
 * The primitive tests.  "==", "<" and "<=" on a numeric field all become
 * one range test: the field, loaded as the code says (zero- or
 * sign-extended to 64 bits), lies in [->val, ->val + ->val2].  Computed as
 * (u64)(field - ->val) <= ->val2, which holds for signed and unsigned
 * ranges alike, so the hot path is one load, a subtraction and a compare.
 * They come first so that the evaluator finds them with the fewest tests.
 */
enum filter_code {
	FILTER_T_RANGE_U8,	/* u8 field in range */
	FILTER_T_RANGE_S8,	/* s8 field in range */
	FILTER_T_RANGE_U16,
	FILTER_T_RANGE_S16,
	FILTER_T_RANGE_U32,
	FILTER_T_RANGE_S32,
	FILTER_T_RANGE_64,	/* 64-bit field: one code for both signs */
	FILTER_T_CONST,		/* result is ->val (0 or 1) */
	FILTER_T_BAND8, FILTER_T_BAND16, FILTER_T_BAND32, FILTER_T_BAND64,
	FILTER_T_IN8, FILTER_T_IN16, FILTER_T_IN32, FILTER_T_IN64,
	FILTER_T_CPU_EQ,		/* current CPU == ->val */
	FILTER_T_CPU_LT,		/* current CPU < ->val (signed) */
	FILTER_T_CPU_LE,		/* current CPU <= ->val (signed) */
	FILTER_T_CPU_BAND,	/* current CPU & ->val is not zero */
	FILTER_T_CPU_IN,		/* current CPU in ->mask */
	FILTER_T_MASK_EQ,		/* cpumask field equals ->mask */
	FILTER_T_MASK_BAND,	/* cpumask field intersects ->mask */
	FILTER_T_MASK_ONLY,	/* cpumask field is exactly {->val} */
	FILTER_T_MASK_HAS,	/* cpumask field contains ->val */
	FILTER_T_STR,		/* char[->val] in the record matches ->pat */
	FILTER_T_DSTR,		/* __data_loc string matches ->pat */
	FILTER_T_RSTR,		/* __rel_loc string matches ->pat */
	FILTER_T_PSTR,		/* kernel char * matches ->pat */
	FILTER_T_USTR,		/* user char * matches ->pat */
	FILTER_T_COMM,		/* current->comm matches ->pat */
	FILTER_T_FUNC,		/* ->val <= long field < ->val2 */
	FILTER_T_IP,		/* perf function event "ip" list in ->pat; false */
	FILTER_T_END,		/* terminates the program, never evaluated */
};

/* How a string pattern is compared. */
enum filter_match {
	FILTER_MATCH_FULL,	/* whole string equals the pattern */
	FILTER_MATCH_FRONT,	/* string starts with the pattern */
	FILTER_MATCH_MIDDLE,	/* string contains the pattern */
	FILTER_MATCH_END,	/* string ends with the pattern */
	FILTER_MATCH_GLOB,	/* ->glob, with * ? [...] */
};

/* A compiled string operand. */
struct filter_pattern {
	enum filter_match	how;	/* comparison to run */
	int			len;	/* bytes in @text, NUL excluded */
	struct filter_glob	*glob;	/* FILTER_MATCH_GLOB: @text compiled */
	char			text[];	/* the pattern, NUL-terminated */
};

/* Verdict targets; entry indices are >= 0. */
#define FILTER_ACCEPT	(-1)
#define FILTER_REJECT	(-2)

/*
 * The same verdicts as prog_entry.next[] pointers: any pointer at or below
 * FILTER_NEXT_ACCEPT is a verdict, and its value is the result.
 */
#define FILTER_NEXT_REJECT	((const struct prog_entry *)0)
#define FILTER_NEXT_ACCEPT	((const struct prog_entry *)1)

/* prog_entry.flags: compile-time facts about one entry. */
#define FILTER_FL_SWAP	BIT(0)	/* test is the negation of the operator */
#define FILTER_FL_NE	BIT(1)	/* the operator was "!=" (perf "ip" lists) */
/*
 * Set on a program's first entry when some entry reads the record header's
 * common_flags or common_preempt_count, which trace_event_filter_record()
 * then fills in before the filter runs rather than only for a record kept.
 */
#define FILTER_FL_HEADER_CTX	BIT(2)

/* One predicate of a compiled filter; the program ends with FILTER_T_END. */
struct prog_entry {
	u8		code;		/* enum filter_code */
	u8		flags;		/* FILTER_FL_* */
	u16		offset;		/* offset of the field in the record */
	s16		on_true;	/* next entry when the test holds */
	s16		on_false;	/* next entry when it does not */
	/* on_false and on_true resolved to entries or FILTER_NEXT_* */
	const struct prog_entry	*next[2];
	u64		val;		/* constant operand, size or CPU */
	union {
		u64			val2;	/* RANGE: span; FUNC: end */
		struct filter_pattern	*pat;	/* string codes */
		struct cpumask		*mask;	/* *_IN, MASK_EQ/BAND */
	};
};

/* trace_filter_parse.c */
struct prog_entry *filter_compile(const char *text,
				  const struct filter_fields *fields,
				  struct trace_parse_err *err);
bool filter_ip_list(const struct prog_entry *prog);
struct filter_pattern *filter_pattern_new(const char *text, int len,
					  bool glob, bool *negate);

/* trace_events_filter.c */
const char *event_filter_text(struct trace_event_file *file);

/* trace_filter_parse.c: what the compiler builds, it frees */
void filter_prog_free(struct prog_entry *prog);
bool filter_code_has_pattern(int code);
bool filter_code_has_mask(int code);
void filter_pattern_free(struct filter_pattern *pat);

/* Bytes copied from a char * before comparing, NUL included. */
#define FILTER_STRBUF_LEN	1024

/* Task, softirq, hardirq and NMI: see interrupt_context_level(). */
#define FILTER_STRBUF_LEVELS	4

/* Per-CPU scratch space for strings behind pointers. */
struct filter_strbuf {
	char	buf[FILTER_STRBUF_LEVELS][FILTER_STRBUF_LEN]; /* per context */
};

/* The evaluator's, allocated by the compiler: filter_strbuf_alloc() */
extern struct filter_strbuf __percpu *filter_strbuf;
int filter_strbuf_alloc(void);

/* trace_filter_eval.c */
bool filter_pattern_match(const struct filter_pattern *pat,
			  const char *str, int len);

/* trace_events_filter.c, for the trigger engine */
int create_event_filter_in(struct trace_array *tr, struct trace_event_call *call,
			   const char *text, const char *loc, const char *cmd,
			   int offset, struct event_filter **filterp);

/* trace_filter_glob.c */
struct filter_glob *filter_glob_compile(const char *pat);
bool filter_glob_match(const struct filter_glob *g, const char *str,
		       unsigned int len);

#endif /* _TRACE_FILTER_H */
