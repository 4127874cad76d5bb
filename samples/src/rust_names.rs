// Rust names: generic functions, trait impls, closures, nested modules,
// impl blocks on generic types, Display/Iterator impls.
// Used for: rust-names.callgrind and rust-names-mangled.callgrind
// (rustc -g -C opt-level=0)
use std::collections::HashMap;
use std::fmt;

mod shapes {
    pub trait Area {
        fn area(&self) -> f64;
    }
    pub struct Circle(pub f64);
    pub struct Rect<T> {
        pub w: T,
        pub h: T,
    }
    impl Area for Circle {
        fn area(&self) -> f64 {
            3.14159 * self.0 * self.0
        }
    }
    impl<T: Copy + Into<f64>> Area for Rect<T> {
        fn area(&self) -> f64 {
            self.w.into() * self.h.into()
        }
    }
}

use shapes::Area;

struct Countdown(u32);

impl Iterator for Countdown {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            self.0 -= 1;
            Some(self.0)
        }
    }
}

impl fmt::Display for Countdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Countdown({})", self.0)
    }
}

fn total_area(items: &[Box<dyn Area>]) -> f64 {
    items.iter().map(|s| s.area()).sum()
}

fn largest<T: PartialOrd + Copy>(xs: &[T]) -> T {
    let mut m = xs[0];
    for &x in xs {
        if x > m {
            m = x;
        }
    }
    m
}

fn fib(n: u64) -> u64 {
    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
}

fn main() {
    let items: Vec<Box<dyn Area>> = vec![
        Box::new(shapes::Circle(1.5)),
        Box::new(shapes::Rect { w: 2u8, h: 3u8 }),
        Box::new(shapes::Rect { w: 1.5f32, h: 4.0f32 }),
    ];
    let a = total_area(&items);
    let mut counts: HashMap<String, usize> = HashMap::new();
    for word in "a b c a b a".split(' ') {
        *counts.entry(word.to_string()).or_insert(0) += 1;
    }
    let squares: Vec<u32> = Countdown(20).map(|x| x * x).filter(|x| x % 2 == 0).collect();
    let big = largest(&squares);
    let bigf = largest(&[1.5f64, -2.0, 9.25]);
    println!("{:.2} {} {} {} {} {}", a, counts["a"], big, bigf, Countdown(3), fib(15));
}
