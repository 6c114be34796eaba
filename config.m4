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

  if test "$PHP_FASTCOPY_DEV" != "no"; then
    FASTCOPY_CFLAGS="-Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wstrict-prototypes -Werror"
  fi

  dnl src/ holds the engine; src/endpoint/ what a stream is underneath;
  dnl src/paths/ the ways bytes move; src/sapi/ where bytes leave PHP.
  PHP_NEW_EXTENSION(fastcopy,
    php_fastcopy.c \
    src/engine.c \
    src/stats.c \
    src/sigpipe.c \
    src/override.c \
    src/copy_file.c \
    src/endpoint/descriptor.c \
    src/endpoint/output.c \
    src/paths/kernel.c \
    src/paths/mmap_window.c \
    src/paths/buffered.c \
    src/paths/same_file.c \
    src/sapi/fastcgi.c \
    src/sapi/apache.c,
    $ext_shared,, [$FASTCOPY_CFLAGS -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1])
  PHP_ADD_INCLUDE([$ext_srcdir])
  PHP_ADD_BUILD_DIR([$ext_builddir/src $ext_builddir/src/endpoint $ext_builddir/src/paths $ext_builddir/src/sapi])
fi
