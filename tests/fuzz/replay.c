/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The regression cases of a fuzz target, without libFuzzer: linked with
 * one target's LLVMFuzzerTestOneInput() (built with ASan and UBSan by
 * meson, no -fsanitize=fuzzer), it runs every file of the directories or
 * files named once, in name order, and prints
 * "RESULT <suite>: N passed, 0 failed". A broken invariant abort()s, and a
 * sanitizer report ends the process: the test fails with it.
 *
 *     fuzz_replay_NAME SUITE DIR|FILE...
 */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static unsigned int replay_passed;

static void
replay_file(const char *path)
{
	uint8_t *buf = NULL;
	size_t size = 0;
	long len;
	FILE *f;

	f = fopen(path, "rb");
	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	size = (size_t)len;
	/* An exact-size copy: ASan sees any read past the input. */
	buf = malloc(size ? size : 1);
	if (buf == NULL || fread(buf, 1, size, f) != size) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, size);
	free(buf);
	printf("[ OK ] %s\n", path);
	fflush(stdout);
	replay_passed++;
}

static int
replay_name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int
main(int argc, char **argv)
{
	struct dirent **names;
	char path[4096];
	struct stat st;
	int i, j, n;

	if (argc < 3) {
		fprintf(stderr, "usage: %s SUITE DIR|FILE...\n", argv[0]);
		return 1;
	}
	if (LLVMFuzzerInitialize != NULL)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 2; i < argc; i++) {
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "no such file: %s\n", argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			replay_file(argv[i]);
			continue;
		}
		n = scandir(argv[i], &names, NULL, replay_name_cmp);
		for (j = 0; j < n; j++) {
			snprintf(path, sizeof(path), "%s/%s", argv[i],
				 names[j]->d_name);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
				replay_file(path);
			free(names[j]);
		}
		free(names);
	}
	printf("RESULT %s: %u passed, 0 failed\n", argv[1], replay_passed);
	return replay_passed > 0 ? 0 : 1;
}
