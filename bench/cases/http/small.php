<?php
// The occupancy case's small page: any request a pool must answer while downloads run.
echo "ok\n";
