dnl config.m4 for extension fastcopy

PHP_ARG_ENABLE([fastcopy],
  [whether to enable fastcopy support],
  [AS_HELP_STRING([--enable-fastcopy], [Enable fastcopy, kernel-speed stream copies])],
  [no])

PHP_ARG_ENABLE([fastcopy-dev],
  [whether to build fastcopy with developer warnings],
  [AS_HELP_STRING([--enable-fastcopy-dev], [Build fastcopy with many warnings and -Werror])],
  [no], [no])

if test "$PHP_FASTCOPY" != "no"; then
  dnl Each kernel path is compiled in only where the platform has its syscall;
  dnl the engine then skips the paths it was built without.
  AC_CHECK_HEADERS([sys/sendfile.h sys/mman.h])
  AC_CHECK_FUNCS([copy_file_range sendfile splice mmap])

  AC_DEFINE(HAVE_FASTCOPY, 1, [Whether fastcopy is enabled])

  dnl The apache path (src/sapi/apache.c) finds Apache's and APR's functions at run
  dnl time and mirrors the few structures it reads (src/sapi/apache_abi.h), so it
  dnl needs nothing of Apache to build: `pecl install` on a machine with only apache2
  dnl and mod_php gets it. Where Apache's headers are installed (apache2-dev: apxs2),
  dnl the mirror is compared with them and a difference fails the build.
  dnl FASTCOPY_APXS=no skips the comparison (CI builds both ways).
  AC_CHECK_HEADERS([dlfcn.h])
  AC_MSG_CHECKING([the apache path's mirror of Apache's structures])
  if test -z "$FASTCOPY_APXS"; then
    FASTCOPY_APXS=`command -v apxs2 || command -v apxs`
  fi
  if test -n "$FASTCOPY_APXS" && test "$FASTCOPY_APXS" != "no" && test -x "$FASTCOPY_APXS"; then
    fastcopy_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS -I`$FASTCOPY_APXS -q INCLUDEDIR` -I`$FASTCOPY_APXS -q APR_INCLUDEDIR` -I`$FASTCOPY_APXS -q APU_INCLUDEDIR` -I[]PHP_EXT_SRCDIR(fastcopy) `$FASTCOPY_APXS -q EXTRA_CPPFLAGS`"
    AC_RUN_IFELSE([AC_LANG_SOURCE([[#include "config/apache_abi_check.c"]])],
      [AC_MSG_RESULT([the same as $FASTCOPY_APXS's headers])],
      [AC_MSG_ERROR([src/sapi/apache_abi.h differs from Apache's headers, or they did not compile: config.log says which])],
      [AC_MSG_RESULT([not checked (cross-compiling)])])
    CPPFLAGS=$fastcopy_save_CPPFLAGS
  else
    AC_MSG_RESULT([not checked (no apxs2: Apache's headers are in apache2-dev); the module magic number is checked at run time])
  fi

  if test "$PHP_FASTCOPY_DEV" != "no"; then
    FASTCOPY_CFLAGS="-Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wstrict-prototypes -Werror"
    dnl and the test-only setting fastcopy.dev_parameters (src/override.c)
    AC_DEFINE(FASTCOPY_DEV, 1, [Whether fastcopy is a developer build])
  fi

  dnl src/core/ the job and what every layer uses; src/endpoint/ what a stream is
  dnl underneath; src/paths/ the ways bytes move; src/sapi/ where bytes leave PHP;
  dnl src/engine.c choosing the paths; src/functions/ the PHP functions on it.
  PHP_NEW_EXTENSION(fastcopy,
    php_fastcopy.c \
    src/core/job.c \
    src/core/names.c \
    src/core/sapi_name.c \
    src/core/stats.c \
    src/core/sigpipe.c \
    src/endpoint/descriptor.c \
    src/endpoint/output.c \
    src/endpoint/peer.c \
    src/endpoint/stock_writes.c \
    src/endpoint/wrappers.c \
    src/paths/blocks.c \
    src/paths/kernel.c \
    src/paths/mmap_window.c \
    src/paths/buffered.c \
    src/paths/same_file.c \
    src/paths/discard.c \
    src/sapi/guarded_read.c \
    src/sapi/fastcgi_guard.c \
    src/sapi/fastcgi.c \
    src/sapi/fastcgi_copy.c \
    src/sapi/handover_config.c \
    src/sapi/handover_rules.c \
    src/sapi/handover.c \
    src/sapi/apache_guard.c \
    src/sapi/apache.c \
    src/input/request_body.c \
    src/input/spool.c \
    src/input/fpm_stdin.c \
    src/input/splice_route.c \
    src/input/fastcgi_input.c \
    src/input/body_file.c \
    src/engine.c \
    src/functions/stream_copy.c \
    src/functions/override.c \
    src/functions/copy_file.c,
    $ext_shared,, [$FASTCOPY_CFLAGS -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1])
  PHP_ADD_INCLUDE([$ext_srcdir])
  PHP_ADD_BUILD_DIR([$ext_builddir/src $ext_builddir/src/core $ext_builddir/src/endpoint $ext_builddir/src/paths $ext_builddir/src/sapi $ext_builddir/src/input $ext_builddir/src/functions])
fi
