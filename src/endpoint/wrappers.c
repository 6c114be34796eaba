/* Userspace stream wrappers that only pass bytes on, seen through to the stream
 * underneath so that the paths can use its descriptor: an object of exactly
 * icewind/streams' CallbackWrapper (Nextcloud's) without the callback of that
 * direction. It is read from its declared property slots, no PHP code runs, and the
 * wrapper's position, end-of-file and buffer are kept as if every byte had passed
 * through it (docs/internals.md, "Userspace wrappers seen through"). */

#include "src/endpoint/endpoint.h"
#include "src/core/stats.h"
#include "src/paths/paths.h"
#include "src/core/names.h"

#define FC_CALLBACK_WRAPPER "Icewind\\Streams\\CallbackWrapper"
#define FC_BASE_WRAPPER     "Icewind\\Streams\\Wrapper"

static bool class_named(const zend_class_entry *ce, const char *name, size_t len)
{
	return ZSTR_LEN(ce->name) == len && zend_binary_strcasecmp(ZSTR_VAL(ce->name), len, name, len) == 0;
}

static const zend_class_entry *parent_of(const zend_class_entry *ce)
{
	return (ce->ce_flags & ZEND_ACC_LINKED) ? ce->parent : NULL;
}

/* A declared, non-static property slot of obj, declared by the class named
 * `declared_by`; NULL if the class does not have it that way. */
static zval *declared_property(zend_object *obj, const char *name, size_t len, const char *declared_by,
		size_t declared_len)
{
	zend_property_info *info = zend_hash_str_find_ptr(&obj->ce->properties_info, name, len);
	zval *slot;

	if (!info || (info->flags & ZEND_ACC_STATIC) || !class_named(info->ce, declared_by, declared_len)) {
		return NULL;
	}
	slot = OBJ_PROP(obj, info->offset);
	ZVAL_DEREF(slot);
	return slot;
}

/* The class's own stream_read() and stream_write(), in user code: what the
 * wrapper does with the bytes is icewind's CallbackWrapper's. */
static bool methods_are_its_own(const zend_class_entry *ce)
{
	static const char *const names[] = {"stream_read", "stream_write"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		zend_function *fn = zend_hash_str_find_ptr(&ce->function_table, names[i], strlen(names[i]));

		if (!fn || fn->type != ZEND_USER_FUNCTION || fn->common.scope != ce) {
			return false;
		}
	}
	return true;
}

static bool writable(const php_stream *stream)
{
	return strpbrk(stream->mode, "waxc+") != NULL;
}

/* The stream under a userspace stream that passes its bytes on unchanged in this
 * direction, or NULL with *reason set to why not. */
static php_stream *stream_under(php_stream *stream, bool is_source, int *reason)
{
	zval *wrapper = &stream->wrapperdata, *callback, *source;
	zend_object *obj;
	const zend_class_entry *ce, *up;
	php_stream *under;

	if (is_source ? stream->readfilters.head != NULL : stream->writefilters.head != NULL) {
		*reason = FC_REASON_FILTERED;
		return NULL;
	}
	*reason = FC_REASON_UNKNOWN_CLASS;
	if (Z_TYPE_P(wrapper) != IS_OBJECT) {
		return NULL;
	}
	obj = Z_OBJ_P(wrapper);
	ce = obj->ce;
	if (!class_named(ce, ZEND_STRL(FC_CALLBACK_WRAPPER))) {
		for (up = parent_of(ce); up; up = parent_of(up)) {
			if (class_named(up, ZEND_STRL(FC_CALLBACK_WRAPPER))) {
				*reason = FC_REASON_SUBCLASS;
				break;
			}
		}
		return NULL;
	}
	if (ce->type != ZEND_USER_CLASS || !(up = parent_of(ce)) || !class_named(up, ZEND_STRL(FC_BASE_WRAPPER))
			|| !methods_are_its_own(ce)) {
		return NULL;
	}
	callback = is_source
		? declared_property(obj, ZEND_STRL("readCallback"), ZEND_STRL(FC_CALLBACK_WRAPPER))
		: declared_property(obj, ZEND_STRL("writeCallback"), ZEND_STRL(FC_CALLBACK_WRAPPER));
	source = declared_property(obj, ZEND_STRL("source"), ZEND_STRL(FC_BASE_WRAPPER));
	if (!callback || !source) {
		return NULL;
	}
	if (Z_TYPE_P(callback) != IS_NULL) {
		*reason = FC_REASON_CALLBACK_SET;
		return NULL;
	}
	*reason = FC_REASON_INNER_UNUSABLE;
	if (Z_TYPE_P(source) != IS_RESOURCE
			|| (Z_RES_TYPE_P(source) != php_file_le_stream() && Z_RES_TYPE_P(source) != php_file_le_pstream())) {
		return NULL;
	}
	under = (php_stream *) Z_RES_VAL_P(source);
	if (!under || under == stream || (!is_source && (!writable(stream) || !writable(under)))) {
		return NULL;
	}
	*reason = 0;
	return under;
}

/* Records one wrapper seen through; false when the chain is too deep to follow. */
static bool push(fc_job *job, fc_wrapped *w, php_stream *wrapper, php_stream *under)
{
	if (w->depth == FC_WRAPPERS_MAX) {
		return false;
	}
	if (job->in_wrapped.depth + job->out_wrapped.depth == 0) {
		fc_stats_call((php_fastcopy_path) FASTCOPY_STEP_WRAPPERS);
		job->unwrapped_at = job->done;
	}
	w->wrapper[w->depth] = wrapper;
	w->under[w->depth] = under;
	w->under_start[w->depth] = under->position;
	w->depth++;
	return true;
}

/* A userspace stream that stays as it is: why, counted. */
static void not_seen_through(int reason)
{
	fc_stats_fallback((php_fastcopy_path) FASTCOPY_STEP_WRAPPERS, reason);
}

/* The stream under a pass-through wrapper, recorded; NULL for any other stream. */
static php_stream *see_through(fc_job *job, fc_wrapped *w, php_stream *stream, bool is_source)
{
	php_stream *under;
	int reason;

	if (!php_stream_is(stream, PHP_STREAM_IS_USERSPACE) || fc_switched_off(FASTCOPY_STEP_WRAPPERS)) {
		return NULL;
	}
	under = stream_under(stream, is_source, &reason);
	if (!under) {
		not_seen_through(reason);
		return NULL;
	}
	/* A wrapper's read-ahead comes from the stream under it already: it goes
	 * first, from the wrapper's buffer, exactly once. */
	if (is_source && job->in.stream->writepos > job->in.stream->readpos) {
		return NULL;
	}
	if (!push(job, w, stream, under)) {
		not_seen_through(FC_REASON_INNER_UNUSABLE);
		return NULL;
	}
	return under;
}

/* The stream the copy writes to: under every pass-through wrapper. Writes are not
 * buffered by PHP's streams, so nothing is pending in the wrappers. */
php_stream *fc_see_through_destination(fc_job *job, php_stream *stream)
{
	php_stream *under;

	while ((under = see_through(job, &job->out_wrapped, stream, false)) != NULL) {
		stream = under;
	}
	return stream;
}

/* The stream under a pass-through wrapper the copy reads from, recorded; NULL for
 * any other stream. The engine opens the source on it, each wrapper's read-ahead
 * copied first. */
php_stream *fc_see_through_source(fc_job *job, php_stream *stream)
{
	return see_through(job, &job->in_wrapped, stream, true);
}

/* Each wrapper moves as far as the stream under it moved, and sees the end of
 * the file when the stream under it did (with nothing left in its own buffer). */
static void settle(fc_wrapped *w, bool is_source)
{
	for (int i = w->depth - 1; i >= 0; i--) {
		php_stream *wrapper = w->wrapper[i], *under = w->under[i];

		wrapper->position += under->position - w->under_start[i];
		if (is_source) {
			if (under->eof && under->writepos == under->readpos && wrapper->writepos == wrapper->readpos) {
				wrapper->eof = 1;
			}
		} else if (under->position != w->under_start[i]) {
			wrapper->flags |= PHP_STREAM_FLAG_WAS_WRITTEN;
		}
	}
	w->depth = 0;
}

void fc_wrappers_release(fc_job *job)
{
	if (job->in_wrapped.depth + job->out_wrapped.depth == 0) {
		return;
	}
	fc_stats_bytes((php_fastcopy_path) FASTCOPY_STEP_WRAPPERS, job->done - job->unwrapped_at);
	settle(&job->in_wrapped, true);
	settle(&job->out_wrapped, false);
}
