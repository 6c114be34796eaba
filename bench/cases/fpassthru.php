<?php
// Stock fpassthru(): the rest of an open file to the output layer.
require __DIR__ . '/../lib/case.php';

fcb_run(static fn (array $c) => fpassthru($c['in']));
