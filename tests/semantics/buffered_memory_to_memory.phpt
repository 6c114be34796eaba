--TEST--
offset/length/read-ahead semantics on the buffered path: memory -> memory
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/semantics.inc';
fc_semantics('buffered', 'memory', 'memory', 100000);

// Seeking php://memory past its end fails on PHP 8.2 and succeeds from 8.3 on (the
// stream grows on the next write: 8.3's migration notes, "Streams"). fc_semantics compared each case with stock above;
// here, that the running PHP is the one the two off=size+10 lines below were written for.
$m = fopen('php://memory', 'w+');
fwrite($m, 'abc');
$want = PHP_VERSION_ID >= 80300 ? 0 : -1;
echo 'seeking php://memory past its end: ', @fseek($m, 13) === $want ? 'as expected for this PHP' : 'unexpected', "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECTF--
== buffered: memory -> memory, 100000 bytes ==
2 args: ret=100000 src=100000 dst=100000
len=null: ret=100000 src=100000 dst=100000
len=-1: ret=100000 src=100000 dst=100000
len=-2: ret=100000 src=100000 dst=100000
len=INT_MIN: ret=100000 src=100000 dst=100000
len=0: ret=0 src=0 dst=0
len=1: ret=1 src=1 dst=1
len=4097: ret=4097 src=4097 dst=4097
len=size-1: ret=99999 src=99999 dst=99999
len=size: ret=100000 src=100000 dst=100000
len=size+1: ret=100000 src=100000 dst=100000
len=INT_MAX: ret=100000 src=100000 dst=100000
off=-1: ret=100000 src=100000 dst=100000
off=INT_MIN: ret=100000 src=100000 dst=100000
off=0 len=10: ret=10 src=10 dst=10
fread10: ret=99990 src=100000 dst=99990
fread10 len=5: ret=5 src=15 dst=5
fread10 len=0: ret=0 src=10 dst=0
fread10 len=20000: ret=20000 src=20010 dst=20000
fgets: ret=99962 src=100000 dst=99962
fgetc len=3: ret=3 src=4 dst=3
fread10 off=-5: ret=99990 src=100000 dst=99990
fread10 off=20 (in buffer): ret=99980 src=100000 dst=99980
fread10 off=100 len=7 (in buffer): ret=7 src=107 dst=7
off=1: ret=99999 src=100000 dst=99999
off=5000 len=3000: ret=3000 src=8000 dst=3000
off=5000 len=0: ret=0 src=5000 dst=0
off=size-1: ret=1 src=100000 dst=1
off=size: ret=0 src=100000 dst=0
off=size+10: %r(ret=false src=false dst=0 \[Warning: COPY\(\): Failed to seek to position 100010 in the stream\]|ret=0 src=100010 dst=0)%r
off=size+10 len=0: %r(ret=false src=false dst=0 \[Warning: COPY\(\): Failed to seek to position 100010 in the stream\]|ret=0 src=100010 dst=0)%r
fread10 off=3 (backwards): ret=4 src=7 dst=4
fread10 off=9000 (past buffer): ret=100 src=9100 dst=100
named args: ret=50 src=52 dst=50
seeking php://memory past its end: as expected for this PHP
