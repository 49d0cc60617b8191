//! The Python subset: lexer → parser → ast → interp.
