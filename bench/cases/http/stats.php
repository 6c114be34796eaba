<?php
// The worker's fastcopy_stats() so far, for the runner to read around a request whose
// end it cannot see from inside the script (the hand-over happens when the request
// ends); null where the extension is not loaded.
header('Content-Type: application/json');
echo json_encode(function_exists('fastcopy_stats') ? fastcopy_stats() : null);
