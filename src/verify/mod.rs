//! Independent verification of answers. This code deliberately shares nothing with the
//! encoders and decoders: it recomputes everything from the parsed instance.

pub mod adts;
pub mod kakuro;
pub mod soku;
pub mod tricky;
