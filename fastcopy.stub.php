<?php

/**
 * @generate-function-entries
 * @generate-legacy-arginfo 80100
 */

#if PHP_VERSION_ID >= 80600
/**
 * @param resource $from
 * @param resource $to
 * @param resource|null $context
 */
function fastcopy_stream($from, $to, ?int $length = null, int $offset = 0, $context = null): int|false {}
#else
/**
 * @param resource $from
 * @param resource $to
 */
function fastcopy_stream($from, $to, ?int $length = null, int $offset = 0): int|false {}
#endif

/** @return array<string, array{calls: int, bytes: int, fallbacks: array<string, int>}|array<string, string>> */
function fastcopy_stats(): array {}
