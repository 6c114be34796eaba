--TEST--
fastcopy_stream(): reflection signature has the shape of stream_copy_to_stream()'s
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--FILE--
<?php
function describe(string $fn): array
{
    $r = new ReflectionFunction($fn);
    $d = [
        'internal' => $r->isInternal(),
        'required' => $r->getNumberOfRequiredParameters(),
        'total' => $r->getNumberOfParameters(),
        'return' => (string)$r->getReturnType(),
        'returnsRef' => $r->returnsReference(),
        'variadic' => $r->isVariadic(),
        'deprecated' => $r->isDeprecated(),
        'params' => [],
    ];
    foreach ($r->getParameters() as $p) {
        $d['params'][] = [
            'pos' => $p->getPosition(),
            'name' => $p->getName(),
            'type' => $p->hasType() ? (string)$p->getType() : null,
            'nullable' => $p->allowsNull(),
            'optional' => $p->isOptional(),
            'default' => $p->isDefaultValueAvailable() ? var_export($p->getDefaultValue(), true) : '-',
            'byRef' => $p->isPassedByReference(),
        ];
    }
    return $d;
}

$f = describe('fastcopy_stream');
$s = describe('stream_copy_to_stream');
var_dump($f === $s);
echo json_encode($f, JSON_PRETTY_PRINT), "\n";
$str = (string)new ReflectionFunction('fastcopy_stream');
$stock = str_replace('stream_copy_to_stream', 'fastcopy_stream', (string)new ReflectionFunction('stream_copy_to_stream'));
// the extension name differs ("standard" vs "fastcopy"); compare the rest
$norm = fn($x) => preg_replace('/<internal:[^>]+>/', '<internal>', $x);
var_dump($norm($str) === $norm($stock));
echo $norm($str);

$fs = new ReflectionFunction('fastcopy_stats');
echo "fastcopy_stats: ", $fs->getNumberOfParameters(), " params, returns ", $fs->getReturnType(), "\n";
?>
--EXPECT--
bool(true)
{
    "internal": true,
    "required": 2,
    "total": 4,
    "return": "int|false",
    "returnsRef": false,
    "variadic": false,
    "deprecated": false,
    "params": [
        {
            "pos": 0,
            "name": "from",
            "type": null,
            "nullable": true,
            "optional": false,
            "default": "-",
            "byRef": false
        },
        {
            "pos": 1,
            "name": "to",
            "type": null,
            "nullable": true,
            "optional": false,
            "default": "-",
            "byRef": false
        },
        {
            "pos": 2,
            "name": "length",
            "type": "?int",
            "nullable": true,
            "optional": true,
            "default": "NULL",
            "byRef": false
        },
        {
            "pos": 3,
            "name": "offset",
            "type": "int",
            "nullable": false,
            "optional": true,
            "default": "0",
            "byRef": false
        }
    ]
}
bool(true)
Function [ <internal> function fastcopy_stream ] {

  - Parameters [4] {
    Parameter #0 [ <required> $from ]
    Parameter #1 [ <required> $to ]
    Parameter #2 [ <optional> ?int $length = null ]
    Parameter #3 [ <optional> int $offset = 0 ]
  }
  - Return [ int|false ]
}
fastcopy_stats: 0 params, returns array
