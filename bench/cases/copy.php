<?php
// copy(): file to file by name. Run stock, and again with
// -d fastcopy.override=1 where the extension reroutes it to its engine.
require __DIR__ . '/../lib/case.php';

fcb_run(static fn (array $c) => copy($c['src'], $c['dst_path']) ? filesize($c['dst_path']) : false, false);
