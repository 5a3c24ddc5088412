//! Drawing boards and runs in the terminal with unicode belts and entities.
