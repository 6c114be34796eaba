<?php
// readfile(): a whole file to the output layer. Run stock, and again with
// -d fastcopy.override=1 where the extension reroutes it to its engine.
require __DIR__ . '/../lib/case.php';

fcb_run(static fn (array $c) => readfile($c['src']), false);
