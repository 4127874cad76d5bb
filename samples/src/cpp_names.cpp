// C++ names that stress a function-name parser: templates with commas,
// operators (operator<<, operator(), operator+, operator<, operator[]),
// lambdas, nested namespaces, anonymous namespace, const methods,
// function-pointer parameters, std containers.
// Used for: cpp-names.callgrind (g++ -O0 -g)
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace geo {
namespace detail {

template <typename T, int Dim>
struct Vec {
    T v[Dim];
    T operator[](int i) const { return v[i]; }
    Vec operator+(const Vec &o) const {
        Vec r{};
        for (int i = 0; i < Dim; i++) r.v[i] = v[i] + o.v[i];
        return r;
    }
    bool operator<(const Vec &o) const { return v[0] < o.v[0]; }
};

template <typename T, int Dim>
std::ostream &operator<<(std::ostream &os, const Vec<T, Dim> &p) {
    os << '(';
    for (int i = 0; i < Dim; i++) os << (i ? "," : "") << p[i];
    return os << ')';
}

}  // namespace detail
}  // namespace geo

namespace {

struct Accumulator {
    long total = 0;
    void operator()(int x) { total += x; }
    long operator()(int x, int y) const { return total + x * y; }
};

long apply_twice(long (*fn)(long, long), long a, long b) {
    return fn(fn(a, b), b);
}

long add_longs(long a, long b) { return a + b; }

}  // namespace

template <typename K, typename V>
std::map<K, std::vector<V>> group_by_parity(const std::vector<std::pair<K, V>> &in) {
    std::map<K, std::vector<V>> out;
    for (const auto &kv : in) out[kv.first % 2].push_back(kv.second);
    return out;
}

template <typename F>
long call_with_each(const std::vector<int> &xs, F &&f) {
    long s = 0;
    for (int x : xs) s += f(x);
    return s;
}

int main() {
    using V3 = geo::detail::Vec<double, 3>;
    V3 a{{1.0, 2.0, 3.0}}, b{{0.5, 0.25, 0.125}};
    V3 c = a + b;
    std::ostringstream os;
    os << c << (a < b);

    Accumulator acc;
    std::vector<int> xs;
    for (int i = 0; i < 50; i++) xs.push_back(i);
    for (int x : xs) acc(x);
    long prod = acc(3, 4);

    int factor = 3;
    auto scale = [factor](int x) -> long { return static_cast<long>(x) * factor; };
    long scaled = call_with_each(xs, scale);
    std::function<long(int)> fn = [&](int x) { return scale(x) + 1; };
    long viaFn = call_with_each(xs, fn);

    std::vector<std::pair<int, std::string>> pairs;
    for (int i = 0; i < 10; i++) pairs.emplace_back(i, std::to_string(i));
    auto groups = group_by_parity(pairs);

    long twice = apply_twice(add_longs, 5, 6);
    std::cout << os.str() << ' ' << acc.total << ' ' << prod << ' ' << scaled
              << ' ' << viaFn << ' ' << groups.size() << ' ' << twice << '\n';
    return 0;
}
