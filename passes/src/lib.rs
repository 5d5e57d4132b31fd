//! Semantic passes over the shaderlab IR. Each pass reads the module (and earlier passes' tables) and
//! produces its own side table; see ARCHITECTURE.md. The passes land with the "Semantic passes" issue.
