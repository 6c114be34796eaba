<?php
// download.php run by virtual() as an Apache sub-request of this request: mod_php
// serves it with this request's PHP state and the sub-request's request_rec.
virtual('/download.php?' . $_SERVER['QUERY_STRING']);
