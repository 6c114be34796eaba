<?php
declare(strict_types=1);

function http_case(array $cfg): array
{
    return ['error' => 'todo', 'size' => GIB];
}
