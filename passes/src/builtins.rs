//! The builtin catalogue (placeholder; being written).
