#!/usr/bin/env bash
# mini-configure.sh OUTDIR CC...: the compiler checks an autoconf configure script runs (the
# same commands and conftest programs, in the same style), with $CFLAGS. Like configure, a
# check passes only when the command exits 0 *and* prints nothing on stderr
# (AC_LANG_WERROR): any stray line from the compiler turns a "yes" into a "no".
# Prints one line per check: "NAME: yes|no (exit N, stderr B bytes)"; keeps each check's
# stderr (temporary file names normalized) in OUTDIR/errs/NAME.err; works in OUTDIR/work.
set -u
out=$1
shift
cc=("$@")
cflags=${CFLAGS:-}
mkdir -p "$out/errs" "$out/work"
cd "$out/work" || exit 2

check() { # check NAME KIND(compile|link|run|cpp|cpp-fail) SOURCE [EXTRA FLAGS...]
  local name=$1 kind=$2 src=$3
  shift 3
  rm -f conftest.c conftest.o conftest.i a.out conftest conftest.err
  printf '%s\n' "$src" >conftest.c
  local status
  case $kind in
    compile) "${cc[@]}" -c $cflags "$@" conftest.c 2>conftest.err ;;
    aout) "${cc[@]}" $cflags "$@" conftest.c 2>conftest.err ;; # default output: a.out
    link) "${cc[@]}" -o conftest $cflags "$@" conftest.c 2>conftest.err ;;
    run) "${cc[@]}" -o conftest $cflags "$@" conftest.c 2>conftest.err && ./conftest ;;
    cpp) "${cc[@]}" -E $cflags "$@" conftest.c >conftest.i 2>conftest.err ;;
  esac
  status=$?
  sed -E 's#([A-Za-z0-9_+.]+)-[0-9a-f]{6}\.(o|s|bc|i|out)\b#\1-XXXXXX.\2#g' conftest.err \
    >"../errs/${name//\//_}.err"
  local bytes
  bytes=$(wc -c <conftest.err)
  local verdict=no
  [ $status = 0 ] && [ "$bytes" = 0 ] && verdict=yes
  # configure checks the object/executable exists too.
  case $kind in
    compile) [ -s conftest.o ] || verdict=no ;;
    aout) [ -x a.out ] || verdict=no ;;
  esac
  echo "$name: $verdict (exit $status, stderr $bytes bytes)"
}

main='int main (void) { return 0; }'
check works aout "$main"
check run-aout run "$main"
check objext compile "$main"
check gnu compile '#ifndef __GNUC__
       choke me
#endif
int main (void) { return 0; }'
check accepts-g compile "$main" -g
check c11 compile '#include <stdalign.h>
#include <stdnoreturn.h>
_Static_assert (sizeof (long) >= 4, "long");
static _Alignas (16) char buf[16];
noreturn void die (void);
int main (void) { return alignof (double) + (int) sizeof buf - 16 - (int) alignof (double); }'
check cpp-limits cpp '#include <limits.h>
                     Syntax error'
check cpp-nonexistent cpp '#include <ac_nonexistent.h>'
for h in stdio.h stdlib.h inttypes.h sys/stat.h unistd.h; do
  check "header-$h" compile "#include <stdio.h>
#include <$h>
int main (void) { return 0; }"
done
check header-nonexistent compile '#include <no_such_header_for_configure.h>
int main (void) { return 0; }'
funcheck() { # AC_CHECK_FUNC's link test (autoconf 2.71)
  check "func-$1" link "#define $1 innocuous_$1
#include <limits.h>
#undef $1
#ifdef __cplusplus
extern \"C\"
#endif
char $1 (void);
#if defined __stub_$1 || defined __stub___$1
choke me
#endif
int main (void) { return $1 (); }"
}
for f in memcpy strdup getpagesize mmap no_such_function_for_configure; do funcheck "$f"; done
check sizeof-long-le-8 compile 'static int test_array [1 - 2 * !(((long int) (sizeof (long))) <= 8)];
int main (void) { test_array [0] = 0; return test_array [0]; }'
check sizeof-long-le-4 compile 'static int test_array [1 - 2 * !(((long int) (sizeof (long))) <= 4)];
int main (void) { test_array [0] = 0; return test_array [0]; }'
check bigendian compile '#include <sys/types.h>
#include <sys/param.h>
int main (void) {
#if ! (defined BYTE_ORDER && defined BIG_ENDIAN && defined LITTLE_ENDIAN && BYTE_ORDER && BIG_ENDIAN && LITTLE_ENDIAN)
 bogus endian macros
#endif
#if BYTE_ORDER != BIG_ENDIAN
 not big endian
#endif
 return 0; }'
check inline compile 'typedef int foo_t;
static inline foo_t static_foo (void) {return 0; }
inline foo_t foo (void) {return 0; }
int main (void) { return static_foo () + foo (); }'
check werror-unused compile "$main" -Werror -Wunused
check run-sizes run '#include <stdio.h>
#include <stdlib.h>
static long longval (void) { return (long) (sizeof (void *)); }
int main (void) {
  FILE *f = fopen ("conftest.val", "w");
  if (! f) return 1;
  if (longval () != 8 && longval () != 4) return 1;
  fprintf (f, "%ld", longval ());
  return ferror (f) || fclose (f) != 0;
}'
echo "sizeof(void *) = $(cat conftest.val 2>/dev/null)"
