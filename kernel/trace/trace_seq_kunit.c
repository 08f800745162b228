// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit checks of the trace_seq rules every event printer relies on:
 * output accumulates, and a write that does not fit is dropped whole and
 * marks the sequence full instead of leaving half a field behind.
 */
#include <kunit/test.h>
#include <linux/trace_seq.h>

static struct trace_seq *trace_seq_kunit_new(struct kunit *test)
{
	struct trace_seq *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	trace_seq_init(s);
	return s;
}

/* Return the text written so far as a NUL-terminated string. */
static const char *trace_seq_kunit_text(struct trace_seq *s)
{
	trace_seq_putc(s, '\0');
	return s->buffer;
}

static void trace_seq_kunit_appends(struct kunit *test)
{
	struct trace_seq *s = trace_seq_kunit_new(test);

	trace_seq_printf(s, "a=%u", 1);
	trace_seq_puts(s, " s=");
	trace_seq_printf(s, "%s", "hello");
	KUNIT_EXPECT_EQ(test, trace_seq_used(s), 11);
	KUNIT_EXPECT_FALSE(test, trace_seq_has_overflowed(s));
	KUNIT_EXPECT_STREQ(test, trace_seq_kunit_text(s), "a=1 s=hello");
}

static void trace_seq_kunit_hex(struct kunit *test)
{
	struct trace_seq *s = trace_seq_kunit_new(test);
	static const u8 bytes[] = { 0x01, 0xab };

	trace_seq_putmem(s, "id:", 3);
	trace_seq_printf(s, "%*phN", (int)sizeof(bytes), bytes);
	KUNIT_EXPECT_STREQ(test, trace_seq_kunit_text(s), "id:01ab");
}

static void trace_seq_kunit_overflow_drops_whole_write(struct kunit *test)
{
	struct trace_seq *s = trace_seq_kunit_new(test);
	unsigned int room = TRACE_SEQ_BUFFER_SIZE - 4;
	unsigned int i;

	for (i = 0; i < room; i++)
		trace_seq_putc(s, 'x');
	KUNIT_EXPECT_EQ(test, trace_seq_used(s), room);
	KUNIT_EXPECT_FALSE(test, trace_seq_has_overflowed(s));

	/* Eight bytes do not fit in the four left: nothing is written. */
	trace_seq_puts(s, "12345678");
	KUNIT_EXPECT_EQ(test, trace_seq_used(s), room);
	KUNIT_EXPECT_TRUE(test, trace_seq_has_overflowed(s));

	/* Once full, even a write that would fit is refused. */
	trace_seq_putc(s, 'y');
	KUNIT_EXPECT_EQ(test, trace_seq_used(s), room);
}

static struct kunit_case trace_seq_kunit_cases[] = {
	KUNIT_CASE(trace_seq_kunit_appends),
	KUNIT_CASE(trace_seq_kunit_hex),
	KUNIT_CASE(trace_seq_kunit_overflow_drops_whole_write),
	{}
};

static struct kunit_suite trace_seq_kunit_suite = {
	.name = "trace_seq",
	.test_cases = trace_seq_kunit_cases,
};

kunit_test_suite(trace_seq_kunit_suite);

MODULE_DESCRIPTION("KUnit checks of trace_seq");
MODULE_LICENSE("GPL");
