// SPDX-License-Identifier: GPL-2.0
/*
 * qemu_start: how long QEMU takes to be ready with its guest RAM allocated.
 *
 *   qemu_start [-l LABEL] [-S SIZE_KB] [-x HMP]... [-t SECS] -- QEMU [ARGS...]
 *
 * Runs QEMU with "-qmp stdio" added, sends qmp_capabilities and then
 * query-status, and takes the time from the fork until query-status
 * answers: QEMU answers only from its main loop, after it created its
 * memory backends, preallocation included. While QEMU is still running it
 * reads how many huge pages of SIZE_KB (default 2048) it took from the pool
 * and the htlb_prezero hit and miss events meanwhile, runs every HMP
 * command given with -x (say "xp /8gx 0x200000") and counts the non-zero
 * words in their answers, then quits QEMU. Prints one figure line, "bench: "
 * and a JSON object:
 *
 *   bench: {"bench":"qemu_start","label":...,"ready_us":...,"pages_used":...,
 *    "node_pages_used":"0:N,1:N",...,"prezero_hit":...,"prezero_miss":...,
 *    "words_read":...,"words_nonzero":...}
 *
 * Exit status: 0, 1 if QEMU failed or did not answer within SECS (default
 * 600), 2 if an -x answer had a non-zero word.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_HMP	4096

static FILE *to_qemu, *from_qemu;
static pid_t qemu;

static void fail(const char *what)
{
	fprintf(stderr, "# qemu_start: %s\n", what);
	if (qemu > 0)
		kill(qemu, SIGKILL);
	exit(1);
}

static void on_alarm(int sig)
{
	(void)sig;
	fail("QEMU did not answer in time");
}

/* The next line from QEMU that answers a command ("return" or "error"). */
static char *answer(void)
{
	static char *line;
	static size_t cap;

	while (getline(&line, &cap, from_qemu) > 0) {
		if (strstr(line, "\"error\""))
			fail(line);
		if (strstr(line, "\"return\""))
			return line;
	}
	fail("QEMU closed its monitor");
	return NULL;
}

static void command(const char *json)
{
	fprintf(to_qemu, "%s\n", json);
	fflush(to_qemu);
}

/* Words of an "xp" answer ("ADDR: 0x... 0x...\r\n" lines): read, non-zero. */
static void count_words(const char *s, long *read, long *nonzero)
{
	const char *p = s;

	while ((p = strstr(p, "0x"))) {
		char *end;
		unsigned long long v = strtoull(p + 2, &end, 16);

		if (end == p + 2)
			break;
		(*read)++;
		if (v)
			(*nonzero)++;
		p = end;
	}
}

static long used_pages(unsigned long kb)
{
	return hp_attr(kb, "nr_hugepages") - hp_attr(kb, "free_hugepages");
}

#define MAX_NODES	64

/* Huge pages of SIZE_KB in use on each node (-1 past the last node). */
static void node_used(unsigned long kb, long *used)
{
	char path[160];
	int n;

	for (n = 0; n < MAX_NODES; n++) {
		long nr, fr;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/hugepages/hugepages-%lukB/nr_hugepages",
			 n, kb);
		nr = read_long(path);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/hugepages/hugepages-%lukB/free_hugepages",
			 n, kb);
		fr = read_long(path);
		used[n] = nr < 0 || fr < 0 ? -1 : nr - fr;
	}
}

int main(int argc, char **argv)
{
	const char *label = "qemu", *hmp[MAX_HMP];
	int in[2], out[2], opt, nhmp = 0, secs = 600, status, i;
	long used0, hit0, miss0, used, hit, miss, rd = 0, nz = 0;
	long nodes0[MAX_NODES], nodes[MAX_NODES];
	char pernode[MAX_NODES * 24] = "";
	unsigned long kb = 2048;
	double t0, ready;
	char **args;

	while ((opt = getopt(argc, argv, "l:S:x:t:")) != -1) {
		switch (opt) {
		case 'l':
			label = optarg;
			break;
		case 'S':
			kb = strtoul(optarg, NULL, 0);
			break;
		case 'x':
			if (nhmp == MAX_HMP)
				fail("too many -x");
			hmp[nhmp++] = optarg;
			break;
		case 't':
			secs = atoi(optarg);
			break;
		default:
			fail("usage: qemu_start [-l LABEL] [-S SIZE_KB] [-x HMP]... [-t SECS] -- QEMU [ARGS...]");
		}
	}
	if (optind >= argc)
		fail("no QEMU command");
	args = calloc(argc - optind + 3, sizeof(*args));
	if (!args)
		fail("out of memory");
	for (i = optind; i < argc; i++)
		args[i - optind] = argv[i];
	args[i - optind] = "-qmp";
	args[i - optind + 1] = "stdio";

	if (pipe(in) || pipe(out))
		fail("pipe");
	used0 = used_pages(kb);
	node_used(kb, nodes0);
	hit0 = vmstat("htlb_prezero_hit");
	miss0 = vmstat("htlb_prezero_miss");
	signal(SIGALRM, on_alarm);
	alarm(secs);
	t0 = now_us();
	qemu = fork();
	if (qemu < 0)
		fail("fork");
	if (!qemu) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execvp(args[0], args);
		perror(args[0]);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	to_qemu = fdopen(in[1], "w");
	from_qemu = fdopen(out[0], "r");
	if (!to_qemu || !from_qemu)
		fail("fdopen");

	command("{\"execute\":\"qmp_capabilities\"}");
	answer();
	command("{\"execute\":\"query-status\"}");
	answer();
	ready = now_us() - t0;
	used = used_pages(kb) - used0;
	node_used(kb, nodes);
	for (i = 0; i < MAX_NODES; i++) {
		size_t len = strlen(pernode);

		if (nodes[i] >= 0 && nodes0[i] >= 0)
			snprintf(pernode + len, sizeof(pernode) - len, "%s%d:%ld",
				 len ? "," : "", i, nodes[i] - nodes0[i]);
	}
	hit = vmstat("htlb_prezero_hit") - hit0;
	miss = vmstat("htlb_prezero_miss") - miss0;

	for (i = 0; i < nhmp; i++) {
		char cmd[512];

		snprintf(cmd, sizeof(cmd),
			 "{\"execute\":\"human-monitor-command\",\"arguments\":{\"command-line\":\"%s\"}}",
			 hmp[i]);
		command(cmd);
		count_words(strstr(answer(), "\"return\"") + 9, &rd, &nz);
	}
	command("{\"execute\":\"quit\"}");
	if (waitpid(qemu, &status, 0) != qemu)
		fail("waitpid");
	alarm(0);
	printf(FIGURE "{\"bench\":\"qemu_start\",\"label\":\"%s\",\"size_kb\":%lu,"
	       "\"ready_us\":%.0f,\"pages_used\":%ld,\"node_pages_used\":\"%s\","
	       "\"prezero_hit\":%ld,\"prezero_miss\":%ld,\"words_read\":%ld,"
	       "\"words_nonzero\":%ld}\n",
	       label, kb, ready, used, pernode, hit0 < 0 ? -1 : hit, miss0 < 0 ? -1 : miss,
	       rd, nz);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("QEMU did not exit cleanly");
	return nz ? 2 : 0;
}
