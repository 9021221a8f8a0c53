//! NNUE: an efficiently updatable neural network evaluation. [`features`]
//! says which inputs a position turns on, [`format`] how a network is stored.

pub mod features;
pub mod format;
