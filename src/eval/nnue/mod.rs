//! NNUE: an efficiently updatable neural network evaluation. [`features`]
//! says which inputs a position turns on, [`format`](mod@format) how a network is
//! stored, [`network`] holds one ready for inference, [`accumulator`] keeps
//! its first layer up to date along the search path, and [`simd`] has the
//! kernels for each instruction set.

pub mod accumulator;
pub mod features;
pub mod format;
pub mod network;
pub mod simd;

pub use accumulator::AccumulatorStack;
pub use network::Network;
