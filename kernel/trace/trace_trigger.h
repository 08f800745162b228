/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal header of the event trigger engine, shared by the core
 * (trace_events_trigger.c: lists, hot path, tracefs file, parsing) and
 * the built-in commands (trace_trigger_cmds.c); it also holds the line
 * a command's ->parse() is handed (struct trigger_line) and the helpers
 * that read it, which the hist command uses too.  The rest of the
 * interface that kernel/trace uses (histograms, event probes,
 * trace_events.c) stays in trace.h.
 */
#ifndef _TRACE_TRIGGER_H
#define _TRACE_TRIGGER_H

#include "trace.h"
#include "trace_parse.h"

/* Count value meaning "fire every time"; never decremented. */
#define TRIGGER_COUNT_UNLIMITED		((unsigned long)-1)

/*
 * Everything the engine can complain about in error_log.  The text of
 * each entry lives in trigger_err_text[] (trace_events_trigger.c); this
 * enum is the index into it.
 */
enum trigger_err {
	TRIGGER_ERR_NONE,		/* placeholder, never logged */
	TRIGGER_ERR_UNKNOWN_CMD,	/* no command registered under that name */
	TRIGGER_ERR_BAD_COUNT,		/* ":count" is not a number in range */
	TRIGGER_ERR_NEED_IF,		/* text after the command is not "if ..." */
	TRIGGER_ERR_BAD_FILTER,		/* the filter engine rejected the filter */
	TRIGGER_ERR_NEED_TARGET,	/* enable/disable without <system>:<event> */
	TRIGGER_ERR_NO_TARGET,		/* <system>:<event> does not exist here */
	TRIGGER_ERR_TARGET_GONE,	/* target event is being removed */
	TRIGGER_ERR_EXISTS,		/* same kind of trigger already attached */
};

/* Command names as typed by users; also used when listing triggers. */
#define TRIGGER_TRACEON_STR	"traceon"
#define TRIGGER_TRACEOFF_STR	"traceoff"
#define TRIGGER_SNAPSHOT_STR	"snapshot"
#define TRIGGER_STACKTRACE_STR	"stacktrace"

/* Spellings used by the listing of the "trigger" file. */
#define TRIGGER_UNLIMITED_STR	":unlimited"
#define TRIGGER_COUNT_FMT	":count=%lu"
#define TRIGGER_FILTER_FMT	" if %s"
#define TRIGGER_AVAILABLE_HDR	"# Available triggers:\n#"

/*
 * One line written to a trigger file, "[!]name[:args] [if filter]", as
 * the engine hands it to the ->parse() of the command it names.  The
 * text is never modified: a parser reads the arguments through @p,
 * whose cursor starts at them, and reports what is wrong in @err with
 * the column in the line, which the engine then logs in error_log.
 */
struct trigger_line {
	struct trace_parse	p;	/* the whole line; cursor at the args */
	struct trace_token	name;	/* the command's name, '!' excluded */
	bool			remove;	/* the line starts with '!' */
	bool			quiet;	/* made by the kernel: log nothing */
	struct trace_parse_err	err;	/* enum trigger_err and its column */
};

void trigger_data_free_deferred(struct event_trigger_data *trig);
void trigger_line_init(struct trigger_line *line, const char *text);
void trigger_filter_find(struct trace_parse *p, struct trace_token *param);
int set_trigger_filter(struct trigger_line *line,
		       struct event_trigger_data *trig,
		       struct trace_event_file *ef);
int event_trigger_set_filter(struct event_command *cmd,
			     struct trace_event_file *ef,
			     struct trigger_line *line,
			     struct event_trigger_data *trig);
int event_enable_trigger_parse(struct event_command *cmd,
			       struct trace_event_file *ef,
			       struct trigger_line *line);
int trigger_parse_count(struct trigger_line *line,
			const struct trace_token *count,
			struct event_trigger_data *trig);
int trigger_set_count_filter(struct event_command *cmd,
			     struct trace_event_file *ef,
			     struct trigger_line *line,
			     const struct trace_token *count,
			     struct event_trigger_data *trig);
bool trigger_count_take(struct event_trigger_data *trig);
void trigger_print_tail(struct seq_file *m, struct event_trigger_data *trig);

int trigger_attach(struct event_trigger_data *trig,
		   struct trace_event_file *ef);
void trigger_detach(struct event_trigger_data *trig,
		    struct trace_event_file *ef);
int trigger_generic_parse(struct event_command *cmd,
			  struct trace_event_file *ef,
			  struct trigger_line *line);
int trigger_generic_reg(char *word, struct event_trigger_data *trig,
			struct trace_event_file *ef);
bool trigger_generic_unreg_found(struct event_trigger_data *key,
				 struct trace_event_file *ef);
void trigger_generic_unreg(char *word, struct event_trigger_data *key,
			   struct trace_event_file *ef);
void trigger_generic_free(struct event_trigger_data *trig);

bool trace_trigger_soft_disabled_again(struct trace_event_file *ef);

#endif /* _TRACE_TRIGGER_H */
