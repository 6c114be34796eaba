--TEST--
offset/length/read-ahead semantics on the splice path: tcp -> file
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/semantics.inc';
fc_semantics('splice', 'tcp', 'file', 30000);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
== splice: tcp -> file, 30000 bytes ==
2 args: ret=30000 src=30000 dst=30000
len=null: ret=30000 src=30000 dst=30000
len=-1: ret=30000 src=30000 dst=30000
len=-2: ret=30000 src=30000 dst=30000
len=INT_MIN: ret=30000 src=30000 dst=30000
len=0: ret=0 src=0 dst=0
len=1: ret=1 src=1 dst=1
len=4097: ret=4097 src=4097 dst=4097
len=size-1: ret=29999 src=29999 dst=29999
len=size: ret=30000 src=30000 dst=30000
len=size+1: ret=30000 src=30000 dst=30000
len=INT_MAX: ret=30000 src=30000 dst=30000
off=-1: ret=30000 src=30000 dst=30000
off=INT_MIN: ret=30000 src=30000 dst=30000
off=0 len=10: ret=10 src=10 dst=10
fread10: ret=29990 src=30000 dst=29990
fread10 len=5: ret=5 src=15 dst=5
fread10 len=0: ret=0 src=10 dst=0
fread10 len=20000: ret=20000 src=20010 dst=20000
fgets: ret=29978 src=30000 dst=29978
fgetc len=3: ret=3 src=4 dst=3
fread10 off=-5: ret=29990 src=30000 dst=29990
fread10 off=20 (in buffer): ret=29980 src=30000 dst=29980
fread10 off=100 len=7 (in buffer): ret=7 src=107 dst=7
off=1: ret=false src=0 dst=0 [Warning: COPY(): Stream does not support seeking] [Warning: COPY(): Failed to seek to position 1 in the stream]
off=5000 len=3000: ret=false src=0 dst=0 [Warning: COPY(): Stream does not support seeking] [Warning: COPY(): Failed to seek to position 5000 in the stream]
off=5000 len=0: ret=false src=0 dst=0 [Warning: COPY(): Stream does not support seeking] [Warning: COPY(): Failed to seek to position 5000 in the stream]
off=size-1: ret=false src=0 dst=0 [Warning: COPY(): Stream does not support seeking] [Warning: COPY(): Failed to seek to position 29999 in the stream]
off=size: ret=false src=0 dst=0 [Warning: COPY(): Stream does not support seeking] [Warning: COPY(): Failed to seek to position 30000 in the stream]
off=size+10: ret=false src=0 dst=0 [Warning: COPY(): Stream does not support seeking] [Warning: COPY(): Failed to seek to position 30010 in the stream]
off=size+10 len=0: ret=false src=0 dst=0 [Warning: COPY(): Stream does not support seeking] [Warning: COPY(): Failed to seek to position 30010 in the stream]
fread10 off=3 (backwards): ret=false src=10 dst=0 [Warning: COPY(): Stream does not support seeking] [Warning: COPY(): Failed to seek to position 3 in the stream]
fread10 off=9000 (past buffer): ret=false src=10 dst=0 [Warning: COPY(): Stream does not support seeking] [Warning: COPY(): Failed to seek to position 9000 in the stream]
named args: ret=false src=0 dst=0 [Warning: COPY(): Stream does not support seeking] [Warning: COPY(): Failed to seek to position 2 in the stream]
