//! Typed indexes into the profile's tables, so a file id cannot be used as a
//! function id by mistake.

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub u32);

        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// Table sizes are bounded far below `u32::MAX` by memory; saturate anyway.
            pub fn from_index(i: usize) -> Self {
                Self(u32::try_from(i).unwrap_or(u32::MAX))
            }
        }
    };
}

id_type!(
    /// Index into `Profile::functions`.
    FnId
);
id_type!(
    /// Index into `Profile::files`; id 0 is the empty name (unknown file).
    FileId
);
id_type!(
    /// Index into `Profile::objects`; id 0 is the empty name (unknown object).
    ObjId
);
