//! Numbers from Python arguments, checked here so that every bad value
//! (negative, too large, not a number) is a `ValueError` naming the argument,
//! never an `OverflowError` or a `TypeError` from the conversion.

use std::ops::RangeInclusive;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};

/// The integer `value` of the argument `name`, which must lie in `range`.
pub fn int_in(value: &Bound<'_, PyAny>, name: &str, range: RangeInclusive<u64>) -> PyResult<u64> {
    let out_of_range =
        || PyValueError::new_err(format!("{name} must be an integer in {}-{}", range.start(), range.end()));
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Err(out_of_range());
    }
    value.extract::<u64>().ok().filter(|v| range.contains(v)).ok_or_else(out_of_range)
}

/// [`int_in`] for an optional argument (None: absent).
pub fn opt_int_in(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    range: RangeInclusive<u64>,
) -> PyResult<Option<u64>> {
    value.filter(|v| !v.is_none()).map(|v| int_in(v, name, range)).transpose()
}

/// The number of seconds `value` of the argument `name`: finite and above 0.
pub fn seconds(value: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    let bad = || PyValueError::new_err(format!("{name} must be a number of seconds above 0"));
    if !(value.is_instance_of::<PyFloat>() || value.is_instance_of::<PyInt>())
        || value.is_instance_of::<PyBool>()
    {
        return Err(bad());
    }
    value.extract::<f64>().ok().filter(|t| t.is_finite() && *t > 0.0 && *t <= 1e7).ok_or_else(bad)
}
