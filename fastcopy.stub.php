<?php

/**
 * @generate-function-entries
 * @generate-legacy-arginfo 80100
 */

/**
 * @param resource $from
 * @param resource $to
 */
function fastcopy_stream($from, $to, ?int $length = null, int $offset = 0): int|false {}

/** @return array<string, array{calls: int, bytes: int, fallbacks: array<string, int>}> */
function fastcopy_stats(): array {}
