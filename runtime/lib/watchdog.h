/*===- watchdog.h - DISTRT_WATCHDOG for the MPI backend ----------*- C -*-===*
 *
 * Off by default. distrt_wd_setup reads DISTRT_WATCHDOG once (fatal if it is
 * not a number of seconds > 0); distrt_wd_arm / distrt_wd_disarm bracket
 * every MPI call with a one-shot real-time timer, and a call that outlasts
 * it prints "distrt: fatal: rank R: OP: watchdog: stuck in CALL ..." and
 * aborts the job.
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_WATCHDOG_H
#define DISTRT_WATCHDOG_H

#include "internal.h"

DISTRT_HIDDEN void distrt_wd_setup(const char *op, int rank);
DISTRT_HIDDEN void distrt_wd_arm(const char *op, const char *call);
DISTRT_HIDDEN void distrt_wd_disarm(void);

#endif
