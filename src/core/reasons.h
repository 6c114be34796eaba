/* Why a path handed over (or a userspace stream was not seen through, or a path
 * ended the connection itself): a syscall's errno, or one of the reasons below.
 * This list is the only place they are written: it makes the constants, each named
 * FC_REASON_ and the name fastcopy_stats() prints under "fallbacks" (names.c), in
 * the order it prints them. */

#ifndef FASTCOPY_REASONS_H
#define FASTCOPY_REASONS_H

#define FC_REASONS(X) \
	X(ZERO)              /* 0 bytes on the first call */ \
	X(O_APPEND)          /* O_APPEND destination */ \
	X(OTHER)             /* errno beyond the table */ \
	X(SAME_HOST)         /* a TCP peer on this host: copies cost the two ends less */ \
	X(OUTPUT_HANDLER)    /* an output handler must see the bytes */ \
	X(OUTPUT_DISABLED)   /* output disabled: HEAD, headers only */ \
	X(REQUEST_FINISHED)  /* after fastcgi_finish_request() */ \
	X(UNVERIFIED)        /* a server's private structure not proven */ \
	X(CLIENT_ABORTED)    /* the client hung up */ \
	X(TIMED_OUT)         /* max_execution_time ended the script */ \
	X(SCRIPT_ENDED)      /* the script ended otherwise (exit, fatal error) */ \
	X(SMALL_RESPONSE)    /* Apache would see the whole response */ \
	X(SUBREQUEST)        /* an Apache sub-request */ \
	X(HEAD)              /* a HEAD request: Apache drops the body */ \
	X(FILTER_CHAIN)      /* Apache's filters do not end in its core */ \
	/* why a userspace stream was not seen through */ \
	X(CALLBACK_SET)      /* its read (or write) callback is set */ \
	X(SUBCLASS)          /* a subclass of a known wrapper */ \
	X(UNKNOWN_CLASS)     /* a class not known to pass bytes on */ \
	X(INNER_UNUSABLE)    /* the stream underneath is not usable */ \
	X(FILTERED)          /* a stream filter on the wrapper */ \
	/* why a path ended the connection itself */ \
	X(FILE_SHRANK)       /* the file ended inside a range promised */ \
	X(FILTER_FAILED)     /* an Apache filter failed the range */ \
	/* why php://input was not copied from its spool */ \
	X(SPOOL_IN_MEMORY)   /* the spool is still in memory (< 16 KiB) */ \
	X(NOT_SPOOLED)       /* the next bytes are still with the SAPI */ \
	/* why php://input was not read from PHP-FPM's socket by fastcgi_input */ \
	X(BEHIND_LIVE_EDGE)  /* not at the live edge of the body */ \
	X(REQUEST_BODY_FILE) /* the body is in REQUEST_BODY_FILE */ \
	/* why php://input was not copied from REQUEST_BODY_FILE by body_file */ \
	X(NOT_A_FILE)        /* the name is not a regular file's */ \
	X(SAME_FILE)         /* the destination is that file */ \
	X(BODY_FILE_SHORT)   /* shorter than CONTENT_LENGTH */ \
	X(BODY_FILE_CHANGED) /* it changed under the copy */ \
	/* why neither took whole fills of php://input: its fills are not stock's 8 KiB */ \
	X(FILL_SIZE) \
	/* why a response was not handed to the web server to send (handover) */ \
	X(NOT_CONFIGURED)    /* no valid FASTCOPY_HANDOVER parameters */ \
	X(METHOD)            /* not a GET */ \
	X(CONDITIONAL)       /* a request header the server would act on itself */ \
	X(OUTPUT_BEFORE)     /* other output (or a flush) before the file */ \
	X(STATUS)            /* a status the server would not send as PHP's */ \
	X(HEADERS)           /* a header the server would not send as PHP's */ \
	X(OUTSIDE_DIR)       /* the file is not under the declared directory */ \
	X(NAME)              /* a name the server cannot be given */ \
	X(PARTIAL)           /* not the whole file, where the server sends only that */ \
	X(LENGTH)            /* a Content-Length that is not the range's */ \
	X(OUTPUT_AFTER)      /* other output after the file */ \
	X(FLUSHED)           /* the script flushed */ \
	X(FILE_CHANGED)      /* the file changed, or its name is another file's now */

#define FC_REASON_CONSTANT(name) FC_REASON_##name,
enum {
	FC_REASON_ERRNO_MAX = 150, /* errno values stand for themselves up to here */
	FC_REASONS(FC_REASON_CONSTANT)
	FC_REASON_SLOTS
};
#undef FC_REASON_CONSTANT

#endif
