// SPDX-License-Identifier: GPL-2.0
/*
 * EventHeader over user_events.
 *
 * EventHeader shares one tracepoint among all events of a provider with the
 * same level and keyword: the tracepoint is named
 * <Provider>_L<level in hex>K<keyword in hex> and declares only the header
 * fields; every event then starts with that header, optional extension
 * blocks (here: metadata naming the event and its fields) and its data.
 *
 *   eventheader [level [keyword [count]]]
 *
 * registers SampleProvider_L<level>K<keyword> (defaults 4, 1) and, each
 * time the tracepoint is enabled, writes one "HelloEvent" with a u32 count
 * and a string, up to count events (default 5), one per 100ms.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/user_events.h>

/* Header flags */
#define EH_FLAG_POINTER64	0x01	/* the producer has 64-bit pointers */
#define EH_FLAG_LITTLE_ENDIAN	0x02	/* data is little-endian */
#define EH_FLAG_EXTENSION	0x04	/* extension blocks follow the header */

/* Extension kinds; the top bit says another extension follows */
#define EH_EXT_METADATA		0x0001
#define EH_EXT_CHAIN		0x8000

/* Field encodings used in the metadata */
#define EH_ENC_VALUE32		4
#define EH_ENC_ZSTRING8		7

/* Fields every EventHeader tracepoint declares */
#define EH_FIELDS "u8 eventheader_flags; u8 version; u16 id; u16 tag; " \
		  "u8 opcode; u8 level"

#pragma pack(push, 1)
struct eventheader {
	__u8		flags;		/* EH_FLAG_* */
	__u8		version;	/* event version */
	__u16	id;		/* stable event id, 0 when none */
	__u16	tag;		/* provider-defined */
	__u8		opcode;		/* 0: plain event */
	__u8		level;		/* must match L<level> of the name */
};

#pragma pack(pop)

#pragma pack(push, 1)
struct eventheader_extension {
	__u16	size;		/* bytes of data after this block */
	__u16	kind;		/* EH_EXT_* */
};

#pragma pack(pop)

int main(int argc, char **argv)
{
	unsigned int level = argc > 1 ? strtoul(argv[1], NULL, 0) : 4;
	unsigned long long keyword = argc > 2 ? strtoull(argv[2], NULL, 16) : 1;
	int count = argc > 3 ? atoi(argv[3]) : 5, data, status, i, sent = 0;
	/* Metadata: event name, then per field: name, NUL, encoding */
	static const char meta[] = "HelloEvent\0count\0\x04msg\0\x07";
	long page_size = sysconf(_SC_PAGESIZE);
	struct eventheader_extension ext;
	struct eventheader hdr;
	const __u8 *page;
	struct user_status_reg reg;
	struct iovec io[6];
	char cmd[512], tp[300], msg[32];
	__u32 value;

	if (level < 1 || level > 255) {
		fprintf(stderr, "level must be 1..255\n");
		return 1;
	}
	snprintf(tp, sizeof(tp), "SampleProvider_L%xK%llx", level, keyword);
	snprintf(cmd, sizeof(cmd), "%s %s", tp, EH_FIELDS);

	data = open("/sys/kernel/tracing/user_events_data", O_RDWR);
	status = open("/sys/kernel/tracing/user_events_status", O_RDONLY);
	if (data < 0 || status < 0) {
		perror("open");
		return 1;
	}
	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.name_args = (__u64)(uintptr_t)cmd;
	if (ioctl(data, DIAG_IOCSREG, &reg) < 0) {
		perror("DIAG_IOCSREG");
		return 1;
	}
	page = mmap(NULL, page_size, PROT_READ, MAP_SHARED, status, 0);
	if (page == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	printf("eventheader: tracepoint %s, status bit %u\n", tp, reg.status_bit);

	hdr.flags = EH_FLAG_LITTLE_ENDIAN | EH_FLAG_EXTENSION |
		    (sizeof(void *) == 8 ? EH_FLAG_POINTER64 : 0);
	hdr.version = 1;
	hdr.id = 42;
	hdr.tag = 0;
	hdr.opcode = 0;
	hdr.level = level;
	ext.size = sizeof(meta);
	ext.kind = EH_EXT_METADATA;	/* last extension: no chain bit */

	io[0].iov_base = &reg.write_index;
	io[0].iov_len = sizeof(reg.write_index);
	io[1].iov_base = &hdr;
	io[1].iov_len = sizeof(hdr);
	io[2].iov_base = &ext;
	io[2].iov_len = sizeof(ext);
	io[3].iov_base = (void *)meta;
	io[3].iov_len = sizeof(meta);
	io[4].iov_base = &value;
	io[4].iov_len = sizeof(value);
	io[5].iov_base = msg;

	for (i = 0; i < count * 10 && sent < count; i++) {
		if (__atomic_load_n(&page[reg.status_bit / 8], __ATOMIC_RELAXED) &
		    (1 << (reg.status_bit % 8))) {
			value = sent;
			io[5].iov_len = snprintf(msg, sizeof(msg), "hello %d",
						 sent) + 1;
			if (writev(data, io, 6) < 0)
				perror("writev");
			else
				sent++;
		}
		usleep(100000);
	}
	printf("eventheader: wrote %d events\n", sent);
	return 0;
}
