<?php
// Small PHP program for the xdebug profiler: recursion, internal functions
// (php::strlen, php::str_repeat, php::usort, ...), a closure, class
// methods and an anonymous class (PHP names it "class@anonymous" + NUL +
// path; xdebug 3.2 writes {anonymous-class:PATH:LINES} instead).
// Used for: xdebug.callgrind

function fib($n) {
    return $n < 2 ? $n : fib($n - 1) + fib($n - 2);
}

function is_even($n) { return $n == 0 ? true : is_odd($n - 1); }
function is_odd($n) { return $n == 0 ? false : is_even($n - 1); }

class Greeter {
    private $name;
    public function __construct($name) { $this->name = $name; }
    public function greet() { return "Hello, " . $this->name . str_repeat("!", 3); }
    public static function make($n) { return new Greeter($n); }
}

interface Shape { public function area(); }

function total_length(array $words) {
    // A literal strlen($w) compiles to an opcode (no call is recorded);
    // calling it through a variable makes xdebug record php::strlen.
    $f = 'strlen';
    $t = 0;
    foreach ($words as $w) {
        $t += $f($w);
    }
    return $t;
}

$words = explode(' ', 'the quick brown fox jumps over the lazy dog');
usort($words, function ($a, $b) { return strcmp($a, $b); });
$upper = array_map('strtoupper', $words);
$len = total_length($upper);
$g = Greeter::make('xdebug');
$square = new class(3) implements Shape {
    private $s;
    public function __construct($s) { $this->s = $s; }
    public function area() { return $this->s * $this->s; }
};
printf("%d %d %s %d %s\n", fib(12), $len, $g->greet(), $square->area(),
       is_even(10) ? 'even' : 'odd');
