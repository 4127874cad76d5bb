"""Small Python program profiled with cProfile (converted by
pyprof2calltree) and with yappi (saved in callgrind format).
Used for: pyprof2calltree.callgrind, yappi.callgrind"""
import json


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


class Counter:
    def __init__(self):
        self.counts = {}

    def add(self, word):
        self.counts[word] = self.counts.get(word, 0) + 1

    def top(self, n):
        return sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def count_words(text):
    c = Counter()
    for w in text.split():
        c.add(w.lower())
    return c.top(3)


def main():
    text = "the quick brown fox jumps over the lazy dog the end " * 20
    result = {
        "fib": fib(15),
        "even": is_even(50),
        "top": count_words(text),
        "squares": [x * x for x in range(100)],
    }
    return json.dumps(result, sort_keys=True)


if __name__ == "__main__":
    print(main())
