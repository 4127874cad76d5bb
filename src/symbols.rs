//! Function names as profiles write them: C++ and Rust symbols. Folding
//! template arguments (`fold`), the class, namespace or module a function
//! belongs to (`scope`), reading mangled names (`demangle`). Knows nothing
//! of terminals.

pub mod demangle;
pub mod fold;
mod scan;
pub mod scope;

pub use demangle::demangle;
pub use fold::fold_templates;
pub use scope::scope;
