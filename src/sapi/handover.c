/* The handover path: under PHP-FPM, where the web server declared it
 * (handover_config.c), a regular file the script sends and nothing else leaves as
 * a header that has the web server send the file itself, and the worker is free
 * when the script ends. The copy returns what stock's returns and keeps the file (a
 * duplicate of its descriptor) and the range; later pieces of the same file join
 * it. PHP's headers and whatever else PHP writes or flushes reach PHP-FPM only
 * through the SAPI's three entry points, which are watched while a file is kept:
 * bytes that continue the file join the range, anything else first sends what was
 * kept by the fastcgi path, so the client gets stock's bytes in stock's order. When
 * the request ends with nothing else written, the headers go out with the
 * hand-over header and no body (docs/handover.md). */

#include "src/sapi/sapi.h"
#include "src/sapi/handover.h"
#include "src/sapi/fastcgi_request.h"
#include "src/core/stats.h"
#include "src/endpoint/endpoint.h"

#include "SAPI.h"
#include "php_main.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

/* fastcopy.override is on: the hand-over is one of its changes, never
 * fastcopy_stream()'s alone. */
static bool allowed;

/* PHP-FPM serves one request at a time in a process: one file kept at a time. */
static struct {
	bool active;           /* a file is kept and PHP's way out is watched */
	bool headers_owed;     /* PHP sent its headers, and they are still ours to send */
	bool own_flush;        /* the flush under way is ours, not the script's */
	bool tried;            /* this request asked once: after a refusal, later pieces go quietly */
	int pending;           /* why the hand-over was given up, not yet counted */
	int fd;                /* our duplicate of the file */
	zend_stat_t st;        /* the file when it was kept */
	char *path;            /* its name, as the kernel knows it */
	size_t path_len;
	zend_off_t start, end; /* the range kept */
	size_t first_len;      /* what the first copy takes */
	smart_str head;        /* PHP-FPM's own header block, as it wrote it for us */
	fc_handover_config cfg;
	/* the SAPI's own, while ours stand in */
	size_t (*ub_write)(const char *str, size_t len);
	void (*flush)(void *server_context);
	int (*send_headers)(sapi_headers_struct *headers);
} kept = {.fd = -1};

/* The SAPI's entry points as PHP-FPM set them, seen at startup. */
static struct {
	size_t (*ub_write)(const char *str, size_t len);
	void (*flush)(void *server_context);
	int (*send_headers)(sapi_headers_struct *headers);
} sapi_own;

static size_t watch_write(const char *str, size_t len);
static void watch_flush(void *server_context);
static int watch_headers(sapi_headers_struct *headers);

/* Another extension standing in for one of them (its own wrapper around PHP-FPM's
 * writes) would see our writes, or we its: the hand-over declines. */
static bool entry_points_own(void)
{
	return sapi_module.ub_write == sapi_own.ub_write && sapi_module.flush == sapi_own.flush
		&& sapi_module.send_headers == sapi_own.send_headers;
}

static void watch(void)
{
	kept.ub_write = sapi_module.ub_write;
	kept.flush = sapi_module.flush;
	kept.send_headers = sapi_module.send_headers;
	sapi_module.ub_write = watch_write;
	sapi_module.flush = watch_flush;
	sapi_module.send_headers = watch_headers;
}

/* Each entry point that is still ours goes back; ours forward to PHP-FPM's once the
 * file is let go. */
static void unwatch(void)
{
	if (sapi_module.ub_write == watch_write) {
		sapi_module.ub_write = kept.ub_write;
	}
	if (sapi_module.flush == watch_flush) {
		sapi_module.flush = kept.flush;
	}
	if (sapi_module.send_headers == watch_headers) {
		sapi_module.send_headers = kept.send_headers;
	}
}

/* pread() through signals; what it returned otherwise */
static ssize_t pread_whole(int fd, void *buf, size_t len, zend_off_t at)
{
	ssize_t n;

	do {
		n = pread(fd, buf, len, (off_t) at);
	} while (n < 0 && errno == EINTR);
	return n;
}

/* Puts the SAPI's own back and lets the file go. */
static void release(void)
{
	unwatch();
	if (kept.fd >= 0) {
		close(kept.fd);
	}
	if (kept.path) {
		efree(kept.path);
	}
	smart_str_free(&kept.head);
	fc_handover_config_release(&kept.cfg);
	kept.active = kept.headers_owed = false;
	kept.fd = -1;
	kept.path = NULL;
}

/* Why the hand-over was given up where no copy was there to say it: the copy that
 * asked says it when it returns; otherwise it is counted by the next copy or at the
 * end of the request. */
static void give_up(int reason)
{
	if (kept.pending == 0) {
		kept.pending = reason;
	}
}

static int take_pending(void)
{
	int reason = kept.pending;

	kept.pending = 0;
	return reason;
}

static void count_pending(void)
{
	if (kept.pending) {
		fc_stats_fallback(FASTCOPY_PATH_HANDOVER, take_pending());
	}
}

/* The kept range through PHP-FPM's own writer, where the fastcgi path's records
 * cannot take it (the connection's proof refused, no pipe): stock's own writes.
 * Returns the bytes written. */
static size_t write_kept(zend_off_t from)
{
	char buf[65536];
	size_t written = 0;

	while (from < kept.end) {
		ssize_t n = pread_whole(kept.fd, buf, (size_t) MIN((zend_off_t) sizeof(buf), kept.end - from), from);

		if (n <= 0 || kept.ub_write(buf, (size_t) n) != (size_t) n) {
			break;
		}
		from += n;
		written += (size_t) n;
	}
	return written;
}

/* The hand-over is given up: the headers and the range go out as the fastcgi path
 * sends them, then the file is let go. A client found gone ends the script here,
 * as it would have at any write, unless the script has ended already (in_shutdown):
 * a bailout there would skip the other extensions' post-deactivate handlers. A file
 * cut below the range since it was kept has lost bytes stock had sent: the
 * connection ends inside the response, so that the web server breaks it off rather
 * than take what came for all of it. */
static void send_kept_at(bool in_shutdown)
{
	volatile bool bailed = false;
	int why;
	fc_fcgi_request *req;
	size_t sent = 0, len = (size_t) (kept.end - kept.start);

	unwatch();
	zend_try {
		if (kept.headers_owed) {
			kept.ub_write(ZSTR_VAL(kept.head.s), ZSTR_LEN(kept.head.s));
		}
		if (len > 0) {
			/* PHP-FPM's buffer first, or the records would overtake it */
			kept.flush(SG(server_context));
			if ((req = fc_fastcgi_request(&why)) != NULL) {
				fc_fastcgi_send_range(req, kept.fd, kept.start, len, &sent);
			}
			if (sent < len && !(PG(connection_status) & PHP_CONNECTION_ABORTED)) {
				sent += write_kept(kept.start + (zend_off_t) sent);
			}
			if (sent < len && !(PG(connection_status) & PHP_CONNECTION_ABORTED)
					&& (req = fc_fastcgi_request(&why)) != NULL) {
				fc_fastcgi_end_connection(req);
			}
		}
	} zend_catch {
		bailed = true;
	} zend_end_try();
	release();
	if (bailed && !in_shutdown) {
		zend_bailout();
	}
}

static void send_kept(void)
{
	send_kept_at(false);
}

/* Whether these bytes are the file's next ones, where the range ends. */
static bool continues_range(const char *str, size_t len)
{
	char buf[8192];
	zend_off_t at = kept.end;

	if ((zend_off_t) len > kept.st.st_size - at) {
		return false;
	}
	while (len > 0) {
		ssize_t n = pread_whole(kept.fd, buf, MIN(len, sizeof(buf)), at);

		if (n <= 0 || memcmp(buf, str, (size_t) n) != 0) {
			return false;
		}
		str += n;
		len -= (size_t) n;
		at += n;
	}
	return true;
}

static size_t watch_write(const char *str, size_t len)
{
	if (!kept.active) {
		return kept.ub_write(str, len);
	}
	if (kept.headers_owed && continues_range(str, len)) {
		kept.end += (zend_off_t) len;
		return len;
	}
	give_up(FC_REASON_OUTPUT_AFTER);
	send_kept();
	return kept.ub_write(str, len);
}

static void watch_flush(void *server_context)
{
	if (!kept.active) {
		kept.flush(server_context);
		return;
	}
	if (kept.own_flush) {
		/* nothing of ours is in PHP-FPM's buffer */
		return;
	}
	give_up(FC_REASON_FLUSHED);
	send_kept();
	kept.flush(server_context);
}

static size_t keep_head(const char *str, size_t len)
{
	smart_str_appendl(&kept.head, str, len);
	return len;
}

/* Whether the web server will send these headers as they are: 0, or why not. They
 * are final now (a header callback has run), as the file's first byte is written. */
static int headers_refused(void)
{
	int reason = fc_handover_response_ok(&kept.cfg);
	zend_off_t length = fc_handover_content_length();

	if (reason != 0 || length < 0) {
		return reason;
	}
	/* A Content-Length that the range cannot end up with shows now: the web server
	 * stops reading at it, and only bytes sent now let the script see that as
	 * stock's does. */
	if (fc_handover_whole_files(&kept.cfg) ? length != kept.st.st_size : (size_t) length < kept.first_len) {
		return FC_REASON_LENGTH;
	}
	return 0;
}

/* PHP sends its headers with the file's first byte. Either the web server will send
 * them as they are, and PHP-FPM writes them into our hands, to go out at the end
 * with the hand-over header; or they go out now and the file goes the fastcgi
 * path's way. */
static int watch_headers(sapi_headers_struct *headers)
{
	int reason, sent;

	if (!kept.active) {
		return kept.send_headers(headers);
	}
	reason = headers_refused();

	if (reason == 0) {
		sapi_module.ub_write = keep_head;
		sent = kept.send_headers(headers);
		sapi_module.ub_write = watch_write;
		/* the block ends with its empty line, the hand-over header goes before it */
		if (sent == SAPI_HEADER_SENT_SUCCESSFULLY && kept.head.s && ZSTR_LEN(kept.head.s) >= 2
				&& !memcmp(ZSTR_VAL(kept.head.s) + ZSTR_LEN(kept.head.s) - 2, "\r\n", 2)) {
			kept.headers_owed = true;
			return sent;
		}
		/* not what PHP-FPM writes: what it wrote goes out as it is */
		kept.headers_owed = sent == SAPI_HEADER_SENT_SUCCESSFULLY && kept.head.s;
		give_up(FC_REASON_HEADERS);
		send_kept();
		return sent;
	}
	give_up(reason);
	release();
	return kept.send_headers(headers);
}

/* The file's name as the kernel knows it, if it lies under the declared directory
 * (so no symlink, "..", or encoding in the name the script used can lead out of
 * it). 0, or the reason it cannot be handed over. */
static int name_under_dir(int fd, const fc_handover_config *cfg, char **path, size_t *len)
{
	char link[64], name[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, name, sizeof(name) - 1);
	if (n <= 0 || (size_t) n >= sizeof(name) - 1 || name[0] != '/') {
		return FC_REASON_OUTSIDE_DIR;
	}
	if ((size_t) n <= cfg->dir_len || memcmp(name, cfg->dir, cfg->dir_len) != 0 || name[cfg->dir_len] != '/') {
		return FC_REASON_OUTSIDE_DIR;
	}
	*path = estrndup(name, (size_t) n);
	*len = (size_t) n;
	return 0;
}

/* Whether all that PHP's buffers hold is the file's, right before the copy's start:
 * sabre/http sends a range that starts off a page boundary in two copies, the
 * first of them to the boundary, which stays in the buffer. */
static bool held_is_file(const fc_job *job, size_t held)
{
	php_output_handler **h = (php_output_handler **) zend_stack_base(&OG(handlers));
	zend_off_t at = job->in.stream->position - (zend_off_t) held;
	char buf[8192];

	if (at < 0) {
		return false;
	}
	for (int i = 0, n = zend_stack_count(&OG(handlers)); i < n; i++) {
		for (size_t done = 0; done < h[i]->buffer.used;) {
			ssize_t got = pread_whole(job->in.fd, buf, MIN(sizeof(buf), h[i]->buffer.used - done), at);

			if (got <= 0 || memcmp(buf, h[i]->buffer.data + done, (size_t) got) != 0) {
				return false;
			}
			done += (size_t) got;
			at += got;
		}
	}
	return true;
}

/* Why the first copy of a response cannot be kept, or 0; *start is where the file's
 * bytes begin, at the copy's start or before it in PHP's buffers. */
static int first_refused(const fc_job *job, zend_off_t *start)
{
	size_t held = fc_output_buffers_held(&job->output);
	int reason;

	if (job->output.levels < 0) {
		/* a callback must see the bytes */
		return FC_REASON_OUTPUT_HANDLER;
	}
	if (OG(flags) & PHP_OUTPUT_IMPLICITFLUSH) {
		/* every write is flushed */
		return FC_REASON_FLUSHED;
	}
	if (SG(headers_sent) || SG(request_info).no_headers || (held > 0 && !held_is_file(job, held))) {
		return FC_REASON_OUTPUT_BEFORE;
	}
	*start = job->in.stream->position - (zend_off_t) held;
	if (fc_handover_whole_files(&kept.cfg) && *start != 0) {
		return FC_REASON_PARTIAL;
	}
	if ((reason = fc_handover_request_ok(&kept.cfg)) != 0
			|| (reason = name_under_dir(job->in.fd, &kept.cfg, &kept.path, &kept.path_len)) != 0) {
		return reason;
	}
	return fc_handover_name_ok(&kept.cfg, kept.path, kept.path_len);
}

/* Before php://output is settled for the copy: whether this copy can be kept, and if
 * it is the first, PHP's way out watched, so that the first byte and the headers
 * PHP sends with it come to us. 0, the reason it declines, or -1 where a response
 * already refused or given up is not asked again (sabre/http's later pieces). */
static int prepare_handover(fc_job *job)
{
	zend_off_t start = 0;
	int reason;

	count_pending();
	if (kept.active) {
		if (job->in.st.st_dev != kept.st.st_dev || job->in.st.st_ino != kept.st.st_ino) {
			/* a later piece joins only the same file */
			send_kept();
			return FC_REASON_OUTPUT_AFTER;
		}
		return 0;
	}
	if (kept.tried && SG(headers_sent)) {
		return -1;
	}
	kept.tried = true;
	/* the web server declared it, and the override is on */
	if (!allowed || fc_handover_config_read(&kept.cfg) != NULL) {
		fc_handover_config_release(&kept.cfg);
		return FC_REASON_NOT_CONFIGURED;
	}
	if (!entry_points_own()) {
		reason = FC_REASON_UNVERIFIED;
	} else if ((reason = first_refused(job, &start)) == 0
			&& (kept.fd = fcntl(job->in.fd, F_DUPFD_CLOEXEC, 3)) < 0) {
		reason = errno;
	}
	if (reason != 0) {
		release();
		return reason;
	}
	kept.st = job->in.st;
	kept.start = kept.end = start;
	kept.first_len = MIN(job->remaining, (size_t) (kept.st.st_size - job->in.stream->position))
		+ (size_t) (job->in.stream->position - start);
	kept.active = true;
	watch();
	return 0;
}

static fc_status copy_handover(fc_job *job)
{
	zend_stat_t sb;
	zend_off_t at = job->in.stream->position;
	size_t n;
	int reason;

	/* What PHP's buffers hold goes to the SAPI, which is us: the first byte and the
	 * headers, or the last piece's tail. */
	kept.own_flush = true;
	reason = fc_output_pass_through();
	kept.own_flush = false;
	if (!kept.active) {
		/* the headers went out, or other output took the kept range with it */
		int why = take_pending();

		return fc_fallback(job, why ? why : reason ? reason : FC_REASON_OUTPUT_AFTER);
	}
	if (reason != 0 || kept.end != at || zend_fstat(job->in.fd, &sb) != 0) {
		send_kept();
		return fc_fallback(job, reason ? reason : FC_REASON_OUTPUT_AFTER);
	}
	n = sb.st_size > at ? MIN(job->remaining, (size_t) (sb.st_size - at)) : 0;
	/* the script reads on where stock's copy would have left the file */
	zend_lseek(job->in.fd, at + (zend_off_t) n, SEEK_SET);
	fc_job_moved(job, n);
	kept.end += (zend_off_t) n;
	if (job->remaining > 0) {
		job->in.stream->eof = 1;
	}
	return FC_DONE;
}

/* Why the kept range cannot be handed over now, or 0: the file must still be what
 * was kept, under the name the web server will open, and the range one it sends. */
static int handover_refused(void)
{
	zend_stat_t now, named;
	zend_off_t length;
	int reason;

	if (zend_fstat(kept.fd, &now) != 0 || stat(kept.path, &named) != 0 || now.st_size != kept.st.st_size
			|| now.st_mtim.tv_sec != kept.st.st_mtim.tv_sec || now.st_mtim.tv_nsec != kept.st.st_mtim.tv_nsec
			|| named.st_dev != now.st_dev || named.st_ino != now.st_ino) {
		return FC_REASON_FILE_CHANGED;
	}
	if ((reason = fc_handover_range_ok(&kept.cfg, kept.start, kept.end, now.st_size)) != 0) {
		return reason;
	}
	length = fc_handover_content_length();
	return length >= 0 && length != kept.end - kept.start ? FC_REASON_LENGTH : 0;
}

/* The end of the response: the hand-over, or what was kept sent the fastcgi path's way. */
static void finish_response(bool in_shutdown)
{
	smart_str header = {0};
	const char *head;
	size_t head_len;
	int reason;

	kept.tried = false;
	count_pending();
	if (!kept.active) {
		return;
	}
	if (!kept.headers_owed) {
		/* nothing of the file reached the SAPI (its buffers were thrown away) */
		release();
		return;
	}
	if ((reason = handover_refused()) != 0) {
		fc_stats_fallback(FASTCOPY_PATH_HANDOVER, reason);
		send_kept_at(in_shutdown);
		return;
	}
	fc_handover_header(&kept.cfg, kept.path, kept.path_len, kept.start, kept.end, &header);
	smart_str_appends(&header, "\r\n\r\n");
	smart_str_0(&header);
	unwatch();
	/* PHP-FPM's own header block, the hand-over header in place of its empty line */
	head = ZSTR_VAL(kept.head.s);
	head_len = ZSTR_LEN(kept.head.s) - 2;
	zend_try {
		kept.ub_write(head, head_len);
		kept.ub_write(ZSTR_VAL(header.s), ZSTR_LEN(header.s));
		fc_stats_handed_over((size_t) (kept.end - kept.start));
	} zend_end_try();
	smart_str_free(&header);
	release();
}

void fc_handover_request_end(void)
{
	finish_response(true);
}

/* fastcgi_finish_request(): the response ends here, so the hand-over (or the kept
 * bytes) goes first, after whatever PHP's buffers still hold. */
static zif_handler previous_finish;

static ZEND_NAMED_FUNCTION(handover_finish_request)
{
	if (kept.active && ZEND_NUM_ARGS() == 0) {
		php_output_end_all();
		finish_response(false);
	}
	previous_finish(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void fc_handover_startup(bool override_on)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), ZEND_STRL("fastcgi_finish_request"));

	allowed = override_on;
	sapi_own.ub_write = sapi_module.ub_write;
	sapi_own.flush = sapi_module.flush;
	sapi_own.send_headers = sapi_module.send_headers;
	if (allowed && fn && fn->type == ZEND_INTERNAL_FUNCTION && !previous_finish) {
		previous_finish = fn->internal_function.handler;
		fn->internal_function.handler = handover_finish_request;
	}
}

void fc_handover_shutdown(void)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), ZEND_STRL("fastcgi_finish_request"));

	if (fn && previous_finish && fn->internal_function.handler == handover_finish_request) {
		fn->internal_function.handler = previous_finish;
	}
	previous_finish = NULL;
}

static bool handover_possible(void)
{
	return fc_fastcgi_possible();
}

/* Why the path cannot serve this process, or this request. */
static const char *handover_unavailable(void)
{
	static char why[256];
	const char *reason = fc_fastcgi_unavailable();
	fc_handover_config cfg;

	if (reason) {
		return reason;
	}
	if (!allowed) {
		return "fastcopy.override is off";
	}
	if (!SG(server_context)) {
		return NULL;
	}
	reason = fc_handover_config_read(&cfg);
	fc_handover_config_release(&cfg);
	if (!reason) {
		return NULL;
	}
	snprintf(why, sizeof(why), "not for this request: %s", reason);
	return why;
}

const fc_server_path fc_handover_path = {NULL, copy_handover, handover_possible, handover_unavailable,
	prepare_handover};

#else

void fc_handover_request_end(void)
{
}

void fc_handover_startup(bool override_on)
{
}

void fc_handover_shutdown(void)
{
}

const fc_server_path fc_handover_path = {"not built: needs Linux splice()"};

#endif
