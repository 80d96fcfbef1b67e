/* Test "connect-only" (connect_only.c). */
#ifndef CONNECT_ONLY_H
#define CONNECT_ONLY_H

#include <cmdbench/plugin.h>

extern const struct cmdbench_test connect_only_test;

#endif
