/* Compiles distrt/abi.h on its own (-pedantic, nothing else included
 * before it): the contract header must stand alone, without distrt.h. */
#include "distrt/abi.h"

#ifdef DISTRT_DISTRT_H
#error "distrt/abi.h must not need distrt.h"
#endif

/* The encoding helpers are constant expressions. */
typedef char distrt_abi_check_kind[DISTRT_DESC_KIND_OF(DISTRT_DESC_KIND(
                                       DISTRT_KIND_CYCLIC, 5)) ==
                                           DISTRT_KIND_CYCLIC
                                       ? 1
                                       : -1];
typedef char distrt_abi_check_skew[DISTRT_DESC_SKEW_OF(DISTRT_DESC_KIND(
                                       DISTRT_KIND_BLOCKED, 5)) == 5
                                       ? 1
                                       : -1];
