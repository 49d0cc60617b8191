//! The tensor engine (see DESIGN.md, "The engine").
