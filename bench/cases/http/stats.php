<?php
// The worker's pid and fastcopy_stats() so far (null where the extension is not loaded),
// for the runner to read around a request whose end it cannot see from inside the script
// (the hand-over happens when the request ends). ?hold=S keeps the worker S seconds
// first, so that as many requests made at once as the pool has workers reach each one.
header('Content-Type: application/json');
usleep((int) (1e6 * min(2.0, (float) ($_GET['hold'] ?? 0))));
echo json_encode(['pid' => getmypid(), 'stats' => function_exists('fastcopy_stats') ? fastcopy_stats() : null]);
