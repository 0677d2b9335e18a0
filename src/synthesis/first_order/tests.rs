//! Tests of the first-order method against exact references.
