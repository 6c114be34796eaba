/* Where bytes enter PHP: php://input, the request body, read as stock's copy loop
 * reads it (request_body.c), copied from its spool file (spool.c), taken from
 * PHP-FPM's socket in batches (fastcgi_input.c, fpm_stdin.c, splice_route.c), or
 * moved from the file the web server stored it in (body_file.c). */

#ifndef FASTCOPY_INPUT_H
#define FASTCOPY_INPUT_H

#include "src/core/job.h"
#include "src/sapi/sapi.h"

/* php://input's fill: what stock's reads ask its SAPI for at a time */
#define FC_REQUEST_BODY_FILL 8192

/* request_body.c */
bool fc_is_request_body(const php_stream *stream);
bool fc_request_body_fills_stock(const php_stream *in);
fc_status fc_copy_request_body(fc_job *job);
fc_status fc_request_body_fill(fc_job *job);
fc_status fc_request_body_drain(fc_job *job);

/* spool.c */
int fc_spool_fd(php_stream *body, int *reason);
fc_status fc_copy_spool(fc_job *job);
bool fc_request_body_move_to(fc_job *job, zend_off_t grid, zend_off_t to);

/* body_file.c: whether the web server named a stored body (REQUEST_BODY_FILE) */
bool fc_request_has_body_file(void);

#endif
