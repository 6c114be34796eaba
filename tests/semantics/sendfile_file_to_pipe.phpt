--TEST--
offset/length/read-ahead semantics on the sendfile path: file -> pipe
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/semantics.inc';
fc_semantics('sendfile', 'file', 'pipe', 100000);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
== sendfile: file -> pipe, 100000 bytes ==
2 args: ret=100000 src=100000 dst=99999
len=null: ret=100000 src=100000 dst=99999
len=-1: ret=100000 src=100000 dst=99999
len=-2: ret=100000 src=100000 dst=99999
len=INT_MIN: ret=100000 src=100000 dst=99999
len=0: ret=0 src=0 dst=false
len=1: ret=1 src=1 dst=0
len=4097: ret=4097 src=4097 dst=4096
len=size-1: ret=99999 src=99999 dst=99998
len=size: ret=100000 src=100000 dst=99999
len=size+1: ret=100000 src=100000 dst=99999
len=INT_MAX: ret=100000 src=100000 dst=99999
off=-1: ret=100000 src=100000 dst=99999
off=INT_MIN: ret=100000 src=100000 dst=99999
off=0 len=10: ret=10 src=10 dst=9
fread10: ret=99990 src=100000 dst=99989
fread10 len=5: ret=5 src=15 dst=4
fread10 len=0: ret=0 src=10 dst=false
fread10 len=20000: ret=20000 src=20010 dst=19999
fgets: ret=99965 src=100000 dst=99964
fgetc len=3: ret=3 src=4 dst=2
fread10 off=-5: ret=99990 src=100000 dst=99989
fread10 off=20 (in buffer): ret=99980 src=100000 dst=99979
fread10 off=100 len=7 (in buffer): ret=7 src=107 dst=6
off=1: ret=99999 src=100000 dst=99998
off=5000 len=3000: ret=3000 src=8000 dst=2999
off=5000 len=0: ret=0 src=5000 dst=false
off=size-1: ret=1 src=100000 dst=0
off=size: ret=0 src=100000 dst=false
off=size+10: ret=0 src=100010 dst=false
off=size+10 len=0: ret=0 src=100010 dst=false
fread10 off=3 (backwards): ret=4 src=7 dst=3
fread10 off=9000 (past buffer): ret=100 src=9100 dst=99
named args: ret=50 src=52 dst=49
